/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-sweep-job.c: running a sweep as an MsJob. The worker gets a copy of
 * the sweep; measured cells come back to the main context one by one into
 * the run, whoever follows the job. */
#include "ms-sweep-job.h"

#include "ms-engine.h"
#include "ms-runs-library.h"

/* The cells go into run even after the session has gone; it is kept in
 * the runs library at the end, and the application is held until then so
 * that quitting never drops it. */
typedef struct {
  MsSweep sweep;
  MsJob *job; /* not held: the job owns this */
  MsRun *run;
  MsJobEngine *engine;
  GApplication *app;
} SweepWork;

static void
sweep_work_free (gpointer data)
{
  SweepWork *work = data;
  g_clear_object (&work->run);
  g_clear_pointer (&work->engine, ms_job_engine_unref);
  g_free (work);
}

static void
cell_free (gpointer data)
{
  MsSweepJobCell *u = data;
  ms_cell_clear (&u->cell);
  g_free (u);
}

/* Runs on the worker thread: copy the cell, hand it to the main context. */
static void
on_progress (int index, int n, const MsCell *cell, void *user_data)
{
  SweepWork *work = user_data;
  MsSweepJobCell *u = g_new0 (MsSweepJobCell, 1);
  if (!ms_cell_copy (&u->cell, cell)) {
    g_free (u);
    return;
  }
  u->index = index;
  u->n = n;
  ms_job_post_progress (work->job, (index + 1.0) / n, u, cell_free);
}

static void
outcome_free (gpointer data)
{
  MsSweepJobOutcome *o = data;
  ms_results_free (o->results);
  g_free (o);
}

static gpointer
sweep_thread (MsJob *job, gpointer data, GError **error)
{
  SweepWork *work = data;
  MsSweepJobOutcome *o = g_new0 (MsSweepJobOutcome, 1);
  MsBackend *backend = ms_job_engine_open (work->engine);
  o->status = ms_sweep_run (&work->sweep, backend, on_progress, work, ms_job_get_cancel_flag (job),
                            &o->results, o->error, sizeof o->error);
  ms_job_engine_close (work->engine, backend);
  /* As `memsweep run` does: this GPU's run-to-run profile, when calibrated. */
  char path[4096];
  if (o->results)
    ms_run_to_run_load_default (&o->results->run_to_run, &o->results->device, path, sizeof path);
  return o;
}

/* Connected first: the cell reaches the run whoever follows the job (the
 * pages follow the run's cells-changed). */
static void
keep_cell (MsJob *job, double fraction, gpointer detail, SweepWork *work)
{
  MsSweepJobCell *u = detail;
  /* Later rounds bring the same cell again, with more repetitions. */
  ms_run_put_cell (work->run, &u->cell);
}

/* Connected first too: whoever follows the job's end finds the run
 * complete. */
static void
complete_run (MsJob *job, SweepWork *work)
{
  const MsSweepJobOutcome *o = ms_job_get_result (job);
  if (!o || !o->results)
    return;
  /* The worker's copy has the device facts and the profile; the cells
   * came live. */
  MsResults *results = ms_run_get_results (work->run);
  results->device = o->results->device;
  results->run_to_run = o->results->run_to_run;
  ms_run_cells_changed (work->run);
}

/* After everyone else: what was measured is kept, finished, stopped or
 * with the session gone, and only then may the application quit. (Last,
 * so that a failure to keep it is said after the sweep's end.) */
static void
keep_run (MsJob *job, SweepWork *work)
{
  MsResults *results = ms_run_get_results (work->run);
  if (results->n_cells)
    ms_runs_library_keep_async (ms_runs_library_get_default (), work->run);
  if (work->app)
    g_application_release (g_steal_pointer (&work->app));
}

MsJob *
ms_sweep_job_new (const MsSweep *sweep, MsRun *run, MsJobEngine *engine)
{
  g_return_val_if_fail (sweep && MS_IS_RUN (run), NULL);
  SweepWork *work = g_new0 (SweepWork, 1);
  work->sweep = *sweep;
  work->run = g_object_ref (run);
  work->engine = engine ? ms_job_engine_ref (engine) : NULL;
  if ((work->app = g_application_get_default ()))
    g_application_hold (work->app);
  MsJob *job = ms_job_new (sweep_thread, work, sweep_work_free, outcome_free);
  work->job = job;
  g_signal_connect (job, "progress", G_CALLBACK (keep_cell), work);
  g_signal_connect (job, "finished", G_CALLBACK (complete_run), work);
  g_signal_connect_after (job, "finished", G_CALLBACK (keep_run), work);
  return job;
}
