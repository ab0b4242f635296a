/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-cli-processes.h: a compare-grade run's processes (ms-cli-processes.c). */
#pragma once

#include <stdatomic.h>
#include <stdbool.h>

#include "memsweep.h"

/* How a process of a run ended, for its parent. */
typedef enum {
  MS_CLI_PROCESS_MEASURED,    /* it finished; merged */
  MS_CLI_PROCESS_KEPT,        /* it exited 1 of its own (a failed cell, someone else's
                               * stop): merged and said */
  MS_CLI_PROCESS_STOPPED,     /* stopped by the supervisor, or by its CPU-time limit
                               * (said): what it measured merged; no process after it */
  MS_CLI_PROCESS_LOST,        /* ended from outside, or failed: nothing of it merged */
  MS_CLI_PROCESS_NO_DEVICE,   /* no usable GPU (its exit 3) */
  MS_CLI_PROCESS_NOT_WRITTEN, /* its files could not be written (its exit 4) */
} MsCliProcessEnd;

/* One side of a check in turns (engine/analysis/ms-turns.h). */
typedef struct {
  const MsSweep *sweep;   /* the side's sweep, every mode of it */
  const char *experiment; /* the side's MEMSWEEP_EXPERIMENT, or NULL */
  const char *dir;        /* its processes' folder */
  MsFigure figure;        /* what the turns judge */
} MsCliTurnSide;

/* Side's process of round r (one process of `memsweep run` started by the
 * supervisor, process r of at most MS_MAX_PROCESSES; a message in err
 * unless MEASURED or KEPT): of the modes open[] or also[] (NULL: none;
 * measured, never judged) says, merged into *run; each open mode's value
 * of it added to the turns as side index's, first: whether it went first
 * in its round. */
MsCliProcessEnd ms_cli_run_turn (const MsCliTurnSide *side, int index, int r, bool first,
                                 const bool *open, const bool *also, atomic_int *cancel,
                                 MsResults **run, MsTurns *t, char *err, size_t errlen);
/* Runs sweep (processes > 1) as that many processes of memsweep, one after
 * another, in a private folder of TMPDIR (its path in dir, PATH_MAX; ""
 * when none could be made), and merges their rounds into
 * *out (ms_results_append_process). bar: a line of progress on standard
 * error. A stop is passed on to the process running; what the finished
 * processes measured, and what the stopped one wrote, is kept
 * (MS_RUN_CANCELLED, *out NULL when nothing was measured).
 * MS_RUN_NO_DEVICE when the first process found no usable GPU. *rc: the
 * exit status the end stands for beyond the run's status (EXIT_WRITE
 * when a process could not write, EXIT_RUNTIME when one was lost). */
MsRunStatus ms_cli_run_processes (const MsSweep *sweep, atomic_int *cancel, bool bar,
                                  MsResults **out, int *rc, char *dir, char *err, size_t errlen);
/* The end of the processes' folder dir once the run is written: removed,
 * or, when lost (what was measured could be written nowhere), kept with
 * every process's files and named on standard error. */
void ms_cli_processes_done (const char *dir, bool lost);
/* Whether a process wrote files that could not be read back (too many
 * open files): its folder is kept by ms_cli_processes_done. */
bool ms_cli_processes_unread (void);
/* Whether a process measured and could not write its files in TMPDIR (it
 * said why, and where it kept them or that they are lost). */
bool ms_cli_processes_not_written (void);
