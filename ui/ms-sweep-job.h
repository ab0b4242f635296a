/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-sweep-job.h: a sweep as an MsJob. The worker gets a copy of the
 * sweep; each measured cell goes into the run in the main context (before
 * the "progress" handlers), at the end the run takes the device's facts
 * and the run-to-run profile (before the "finished" handlers) and, after
 * them, is kept in the runs library, the application held until then:
 * whoever started the job (the session) may go away at any point. */
#pragma once

#include "ms-job-engine.h"
#include "ms-job.h"
#include "ms-run.h"

G_BEGIN_DECLS

/* The "progress" signal's detail: the cell measured, index of n. */
typedef struct {
  MsCell cell;
  int index, n;
} MsSweepJobCell;

/* The job's result, after "finished". */
typedef struct {
  MsRunStatus status;
  MsResults *results; /* the worker's copy: the device and the profile */
  char error[512];
} MsSweepJobOutcome;

/* Not started: connect to it, then ms_job_start. engine may be NULL. */
MsJob *ms_sweep_job_new (const MsSweep *sweep, MsRun *run, MsJobEngine *engine);

G_END_DECLS
