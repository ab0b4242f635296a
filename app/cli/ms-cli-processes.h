/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-cli-processes.h: a compare-grade run's processes (ms-cli-processes.c). */
#pragma once

#include <stdatomic.h>
#include <stdbool.h>

#include "memsweep.h"

/* Runs sweep (processes > 1) as that many processes of memsweep, one after
 * another, and merges their rounds into *out (ms_results_append_process).
 * bar: a line of progress on standard error. A stop (cancel) is passed on
 * to the process running, and what the processes measured is kept
 * (MS_RUN_CANCELLED). MS_RUN_NO_DEVICE with a message when the first
 * process measured nothing. */
MsRunStatus ms_cli_run_processes (const MsSweep *sweep, atomic_int *cancel, bool bar,
                                  MsResults **out, char *err, size_t errlen);
