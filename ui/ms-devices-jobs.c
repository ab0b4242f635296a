/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-devices-jobs.c: the devices page's two jobs, a sweep on every
 * selected GPU at once and the peer matrix: each an MsJob with its own copy
 * of what it needs, whose "finished" the page follows with
 * g_signal_connect_object (the page may go while a job runs; the job then
 * finishes on its own and frees itself). */
#include <glib/gi18n.h>

#include "ms-devices-page-private.h"
#include "ms-plots.h"
#include "ms-run.h"
#include "ms-runs-library.h"

static void
engine_clear (Engine *engine)
{
  ms_backend_free (engine->backend);
}

Engine *
ms_devices_engine_new (MsBackend *backend, MsDevicesPeerFunc peer_run)
{
  Engine *engine = g_atomic_rc_box_new0 (Engine);
  engine->backend = backend;
  engine->peer_run = peer_run;
  return engine;
}

void
ms_devices_engine_unref (Engine *engine)
{
  g_atomic_rc_box_release_full (engine, (GDestroyNotify) engine_clear);
}

/* ---- the jobs --------------------------------------------------------------- */

static void
job_free (Job *job)
{
  ms_devices_engine_unref (job->engine);
  ms_multi_results_free (job->multi);
  g_clear_pointer (&job->file, ms_peer_file_box_unref);
  g_free (job);
}

static Job *
job_new (MsDevicesPage *self, gboolean peer)
{
  Job *job = g_new0 (Job, 1);
  if (!self->engine)
    self->engine = ms_devices_engine_new (ms_backend_new_system (), ms_peer_run);
  job->engine = g_atomic_rc_box_acquire (self->engine);
  job->peer = peer;
  for (guint i = 0; i < self->checks->len; i++) {
    GtkCheckButton *check = g_ptr_array_index (self->checks, i);
    if (!gtk_check_button_get_active (check))
      continue;
    job->devices[job->n] = ms_devices_page_device_of (check);
    for (guint k = 0; k < self->devices->len; k++)
      if (g_array_index (self->devices, MsDeviceInfo, k).index == job->devices[job->n])
        job->info[job->n] = g_array_index (self->devices, MsDeviceInfo, k);
    job->n++;
  }
  return job;
}

/* Worker threads: the results go into the job's data, handed back as the
 * result (owned by the MsJob as its data). */
static gpointer
multi_thread (MsJob *mj, gpointer data, GError **error)
{
  Job *job = data;
  job->status = ms_multi_run (&job->sweep, job->devices, job->n, job->engine->backend, NULL, NULL,
                              ms_job_get_cancel_flag (mj), &job->multi, job->err,
                              sizeof job->err);
  return job;
}

static gpointer
peer_thread (MsJob *mj, gpointer data, GError **error)
{
  Job *job = data;
  MsPeerResults *r = g_new0 (MsPeerResults, 1);
  job->peer_ok =
    job->engine->peer_run (job->devices, job->n, 4ull << MS_DEVICES_PEER_EXPONENT, MS_DEVICES_PEER_REPS, r);
  if (job->peer_ok) {
    MsPeerFile *file = g_new0 (MsPeerFile, 1);
    ms_peer_file_init (file, r, job->info, MS_DEVICES_PEER_REPS);
    job->file = ms_peer_file_box_new (file);
    g_free (file);
  } else {
    g_snprintf (job->err, sizeof job->err, "%s", r->error);
  }
  g_free (r);
  return job;
}

/* One run per device for the charts, and the devices x sizes matrix. */
static void
multi_done (MsDevicesPage *self, Job *job)
{
  g_autoptr (GPtrArray) runs = ms_run_array_new ();
  for (int i = 0; job->multi && i < job->multi->n_devices; i++) {
    MsResults *r = g_steal_pointer (&job->multi->per_device[i]);
    if (!r)
      continue;
    g_autofree char *label = ms_plot_run_label (r);
    g_snprintf (r->label, sizeof r->label, "%s", label);
    MsRun *run = ms_run_new (r, MS_RUN_KIND_SUMMARY);
    /* Each GPU's sweep is kept in the runs library, as a sweep of one is. */
    ms_runs_library_keep_async (ms_runs_library_get_default (), run);
    g_ptr_array_add (runs, run);
  }
  g_autofree char *text = NULL;
  if (job->status == MS_RUN_OK && job->err[0])
    text = g_strdup_printf (_("%d GPUs ran the sweep at once, not all of it well: %s"), job->n,
                            job->err);
  else if (job->status == MS_RUN_OK)
    text = g_strdup_printf (_("%d GPUs ran the sweep at once; each one's curves are in the "
                              "charts, and the matrix shows them side by side."),
                            job->n);
  else if (job->status == MS_RUN_CANCELLED)
    text = g_strdup (_("Stopped: what ran so far is in the charts."));
  else
    text = g_strdup_printf (_("Not every GPU finished: %s"), job->err);
  ms_devices_page_set_status (self, text);
  ms_devices_page_show_runs (self, runs);
}

static void
on_job_finished (MsJob *mj, MsDevicesPage *self)
{
  Job *job = ms_job_get_result (mj);
  g_autoptr (MsJob) keep = g_steal_pointer (&self->job); /* the job frees its data */
  if (!job->peer) {
    multi_done (self, job);
  } else if (job->peer_ok) {
    ms_devices_page_show_peer (self, job->file);
    g_autofree char *text = g_strdup_printf (_("Peer copies measured between %d GPUs."), job->n);
    ms_devices_page_set_status (self, text);
  } else {
    g_autofree char *text = g_strdup_printf (_("The peer matrix could not run: %s"), job->err);
    ms_devices_page_set_status (self, text);
  }
  ms_devices_page_update (self);
  ms_devices_page_notify_busy (self);
}

static void
start_job (MsDevicesPage *self, Job *job, MsJobFunc func, const char *status)
{
  self->job_is_peer = job->peer;
  self->job = ms_job_new (func, job, (GDestroyNotify) job_free, NULL);
  g_signal_connect_object (self->job, "finished", G_CALLBACK (on_job_finished), self, 0);
  ms_job_start (self->job);
  ms_devices_page_set_status (self, status);
  ms_devices_page_update (self);
  ms_devices_page_notify_busy (self);
}

void
ms_devices_page_run_multi (MsDevicesPage *self)
{
  if (self->job || ms_devices_page_n_selected (self) == 0)
    return;
  Job *job = job_new (self, FALSE);
  ms_sweep_init_default (&job->sweep);
  memset (job->sweep.modes, 0, sizeof job->sweep.modes);
  job->sweep.modes[MS_MODE_PINNED] = true;
  /* The sizes, repetitions and device as the window has them set. */
  char err[256];
  MsSession *session = ms_page_get_session (MS_PAGE (self));
  MsSweep set;
  if (session && ms_session_get_sweep (session, &set, err, sizeof err))
    job->sweep = set;
  if (!ms_sweep_validate (&job->sweep, err, sizeof err)) {
    ms_devices_page_set_status (self, err);
    job_free (job);
    return;
  }
  g_autofree char *text = g_strdup_printf (_("Running the sweep on %d GPUs at once…"), job->n);
  start_job (self, job, multi_thread, text);
}

void
ms_devices_page_run_peer (MsDevicesPage *self)
{
  if (self->job || ms_devices_page_n_selected (self) < 2)
    return;
  Job *job = job_new (self, TRUE);
  g_autofree char *text =
    g_strdup_printf (_("Measuring copies between every pair of %d GPUs…"), job->n);
  start_job (self, job, peer_thread, text);
}

void
ms_devices_page_cancel (MsDevicesPage *self)
{
  g_return_if_fail (MS_IS_DEVICES_PAGE (self));
  if (self->job)
    ms_job_cancel (self->job);
}

void
ms_devices_page_set_engine (MsDevicesPage *self, MsBackend *backend, MsDevicesPeerFunc peer_run)
{
  g_return_if_fail (MS_IS_DEVICES_PAGE (self));
  g_clear_pointer (&self->engine, ms_devices_engine_unref);
  self->engine = ms_devices_engine_new (backend, peer_run ? peer_run : ms_peer_run);
}
