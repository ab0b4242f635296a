/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-device-job.h: the jobs beyond one GPU, as MsJobs: a sweep on several
 * GPUs at once (engine/run/ms-multi.c) and the peer matrix
 * (engine/run/ms-peer.c). Each worker has its own copy of what it
 * needs; a finished sweep's runs, one per GPU, are kept in the runs
 * library whoever follows the job. */
#pragma once

#include "ms-job-engine.h"
#include "ms-job.h"
#include "ms-engine.h"

G_BEGIN_DECLS

#define MS_DEVICES_PEER_EXPONENT 26 /* 256 MiB copies, as `memsweep peer` by default */
#define MS_DEVICES_PEER_REPS 11

typedef enum {
  MS_DEVICE_JOB_NONE,
  MS_DEVICE_JOB_MULTI, /* the sweep on every GPU given, at once */
  MS_DEVICE_JOB_PEER,  /* copies between every pair of them */
} MsDeviceJobKind;

/* The job's result, after "finished". */
typedef struct {
  MsDeviceJobKind kind;
  int n;              /* the GPUs it ran on */
  MsRunStatus status; /* the sweep's */
  GPtrArray *runs;    /* the sweep's: an MsRun per GPU that measured */
  gboolean peer_ok;
  MsPeerFile *file; /* the peer matrix, when peer_ok */
  char err[512];
} MsDeviceJobOutcome;

/* Not started: connect to it, then ms_job_start. sweep: the multi sweep's
 * (NULL for the peer matrix); devices and info: n GPUs, by CUDA index. */
MsJob *ms_device_job_new (MsDeviceJobKind kind, MsJobEngine *engine, const MsSweep *sweep,
                          const int *devices, const MsDeviceInfo *info, int n);

G_END_DECLS
