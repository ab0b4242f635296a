/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-window-sweep.c: running a sweep on a worker thread. The worker gets a
 * copy of the settings; measured cells come back to the main context one
 * by one, and the window may close at any point meanwhile. */
#include <glib/gi18n.h>
#include <math.h>

#include "ms-eta.h"
#include "ms-run.h"
#include "ms-runs-library.h"
#include "ms-window-private.h"

struct _MsSweepJob {
  gatomicrefcount ref;
  MsSweep sweep;
  atomic_int cancel;
  GWeakRef window;
  GMainContext *context;
  /* The cells go into run (the window's live run) even after the window has
   * gone; it is kept in the runs library at the end, and the application is
   * held until then so that quitting never drops it. */
  MsResults *run;
  GApplication *app;
};

static MsSweepJob *
sweep_job_ref (MsSweepJob *job)
{
  g_atomic_ref_count_inc (&job->ref);
  return job;
}

static void
sweep_job_unref (MsSweepJob *job)
{
  if (g_atomic_ref_count_dec (&job->ref)) {
    g_weak_ref_clear (&job->window);
    g_main_context_unref (job->context);
    ms_run_unref (job->run);
    g_free (job);
  }
}

typedef struct {
  MsSweepJob *job;
  MsCell cell;
  int index, n;
} CellUpdate;

static gboolean
on_cell_measured (gpointer data)
{
  CellUpdate *u = data;
  g_autoptr (MsWindow) self = g_weak_ref_get (&u->job->window);
  /* Later rounds bring the same cell again, with more repetitions. */
  ms_results_put_cell (u->job->run, &u->cell);
  if (self && self->job == u->job && self->live) {
    double frac = (u->index + 1.0) / u->n;
    gint64 now = g_get_monotonic_time ();
    ms_eta_add (self->eta, u->index, &u->cell, (now - self->cell_started_us) * 1e-6);
    self->cell_started_us = now;
    g_autofree char *left = ms_eta_format (ms_eta_seconds_left (self->eta));
    g_autofree char *text = g_strdup_printf (_("cell %d of %d: %s at 2^%d · %s"), u->index + 1,
                                             u->n, ms_mode_title (u->cell.mode),
                                             u->cell.exponent, left);
    gtk_progress_bar_set_fraction (self->progress_bar, frac);
    gtk_progress_bar_set_text (self->progress_bar, text);
    ms_window_refresh_views (self);
  }
  return G_SOURCE_REMOVE;
}

static void
cell_update_free (gpointer data)
{
  CellUpdate *u = data;
  ms_cell_clear (&u->cell);
  sweep_job_unref (u->job);
  g_free (u);
}

/* Runs on the worker thread: copy the cell, hand it to the main context. */
static void
on_progress (int index, int n, const MsCell *cell, void *user_data)
{
  MsSweepJob *job = user_data;
  CellUpdate *u = g_new0 (CellUpdate, 1);
  if (!ms_cell_copy (&u->cell, cell)) {
    g_free (u);
    return;
  }
  u->job = sweep_job_ref (job);
  u->index = index;
  u->n = n;
  g_main_context_invoke_full (job->context, G_PRIORITY_DEFAULT, on_cell_measured, u,
                              cell_update_free);
}

typedef struct {
  MsRunStatus status;
  MsResults *results;
  char error[512];
} SweepOutcome;

static void
sweep_outcome_free (gpointer data)
{
  SweepOutcome *o = data;
  ms_results_free (o->results);
  g_free (o);
}

static void
sweep_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  MsSweepJob *job = task_data;
  SweepOutcome *o = g_new0 (SweepOutcome, 1);
  MsBackend *backend = ms_backend_new_system ();
  o->status = ms_sweep_run (&job->sweep, backend, on_progress, job, &job->cancel, &o->results,
                            o->error, sizeof o->error);
  ms_backend_free (backend);
  /* As `memsweep run` does: this GPU's run-to-run profile, when calibrated. */
  char path[4096];
  if (o->results)
    ms_run_to_run_load_default (&o->results->run_to_run, &o->results->device, path, sizeof path);
  g_task_return_pointer (task, o, sweep_outcome_free);
}

static void
toast_outcome (MsWindow *self, const SweepOutcome *o)
{
  if (o->status == MS_RUN_CANCELLED) {
    ms_window_toast (self, _("Sweep stopped; the cells measured so far are kept"));
    return;
  }
  if (o->status != MS_RUN_OK) {
    ms_window_toast (self, o->error);
    return;
  }
  guint bad = 0;
  for (size_t i = 0; self->live && i < self->live->n_cells; i++)
    bad += self->live->cells[i].status == MS_CELL_FAILED ||
           self->live->cells[i].status == MS_CELL_VERIFY_FAILED;
  if (bad) {
    g_autofree char *msg = g_strdup_printf (
      ngettext ("Sweep finished; %u cell failed (see the table)",
                "Sweep finished; %u cells failed (see the table)", bad),
      bad);
    ms_window_toast (self, msg);
  } else {
    ms_window_toast (self, _("Sweep finished"));
  }
}

/* The charts' x axis spans the sweep's planned sizes from the first cell,
 * so points do not move as sizes arrive (-1, -1: back to the data). */
static void
set_planned_range (MsWindow *self, int min_exp, int max_exp)
{
  MsChartPage *pages[] = { self->bandwidth_page, self->time_page };
  for (guint i = 0; i < G_N_ELEMENTS (pages); i++)
    ms_plot_view_set_planned_range (ms_chart_page_get_view (pages[i]), min_exp, max_exp);
}

static void
sweep_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  MsSweepJob *job = user_data;
  SweepOutcome *o = g_task_propagate_pointer (G_TASK (result), NULL);
  g_autoptr (MsWindow) self = g_weak_ref_get (&job->window);
  if (self && self->job == job) {
    self->job = NULL;
    gtk_revealer_set_reveal_child (self->progress_revealer, FALSE);
    g_clear_pointer (&self->eta, ms_eta_free);
    set_planned_range (self, -1, -1);
    if (o && self->live && o->results) {
      /* The worker's copy has the device facts and the profile; the cells
       * came live. */
      self->live->device = o->results->device;
      self->live->run_to_run = o->results->run_to_run;
    }
    if (o)
      toast_outcome (self, o);
    ms_window_refresh_views (self);
    g_object_notify (G_OBJECT (self), "sweeping");
  }
  /* What was measured is kept, finished, stopped or with the window gone. */
  if (job->run->n_cells)
    ms_runs_library_keep_async (ms_runs_library_get_default (), job->run);
  if (self)
    ms_window_library_sweep_ended (self);
  if (job->app)
    g_application_release (job->app);
  if (o)
    sweep_outcome_free (o);
  sweep_job_unref (job);
}

void
ms_window_start_sweep (MsWindow *self)
{
  MsSweep s;
  char err[256];
  if (self->job)
    return;
  if (!ms_window_get_sweep (self, &s, err, sizeof err)) {
    ms_window_toast (self, err);
    return;
  }
  MsDeviceInfo info = { 0 };
  if (s.device >= 0 && self->devices && (guint) s.device < self->devices->len)
    info = g_array_index (self->devices, MsDeviceInfo, s.device);
  /* Every sweep is a run of its own, kept with the others until closed. */
  self->live = ms_run_new (ms_results_new (&s, &info));
  ms_window_name_sweep (self, self->live);
  g_ptr_array_add (self->runs, self->live);
  g_clear_pointer (&self->eta, ms_eta_free);
  self->eta = ms_eta_new (&s);
  set_planned_range (self, s.min_exp, s.max_exp);

  MsSweepJob *job = g_new0 (MsSweepJob, 1);
  g_atomic_ref_count_init (&job->ref);
  job->sweep = s;
  g_weak_ref_init (&job->window, self);
  job->context = g_main_context_ref_thread_default ();
  job->run = ms_run_ref (self->live);
  if ((job->app = g_application_get_default ()))
    g_application_hold (job->app);
  self->cell_started_us = g_get_monotonic_time ();
  gtk_progress_bar_set_fraction (self->progress_bar, 0);
  gtk_progress_bar_set_text (self->progress_bar, _("Starting…"));
  gtk_revealer_set_reveal_child (self->progress_revealer, TRUE);

  GTask *task = g_task_new (NULL, NULL, sweep_done, sweep_job_ref (job));
  g_task_set_task_data (task, sweep_job_ref (job), (GDestroyNotify) sweep_job_unref);
  g_task_run_in_thread (task, sweep_thread);
  g_object_unref (task);
  sweep_job_unref (job); /* the window's pointer is borrowed from the task */
  self->job = job;
  ms_window_refresh_views (self);
  g_object_notify (G_OBJECT (self), "sweeping");
}

void
ms_window_sweep_cancel (MsWindow *self)
{
  /* The worker finishes its current repetition and frees everything. */
  if (self->job)
    atomic_store (&self->job->cancel, 1);
}

gboolean
ms_window_is_sweeping (MsWindow *self)
{
  return self->job != NULL;
}
