/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-job-engine.h: what the session's jobs measure with. By default each
 * sweep and lesson makes the system's backend (CUDA, or the host alone)
 * on its worker and frees it there; a test sets one backend (the test
 * backend and its fake GPUs) and a peer function that every job shares.
 * Reference-counted: a job keeps its engine after the session has gone. */
#pragma once

#include <glib.h>

#include "memsweep.h"
#include "ms-engine.h"

G_BEGIN_DECLS

/* ms_peer_run's signature, so that tests can measure without GPUs. */
typedef bool (*MsDevicesPeerFunc) (const int *devices, int n_devices, uint64_t bytes, int reps,
                                   MsPeerResults *results);

typedef struct _MsJobEngine MsJobEngine;

/* Takes backend; NULL: the system's, one per job. NULL peer_run: ms_peer_run. */
MsJobEngine *ms_job_engine_new (MsBackend *backend, MsDevicesPeerFunc peer_run);
MsJobEngine *ms_job_engine_ref (MsJobEngine *engine);
void ms_job_engine_unref (MsJobEngine *engine);
/* Worker thread: the backend to measure with (engine may be NULL); hand
 * it back with ms_job_engine_close. */
MsBackend *ms_job_engine_open (MsJobEngine *engine);
void ms_job_engine_close (MsJobEngine *engine, MsBackend *backend);
MsDevicesPeerFunc ms_job_engine_get_peer_run (MsJobEngine *engine);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (MsJobEngine, ms_job_engine_unref)

G_END_DECLS
