/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-window-sweep.c: running a sweep as an MsJob. The worker gets a copy of
 * the settings; measured cells come back to the main context one by one
 * into the session's live run, and the window may close at any point
 * meanwhile. */
#include <glib/gi18n.h>
#include <math.h>

#include "ms-eta.h"
#include "ms-run.h"
#include "ms-runs-library.h"
#include "ms-window-private.h"

/* The cells go into run (the session's live run) even after the window has
 * gone; it is kept in the runs library at the end, and the application is
 * held until then so that quitting never drops it. */
typedef struct {
  MsSweep sweep;
  MsJob *job; /* not held: the job owns this */
  MsRun *run;
  GApplication *app;
} SweepWork;

static void
sweep_work_free (gpointer data)
{
  SweepWork *work = data;
  g_clear_object (&work->run);
  g_free (work);
}

typedef struct {
  MsCell cell;
  int index, n;
} CellUpdate;

static void
cell_update_free (gpointer data)
{
  CellUpdate *u = data;
  ms_cell_clear (&u->cell);
  g_free (u);
}

/* Runs on the worker thread: copy the cell, hand it to the main context. */
static void
on_progress (int index, int n, const MsCell *cell, void *user_data)
{
  SweepWork *work = user_data;
  CellUpdate *u = g_new0 (CellUpdate, 1);
  if (!ms_cell_copy (&u->cell, cell)) {
    g_free (u);
    return;
  }
  u->index = index;
  u->n = n;
  ms_job_post_progress (work->job, (index + 1.0) / n, u, cell_update_free);
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

static gpointer
sweep_thread (MsJob *job, gpointer data, GError **error)
{
  SweepWork *work = data;
  SweepOutcome *o = g_new0 (SweepOutcome, 1);
  MsBackend *backend = ms_backend_new_system ();
  o->status = ms_sweep_run (&work->sweep, backend, on_progress, work, ms_job_get_cancel_flag (job),
                            &o->results, o->error, sizeof o->error);
  ms_backend_free (backend);
  /* As `memsweep run` does: this GPU's run-to-run profile, when calibrated. */
  char path[4096];
  if (o->results)
    ms_run_to_run_load_default (&o->results->run_to_run, &o->results->device, path, sizeof path);
  return o;
}

static void
on_cell_measured (MsWindow *self, double fraction, gpointer detail, MsJob *job)
{
  CellUpdate *u = detail;
  MsRun *live = ms_session_get_live_run (self->session);
  if (!live)
    return;
  gint64 now = g_get_monotonic_time ();
  ms_eta_add (self->eta, u->index, &u->cell, (now - self->cell_started_us) * 1e-6);
  self->cell_started_us = now;
  g_autofree char *left = ms_eta_format (ms_eta_seconds_left (self->eta));
  g_autofree char *text =
    g_strdup_printf (_("cell %d of %d: %s at 2^%d · %s"), u->index + 1, u->n,
                     ms_mode_title (u->cell.mode), u->cell.exponent, left);
  gtk_progress_bar_set_fraction (self->progress_bar, fraction);
  gtk_progress_bar_set_text (self->progress_bar, text);
}

/* Connected before the window's handler and without it: the cell reaches
 * the run whether or not the window is still there (the pages follow the
 * run's cells-changed). */
static void
keep_cell (MsJob *job, double fraction, gpointer detail, SweepWork *work)
{
  CellUpdate *u = detail;
  /* Later rounds bring the same cell again, with more repetitions. */
  ms_run_put_cell (work->run, &u->cell);
}

/* After the window's handler: what was measured is kept, finished, stopped
 * or with the window gone, and only then may the application quit. */
static void
keep_run (MsJob *job, SweepWork *work)
{
  const SweepOutcome *o = ms_job_get_result (job);
  MsResults *results = ms_run_get_results (work->run);
  if (o && o->results) {
    results->device = o->results->device;
    results->run_to_run = o->results->run_to_run;
  }
  if (results->n_cells)
    ms_runs_library_keep_async (ms_runs_library_get_default (), work->run);
  if (work->app)
    g_application_release (g_steal_pointer (&work->app));
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
  MsRun *live_run = ms_session_get_live_run (self->session);
  const MsResults *live = live_run ? ms_run_get_results (live_run) : NULL;
  guint bad = 0;
  for (size_t i = 0; live && i < live->n_cells; i++)
    bad += live->cells[i].status == MS_CELL_FAILED ||
           live->cells[i].status == MS_CELL_VERIFY_FAILED;
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
on_sweep_finished (MsWindow *self, MsJob *job)
{
  if (self->job != job)
    return;
  g_autoptr (MsJob) done = g_steal_pointer (&self->job);
  const SweepOutcome *o = ms_job_get_result (done);
  gtk_revealer_set_reveal_child (self->progress_revealer, FALSE);
  g_clear_pointer (&self->eta, ms_eta_free);
  set_planned_range (self, -1, -1);
  MsRun *live = ms_session_get_live_run (self->session);
  if (o && live && o->results) {
    /* The worker's copy has the device facts and the profile; the cells
     * came live. */
    ms_run_get_results (live)->device = o->results->device;
    ms_run_get_results (live)->run_to_run = o->results->run_to_run;
    ms_run_cells_changed (live);
  }
  ms_session_set_sweeping (self->session, FALSE);
  ms_window_library_sweep_ended (self);
  if (o)
    toast_outcome (self, o);
  ms_window_update_actions (self);
  g_object_notify (G_OBJECT (self), "sweeping");
}

void
ms_window_start_sweep (MsWindow *self)
{
  MsSweep s;
  char err[256];
  if (self->job)
    return;
  if (!ms_session_get_sweep (self->session, &s, err, sizeof err)) {
    ms_window_toast (self, err);
    return;
  }
  MsDeviceInfo info = { 0 };
  GArray *devices = ms_session_get_devices (self->session);
  if (s.device >= 0 && devices && (guint) s.device < devices->len)
    info = g_array_index (devices, MsDeviceInfo, s.device);
  g_clear_pointer (&self->eta, ms_eta_free);
  self->eta = ms_eta_new (&s);
  set_planned_range (self, s.min_exp, s.max_exp);

  /* Every sweep is a run of its own, kept with the others until closed. */
  g_autoptr (MsRun) live = ms_run_new (ms_results_new (&s, &info), MS_RUN_KIND_SWEEP);
  SweepWork *work = g_new0 (SweepWork, 1);
  work->sweep = s;
  work->run = g_object_ref (live);
  if ((work->app = g_application_get_default ()))
    g_application_hold (work->app);
  self->job = ms_job_new (sweep_thread, work, sweep_work_free, sweep_outcome_free);
  work->job = self->job;
  g_signal_connect (self->job, "progress", G_CALLBACK (keep_cell), work);
  g_signal_connect_object (self->job, "progress", G_CALLBACK (on_cell_measured), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->job, "finished", G_CALLBACK (on_sweep_finished), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect (self->job, "finished", G_CALLBACK (keep_run), work);
  self->cell_started_us = g_get_monotonic_time ();
  gtk_progress_bar_set_fraction (self->progress_bar, 0);
  gtk_progress_bar_set_text (self->progress_bar, _("Starting…"));
  gtk_revealer_set_reveal_child (self->progress_revealer, TRUE);

  ms_session_set_sweeping (self->session, TRUE);
  ms_session_add_sweep (self->session, live);
  ms_job_start (self->job);
  ms_window_update_actions (self);
  g_object_notify (G_OBJECT (self), "sweeping");
}

void
ms_window_sweep_cancel (MsWindow *self)
{
  /* The worker finishes its current repetition and frees everything. */
  if (self->job)
    ms_job_cancel (self->job);
}

gboolean
ms_window_is_sweeping (MsWindow *self)
{
  return self->job != NULL;
}
