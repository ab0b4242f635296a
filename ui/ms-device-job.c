/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-device-job.c: a sweep on several GPUs at once and the peer matrix,
 * each an MsJob whose data is the worker's own copy and its outcome (the
 * job frees it when it goes). */
#include "ms-device-job.h"

#include "ms-matrix-view.h"
#include "ms-drawing.h"
#include "ms-run.h"
#include "ms-runs-library.h"

typedef struct {
  MsDeviceJobOutcome out; /* first: the job's result points here */
  MsJobEngine *engine;
  MsSweep sweep;
  int devices[MS_MULTI_MAX_DEVICES];
  MsDeviceInfo info[MS_MULTI_MAX_DEVICES];
  MsMultiResults *multi; /* filled on the worker */
} Job;

static void
job_free (Job *job)
{
  ms_job_engine_unref (job->engine);
  ms_multi_results_free (job->multi);
  g_clear_pointer (&job->out.runs, g_ptr_array_unref);
  g_clear_pointer (&job->out.file, ms_peer_file_box_unref);
  g_free (job);
}

/* Worker threads: the results go into the job's data, handed back as the
 * result (owned by the MsJob as its data). */
static gpointer
multi_thread (MsJob *mj, gpointer data, GError **error)
{
  Job *job = data;
  MsBackend *backend = ms_job_engine_open (job->engine);
  job->out.status = ms_multi_run (&job->sweep, job->devices, job->out.n, backend, NULL, NULL,
                                  ms_job_get_cancel_flag (mj), &job->multi, job->out.err,
                                  sizeof job->out.err);
  ms_job_engine_close (job->engine, backend);
  return job;
}

static gpointer
peer_thread (MsJob *mj, gpointer data, GError **error)
{
  Job *job = data;
  MsPeerResults *r = g_new0 (MsPeerResults, 1);
  MsDevicesPeerFunc peer_run = ms_job_engine_get_peer_run (job->engine);
  job->out.peer_ok = peer_run (job->devices, job->out.n,
                               ms_exponent_bytes (MS_DEVICES_PEER_EXPONENT), MS_DEVICES_PEER_REPS, r);
  if (job->out.peer_ok) {
    MsPeerFile *file = g_new0 (MsPeerFile, 1);
    ms_peer_file_init (file, r, job->info, MS_DEVICES_PEER_REPS);
    job->out.file = ms_peer_file_box_new (file);
    g_free (file);
  } else {
    g_snprintf (job->out.err, sizeof job->out.err, "%s", r->error);
  }
  g_free (r);
  return job;
}

/* Connected first: one run per GPU for the charts, each kept in the runs
 * library as a sweep of one is, whoever follows the job. */
static void
keep_runs (MsJob *mj, Job *job)
{
  if (job->out.kind != MS_DEVICE_JOB_MULTI)
    return;
  job->out.runs = ms_run_array_new ();
  for (int i = 0; job->multi && i < job->multi->n_devices; i++) {
    MsResults *r = g_steal_pointer (&job->multi->per_device[i]);
    if (!r)
      continue;
    g_autofree char *label = ms_plot_run_label (r);
    g_snprintf (r->label, sizeof r->label, "%s", label);
    MsRun *run = ms_run_new (r, MS_RUN_KIND_SUMMARY);
    ms_runs_library_keep_async (ms_runs_library_get_default (), run);
    g_ptr_array_add (job->out.runs, run);
  }
}

MsJob *
ms_device_job_new (MsDeviceJobKind kind, MsJobEngine *engine, const MsSweep *sweep,
                   const int *devices, const MsDeviceInfo *info, int n)
{
  g_return_val_if_fail (kind != MS_DEVICE_JOB_NONE && engine, NULL);
  g_return_val_if_fail (n > 0 && n <= MS_MULTI_MAX_DEVICES, NULL);
  g_return_val_if_fail (kind == MS_DEVICE_JOB_PEER || sweep, NULL);
  Job *job = g_new0 (Job, 1);
  job->out.kind = kind;
  job->out.n = n;
  job->engine = ms_job_engine_ref (engine);
  if (sweep)
    job->sweep = *sweep;
  memcpy (job->devices, devices, n * sizeof *devices);
  memcpy (job->info, info, n * sizeof *info);
  MsJob *mj = ms_job_new (kind == MS_DEVICE_JOB_PEER ? peer_thread : multi_thread, job,
                          (GDestroyNotify) job_free, NULL);
  g_signal_connect (mj, "finished", G_CALLBACK (keep_runs), job);
  return mj;
}
