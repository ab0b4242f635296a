/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-host-mem.h: malloc'd host buffers (pageable, registered, host mode),
 * optionally backed by transparent huge pages, and the host's memory as
 * /proc/meminfo gives it. Plain C, always built. */
#pragma once

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* malloc, or with hugepages and at least one huge page's worth of bytes,
 * memory aligned to 2 MiB and advised MADV_HUGEPAGE (what the kernel does
 * with the advice depends on /sys/kernel/mm/transparent_hugepage). Free
 * with free (). NULL when out of memory. */
void *ms_host_alloc (size_t bytes, int hugepages);
/* A /proc/meminfo line ("MemAvailable:", "MemTotal:") in bytes, or 0 when
 * it does not say. */
unsigned long long ms_host_meminfo (const char *key);

#ifdef __cplusplus
}
#endif
