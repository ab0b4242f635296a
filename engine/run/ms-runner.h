/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-runner.h: a sweep run on the calling thread, with progress and a
 * cancel flag. Defined in ms-runner.c. */
#pragma once

#include <stdatomic.h>
#include <stddef.h>

#include "memsweep.h"

/* Runs the sweep synchronously on the calling thread. *out receives the
 * results (also partial ones on cancel) unless the sweep is invalid. The
 * cancel flag may be set from any thread; the current run stops at its next
 * phase boundary and frees what it allocated. A cell stopped that way keeps
 * the repetitions it finished (MS_CELL_PARTIAL), or none (MS_CELL_CANCELLED). */
MsRunStatus ms_sweep_run (const MsSweep *sweep, MsBackend *backend, MsProgressFunc progress,
                          void *user_data, atomic_int *cancel, MsResults **out, char *err,
                          size_t errlen);
