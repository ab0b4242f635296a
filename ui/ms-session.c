/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-session.c: the runs, the live sweep, the devices and the selection of
 * one window, as properties the pages follow. */
#include "ms-session.h"

#include <glib/gi18n.h>

struct _MsSession {
  GObject parent_instance;
  GListStore *runs; /* MsRun */
  MsRun *live;      /* held by runs too; NULL once closed */
  gboolean sweeping;
  GArray *devices; /* MsDeviceInfo; NULL while discovering */
  int device;
  MsSweepSettings *sweep_settings;
  MsRun *selected_run;
  int selected_cell;
  guint n_sweeps; /* sweeps started, for their names */
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
  PROP_SELECTED_CELL,
  N_PROPS
};
static GParamSpec *props[N_PROPS];

static void
ms_session_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  MsSession *self = MS_SESSION (object);
  switch (prop_id) {
  case PROP_SWEEPING: ms_session_set_sweeping (self, g_value_get_boolean (value)); break;
  case PROP_DEVICES: ms_session_set_devices (self, g_value_get_boxed (value)); break;
  case PROP_DEVICE: ms_session_set_device (self, g_value_get_int (value)); break;
  case PROP_SWEEP_SETTINGS: self->sweep_settings = g_value_dup_object (value); break;
  case PROP_SELECTED_RUN: ms_session_set_selected_run (self, g_value_get_object (value)); break;
  case PROP_SELECTED_CELL: ms_session_set_selected_cell (self, g_value_get_int (value)); break;
  default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
  }
}

static void
ms_session_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  MsSession *self = MS_SESSION (object);
  switch (prop_id) {
  case PROP_RUNS: g_value_set_object (value, self->runs); break;
  case PROP_N_RUNS: g_value_set_uint (value, ms_session_get_n_runs (self)); break;
  case PROP_LIVE_RUN: g_value_set_object (value, self->live); break;
  case PROP_SWEEPING: g_value_set_boolean (value, self->sweeping); break;
  case PROP_DEVICES: g_value_set_boxed (value, self->devices); break;
  case PROP_DISCOVERING: g_value_set_boolean (value, self->devices == NULL); break;
  case PROP_HAVE_GPU: g_value_set_boolean (value, ms_session_have_gpu (self)); break;
  case PROP_DEVICE: g_value_set_int (value, self->device); break;
  case PROP_SWEEP_SETTINGS: g_value_set_object (value, self->sweep_settings); break;
  case PROP_SELECTED_RUN: g_value_set_object (value, self->selected_run); break;
  case PROP_SELECTED_CELL: g_value_set_int (value, self->selected_cell); break;
  default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
  }
}

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
  G_OBJECT_CLASS (ms_session_parent_class)->finalize (object);
}

static void
ms_session_class_init (MsSessionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  object_class->set_property = ms_session_set_property;
  object_class->get_property = ms_session_get_property;
  object_class->constructed = ms_session_constructed;
  object_class->dispose = ms_session_dispose;
  object_class->finalize = ms_session_finalize;

  const GParamFlags rw = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;
  const GParamFlags ro = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS;
  props[PROP_RUNS] = g_param_spec_object ("runs", NULL, NULL, G_TYPE_LIST_MODEL, ro);
  props[PROP_N_RUNS] = g_param_spec_uint ("n-runs", NULL, NULL, 0, G_MAXUINT, 0, ro);
  props[PROP_LIVE_RUN] = g_param_spec_object ("live-run", NULL, NULL, MS_TYPE_RUN, ro);
  props[PROP_SWEEPING] = g_param_spec_boolean ("sweeping", NULL, NULL, FALSE, rw);
  props[PROP_DEVICES] = g_param_spec_boxed ("devices", NULL, NULL, G_TYPE_ARRAY, rw);
  props[PROP_DISCOVERING] = g_param_spec_boolean ("discovering", NULL, NULL, TRUE, ro);
  props[PROP_HAVE_GPU] = g_param_spec_boolean ("have-gpu", NULL, NULL, FALSE, ro);
  props[PROP_DEVICE] = g_param_spec_int ("device", NULL, NULL, 0, G_MAXINT, 0, rw);
  props[PROP_SWEEP_SETTINGS] =
    g_param_spec_object ("sweep-settings", NULL, NULL, MS_TYPE_SWEEP_SETTINGS,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  props[PROP_SELECTED_RUN] = g_param_spec_object ("selected-run", NULL, NULL, MS_TYPE_RUN, rw);
  props[PROP_SELECTED_CELL] = g_param_spec_int ("selected-cell", NULL, NULL, -1, G_MAXINT, -1, rw);
  g_object_class_install_properties (object_class, N_PROPS, props);
}

static void
ms_session_init (MsSession *self)
{
  self->runs = g_list_store_new (MS_TYPE_RUN);
  self->selected_cell = -1;
  g_signal_connect_object (self->runs, "items-changed", G_CALLBACK (on_items_changed), self,
                           G_CONNECT_SWAPPED);
}

MsSession *
ms_session_new (void)
{
  return g_object_new (MS_TYPE_SESSION, NULL);
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
  guint n = ms_session_get_n_runs (self);
  for (guint i = 0; i < n; i++) {
    MsRun *r = ms_session_get_run (self, i);
    if (r != except && g_strcmp0 (ms_run_get_name (r), name) == 0)
      return TRUE;
  }
  for (guint i = 0; pending && i < pending->len; i++) {
    MsRun *r = g_ptr_array_index (pending, i);
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
    name = g_strdup_printf ("%s (%d)", stem, n);
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

static gboolean
same_file_run (const MsResults *a, const MsResults *b)
{
  return a->date[0] && g_strcmp0 (a->date, b->date) == 0 &&
         g_strcmp0 (a->device.name, b->device.name) == 0 && a->n_cells == b->n_cells;
}

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
                     same_file_run (ms_run_get_results (r), ms_run_get_results (run))))
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
    ms_session_set_selected_run (self, NULL);
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
    ms_session_set_selected_run (self, NULL);
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

void
ms_session_set_sweeping (MsSession *self, gboolean sweeping)
{
  g_return_if_fail (MS_IS_SESSION (self));
  sweeping = !!sweeping;
  if (sweeping == self->sweeping)
    return;
  self->sweeping = sweeping;
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_SWEEPING]);
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

int
ms_session_get_device (MsSession *self)
{
  g_return_val_if_fail (MS_IS_SESSION (self), 0);
  return self->device;
}

void
ms_session_set_device (MsSession *self, int device)
{
  g_return_if_fail (MS_IS_SESSION (self));
  if (device == self->device || device < 0)
    return;
  self->device = device;
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_DEVICE]);
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

/* ---- the selection ------------------------------------------------------------------ */

MsRun *
ms_session_get_selected_run (MsSession *self)
{
  g_return_val_if_fail (MS_IS_SESSION (self), NULL);
  return self->selected_run;
}

void
ms_session_set_selected_run (MsSession *self, MsRun *run)
{
  g_return_if_fail (MS_IS_SESSION (self));
  if (g_set_object (&self->selected_run, run))
    g_object_notify_by_pspec (G_OBJECT (self), props[PROP_SELECTED_RUN]);
}

int
ms_session_get_selected_cell (MsSession *self)
{
  g_return_val_if_fail (MS_IS_SESSION (self), -1);
  return self->selected_cell;
}

void
ms_session_set_selected_cell (MsSession *self, int cell)
{
  g_return_if_fail (MS_IS_SESSION (self));
  if (cell == self->selected_cell)
    return;
  self->selected_cell = MAX (cell, -1);
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_SELECTED_CELL]);
}
