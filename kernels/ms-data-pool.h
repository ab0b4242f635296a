/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-data-pool.h: the helper threads that fill and verify split their
 * work over, started once per measuring thread and parked between calls
 * (ms-data-pool.c). Private to ms-data.c. */
#pragma once

#include <stdbool.h>
#include <stddef.h>

/* The most threads one call uses, the caller's own included. */
#define MS_DATA_POOL_MAX 16

/* Runs fn (item i) for i in [0, n): item 0 on the calling thread, the
 * others on the calling thread's helpers, and returns when all are done.
 * Helpers that cannot be started leave their items to the caller. */
void ms_data_pool_run (void *(*fn) (void *), void *items, size_t item_size, int n);

/* The threads a call may use on the calling thread's CPUs: its helpers'
 * CPUs and its own, or the CPUs it may run on itself (at most
 * MS_DATA_POOL_MAX). */
int ms_data_pool_width (void);

/* The CPUs the calling thread's helpers may run on from now on (a
 * cpu_set_t of size bytes, best without the caller's own CPU; NULL: the
 * calling thread's own affinity). */
void ms_data_pool_set_cpus (const void *cpu_set, size_t size);
