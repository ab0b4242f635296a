/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-cli-processes.h: a compare-grade run's processes (ms-cli-processes.c). */
#pragma once

#include <stdatomic.h>
#include <stdbool.h>

#include "memsweep.h"

/* One process of sweep (as one process of `memsweep run`), with the
 * experiment switch MEMSWEEP_EXPERIMENT set to experiment unless NULL,
 * its files in dir as pP, read back and merged into *merged as process P
 * (the first one read becomes *merged); of: how many processes the
 * message counts. false with a message when it measured nothing. */
bool ms_cli_run_process (const MsSweep *sweep, const char *experiment, const char *dir, int p,
                         int of, atomic_int *cancel, MsResults **merged, char *err,
                         size_t errlen);
/* Runs sweep (processes > 1) as that many processes of memsweep, one after
 * another, and merges their rounds into *out (ms_results_append_process).
 * bar: a line of progress on standard error. A stop (cancel) is passed on
 * to the process running, and what the processes measured is kept
 * (MS_RUN_CANCELLED). MS_RUN_NO_DEVICE with a message when the first
 * process measured nothing. */
MsRunStatus ms_cli_run_processes (const MsSweep *sweep, atomic_int *cancel, bool bar,
                                  MsResults **out, char *err, size_t errlen);
