/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-job-engine.c: the backend and peer function shared by jobs. */
#include "ms-engine.h"
#include "ms-job-engine.h"

struct _MsJobEngine {
  MsBackend *backend; /* NULL: the system's, made per job */
  MsDevicesPeerFunc peer_run;
};

static void
engine_clear (MsJobEngine *engine)
{
  if (engine->backend)
    ms_backend_free (engine->backend);
}

MsJobEngine *
ms_job_engine_new (MsBackend *backend, MsDevicesPeerFunc peer_run)
{
  MsJobEngine *engine = g_atomic_rc_box_new0 (MsJobEngine);
  engine->backend = backend;
  engine->peer_run = peer_run ? peer_run : ms_peer_run;
  return engine;
}

MsJobEngine *
ms_job_engine_ref (MsJobEngine *engine)
{
  return g_atomic_rc_box_acquire (engine);
}

void
ms_job_engine_unref (MsJobEngine *engine)
{
  g_atomic_rc_box_release_full (engine, (GDestroyNotify) engine_clear);
}

MsBackend *
ms_job_engine_open (MsJobEngine *engine)
{
  return engine && engine->backend ? engine->backend : ms_backend_new_system ();
}

void
ms_job_engine_close (MsJobEngine *engine, MsBackend *backend)
{
  if (!engine || backend != engine->backend)
    ms_backend_free (backend);
}

MsDevicesPeerFunc
ms_job_engine_get_peer_run (MsJobEngine *engine)
{
  return engine ? engine->peer_run : ms_peer_run;
}
