/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-session.c: the runs, the live sweep, the devices and the selection of
 * one window, as properties the pages follow; and the work that measures
 * (ms-sweep-job.c, ms-lesson-job.c, ms-device-job.c), started, followed
 * and stopped here. */
#include "ms-session.h"

#include <glib/gi18n.h>
#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>

#include "ms-eta.h"
#include "ms-props.h"
#include "ms-lesson-job.h"
#include "ms-live-job.h"
#include "ms-runs-library.h"
#include "ms-sweep-job.h"
#include "ms-engine.h"

struct _MsSession {
  GObject parent_instance;
  GListStore *runs; /* MsRun */
  MsRun *live;      /* held by runs too; NULL once closed */
  gboolean sweeping;
  GArray *devices; /* MsDeviceInfo; NULL while discovering */
  int device;
  MsSweepSettings *sweep_settings;
  MsRun *selected_run;
  guint n_sweeps; /* sweeps started, for their names */

  /* The work; every job goes on to its end (its run kept) without the
   * session, which follows it with g_signal_connect_object. */
  MsJobEngine *engine;        /* a test's backend; NULL: the system's */
  MsJobEngine *device_engine; /* the system's, kept between device jobs */
  MsJob *sweep_job;
  MsEta *eta;
  gint64 cell_started_us; /* when the cell now measured began */
  double progress;
  char *progress_text;
  MsLessonJob *lessons[MS_TOPIC_COUNT]; /* borrowed until their end */
  MsJob *device_job;
  MsDeviceJobKind device_job_kind;
  MsLiveJob *live_job; /* borrowed until its end */
  gboolean busy;
};

G_DEFINE_FINAL_TYPE (MsSession, ms_session, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_RUNS,
  PROP_N_RUNS,
  PROP_LIVE_RUN,
  PROP_SWEEPING,
  PROP_DEVICES,
  PROP_DISCOVERING,
  PROP_HAVE_GPU,
  PROP_DEVICE,
  PROP_SWEEP_SETTINGS,
  PROP_SELECTED_RUN,
  PROP_BUSY,
  PROP_PROGRESS,
  PROP_PROGRESS_TEXT,
  PROP_DEVICE_JOB,
  N_PROPS
};
static GParamSpec *props[N_PROPS];

enum {
  SIGNAL_SWEEP_ENDED,
  SIGNAL_LESSON_PROGRESS,
  SIGNAL_LESSON_FINISHED,
  SIGNAL_DEVICE_JOB_FINISHED,
  SIGNAL_LIVE_COMPARE_FINISHED,
  N_SIGNALS
};
static guint signals[N_SIGNALS];

/* What the session has, told when asked; what it does, told as it changes;
 * what the window picks. */
#define FIELD(field) MS_PROP_FIELD (MsSession, field)
#define HAS .flags = G_PARAM_READABLE
#define DOES .flags = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY
static const MsProp prop_table[N_PROPS] = {
  [PROP_RUNS] = { "runs", G_TYPE_OBJECT, FIELD (runs), .get_type = g_list_model_get_type, HAS },
  [PROP_N_RUNS] = { "n-runs", G_TYPE_UINT, MS_PROP_NO_FIELD, 0, G_MAXUINT, 0,
                    .getter = G_CALLBACK (ms_session_get_n_runs), HAS },
  [PROP_LIVE_RUN] = { "live-run", G_TYPE_OBJECT, FIELD (live), .get_type = ms_run_get_type, HAS },
  [PROP_SWEEPING] = { "sweeping", G_TYPE_BOOLEAN, FIELD (sweeping) },
  [PROP_DEVICES] = { "devices", G_TYPE_BOXED, FIELD (devices), .get_type = g_array_get_type,
                     .setter = G_CALLBACK (ms_session_set_devices) },
  [PROP_DISCOVERING] = { "discovering", G_TYPE_BOOLEAN, MS_PROP_NO_FIELD, .def = TRUE,
                         .getter = G_CALLBACK (ms_session_get_discovering), HAS },
  [PROP_HAVE_GPU] = { "have-gpu", G_TYPE_BOOLEAN, MS_PROP_NO_FIELD,
                      .getter = G_CALLBACK (ms_session_have_gpu), HAS },
  [PROP_DEVICE] = { "device", G_TYPE_INT, FIELD (device), 0, G_MAXINT, 0 },
  [PROP_SWEEP_SETTINGS] = { "sweep-settings", G_TYPE_OBJECT, FIELD (sweep_settings),
                            .get_type = ms_sweep_settings_get_type,
                            .flags = G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY },
  [PROP_SELECTED_RUN] = { "selected-run", G_TYPE_OBJECT, FIELD (selected_run),
                          .get_type = ms_run_get_type },
  [PROP_BUSY] = { "busy", G_TYPE_BOOLEAN, FIELD (busy), DOES },
  [PROP_PROGRESS] = { "progress", G_TYPE_DOUBLE, FIELD (progress), 0, 1, 0, DOES },
  [PROP_PROGRESS_TEXT] = { "progress-text", G_TYPE_STRING, FIELD (progress_text), DOES },
  [PROP_DEVICE_JOB] = { "device-job", G_TYPE_INT, FIELD (device_job_kind), MS_DEVICE_JOB_NONE,
                        MS_DEVICE_JOB_PEER, MS_DEVICE_JOB_NONE, DOES },
};
#undef FIELD
#undef HAS
#undef DOES

static void
on_items_changed (MsSession *self, guint position, guint removed, guint added)
{
  if (removed != added)
    g_object_notify_by_pspec (G_OBJECT (self), props[PROP_N_RUNS]);
}

static void
ms_session_constructed (GObject *object)
{
  MsSession *self = MS_SESSION (object);
  G_OBJECT_CLASS (ms_session_parent_class)->constructed (object);
  if (!self->sweep_settings)
    self->sweep_settings = ms_sweep_settings_new (NULL);
}

static void
ms_session_dispose (GObject *object)
{
  MsSession *self = MS_SESSION (object);
  /* The jobs end on their own, keeping what they measured. */
  ms_session_stop_all (self);
  g_clear_object (&self->sweep_job);
  g_clear_object (&self->device_job);
  memset (self->lessons, 0, sizeof self->lessons);
  self->live_job = NULL;
  self->live = NULL;
  g_clear_object (&self->selected_run);
  if (self->runs)
    g_list_store_remove_all (self->runs);
  G_OBJECT_CLASS (ms_session_parent_class)->dispose (object);
}

static void
ms_session_finalize (GObject *object)
{
  MsSession *self = MS_SESSION (object);
  g_clear_object (&self->runs);
  g_clear_object (&self->sweep_settings);
  g_clear_pointer (&self->devices, g_array_unref);
  g_clear_pointer (&self->engine, ms_job_engine_unref);
  g_clear_pointer (&self->device_engine, ms_job_engine_unref);
  g_clear_pointer (&self->eta, ms_eta_free);
  g_free (self->progress_text);
  G_OBJECT_CLASS (ms_session_parent_class)->finalize (object);
}

static void
install_signals (GObjectClass *object_class)
{
  GType type = G_TYPE_FROM_CLASS (object_class);
  signals[SIGNAL_SWEEP_ENDED] = g_signal_new ("sweep-ended", type, G_SIGNAL_RUN_LAST, 0, NULL,
                                              NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
  signals[SIGNAL_LESSON_PROGRESS] =
    g_signal_new ("lesson-progress", type, G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE,
                  2, G_TYPE_INT, G_TYPE_DOUBLE);
  signals[SIGNAL_LESSON_FINISHED] =
    g_signal_new ("lesson-finished", type, G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE,
                  4, G_TYPE_INT, MS_TYPE_RUN, G_TYPE_POINTER, G_TYPE_STRING);
  signals[SIGNAL_DEVICE_JOB_FINISHED] =
    g_signal_new ("device-job-finished", type, G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_POINTER);
  /* A and B of a live comparison (both NULL and the error when it failed),
   * after they joined the runs. */
  signals[SIGNAL_LIVE_COMPARE_FINISHED] =
    g_signal_new ("live-compare-finished", type, G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 3, MS_TYPE_RUN, MS_TYPE_RUN, G_TYPE_STRING);
}

static void
ms_session_class_init (MsSessionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  object_class->constructed = ms_session_constructed;
  object_class->dispose = ms_session_dispose;
  object_class->finalize = ms_session_finalize;
  ms_props_install (object_class, prop_table, props, N_PROPS);
  install_signals (object_class);
}

static void
ms_session_init (MsSession *self)
{
  self->runs = g_list_store_new (MS_TYPE_RUN);
  g_signal_connect_object (self->runs, "items-changed", G_CALLBACK (on_items_changed), self,
                           G_CONNECT_SWAPPED);
}

GListModel *
ms_session_get_runs (MsSession *self)
{
  g_return_val_if_fail (MS_IS_SESSION (self), NULL);
  return G_LIST_MODEL (self->runs);
}

guint
ms_session_get_n_runs (MsSession *self)
{
  g_return_val_if_fail (MS_IS_SESSION (self), 0);
  return g_list_model_get_n_items (G_LIST_MODEL (self->runs));
}

/* Borrowed: the store holds the run. */
MsRun *
ms_session_get_run (MsSession *self, guint index)
{
  g_autoptr (MsRun) run = g_list_model_get_item (ms_session_get_runs (self), index);
  return run;
}

GPtrArray *
ms_session_dup_runs (MsSession *self)
{
  guint n = ms_session_get_n_runs (self);
  GPtrArray *runs = g_ptr_array_new_full (n, g_object_unref);
  for (guint i = 0; i < n; i++)
    g_ptr_array_add (runs, g_list_model_get_item (G_LIST_MODEL (self->runs), i));
  return runs;
}

/* ---- names ------------------------------------------------------------------ */

/* "NVIDIA H100 80GB HBM3" -> "H100 80GB HBM3": the vendor is implied. */
static const char *
short_device_name (MsRun *run)
{
  const MsDeviceInfo *d = &ms_run_get_results (run)->device;
  if (!d->name[0] || !d->present)
    return _("Host CPU");
  return g_str_has_prefix (d->name, "NVIDIA ") ? d->name + 7 : d->name;
}

/* Taken by a run of the session or of `pending` (runs about to join it
 * together), other than `except`. */
static gboolean
name_taken (MsSession *self, GPtrArray *pending, MsRun *except, const char *name)
{
  guint n = ms_session_get_n_runs (self), n_pending = pending ? pending->len : 0;
  for (guint i = 0; i < n + n_pending; i++) {
    MsRun *r = i < n ? ms_session_get_run (self, i) : g_ptr_array_index (pending, i - n);
    if (r != except && g_strcmp0 (ms_run_get_name (r), name) == 0)
      return TRUE;
  }
  return FALSE;
}

/* The longest prefix of s in at most max_bytes bytes, cut on a character. */
static char *
utf8_cut (const char *s, gsize max_bytes)
{
  return g_utf8_substring (s, 0, g_utf8_strlen (s, max_bytes));
}

static void
rename_run (MsSession *self, GPtrArray *pending, MsRun *run, const char *wanted)
{
  gsize size = sizeof ms_run_get_results (run)->label;
  g_autofree char *valid = g_utf8_make_valid (wanted, -1);
  g_strstrip (valid);
  const char *base = valid[0] ? valid : short_device_name (run);
  /* A long name is cut to leave room for the number, so that the
   * numbered names stay apart. */
  g_autofree char *name = utf8_cut (base, size - 1);
  g_autofree char *stem = utf8_cut (base, size - 16);
  for (int n = 2; name_taken (self, pending, run, name); n++) {
    g_free (name);
    /* TRANSLATORS: a run's name made unique by a number, "H100 11-24 #2". */
    name = g_strdup_printf (_ ("%s #%d"), stem, n);
  }
  ms_run_set_name (run, name);
}

void
ms_session_rename_run (MsSession *self, MsRun *run, const char *wanted)
{
  g_return_if_fail (MS_IS_SESSION (self) && MS_IS_RUN (run) && wanted);
  rename_run (self, NULL, run, wanted);
}

/* ---- adding and removing ------------------------------------------------------ */

/* Already in the session or among `pending`: the same run, or the same
 * file read twice. */
static gboolean
run_shown (MsSession *self, GPtrArray *pending, MsRun *run)
{
  guint n = ms_session_get_n_runs (self);
  for (guint i = 0; i < n + pending->len; i++) {
    MsRun *r = i < n ? ms_session_get_run (self, i) : g_ptr_array_index (pending, i - n);
    if (r == run || (ms_run_get_kind (r) == MS_RUN_KIND_REFERENCE &&
                     ms_run_get_kind (run) == MS_RUN_KIND_REFERENCE &&
                     ms_run_same_file (r, run)))
      return TRUE;
  }
  return FALSE;
}

GPtrArray *
ms_session_add_runs (MsSession *self, MsRun *const *runs, guint n_runs)
{
  g_return_val_if_fail (MS_IS_SESSION (self) && (runs || !n_runs), NULL);
  GPtrArray *added = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < n_runs; i++) {
    g_return_val_if_fail (MS_IS_RUN (runs[i]), added);
    /* The same file twice is one comparison, not two (several GPUs of one
     * sweep share a date and may share a name: they are not files). */
    if (run_shown (self, added, runs[i]))
      continue;
    g_autofree char *name = g_strdup (ms_run_get_name (runs[i]));
    rename_run (self, added, runs[i], name);
    g_ptr_array_add (added, g_object_ref (runs[i]));
  }
  /* One splice: the pages follow every change at once, so runs appended
   * one by one would make each of them rebuild once per run. */
  if (added->len)
    g_list_store_splice (self->runs, ms_session_get_n_runs (self), 0, added->pdata, added->len);
  return added;
}

gboolean
ms_session_add_run (MsSession *self, MsRun *run)
{
  g_return_val_if_fail (MS_IS_SESSION (self) && MS_IS_RUN (run), FALSE);
  g_autoptr (GPtrArray) added = ms_session_add_runs (self, &run, 1);
  return added->len > 0;
}

void
ms_session_add_sweep (MsSession *self, MsRun *run)
{
  g_return_if_fail (MS_IS_SESSION (self) && MS_IS_RUN (run));
  self->n_sweeps++;
  /* TRANSLATORS: a run's name: the GPU (or "Host CPU") and a sweep number. */
  g_autofree char *name =
    g_strdup_printf (_("%s · sweep %u"), short_device_name (run), self->n_sweeps);
  ms_session_rename_run (self, run, name);
  self->live = run;
  g_list_store_append (self->runs, run);
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_LIVE_RUN]);
}

gboolean
ms_session_remove_run (MsSession *self, MsRun *run, guint *position)
{
  g_return_val_if_fail (MS_IS_SESSION (self) && MS_IS_RUN (run), FALSE);
  guint pos;
  /* The run a sweep is filling closes when the sweep is stopped. */
  if ((self->sweeping && run == self->live) || !g_list_store_find (self->runs, run, &pos))
    return FALSE;
  g_object_ref (run);
  if (run == self->live) {
    self->live = NULL;
    g_object_notify_by_pspec (G_OBJECT (self), props[PROP_LIVE_RUN]);
  }
  if (run == self->selected_run)
    g_object_set (self, "selected-run", NULL, NULL);
  g_list_store_remove (self->runs, pos);
  g_object_unref (run);
  if (position)
    *position = pos;
  return TRUE;
}

void
ms_session_insert_run (MsSession *self, MsRun *run, guint position)
{
  g_return_if_fail (MS_IS_SESSION (self) && MS_IS_RUN (run));
  if (g_list_store_find (self->runs, run, NULL))
    return;
  g_autofree char *name = g_strdup (ms_run_get_name (run));
  ms_session_rename_run (self, run, name);
  g_list_store_insert (self->runs, MIN (position, ms_session_get_n_runs (self)), run);
}

void
ms_session_clear_runs (MsSession *self)
{
  g_return_if_fail (MS_IS_SESSION (self));
  g_autoptr (MsRun) keep = self->live ? g_object_ref (self->live) : NULL;
  if (self->selected_run != keep)
    g_object_set (self, "selected-run", NULL, NULL);
  g_list_store_splice (self->runs, 0, ms_session_get_n_runs (self), keep ? (gpointer *) &keep : NULL,
                       keep ? 1 : 0);
}

/* ---- the sweep and the devices ------------------------------------------------------ */

MsRun *
ms_session_get_live_run (MsSession *self)
{
  g_return_val_if_fail (MS_IS_SESSION (self), NULL);
  return self->live;
}

gboolean
ms_session_get_sweeping (MsSession *self)
{
  g_return_val_if_fail (MS_IS_SESSION (self), FALSE);
  return self->sweeping;
}

GArray *
ms_session_get_devices (MsSession *self)
{
  g_return_val_if_fail (MS_IS_SESSION (self), NULL);
  return self->devices;
}

void
ms_session_set_devices (MsSession *self, GArray *devices)
{
  g_return_if_fail (MS_IS_SESSION (self));
  if (devices == self->devices)
    return;
  gboolean was_discovering = self->devices == NULL;
  gboolean had_gpu = ms_session_have_gpu (self);
  g_clear_pointer (&self->devices, g_array_unref);
  self->devices = devices ? g_array_ref (devices) : NULL;
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_DEVICES]);
  /* have-gpu before discovering: whoever waits for discovery to end (a
   * lesson asked for with --run) must find the GPU already known. */
  if (had_gpu != ms_session_have_gpu (self))
    g_object_notify_by_pspec (G_OBJECT (self), props[PROP_HAVE_GPU]);
  if (was_discovering != (self->devices == NULL))
    g_object_notify_by_pspec (G_OBJECT (self), props[PROP_DISCOVERING]);
}

gboolean
ms_session_get_discovering (MsSession *self)
{
  g_return_val_if_fail (MS_IS_SESSION (self), TRUE);
  return self->devices == NULL;
}

gboolean
ms_session_have_gpu (MsSession *self)
{
  g_return_val_if_fail (MS_IS_SESSION (self), FALSE);
  for (guint i = 0; self->devices && i < self->devices->len; i++)
    if (g_array_index (self->devices, MsDeviceInfo, i).present)
      return TRUE;
  return FALSE;
}

MsSweepSettings *
ms_session_get_sweep_settings (MsSession *self)
{
  g_return_val_if_fail (MS_IS_SESSION (self), NULL);
  return self->sweep_settings;
}

gboolean
ms_session_get_sweep (MsSession *self, MsSweep *sweep, char *err, size_t err_size)
{
  g_return_val_if_fail (MS_IS_SESSION (self), FALSE);
  gboolean valid = ms_sweep_settings_get_sweep (self->sweep_settings, sweep, err, err_size);
  sweep->device = self->device;
  return valid;
}

/* ---- the work: state ------------------------------------------------------------- */

static void
update_busy (MsSession *self)
{
  gboolean busy = self->sweep_job || self->device_job || self->live_job;
  for (int t = 0; t < MS_TOPIC_COUNT && !busy; t++)
    busy = self->lessons[t] != NULL;
  if (busy == self->busy)
    return;
  self->busy = busy;
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_BUSY]);
}

gboolean
ms_session_get_busy (MsSession *self)
{
  g_return_val_if_fail (MS_IS_SESSION (self), FALSE);
  return self->busy;
}

static void
set_progress (MsSession *self, double fraction, const char *text)
{
  if (fraction != self->progress) {
    self->progress = fraction;
    g_object_notify_by_pspec (G_OBJECT (self), props[PROP_PROGRESS]);
  }
  ms_props_set_string (self, &self->progress_text, text, props[PROP_PROGRESS_TEXT]);
}

void
ms_session_set_engine (MsSession *self, MsBackend *backend, MsDevicesPeerFunc peer_run)
{
  g_return_if_fail (MS_IS_SESSION (self));
  g_clear_pointer (&self->engine, ms_job_engine_unref);
  self->engine = ms_job_engine_new (backend, peer_run);
}

void
ms_session_stop_all (MsSession *self)
{
  g_return_if_fail (MS_IS_SESSION (self));
  ms_session_stop_sweep (self);
  for (int t = 0; t < MS_TOPIC_COUNT; t++)
    ms_session_stop_lesson (self, t);
  ms_session_stop_device_job (self);
  ms_session_stop_live_compare (self);
}

/* ---- the work: the sweep --------------------------------------------------------- */

static void
on_sweep_progress (MsSession *self, double fraction, gpointer detail, MsJob *job)
{
  MsSweepJobCell *u = detail;
  gint64 now = g_get_monotonic_time ();
  ms_eta_add (self->eta, u->index, &u->cell, (now - self->cell_started_us) * 1e-6);
  self->cell_started_us = now;
  g_autofree char *left = ms_eta_format (ms_eta_seconds_left (self->eta));
  g_autofree char *text =
    g_strdup_printf (_("cell %d of %d: %s at 2^%d · %s"), u->index + 1, u->n,
                     ms_mode_title (u->cell.mode), u->cell.exponent, left);
  set_progress (self, fraction, text);
}

/* The sweep's end in a sentence. */
static char *
sweep_message (MsSession *self, const MsSweepJobOutcome *o)
{
  if (o->status == MS_RUN_CANCELLED)
    return g_strdup (_("Sweep stopped; the cells measured so far are kept"));
  if (o->status != MS_RUN_OK)
    return g_strdup (o->error);
  const MsResults *live = self->live ? ms_run_get_results (self->live) : NULL;
  guint bad = 0;
  for (size_t i = 0; live && i < live->n_cells; i++)
    bad += live->cells[i].status == MS_CELL_FAILED ||
           live->cells[i].status == MS_CELL_VERIFY_FAILED;
  if (!bad)
    return g_strdup (_("Sweep finished"));
  return g_strdup_printf (ngettext ("Sweep finished; %u cell failed (see the table)",
                                    "Sweep finished; %u cells failed (see the table)", bad),
                          bad);
}

/* After the job's own handler (the run has its device facts), before the
 * run is kept. */
static void
on_sweep_finished (MsSession *self, MsJob *job)
{
  if (self->sweep_job != job)
    return;
  g_autoptr (MsJob) done = g_steal_pointer (&self->sweep_job);
  const MsSweepJobOutcome *o = ms_job_get_result (done);
  g_clear_pointer (&self->eta, ms_eta_free);
  g_autofree char *message = o ? sweep_message (self, o) : NULL;
  g_object_set (self, "sweeping", FALSE, NULL);
  update_busy (self);
  if (message)
    g_signal_emit (self, signals[SIGNAL_SWEEP_ENDED], 0, message);
}

gboolean
ms_session_run_sweep (MsSession *self, GError **error)
{
  g_return_val_if_fail (MS_IS_SESSION (self), FALSE);
  MsSweep s;
  char err[256];
  if (self->sweep_job)
    return FALSE;
  if (!ms_session_get_sweep (self, &s, err, sizeof err)) {
    g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, err);
    return FALSE;
  }
  MsDeviceInfo info = { 0 };
  if (s.device >= 0 && self->devices && (guint) s.device < self->devices->len)
    info = g_array_index (self->devices, MsDeviceInfo, s.device);
  g_clear_pointer (&self->eta, ms_eta_free);
  self->eta = ms_eta_new (&s);
  /* Every sweep is a run of its own, kept with the others until closed. */
  g_autoptr (MsRun) live = ms_run_new (ms_results_new (&s, &info), MS_RUN_KIND_SWEEP);
  self->sweep_job = ms_sweep_job_new (&s, live, self->engine);
  g_signal_connect_object (self->sweep_job, "progress", G_CALLBACK (on_sweep_progress), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->sweep_job, "finished", G_CALLBACK (on_sweep_finished), self,
                           G_CONNECT_SWAPPED);
  self->cell_started_us = g_get_monotonic_time ();
  set_progress (self, 0, _("Starting…"));
  /* The live run first: whoever follows "sweeping" finds it. */
  ms_session_add_sweep (self, live);
  g_object_set (self, "sweeping", TRUE, NULL);
  update_busy (self);
  ms_job_start (self->sweep_job);
  return TRUE;
}

void
ms_session_stop_sweep (MsSession *self)
{
  g_return_if_fail (MS_IS_SESSION (self));
  /* The worker finishes its current repetition and frees everything. */
  if (self->sweep_job)
    ms_job_cancel (self->sweep_job);
}

/* ---- the work: lessons ----------------------------------------------------------- */

static void
on_lesson_progress (GObject *owner, MsLessonTopic topic, double fraction)
{
  g_signal_emit (owner, signals[SIGNAL_LESSON_PROGRESS], 0, (int) topic, fraction);
}

static void
on_lesson_done (GObject *owner, MsLessonJob *job, MsLessonTopic topic, MsRun *run,
                const char *error)
{
  MsSession *self = MS_SESSION (owner);
  g_autoptr (MsRun) owned = run; /* the job's reference */
  if (self->lessons[topic] == job)
    self->lessons[topic] = NULL;
  if (run)
    ms_session_add_run (self, run);
  g_signal_emit (self, signals[SIGNAL_LESSON_FINISHED], 0, (int) topic, run,
                 (gpointer) ms_lesson_job_get_portable (job), error);
  update_busy (self);
}

gboolean
ms_session_run_lesson (MsSession *self, MsLessonTopic topic)
{
  g_return_val_if_fail (MS_IS_SESSION (self) && (unsigned) topic < MS_TOPIC_COUNT, FALSE);
  if (self->lessons[topic])
    return FALSE;
  MsSweep base, set;
  char err[256];
  ms_sweep_init_default (&base);
  if (ms_session_get_sweep (self, &set, err, sizeof err))
    base = set;
  self->lessons[topic] = ms_lesson_job_run (G_OBJECT (self), topic, &base, self->engine,
                                            on_lesson_progress, on_lesson_done);
  update_busy (self);
  return TRUE;
}

gboolean
ms_session_open_lesson_run (MsSession *self, MsLessonTopic topic, const char *const *paths)
{
  g_return_val_if_fail (MS_IS_SESSION (self) && (unsigned) topic < MS_TOPIC_COUNT, FALSE);
  if (self->lessons[topic])
    return FALSE;
  self->lessons[topic] = ms_lesson_job_load (G_OBJECT (self), topic, paths, on_lesson_done);
  update_busy (self);
  return TRUE;
}

void
ms_session_stop_lesson (MsSession *self, MsLessonTopic topic)
{
  g_return_if_fail (MS_IS_SESSION (self) && (unsigned) topic < MS_TOPIC_COUNT);
  ms_lesson_job_cancel (self->lessons[topic]);
}

gboolean
ms_session_get_lesson_running (MsSession *self, MsLessonTopic topic)
{
  g_return_val_if_fail (MS_IS_SESSION (self) && (unsigned) topic < MS_TOPIC_COUNT, FALSE);
  return self->lessons[topic] != NULL;
}

/* ---- the work: several GPUs ------------------------------------------------------ */

static void
set_device_job (MsSession *self, MsJob *job, MsDeviceJobKind kind)
{
  g_clear_object (&self->device_job);
  self->device_job = job;
  self->device_job_kind = kind;
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_DEVICE_JOB]);
  update_busy (self);
}

/* After the job's own handler, which made the sweep's runs. */
static void
on_device_job_finished (MsSession *self, MsJob *job)
{
  if (self->device_job != job)
    return;
  g_autoptr (MsJob) done = g_object_ref (job);
  MsDeviceJobOutcome *o = ms_job_get_result (done);
  /* Together: one change for the pages, not one per GPU. */
  if (o && o->runs && o->runs->len)
    g_ptr_array_unref (ms_session_add_runs (self, (MsRun **) o->runs->pdata, o->runs->len));
  if (o)
    g_signal_emit (self, signals[SIGNAL_DEVICE_JOB_FINISHED], 0, o);
  set_device_job (self, NULL, MS_DEVICE_JOB_NONE);
}

/* The sweep as set, else pinned memory at the default sizes. */
static gboolean
device_sweep (MsSession *self, MsSweep *sweep, GError **error)
{
  char err[256];
  ms_sweep_init_default (sweep);
  memset (sweep->modes, 0, sizeof sweep->modes);
  sweep->modes[MS_MODE_PINNED] = true;
  MsSweep set;
  if (ms_session_get_sweep (self, &set, err, sizeof err))
    *sweep = set;
  if (ms_sweep_validate (sweep, err, sizeof err))
    return TRUE;
  g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, err);
  return FALSE;
}

gboolean
ms_session_run_device_job (MsSession *self, MsDeviceJobKind kind, const int *devices, int n,
                           GError **error)
{
  g_return_val_if_fail (MS_IS_SESSION (self) && kind != MS_DEVICE_JOB_NONE, FALSE);
  g_return_val_if_fail (n > 0 && n <= MS_MULTI_MAX_DEVICES, FALSE);
  MsSweep sweep;
  if (self->device_job || (kind == MS_DEVICE_JOB_MULTI && !device_sweep (self, &sweep, error)))
    return FALSE;
  MsDeviceInfo info[MS_MULTI_MAX_DEVICES] = { 0 };
  for (int i = 0; i < n; i++)
    for (guint k = 0; self->devices && k < self->devices->len; k++)
      if (g_array_index (self->devices, MsDeviceInfo, k).index == devices[i])
        info[i] = g_array_index (self->devices, MsDeviceInfo, k);
  /* One system backend for every job here, made at the first. */
  if (!self->engine && !self->device_engine)
    self->device_engine = ms_job_engine_new (ms_backend_new_system (), NULL);
  MsJobEngine *engine = self->engine ? self->engine : self->device_engine;
  MsJob *job = ms_device_job_new (kind, engine, kind == MS_DEVICE_JOB_MULTI ? &sweep : NULL,
                                  devices, info, n);
  g_signal_connect_object (job, "finished", G_CALLBACK (on_device_job_finished), self,
                           G_CONNECT_SWAPPED);
  ms_job_start (job);
  set_device_job (self, job, kind);
  return TRUE;
}

void
ms_session_stop_device_job (MsSession *self)
{
  g_return_if_fail (MS_IS_SESSION (self));
  if (self->device_job)
    ms_job_cancel (self->device_job);
}

/* ---- the work: a live comparison ------------------------------------------------- */

static void
on_live_progress (GObject *owner, double fraction, double elapsed_s)
{
  MsSession *self = MS_SESSION (owner);
  g_autofree char *text =
    g_strdup_printf (_ ("Measuring A and B in turns: %.0f s"), elapsed_s);
  set_progress (self, fraction, text);
}

static void
on_live_done (GObject *owner, MsRun *a, MsRun *b, const char *error)
{
  MsSession *self = MS_SESSION (owner);
  g_autoptr (MsRun) run_a = a, run_b = b;
  self->live_job = NULL;
  if (run_a && run_b) {
    MsRun *both[2] = { run_a, run_b };
    g_ptr_array_unref (ms_session_add_runs (self, both, 2));
  }
  set_progress (self, 0, NULL);
  update_busy (self);
  g_signal_emit (self, signals[SIGNAL_LIVE_COMPARE_FINISHED], 0, run_a, run_b, error);
}

/* Where a live comparison keeps its two runs: beside the sweeps the app
 * keeps (Recent Runs), named by the time it started. */
static char *
live_prefix (GError **error)
{
  const char *folder = ms_runs_library_get_folder (ms_runs_library_get_default ());
  if (g_mkdir_with_parents (folder, 0755) != 0) {
    int e = errno;
    g_set_error (error, G_IO_ERROR, g_io_error_from_errno (e), "%s: %s", folder, g_strerror (e));
    return NULL;
  }
  g_autoptr (GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *stamp = g_date_time_format (now, "live-%Y%m%d-%H%M%S");
  return g_build_filename (folder, stamp, NULL);
}

gboolean
ms_session_run_live_compare (MsSession *self, const char *a_options, const char *b_options,
                             double budget_s, double threshold_pct, GError **error)
{
  g_return_val_if_fail (MS_IS_SESSION (self), FALSE);
  if (self->busy) {
    g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_BUSY, _ ("Other work is running"));
    return FALSE;
  }
  g_autofree char *prefix = live_prefix (error);
  if (!prefix)
    return FALSE;
  MsLiveRequest request = { a_options, b_options, budget_s, threshold_pct, prefix };
  self->live_job = ms_live_job_start (G_OBJECT (self), &request, on_live_progress, on_live_done,
                                      error);
  if (!self->live_job)
    return FALSE;
  set_progress (self, 0, _ ("Measuring A and B in turns…"));
  update_busy (self);
  return TRUE;
}

void
ms_session_stop_live_compare (MsSession *self)
{
  g_return_if_fail (MS_IS_SESSION (self));
  ms_live_job_stop (self->live_job);
}

gboolean
ms_session_get_live_comparing (MsSession *self)
{
  g_return_val_if_fail (MS_IS_SESSION (self), FALSE);
  return self->live_job != NULL;
}
