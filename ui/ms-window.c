/* ms-window.c: the main window: settings, views, running sweeps off the
 * main thread, files and exports. */
#include "ms-window.h"

#include <glib/gi18n.h>
#include <math.h>

#include "ms-export.h"
#include "ms-plots.h"
#include "ms-views.h"

struct _MsWindow {
  AdwApplicationWindow parent_instance;

  /* Template children. */
  AdwToastOverlay *toasts;
  GtkWidget *run_button;
  GtkWidget *stop_button;
  GtkDropDown *device_dropdown;
  GtkInfoBar *banner;
  GtkLabel *banner_label;
  GtkRevealer *progress_revealer;
  GtkProgressBar *progress_bar;
  GtkSpinButton *min_exp_spin, *max_exp_spin, *step_spin, *reps_spin, *warmup_spin, *streams_spin;
  GtkLabel *min_exp_label, *max_exp_label, *sweep_summary;
  GtkDropDown *order_dropdown;
  GtkBox *modes_box;
  AdwViewStack *stack;
  GtkPaned *paned;
  GMenu *reference_menu;

  GtkCheckButton *mode_checks[MS_MODE_COUNT];
  GSettings *settings;

  /* Runs shown: MsResults*, the live sweep first when there is one. */
  GPtrArray *runs;
  MsResults *live; /* also in runs while a sweep shows */

  /* Devices found off the main thread. */
  GArray *devices; /* MsDeviceInfo */
  gboolean discovering;

  /* The running sweep, shared with its worker thread. */
  struct _MsSweepJob *job;
  gint64 sweep_started_us;

  MsViewScale scale;
  gboolean presentation;
  char *run_blocker;
  gboolean run_when_ready;

  /* Views. */
  GtkWidget *bandwidth_view, *metric_dropdown, *log_toggle;
  GtkWidget *time_view;
  GtkWidget *timeline_view, *tl_run_dd, *tl_mode_dd, *tl_size_dd, *tl_rep_spin;
  gboolean tl_rep_chosen; /* the user picked a repetition */
  GtkWidget *breakdown_view, *bd_size_dd;
  GtkWidget *table_view;
  GListStore *table_store;
  GtkMultiSelection *table_selection;
  GtkWidget *view_pages[MS_VIEW_COUNT];
};

G_DEFINE_FINAL_TYPE (MsWindow, ms_window, ADW_TYPE_APPLICATION_WINDOW)

static void refresh_views (MsWindow *self);
static void update_actions (MsWindow *self);

static void
toast (MsWindow *self, const char *message)
{
  AdwToast *t = adw_toast_new (message);
  adw_toast_set_timeout (t, 6);
  adw_toast_overlay_add_toast (self->toasts, t);
}

/* ---- the sweep job: the worker gets a copy of the settings ------------- */

typedef struct _MsSweepJob {
  gatomicrefcount ref;
  MsSweep sweep;
  atomic_int cancel;
  GWeakRef window;
  GMainContext *context;
} MsSweepJob;

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
  if (self && self->job == u->job && self->live) {
    /* Later rounds bring the same cell again, with more repetitions. */
    ms_results_put_cell (self->live, &u->cell);
    double frac = (u->index + 1.0) / u->n;
    double elapsed = (g_get_monotonic_time () - self->sweep_started_us) * 1e-6;
    double left = frac > 0 ? elapsed / frac - elapsed : 0;
    g_autofree char *text = g_strdup_printf (_("cell %d of %d: %s at 2^%d · about %.0f s left"),
                                             u->index + 1, u->n, ms_mode_title (u->cell.mode),
                                             u->cell.exponent, ceil (left));
    gtk_progress_bar_set_fraction (self->progress_bar, frac);
    gtk_progress_bar_set_text (self->progress_bar, text);
    refresh_views (self);
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
  g_task_return_pointer (task, o, sweep_outcome_free);
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
    if (o && self->live && o->results) {
      /* The worker's copy has the device facts; the cells came live. */
      self->live->device = o->results->device;
      g_autofree char *label = ms_plot_run_label (self->live);
      g_snprintf (self->live->label, sizeof self->live->label, "%s", label);
    }
    if (o && o->status == MS_RUN_CANCELLED)
      toast (self, _("Sweep stopped; the cells measured so far are kept"));
    else if (o && o->status != MS_RUN_OK)
      toast (self, o->error);
    else if (o) {
      guint bad = 0;
      for (size_t i = 0; self->live && i < self->live->n_cells; i++)
        bad += self->live->cells[i].status == MS_CELL_FAILED ||
               self->live->cells[i].status == MS_CELL_VERIFY_FAILED;
      if (bad) {
        g_autofree char *msg = g_strdup_printf (
          ngettext ("Sweep finished; %u cell failed (see the table)",
                    "Sweep finished; %u cells failed (see the table)", bad),
          bad);
        toast (self, msg);
      } else {
        toast (self, _("Sweep finished"));
      }
    }
    refresh_views (self);
    update_actions (self);
  }
  if (o)
    sweep_outcome_free (o);
  sweep_job_unref (job);
}

/* ---- settings ------------------------------------------------------------ */

static void
read_sweep (MsWindow *self, MsSweep *s)
{
  ms_sweep_init_default (s);
  s->min_exp = gtk_spin_button_get_value_as_int (self->min_exp_spin);
  s->max_exp = gtk_spin_button_get_value_as_int (self->max_exp_spin);
  s->step = gtk_spin_button_get_value_as_int (self->step_spin);
  s->reps = gtk_spin_button_get_value_as_int (self->reps_spin);
  s->warmup = gtk_spin_button_get_value_as_int (self->warmup_spin);
  s->streams = gtk_spin_button_get_value_as_int (self->streams_spin);
  s->order = gtk_drop_down_get_selected (self->order_dropdown) == 1 ? MS_ORDER_BREADTH_FIRST
                                                                   : MS_ORDER_DEPTH_FIRST;
  guint dev = gtk_drop_down_get_selected (self->device_dropdown);
  s->device = dev == GTK_INVALID_LIST_POSITION ? 0 : (int) dev;
  for (int m = 0; m < MS_MODE_COUNT; m++)
    s->modes[m] = gtk_check_button_get_active (self->mode_checks[m]);
}

static void
describe_exponent (GtkLabel *label, int e)
{
  char bytes[32];
  ms_format_bytes ((1ull << e) * sizeof (float), bytes, sizeof bytes);
  g_autofree char *n = g_strdup_printf ("%'llu", 1ull << e);
  g_autofree char *text = g_strdup_printf (_("2^%d = %s floats = %s per vector"), e, n, bytes);
  gtk_label_set_text (label, text);
}

static gboolean
have_gpu (MsWindow *self)
{
  for (guint i = 0; self->devices && i < self->devices->len; i++)
    if (g_array_index (self->devices, MsDeviceInfo, i).present)
      return TRUE;
  return FALSE;
}

static void
update_actions (MsWindow *self)
{
  MsSweep s;
  char err[256] = "";
  read_sweep (self, &s);
  gboolean valid = ms_sweep_validate (&s, err, sizeof err);
  gboolean gpu_modes = FALSE;
  for (int m = 0; m < MS_MODE_COUNT; m++)
    gpu_modes = gpu_modes || (s.modes[m] && ms_mode_uses_gpu (m));
  gboolean can_run = !self->job && !self->discovering && valid && (have_gpu (self) || !gpu_modes);
  GAction *run = g_action_map_lookup_action (G_ACTION_MAP (self), "run");
  g_simple_action_set_enabled (G_SIMPLE_ACTION (run), can_run);
  g_simple_action_set_enabled (
    G_SIMPLE_ACTION (g_action_map_lookup_action (G_ACTION_MAP (self), "stop")), self->job != NULL);
  gtk_widget_set_visible (self->stop_button, self->job != NULL);
  gtk_widget_set_visible (self->run_button, self->job == NULL);
  g_simple_action_set_enabled (
    G_SIMPLE_ACTION (g_action_map_lookup_action (G_ACTION_MAP (self), "export-csv")),
    self->runs->len > 0);
  gtk_widget_set_sensitive (GTK_WIDGET (self->device_dropdown), !self->job && have_gpu (self));

  const char *why = NULL;
  if (self->job)
    why = _("A sweep is running");
  else if (!valid)
    why = err;
  else if (self->discovering)
    why = _("Looking for CUDA devices…");
  else if (!have_gpu (self) && gpu_modes)
    why = _("No usable CUDA device: only the host mode can run (see the banner)");
  gtk_widget_set_tooltip_text (self->run_button, why ? why : _("Run the sweep (Ctrl+R)"));
  g_free (self->run_blocker);
  self->run_blocker = g_strdup (why);

  if (valid) {
    g_autofree char *summary = g_strdup_printf (
      _("%d sizes × %d modes = %d cells, %d timed runs each"), ms_sweep_n_sizes (&s),
      ms_sweep_n_modes (&s), ms_sweep_n_cells (&s), s.reps);
    gtk_label_set_text (self->sweep_summary, summary);
  } else {
    gtk_label_set_text (self->sweep_summary, err);
  }
}

static void
on_setting_changed (MsWindow *self)
{
  describe_exponent (self->min_exp_label, gtk_spin_button_get_value_as_int (self->min_exp_spin));
  describe_exponent (self->max_exp_label, gtk_spin_button_get_value_as_int (self->max_exp_spin));
  update_actions (self);
}

static void
save_settings (MsWindow *self)
{
  MsSweep s;
  read_sweep (self, &s);
  g_settings_set_int (self->settings, "min-exp", s.min_exp);
  g_settings_set_int (self->settings, "max-exp", s.max_exp);
  g_settings_set_int (self->settings, "step", s.step);
  g_settings_set_int (self->settings, "reps", s.reps);
  g_settings_set_int (self->settings, "warmup", s.warmup);
  g_settings_set_int (self->settings, "streams", s.streams);
  g_settings_set_string (self->settings, "order",
                         s.order == MS_ORDER_BREADTH_FIRST ? "breadth" : "depth");
  GStrvBuilder *b = g_strv_builder_new ();
  for (int m = 0; m < MS_MODE_COUNT; m++)
    if (s.modes[m])
      g_strv_builder_add (b, ms_mode_name (m));
  g_auto (GStrv) modes = g_strv_builder_end (b);
  g_strv_builder_unref (b);
  g_settings_set_strv (self->settings, "modes", (const char *const *) modes);
}

static void
load_settings (MsWindow *self)
{
  /* Values out of range (an edited dconf) are clamped by the adjustments
   * and then validated like any other input. */
  gtk_spin_button_set_value (self->min_exp_spin, g_settings_get_int (self->settings, "min-exp"));
  gtk_spin_button_set_value (self->max_exp_spin, g_settings_get_int (self->settings, "max-exp"));
  gtk_spin_button_set_value (self->step_spin, g_settings_get_int (self->settings, "step"));
  gtk_spin_button_set_value (self->reps_spin, g_settings_get_int (self->settings, "reps"));
  gtk_spin_button_set_value (self->warmup_spin, g_settings_get_int (self->settings, "warmup"));
  gtk_spin_button_set_value (self->streams_spin, g_settings_get_int (self->settings, "streams"));
  g_autofree char *order = g_settings_get_string (self->settings, "order");
  gtk_drop_down_set_selected (self->order_dropdown, g_strcmp0 (order, "breadth") == 0 ? 1 : 0);
  g_auto (GStrv) modes = g_settings_get_strv (self->settings, "modes");
  for (int m = 0; m < MS_MODE_COUNT; m++)
    gtk_check_button_set_active (self->mode_checks[m],
                                 g_strv_contains ((const char *const *) modes, ms_mode_name (m)));
}

/* ---- views ----------------------------------------------------------------- */

static const MsResults *
timeline_run (MsWindow *self)
{
  guint r = gtk_drop_down_get_selected (GTK_DROP_DOWN (self->tl_run_dd));
  if (r == GTK_INVALID_LIST_POSITION || r >= self->runs->len)
    return self->runs->len ? g_ptr_array_index (self->runs, 0) : NULL;
  return g_ptr_array_index (self->runs, r);
}

static int
selected_exponent (GtkWidget *dropdown)
{
  GtkStringObject *o = gtk_drop_down_get_selected_item (GTK_DROP_DOWN (dropdown));
  if (!o)
    return -1;
  return atoi (gtk_string_object_get_string (o) + 2); /* "2^20 · 4 MiB" */
}

/* Keeps a dropdown's items equal to `items`, preserving the selection by
 * text where it can. */
static void
sync_dropdown (GtkWidget *dropdown, GPtrArray *items)
{
  GtkDropDown *dd = GTK_DROP_DOWN (dropdown);
  GtkStringList *list = GTK_STRING_LIST (gtk_drop_down_get_model (dd));
  guint n = g_list_model_get_n_items (G_LIST_MODEL (list));
  gboolean same = n == items->len;
  for (guint i = 0; same && i < n; i++)
    same = g_strcmp0 (gtk_string_list_get_string (list, i), g_ptr_array_index (items, i)) == 0;
  if (same)
    return;
  GtkStringObject *sel = gtk_drop_down_get_selected_item (dd);
  g_autofree char *keep = sel ? g_strdup (gtk_string_object_get_string (sel)) : NULL;
  g_ptr_array_add (items, NULL);
  gtk_string_list_splice (list, 0, n, (const char *const *) items->pdata);
  g_ptr_array_remove_index (items, items->len - 1);
  guint pos = items->len ? items->len - 1 : GTK_INVALID_LIST_POSITION;
  for (guint i = 0; keep && i < items->len; i++)
    if (g_strcmp0 (g_ptr_array_index (items, i), keep) == 0)
      pos = i;
  gtk_drop_down_set_selected (dd, pos);
}

static void
update_timeline (MsWindow *self)
{
  const MsResults *run = timeline_run (self);
  const MsCell *cell = NULL;
  int rep = gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (self->tl_rep_spin)) - 1;
  guint m = gtk_drop_down_get_selected (GTK_DROP_DOWN (self->tl_mode_dd));
  int e = selected_exponent (self->tl_size_dd);
  if (run && m < MS_MODE_COUNT && e >= 0)
    cell = ms_results_find (run, m, e);
  int reps = cell ? MAX (cell->n_reps, 1) : 1;
  gtk_spin_button_set_range (GTK_SPIN_BUTTON (self->tl_rep_spin), 1, reps);
  /* Repetition 1 carries the allocation, made before the warm-ups; start
   * on a plain repetition. */
  if (!self->tl_rep_chosen && reps > 1 && rep == 0) {
    rep = 1;
    g_signal_handlers_block_by_func (self->tl_rep_spin, update_timeline, self);
    gtk_spin_button_set_value (GTK_SPIN_BUTTON (self->tl_rep_spin), 2);
    g_signal_handlers_unblock_by_func (self->tl_rep_spin, update_timeline, self);
  }
  rep = CLAMP (rep, 0, reps - 1);
  g_autofree char *title = NULL;
  if (cell) {
    char size[32];
    ms_format_bytes (cell->elements * sizeof (float), size, sizeof size);
    title = g_strdup_printf (_("%s, 2^%d (%s per vector), repetition %d of %d%s"),
                             ms_mode_title (cell->mode), cell->exponent, size, rep + 1,
                             cell->n_reps, rep == 0 ? _(" (shows the allocation)") : "");
  }
  ms_timeline_view_set_cell (MS_TIMELINE_VIEW (self->timeline_view), cell, rep, title);
}

/* ---- the table ----------------------------------------------------------- */

#define MS_TYPE_ROW (ms_row_get_type ())
G_DECLARE_FINAL_TYPE (MsRow, ms_row, MS, ROW, GObject)

struct _MsRow {
  GObject parent_instance;
  char *run;
  MsCell cell; /* a copy without events */
};

G_DEFINE_FINAL_TYPE (MsRow, ms_row, G_TYPE_OBJECT)

static void
ms_row_finalize (GObject *object)
{
  MsRow *row = MS_ROW (object);
  g_free (row->run);
  G_OBJECT_CLASS (ms_row_parent_class)->finalize (object);
}

static void
ms_row_class_init (MsRowClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = ms_row_finalize;
}

static void
ms_row_init (MsRow *row)
{
}

enum {
  COL_RUN,
  COL_MODE,
  COL_SIZE,
  COL_STATUS,
  COL_E2E,
  COL_E2E_MIN,
  COL_E2E_MAX,
  COL_E2E_GBPS,
  COL_H2D_GBPS,
  COL_D2H_GBPS,
  COL_KERNEL,
  COL_MESSAGE,
  N_TABLE_COLS
};

static const char *col_titles[N_TABLE_COLS] = {
  N_ ("Run"),       N_ ("Mode"),       N_ ("Size"),        N_ ("Status"),
  N_ ("E2E µs"),    N_ ("min µs"),     N_ ("max µs"),      N_ ("E2E GB/s"),
  N_ ("h2d GB/s"),  N_ ("d2h GB/s"),   N_ ("kernel µs"),   N_ ("Reason"),
};

static double
row_number (const MsRow *row, int col)
{
  const MsCellStats *st = &row->cell.stats;
  gboolean ok = row->cell.status == MS_CELL_OK;
  switch (col) {
  case COL_SIZE: return (double) row->cell.elements;
  case COL_E2E: return ok ? st->e2e.median : NAN;
  case COL_E2E_MIN: return ok ? st->e2e.min : NAN;
  case COL_E2E_MAX: return ok ? st->e2e.max : NAN;
  case COL_E2E_GBPS: return ok ? st->e2e_gbps : NAN;
  case COL_H2D_GBPS: return ok && st->h2d_gbps > 0 ? st->h2d_gbps : NAN;
  case COL_D2H_GBPS: return ok && st->d2h_gbps > 0 ? st->d2h_gbps : NAN;
  case COL_KERNEL: return ok && st->phase[MS_PHASE_KERNEL].n ? st->phase[MS_PHASE_KERNEL].median : NAN;
  default: return NAN;
  }
}

static char *
row_text (const MsRow *row, int col)
{
  char buf[64];
  switch (col) {
  case COL_RUN: return g_strdup (row->run);
  case COL_MODE: return g_strdup (ms_mode_name (row->cell.mode));
  case COL_SIZE:
    ms_format_bytes (row->cell.elements * sizeof (float), buf, sizeof buf);
    return g_strdup_printf ("2^%d · %s", row->cell.exponent, buf);
  case COL_STATUS: return g_strdup (ms_cell_status_name (row->cell.status));
  case COL_MESSAGE: return g_strdup (row->cell.message);
  default: {
    double v = row_number (row, col);
    if (isnan (v))
      return g_strdup ("—");
    return g_strdup_printf (v >= 100 ? "%.1f" : "%.2f", v);
  }
  }
}

static void
table_setup (GtkSignalListItemFactory *f, GtkListItem *item, gpointer col)
{
  GtkWidget *label = gtk_label_new (NULL);
  int c = GPOINTER_TO_INT (col);
  gtk_label_set_xalign (GTK_LABEL (label), c >= COL_E2E && c <= COL_KERNEL ? 1 : 0);
  if (c >= COL_E2E && c <= COL_KERNEL)
    gtk_widget_add_css_class (label, "numeric");
  if (c == COL_MESSAGE)
    gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_list_item_set_child (item, label);
}

static void
table_bind (GtkSignalListItemFactory *f, GtkListItem *item, gpointer col)
{
  MsRow *row = gtk_list_item_get_item (item);
  g_autofree char *text = row_text (row, GPOINTER_TO_INT (col));
  GtkWidget *label = gtk_list_item_get_child (item);
  gtk_label_set_text (GTK_LABEL (label), text);
  if (GPOINTER_TO_INT (col) == COL_MESSAGE)
    gtk_widget_set_tooltip_text (label, text[0] ? text : NULL);
}

static int
table_compare (gconstpointer a, gconstpointer b, gpointer col)
{
  const MsRow *x = a, *y = b;
  int c = GPOINTER_TO_INT (col);
  if (c == COL_RUN || c == COL_MODE || c == COL_STATUS || c == COL_MESSAGE) {
    if (c == COL_MODE)
      return (x->cell.mode > y->cell.mode) - (x->cell.mode < y->cell.mode);
    g_autofree char *s = row_text (x, c), *t = row_text (y, c);
    return g_strcmp0 (s, t);
  }
  double u = row_number (x, c), v = row_number (y, c);
  /* Rows without a number sort last either way round. */
  if (isnan (u) || isnan (v))
    return isnan (u) - isnan (v);
  return (u > v) - (u < v);
}

static void
refresh_table (MsWindow *self)
{
  g_list_store_remove_all (self->table_store);
  for (guint r = 0; r < self->runs->len; r++) {
    const MsResults *run = g_ptr_array_index (self->runs, r);
    for (size_t i = 0; i < run->n_cells; i++) {
      MsRow *row = g_object_new (MS_TYPE_ROW, NULL);
      row->run = g_strdup (run->label);
      row->cell = run->cells[i];
      row->cell.events = NULL; /* the table needs the summary only */
      row->cell.n_events = 0;
      row->cell.e2e_us = NULL;
      g_list_store_append (self->table_store, row);
      g_object_unref (row);
    }
  }
}

static char *
selected_rows_csv (MsWindow *self)
{
  GString *out = g_string_new ("run,mode,elements,status,e2e_median_us,e2e_min_us,e2e_max_us,"
                               "e2e_gbps,h2d_gbps,d2h_gbps,kernel_median_us,message\n");
  GtkBitset *sel = gtk_selection_model_get_selection (GTK_SELECTION_MODEL (self->table_selection));
  GListModel *model = G_LIST_MODEL (self->table_selection);
  GtkBitsetIter iter;
  guint pos;
  for (gboolean ok = gtk_bitset_iter_init_first (&iter, sel, &pos); ok;
       ok = gtk_bitset_iter_next (&iter, &pos)) {
    g_autoptr (MsRow) row = g_list_model_get_item (model, pos);
    g_autofree char *run = g_strescape (row->run, NULL), *msg = g_strescape (row->cell.message, NULL);
    g_string_append_printf (out, "\"%s\",%s,%llu,%s", run, ms_mode_name (row->cell.mode),
                            (unsigned long long) row->cell.elements,
                            ms_cell_status_name (row->cell.status));
    int cols[] = { COL_E2E, COL_E2E_MIN, COL_E2E_MAX, COL_E2E_GBPS, COL_H2D_GBPS, COL_D2H_GBPS,
                   COL_KERNEL };
    for (guint i = 0; i < G_N_ELEMENTS (cols); i++) {
      double v = row_number (row, cols[i]);
      char num[G_ASCII_DTOSTR_BUF_SIZE];
      g_string_append_c (out, ',');
      if (!isnan (v))
        g_string_append (out, g_ascii_formatd (num, sizeof num, "%.3f", v));
    }
    /* A reason that starts like a formula is neutralised, as in exports. */
    g_string_append_printf (out, ",\"%s%s\"\n", strchr ("=+-@", msg[0]) && msg[0] ? "'" : "", msg);
  }
  gtk_bitset_unref (sel);
  return g_string_free (out, FALSE);
}

/* ---- refresh --------------------------------------------------------------- */

static void
refresh_views (MsWindow *self)
{
  ms_plot_view_set_runs (MS_PLOT_VIEW (self->bandwidth_view), self->runs);
  ms_plot_view_set_runs (MS_PLOT_VIEW (self->time_view), self->runs);

  /* Runs, sizes for the timeline and breakdown pickers. */
  g_autoptr (GPtrArray) run_names = g_ptr_array_new_with_free_func (g_free);
  gboolean present[MS_MAX_EXPONENT + 1] = { FALSE };
  for (guint r = 0; r < self->runs->len; r++) {
    const MsResults *run = g_ptr_array_index (self->runs, r);
    g_ptr_array_add (run_names, g_strdup (run->label));
    for (size_t i = 0; i < run->n_cells; i++)
      present[run->cells[i].exponent] = TRUE;
  }
  g_autoptr (GPtrArray) sizes = g_ptr_array_new_with_free_func (g_free);
  for (int e = 0; e <= MS_MAX_EXPONENT; e++)
    if (present[e]) {
      char b[32];
      ms_format_bytes ((1ull << e) * sizeof (float), b, sizeof b);
      g_ptr_array_add (sizes, g_strdup_printf ("2^%d · %s", e, b));
    }
  sync_dropdown (self->tl_run_dd, run_names);
  gtk_widget_set_visible (gtk_widget_get_parent (self->tl_run_dd), self->runs->len > 1);
  sync_dropdown (self->tl_size_dd, sizes);
  sync_dropdown (self->bd_size_dd, sizes);
  update_timeline (self);
  ms_breakdown_view_set_runs (MS_BREAKDOWN_VIEW (self->breakdown_view), self->runs,
                              selected_exponent (self->bd_size_dd));
  refresh_table (self);
  update_actions (self);
}

static void
apply_scale (MsWindow *self)
{
  ms_plot_view_set_scale (MS_PLOT_VIEW (self->bandwidth_view), &self->scale);
  ms_plot_view_set_scale (MS_PLOT_VIEW (self->time_view), &self->scale);
  ms_timeline_view_set_scale (MS_TIMELINE_VIEW (self->timeline_view), &self->scale);
  ms_breakdown_view_set_scale (MS_BREAKDOWN_VIEW (self->breakdown_view), &self->scale);
}

/* ---- files ------------------------------------------------------------------ */

static gboolean
add_run (MsWindow *self, MsResults *results)
{
  /* The same file twice is one comparison, not two. */
  for (guint i = 0; i < self->runs->len; i++) {
    MsResults *r = g_ptr_array_index (self->runs, i);
    if (r != self->live && g_strcmp0 (r->label, results->label) == 0 &&
        g_strcmp0 (r->date, results->date) == 0) {
      ms_results_free (results);
      return FALSE;
    }
  }
  g_ptr_array_add (self->runs, results);
  refresh_views (self);
  return TRUE;
}

static void
label_loaded_run (MsResults *r)
{
  g_autofree char *label = ms_plot_run_label (r);
  g_snprintf (r->label, sizeof r->label, "%s", label);
}

gboolean
ms_window_load_path (MsWindow *self, const char *path, GError **error)
{
  char err[512];
  MsResults *r = ms_csv_read_samples (path, err, sizeof err);
  if (!r) {
    g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, err);
    return FALSE;
  }
  label_loaded_run (r);
  add_run (self, r);
  return TRUE;
}

static void
load_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  char err[512];
  MsResults *r = ms_csv_read_samples (task_data, err, sizeof err);
  if (r) {
    label_loaded_run (r);
    g_task_return_pointer (task, r, (GDestroyNotify) ms_results_free);
  } else {
    g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s", err);
  }
}

static void
load_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  g_autoptr (GError) error = NULL;
  GWeakRef *ref = user_data;
  g_autoptr (MsWindow) self = g_weak_ref_get (ref);
  MsResults *r = g_task_propagate_pointer (G_TASK (result), &error);
  g_weak_ref_clear (ref);
  g_free (ref);
  if (!self) {
    ms_results_free (r);
    return;
  }
  if (!r) {
    toast (self, error->message);
    return;
  }
  g_autofree char *msg = g_strdup_printf (_("Opened %s"), r->label);
  if (add_run (self, r))
    toast (self, msg);
}

void
ms_window_open_file (MsWindow *self, GFile *file)
{
  g_autofree char *path = g_file_get_path (file);
  if (!path) {
    g_autofree char *uri = g_file_get_uri (file);
    g_autofree char *msg = g_strdup_printf (_("%s: only local files can be opened"), uri);
    toast (self, msg);
    return;
  }
  /* The worker gets its own copy of the path; the window is not the task's
   * source object, so it may go away while the file loads. */
  GWeakRef *ref = g_new0 (GWeakRef, 1);
  g_weak_ref_init (ref, self);
  GTask *task = g_task_new (NULL, NULL, load_done, ref);
  g_task_set_task_data (task, g_strdup (path), g_free);
  g_task_run_in_thread (task, load_thread);
  g_object_unref (task);
}

static MsResults *
export_run (MsWindow *self)
{
  /* The live sweep when there is one, else the newest file. */
  if (self->live)
    return self->live;
  return self->runs->len ? g_ptr_array_index (self->runs, self->runs->len - 1) : NULL;
}

gboolean
ms_window_export_csv (MsWindow *self, const char *path, gboolean summary, GError **error)
{
  char err[512];
  MsResults *run = export_run (self);
  if (!run) {
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, "%s: nothing to export", path);
    return FALSE;
  }
  gboolean ok = summary ? ms_csv_write_summary (run, path, err, sizeof err)
                        : ms_csv_write_samples (run, path, err, sizeof err);
  if (!ok)
    g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED, err);
  return ok;
}

typedef struct {
  MsWindow *self;
  MsChartStyle style;
} ExportCtx;

static void
export_draw (cairo_t *cr, double w, double h, gpointer data)
{
  ExportCtx *x = data;
  MsWindow *self = x->self;
  switch (ms_window_get_view (self)) {
  case MS_VIEW_TIMELINE: {
    MsTimelineView *tv = MS_TIMELINE_VIEW (self->timeline_view);
    const MsResults *run = timeline_run (self);
    guint m = gtk_drop_down_get_selected (GTK_DROP_DOWN (self->tl_mode_dd));
    int e = selected_exponent (self->tl_size_dd);
    const MsCell *cell = run && m < MS_MODE_COUNT && e >= 0 ? ms_results_find (run, m, e) : NULL;
    int rep = gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (self->tl_rep_spin)) - 1;
    ms_timeline_draw (cr, cell, rep, ms_timeline_view_get_window (tv), &x->style, w, h,
                      cell ? ms_mode_title (cell->mode) : NULL, NULL);
    break;
  }
  case MS_VIEW_BREAKDOWN:
    ms_breakdown_draw (cr, self->runs, selected_exponent (self->bd_size_dd), &x->style, w, h);
    break;
  case MS_VIEW_TIME:
    ms_chart_draw (cr, ms_plot_view_get_data (MS_PLOT_VIEW (self->time_view)), &x->style, w, h, -1,
                   NULL);
    break;
  default:
    ms_chart_draw (cr, ms_plot_view_get_data (MS_PLOT_VIEW (self->bandwidth_view)), &x->style, w,
                   h, -1, NULL);
    break;
  }
}

gboolean
ms_window_export_chart (MsWindow *self, const char *path, int width, int height, GError **error)
{
  ExportCtx x = { self };
  /* Files for reports are light whatever the screen shows; scale text with
   * the image so a large export stays legible. */
  ms_chart_style_init_light (&x.style);
  x.style.text_scale = self->scale.text_scale * MAX (1.0, width / 1400.0);
  x.style.line_scale = self->scale.line_scale * MAX (1.0, width / 1400.0);
  return ms_export_drawing (path, width, height, export_draw, &x, error);
}

/* ---- actions --------------------------------------------------------------- */

void
ms_window_start_sweep (MsWindow *self)
{
  MsSweep s;
  char err[256];
  if (self->job)
    return;
  read_sweep (self, &s);
  if (!ms_sweep_validate (&s, err, sizeof err)) {
    toast (self, err);
    return;
  }
  save_settings (self);
  MsDeviceInfo info = { 0 };
  if (s.device >= 0 && self->devices && (guint) s.device < self->devices->len)
    info = g_array_index (self->devices, MsDeviceInfo, s.device);
  /* A new live run replaces the previous live one; opened files stay. */
  if (self->live)
    g_ptr_array_remove (self->runs, self->live);
  self->live = ms_results_new (&s, &info);
  g_snprintf (self->live->label, sizeof self->live->label, "%s", _("this sweep"));
  g_ptr_array_insert (self->runs, 0, self->live);

  MsSweepJob *job = g_new0 (MsSweepJob, 1);
  g_atomic_ref_count_init (&job->ref);
  job->sweep = s;
  g_weak_ref_init (&job->window, self);
  job->context = g_main_context_ref_thread_default ();
  self->job = job;
  self->sweep_started_us = g_get_monotonic_time ();
  gtk_progress_bar_set_fraction (self->progress_bar, 0);
  gtk_progress_bar_set_text (self->progress_bar, _("Starting…"));
  gtk_revealer_set_reveal_child (self->progress_revealer, TRUE);

  GTask *task = g_task_new (NULL, NULL, sweep_done, sweep_job_ref (job));
  g_task_set_task_data (task, sweep_job_ref (job), (GDestroyNotify) sweep_job_unref);
  g_task_run_in_thread (task, sweep_thread);
  g_object_unref (task);
  sweep_job_unref (job); /* the window's pointer is borrowed from the task */
  self->job = job;
  refresh_views (self);
}

static void
action_run (GSimpleAction *a, GVariant *p, gpointer data)
{
  ms_window_start_sweep (MS_WINDOW (data));
}

static void
action_stop (GSimpleAction *a, GVariant *p, gpointer data)
{
  MsWindow *self = data;
  if (self->job)
    atomic_store (&self->job->cancel, 1);
}

static void
on_open_response (GtkNativeDialog *dialog, int response, MsWindow *self)
{
  if (response == GTK_RESPONSE_ACCEPT) {
    g_autoptr (GListModel) files = gtk_file_chooser_get_files (GTK_FILE_CHOOSER (dialog));
    for (guint i = 0; i < g_list_model_get_n_items (files); i++) {
      g_autoptr (GFile) f = g_list_model_get_item (files, i);
      ms_window_open_file (self, f);
    }
  }
  g_object_unref (dialog);
}

static GtkFileFilter *
csv_filter (void)
{
  GtkFileFilter *f = gtk_file_filter_new ();
  gtk_file_filter_set_name (f, _("CSV files"));
  gtk_file_filter_add_pattern (f, "*.csv");
  gtk_file_filter_add_mime_type (f, "text/csv");
  return f;
}

static void
action_open (GSimpleAction *a, GVariant *p, gpointer data)
{
  MsWindow *self = data;
  GtkFileChooserNative *d = gtk_file_chooser_native_new (
    _("Open memsweep samples"), GTK_WINDOW (self), GTK_FILE_CHOOSER_ACTION_OPEN, _("_Open"),
    _("_Cancel"));
  gtk_file_chooser_set_select_multiple (GTK_FILE_CHOOSER (d), TRUE);
  g_autoptr (GtkFileFilter) f = csv_filter ();
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (d), f);
  g_signal_connect (d, "response", G_CALLBACK (on_open_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (d));
}

static void
on_export_csv_response (GtkNativeDialog *dialog, int response, MsWindow *self)
{
  if (response == GTK_RESPONSE_ACCEPT) {
    g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
    g_autofree char *path = g_file_get_path (file);
    const char *kind = gtk_file_chooser_get_choice (GTK_FILE_CHOOSER (dialog), "kind");
    g_autoptr (GError) error = NULL;
    if (!path)
      toast (self, _("Only local files can be written"));
    else if (!ms_window_export_csv (self, path, g_strcmp0 (kind, "summary") == 0, &error))
      toast (self, error->message);
    else {
      g_autofree char *msg = g_strdup_printf (_("Saved %s"), path);
      toast (self, msg);
    }
  }
  g_object_unref (dialog);
}

static void
action_export_csv (GSimpleAction *a, GVariant *p, gpointer data)
{
  MsWindow *self = data;
  GtkFileChooserNative *d = gtk_file_chooser_native_new (
    _("Export CSV"), GTK_WINDOW (self), GTK_FILE_CHOOSER_ACTION_SAVE, _("_Save"), _("_Cancel"));
  const char *ids[] = { "samples", "summary", NULL };
  const char *labels[] = { _("Samples (every phase of every repetition)"),
                           _("Summary (medians, spreads, bandwidths)"), NULL };
  gtk_file_chooser_add_choice (GTK_FILE_CHOOSER (d), "kind", _("Contents"), ids, labels);
  gtk_file_chooser_set_choice (GTK_FILE_CHOOSER (d), "kind", "samples");
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (d), "memsweep-samples.csv");
  g_autoptr (GtkFileFilter) f = csv_filter ();
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (d), f);
  g_signal_connect (d, "response", G_CALLBACK (on_export_csv_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (d));
}

typedef struct {
  MsWindow *self;
  int width, height;
} ChartExport;

static void
on_export_chart_response (GtkNativeDialog *dialog, int response, ChartExport *ce)
{
  if (response == GTK_RESPONSE_ACCEPT) {
    g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
    g_autofree char *path = g_file_get_path (file);
    const char *fmt = gtk_file_chooser_get_choice (GTK_FILE_CHOOSER (dialog), "format");
    g_autoptr (GError) error = NULL;
    if (path && !ms_export_format_known (path)) {
      char *with_ext = g_strdup_printf ("%s.%s", path, fmt ? fmt : "png");
      g_free (path);
      path = with_ext;
    }
    if (!path)
      toast (ce->self, _("Only local files can be written"));
    else if (!ms_window_export_chart (ce->self, path, ce->width, ce->height, &error))
      toast (ce->self, error->message);
    else {
      g_autofree char *msg = g_strdup_printf (_("Saved %s"), path);
      toast (ce->self, msg);
    }
  }
  g_object_unref (dialog);
  g_free (ce);
}

static void
on_chart_size_response (AdwMessageDialog *dialog, const char *response, MsWindow *self)
{
  if (g_strcmp0 (response, "export") != 0)
    return;
  GtkWidget *grid = adw_message_dialog_get_extra_child (dialog);
  ChartExport *ce = g_new0 (ChartExport, 1);
  ce->self = self;
  ce->width = gtk_spin_button_get_value_as_int (
    GTK_SPIN_BUTTON (gtk_grid_get_child_at (GTK_GRID (grid), 1, 0)));
  ce->height = gtk_spin_button_get_value_as_int (
    GTK_SPIN_BUTTON (gtk_grid_get_child_at (GTK_GRID (grid), 1, 1)));
  GtkFileChooserNative *d = gtk_file_chooser_native_new (
    _("Export Chart"), GTK_WINDOW (self), GTK_FILE_CHOOSER_ACTION_SAVE, _("_Save"), _("_Cancel"));
  const char *ids[] = { "png", "svg", "pdf", NULL };
  const char *labels[] = { "PNG", "SVG", "PDF", NULL };
  gtk_file_chooser_add_choice (GTK_FILE_CHOOSER (d), "format", _("Format (if the name has no extension)"), ids, labels);
  gtk_file_chooser_set_choice (GTK_FILE_CHOOSER (d), "format", "png");
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (d), "memsweep-chart.png");
  g_signal_connect (d, "response", G_CALLBACK (on_export_chart_response), ce);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (d));
}

static void
action_export_chart (GSimpleAction *a, GVariant *p, gpointer data)
{
  MsWindow *self = data;
  if (ms_window_get_view (self) == MS_VIEW_TABLE) {
    toast (self, _("The table exports as CSV; pick a chart view to export a chart"));
    return;
  }
  GtkWidget *dialog = adw_message_dialog_new (GTK_WINDOW (self), _("Export Chart"),
                                              _("Size of the image in pixels. PNG, SVG and PDF "
                                                "are drawn by the same code as the screen."));
  GtkWidget *grid = gtk_grid_new ();
  gtk_grid_set_row_spacing (GTK_GRID (grid), 6);
  gtk_grid_set_column_spacing (GTK_GRID (grid), 12);
  gtk_widget_set_halign (grid, GTK_ALIGN_CENTER);
  const char *names[] = { _("Width"), _("Height") };
  int values[] = { 1600, 1000 };
  for (int i = 0; i < 2; i++) {
    GtkWidget *label = gtk_label_new (names[i]);
    GtkWidget *spin = gtk_spin_button_new_with_range (16, 16384, 10);
    gtk_spin_button_set_value (GTK_SPIN_BUTTON (spin), values[i]);
    gtk_grid_attach (GTK_GRID (grid), label, 0, i, 1, 1);
    gtk_grid_attach (GTK_GRID (grid), spin, 1, i, 1, 1);
  }
  adw_message_dialog_set_extra_child (ADW_MESSAGE_DIALOG (dialog), grid);
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog), "cancel", _("_Cancel"), "export",
                                    _("_Choose File…"), NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "export",
                                              ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "export");
  g_signal_connect (dialog, "response", G_CALLBACK (on_chart_size_response), self);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
action_reference (GSimpleAction *a, GVariant *p, gpointer data)
{
  MsWindow *self = data;
  g_autoptr (GFile) f = g_file_new_for_path (g_variant_get_string (p, NULL));
  ms_window_open_file (self, f);
}

static void
action_clear_runs (GSimpleAction *a, GVariant *p, gpointer data)
{
  MsWindow *self = data;
  for (guint i = self->runs->len; i-- > 0;)
    if (g_ptr_array_index (self->runs, i) != self->live)
      g_ptr_array_remove_index (self->runs, i);
  refresh_views (self);
}

static void
set_presentation (MsWindow *self, gboolean on)
{
  self->presentation = on;
  self->scale.text_scale = on ? 1.6 : 1.0;
  self->scale.line_scale = on ? 2.0 : 1.0;
  self->scale.high_contrast = on;
  /* The settings give way to the chart in front of a class. */
  gtk_widget_set_visible (gtk_paned_get_start_child (self->paned), !on);
  if (on) {
    gtk_widget_add_css_class (GTK_WIDGET (self), "presentation");
    gtk_window_fullscreen (GTK_WINDOW (self));
  } else {
    gtk_widget_remove_css_class (GTK_WIDGET (self), "presentation");
    gtk_window_unfullscreen (GTK_WINDOW (self));
  }
  apply_scale (self);
}

static void
action_presentation (GSimpleAction *a, GVariant *p, gpointer data)
{
  MsWindow *self = data;
  set_presentation (self, !self->presentation);
  g_simple_action_set_state (a, g_variant_new_boolean (self->presentation));
}

static void
action_text_scale (GSimpleAction *a, GVariant *p, gpointer data)
{
  MsWindow *self = data;
  int dir = g_variant_get_int32 (p);
  double base = self->presentation ? 1.6 : 1.0;
  self->scale.text_scale =
    dir == 0 ? base : CLAMP (self->scale.text_scale * (dir > 0 ? 1.15 : 1 / 1.15), 0.6, 4.0);
  apply_scale (self);
}

static void
action_view (GSimpleAction *a, GVariant *p, gpointer data)
{
  ms_window_set_view (MS_WINDOW (data), (MsViewKind) g_variant_get_int32 (p));
}

static void
action_timeline_zoom (GSimpleAction *a, GVariant *p, gpointer data)
{
  MsWindow *self = data;
  int dir = g_variant_get_int32 (p);
  if (dir == 0)
    ms_timeline_view_reset_zoom (MS_TIMELINE_VIEW (self->timeline_view));
  else
    ms_timeline_view_zoom (MS_TIMELINE_VIEW (self->timeline_view), dir > 0 ? 1.5 : 1 / 1.5);
}

static void
action_copy_rows (GSimpleAction *a, GVariant *p, gpointer data)
{
  MsWindow *self = data;
  g_autofree char *csv = selected_rows_csv (self);
  gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (self)), csv);
  toast (self, _("Copied the selected rows as CSV"));
}

static const GActionEntry win_actions[] = {
  { "run", action_run },
  { "stop", action_stop },
  { "open", action_open },
  { "export-csv", action_export_csv },
  { "export-chart", action_export_chart },
  { "reference", action_reference, "s" },
  { "clear-runs", action_clear_runs },
  { "presentation", NULL, NULL, "false", NULL },
  { "text-scale", action_text_scale, "i" },
  { "view", action_view, "i" },
  { "timeline-zoom", action_timeline_zoom, "i" },
  { "copy-rows", action_copy_rows },
};

/* ---- device discovery off the main thread --------------------------------- */

static void
discover_thread (GTask *task, gpointer source, gpointer data, GCancellable *c)
{
  GArray *devices = g_array_new (FALSE, TRUE, sizeof (MsDeviceInfo));
  MsBackend *backend = ms_backend_new_system ();
  MsDeviceInfo info;
  gboolean ok = ms_backend_query_device (backend, 0, &info);
  g_array_append_val (devices, info);
  for (int i = 1; ok && i < info.count && i < 16; i++) {
    MsDeviceInfo more;
    ms_backend_query_device (backend, i, &more);
    g_array_append_val (devices, more);
  }
  ms_backend_free (backend);
  g_task_return_pointer (task, devices, (GDestroyNotify) g_array_unref);
}

static void
discover_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  GWeakRef *ref = user_data;
  g_autoptr (MsWindow) self = g_weak_ref_get (ref);
  GArray *devices = g_task_propagate_pointer (G_TASK (result), NULL);
  g_weak_ref_clear (ref);
  g_free (ref);
  if (!self) {
    g_array_unref (devices);
    return;
  }
  self->discovering = FALSE;
  g_clear_pointer (&self->devices, g_array_unref);
  self->devices = devices;
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < devices->len; i++) {
    const MsDeviceInfo *d = &g_array_index (devices, MsDeviceInfo, i);
    if (d->present)
      g_ptr_array_add (names, g_strdup_printf ("%u: %s", i, d->name));
  }
  if (names->len == 0)
    g_ptr_array_add (names, g_strdup (_("No GPU")));
  GtkStringList *list = gtk_string_list_new (NULL);
  for (guint i = 0; i < names->len; i++)
    gtk_string_list_append (list, g_ptr_array_index (names, i));
  gtk_drop_down_set_model (self->device_dropdown, G_LIST_MODEL (list));
  g_object_unref (list);
  if (!have_gpu (self)) {
    const MsDeviceInfo *d = &g_array_index (devices, MsDeviceInfo, 0);
    g_autofree char *text = g_strdup_printf (
      _("No sweep of GPU modes can run here: %s. The host mode, the reference runs (main menu) "
        "and opening CSV files work."),
      d->error[0] ? d->error : _("no CUDA device"));
    gtk_label_set_text (self->banner_label, text);
    gtk_info_bar_set_revealed (self->banner, TRUE);
  }
  update_actions (self);
  if (self->run_when_ready) {
    self->run_when_ready = FALSE;
    g_action_group_activate_action (G_ACTION_GROUP (self), "run", NULL);
  }
}

/* ---- construction ------------------------------------------------------- */

const char *
ms_reference_dir (void)
{
  static char *dir;
  if (!dir) {
    const char *env = g_getenv ("MEMSWEEP_REFERENCE_DIR");
    if (env && g_file_test (env, G_FILE_TEST_IS_DIR))
      dir = g_strdup (env);
    else if (g_file_test (MS_REFERENCE_DIR, G_FILE_TEST_IS_DIR))
      dir = g_strdup (MS_REFERENCE_DIR);
    else if (g_file_test (MS_SOURCE_REFERENCE_DIR, G_FILE_TEST_IS_DIR))
      dir = g_strdup (MS_SOURCE_REFERENCE_DIR);
  }
  return dir;
}

static void
fill_reference_menu (MsWindow *self)
{
  const char *dir = ms_reference_dir ();
  g_autoptr (GDir) d = dir ? g_dir_open (dir, 0, NULL) : NULL;
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;
  while (d && (name = g_dir_read_name (d)))
    if (g_str_has_suffix (name, "-samples.csv"))
      g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, (GCompareFunc) g_strcmp0);
  for (guint i = 0; i < names->len; i++) {
    const char *file = g_ptr_array_index (names, i);
    g_autofree char *path = g_build_filename (dir, file, NULL);
    g_autofree char *label = g_strndup (file, strlen (file) - strlen ("-samples.csv"));
    GMenuItem *item = g_menu_item_new (label, NULL);
    g_menu_item_set_action_and_target (item, "win.reference", "s", path);
    g_menu_append_item (self->reference_menu, item);
    g_object_unref (item);
  }
  if (names->len == 0) {
    GMenuItem *item = g_menu_item_new (_("None installed"), "win.none");
    g_menu_append_item (self->reference_menu, item);
    g_object_unref (item);
  }
}

static void
on_rep_chosen (MsWindow *self)
{
  self->tl_rep_chosen = TRUE;
}

static GtkWidget *
toolbar (void)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  gtk_widget_set_margin_start (box, 12);
  gtk_widget_set_margin_end (box, 12);
  gtk_widget_set_margin_top (box, 6);
  gtk_widget_set_margin_bottom (box, 6);
  return box;
}

static GtkWidget *
page (GtkWidget *bar, GtkWidget *content)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  if (bar)
    gtk_box_append (GTK_BOX (box), bar);
  gtk_box_append (GTK_BOX (box), content);
  return box;
}

static GtkWidget *
dropdown_with (const char *const *items)
{
  return gtk_drop_down_new (G_LIST_MODEL (gtk_string_list_new (items)), NULL);
}

static void
on_metric_changed (MsWindow *self)
{
  ms_plot_view_set_metric (MS_PLOT_VIEW (self->bandwidth_view),
                           (MsMetric) gtk_drop_down_get_selected (GTK_DROP_DOWN (self->metric_dropdown)));
}

static void
on_log_toggled (MsWindow *self)
{
  ms_plot_view_set_log_y (MS_PLOT_VIEW (self->bandwidth_view),
                          gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (self->log_toggle)));
}

/* The legend from the keyboard: a popover of check buttons, rebuilt from
 * the chart's series each time it opens. */
static void
on_series_check_toggled (GtkCheckButton *check, MsPlotView *view)
{
  ms_plot_view_set_series_hidden (view, gtk_check_button_get_label (check),
                                  !gtk_check_button_get_active (check));
}

static void
on_series_popover_show (GtkPopover *popover, MsPlotView *view)
{
  GtkWidget *box = gtk_popover_get_child (popover);
  GtkWidget *child;
  while ((child = gtk_widget_get_first_child (box)))
    gtk_box_remove (GTK_BOX (box), child);
  const MsChartData *data = ms_plot_view_get_data (view);
  for (guint i = 0; i < data->series->len; i++) {
    const MsChartSeries *s = g_ptr_array_index (data->series, i);
    GtkWidget *check = gtk_check_button_new_with_label (s->label);
    gtk_check_button_set_active (GTK_CHECK_BUTTON (check), !s->hidden);
    g_signal_connect (check, "toggled", G_CALLBACK (on_series_check_toggled), view);
    gtk_box_append (GTK_BOX (box), check);
  }
  if (data->series->len == 0)
    gtk_box_append (GTK_BOX (box), gtk_label_new (_("No series yet")));
}

static GtkWidget *
series_button (GtkWidget *view)
{
  GtkWidget *button = gtk_menu_button_new ();
  gtk_menu_button_set_label (GTK_MENU_BUTTON (button), _("Se_ries"));
  gtk_menu_button_set_use_underline (GTK_MENU_BUTTON (button), TRUE);
  gtk_widget_set_tooltip_text (button, _("Show or hide series (as clicking the legend does)"));
  GtkWidget *popover = gtk_popover_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  gtk_popover_set_child (GTK_POPOVER (popover), box);
  g_signal_connect (popover, "show", G_CALLBACK (on_series_popover_show), view);
  gtk_menu_button_set_popover (GTK_MENU_BUTTON (button), popover);
  return button;
}

static void
on_time_log_toggled (GtkToggleButton *button, MsWindow *self)
{
  ms_plot_view_set_log_y (MS_PLOT_VIEW (self->time_view), gtk_toggle_button_get_active (button));
}

static void
on_breakdown_size (MsWindow *self)
{
  ms_breakdown_view_set_runs (MS_BREAKDOWN_VIEW (self->breakdown_view), self->runs,
                              selected_exponent (self->bd_size_dd));
}

/* A label and its widget in a box of their own, so both hide together. */
static GtkWidget *
labelled (GtkWidget *bar, const char *text, GtkWidget *widget)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *label = gtk_label_new_with_mnemonic (text);
  gtk_label_set_mnemonic_widget (GTK_LABEL (label), widget);
  gtk_box_append (GTK_BOX (box), label);
  gtk_box_append (GTK_BOX (box), widget);
  gtk_box_append (GTK_BOX (bar), box);
  return widget;
}

static void
build_views (MsWindow *self)
{
  /* Bandwidth. */
  GtkWidget *bar = toolbar ();
  const char *metrics[] = { _("End-to-end"), _("Host → device copy"), _("Device → host copy"), NULL };
  self->metric_dropdown = labelled (bar, _("_Show"), dropdown_with (metrics));
  g_signal_connect_swapped (self->metric_dropdown, "notify::selected",
                            G_CALLBACK (on_metric_changed), self);
  self->log_toggle = gtk_toggle_button_new_with_mnemonic (_("_Log scale"));
  gtk_widget_set_tooltip_text (self->log_toggle, _("Logarithmic bandwidth axis"));
  g_signal_connect_swapped (self->log_toggle, "toggled", G_CALLBACK (on_log_toggled), self);

  gtk_box_append (GTK_BOX (bar), self->log_toggle);
  GtkWidget *hint = gtk_label_new (_("Click a legend entry to hide or show it; bars are min–max"));
  gtk_widget_add_css_class (hint, "dim-label");
  gtk_widget_set_hexpand (hint, TRUE);
  gtk_label_set_xalign (GTK_LABEL (hint), 1);
  gtk_label_set_ellipsize (GTK_LABEL (hint), PANGO_ELLIPSIZE_END);
  gtk_box_append (GTK_BOX (bar), hint);
  self->bandwidth_view = ms_plot_view_new (MS_METRIC_E2E_BANDWIDTH);
  /* Bandwidths span three decades (0.1 to 1000 GB/s): log by default. */
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (self->log_toggle), TRUE);
  gtk_box_insert_child_after (GTK_BOX (bar), series_button (self->bandwidth_view), self->log_toggle);
  self->view_pages[MS_VIEW_BANDWIDTH] = page (bar, self->bandwidth_view);

  /* Time: log-log by default, the chart the teaching material draws. */
  bar = toolbar ();
  self->time_view = ms_plot_view_new (MS_METRIC_E2E_TIME);
  ms_plot_view_set_log_y (MS_PLOT_VIEW (self->time_view), TRUE);
  GtkWidget *time_log = gtk_toggle_button_new_with_mnemonic (_("_Log scale"));
  gtk_widget_set_tooltip_text (time_log, _("Logarithmic time axis"));
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (time_log), TRUE);
  g_signal_connect (time_log, "toggled", G_CALLBACK (on_time_log_toggled), self);
  gtk_box_append (GTK_BOX (bar), time_log);
  gtk_box_append (GTK_BOX (bar), series_button (self->time_view));
  self->view_pages[MS_VIEW_TIME] = page (bar, self->time_view);

  /* Timeline. */
  bar = toolbar ();
  self->tl_run_dd = labelled (bar, _("R_un"), dropdown_with (NULL));
  const char *modes[MS_MODE_COUNT + 1];
  for (int m = 0; m < MS_MODE_COUNT; m++)
    modes[m] = ms_mode_title (m);
  modes[MS_MODE_COUNT] = NULL;
  self->tl_mode_dd = labelled (bar, _("_Mode"), dropdown_with (modes));
  gtk_drop_down_set_selected (GTK_DROP_DOWN (self->tl_mode_dd), MS_MODE_PAGEABLE);
  self->tl_size_dd = labelled (bar, _("Si_ze"), dropdown_with (NULL));
  self->tl_rep_spin = labelled (bar, _("Re_petition"), gtk_spin_button_new_with_range (1, 1, 1));
  gtk_widget_set_tooltip_text (self->tl_rep_spin,
                               _("Repetition 1 also shows the allocation, which happened before "
                                 "the warm-up runs"));
  g_signal_connect_swapped (self->tl_run_dd, "notify::selected", G_CALLBACK (update_timeline), self);
  g_signal_connect_swapped (self->tl_mode_dd, "notify::selected", G_CALLBACK (update_timeline), self);
  g_signal_connect_swapped (self->tl_size_dd, "notify::selected", G_CALLBACK (update_timeline), self);
  g_signal_connect_swapped (self->tl_rep_spin, "value-changed", G_CALLBACK (on_rep_chosen), self);
  g_signal_connect_swapped (self->tl_rep_spin, "value-changed", G_CALLBACK (update_timeline), self);
  GtkWidget *zoom_box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  gtk_widget_add_css_class (zoom_box, "linked");
  gtk_widget_set_hexpand (zoom_box, TRUE);
  gtk_widget_set_halign (zoom_box, GTK_ALIGN_END);
  struct { const char *icon, *tip; int dir; } zooms[] = {
    { "zoom-out-symbolic", N_ ("Zoom out (Ctrl+[)"), -1 },
    { "zoom-original-symbolic", N_ ("Whole repetition"), 0 },
    { "zoom-in-symbolic", N_ ("Zoom in (Ctrl+]); the wheel zooms at the pointer, drag to pan"), 1 },
  };
  for (guint i = 0; i < G_N_ELEMENTS (zooms); i++) {
    GtkWidget *b = gtk_button_new_from_icon_name (zooms[i].icon);
    gtk_widget_set_tooltip_text (b, _(zooms[i].tip));
    gtk_actionable_set_action_name (GTK_ACTIONABLE (b), "win.timeline-zoom");
    gtk_actionable_set_action_target (GTK_ACTIONABLE (b), "i", zooms[i].dir);
    gtk_box_append (GTK_BOX (zoom_box), b);
  }
  gtk_box_append (GTK_BOX (bar), zoom_box);
  self->timeline_view = ms_timeline_view_new ();
  self->view_pages[MS_VIEW_TIMELINE] = page (bar, self->timeline_view);

  /* Breakdown. */
  bar = toolbar ();
  self->bd_size_dd = labelled (bar, _("Si_ze"), dropdown_with (NULL));
  g_signal_connect_swapped (self->bd_size_dd, "notify::selected", G_CALLBACK (on_breakdown_size),
                            self);
  self->breakdown_view = ms_breakdown_view_new ();
  self->view_pages[MS_VIEW_BREAKDOWN] = page (bar, self->breakdown_view);

  /* Table. */
  bar = toolbar ();
  GtkWidget *copy = gtk_button_new_with_mnemonic (_("_Copy Selected Rows"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (copy), "win.copy-rows");
  gtk_widget_set_tooltip_text (copy, _("Copy the selected rows as CSV (Ctrl+C)"));
  gtk_box_append (GTK_BOX (bar), copy);
  GtkWidget *tip = gtk_label_new (_("Click a column title to sort"));
  gtk_widget_add_css_class (tip, "dim-label");
  gtk_box_append (GTK_BOX (bar), tip);
  self->table_store = g_list_store_new (MS_TYPE_ROW);
  GtkWidget *cv = gtk_column_view_new (NULL);
  GtkSortListModel *sorted =
    gtk_sort_list_model_new (G_LIST_MODEL (g_object_ref (self->table_store)),
                             g_object_ref (gtk_column_view_get_sorter (GTK_COLUMN_VIEW (cv))));
  self->table_selection = gtk_multi_selection_new (G_LIST_MODEL (sorted));
  gtk_column_view_set_model (GTK_COLUMN_VIEW (cv), GTK_SELECTION_MODEL (self->table_selection));
  gtk_column_view_set_show_column_separators (GTK_COLUMN_VIEW (cv), TRUE);
  gtk_column_view_set_show_row_separators (GTK_COLUMN_VIEW (cv), TRUE);
  for (int c = 0; c < N_TABLE_COLS; c++) {
    GtkListItemFactory *f = gtk_signal_list_item_factory_new ();
    g_signal_connect (f, "setup", G_CALLBACK (table_setup), GINT_TO_POINTER (c));
    g_signal_connect (f, "bind", G_CALLBACK (table_bind), GINT_TO_POINTER (c));
    GtkColumnViewColumn *col = gtk_column_view_column_new (_(col_titles[c]), f);
    GtkSorter *sorter =
      GTK_SORTER (gtk_custom_sorter_new (table_compare, GINT_TO_POINTER (c), NULL));
    gtk_column_view_column_set_sorter (col, sorter);
    g_object_unref (sorter);
    gtk_column_view_column_set_resizable (col, TRUE);
    if (c == COL_MESSAGE)
      gtk_column_view_column_set_expand (col, TRUE);
    gtk_column_view_append_column (GTK_COLUMN_VIEW (cv), col);
    g_object_unref (col);
  }
  self->table_view = cv;
  GtkWidget *scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), cv);
  gtk_widget_set_vexpand (scroller, TRUE);
  self->view_pages[MS_VIEW_TABLE] = page (bar, scroller);

  static const struct { const char *name, *title, *icon; } pages[MS_VIEW_COUNT] = {
    { "bandwidth", N_ ("Bandwidth"), "network-transmit-receive-symbolic" },
    { "time", N_ ("Time"), "preferences-system-time-symbolic" },
    { "timeline", N_ ("Timeline"), "view-continuous-symbolic" },
    { "breakdown", N_ ("Breakdown"), "view-list-symbolic" },
    { "table", N_ ("Table"), "x-office-spreadsheet-symbolic" },
  };
  for (int v = 0; v < MS_VIEW_COUNT; v++)
    adw_view_stack_add_titled_with_icon (self->stack, self->view_pages[v], pages[v].name,
                                         _(pages[v].title), pages[v].icon);
}

static gboolean
on_drop (GtkDropTarget *target, const GValue *value, double x, double y, MsWindow *self)
{
  if (!G_VALUE_HOLDS (value, GDK_TYPE_FILE_LIST))
    return FALSE;
  for (GSList *l = g_value_get_boxed (value); l; l = l->next)
    ms_window_open_file (self, l->data);
  return TRUE;
}

static gboolean
on_close_request (GtkWindow *window)
{
  MsWindow *self = MS_WINDOW (window);
  /* Closing cancels a running sweep; the worker finishes its current
   * repetition and frees everything. */
  if (self->job)
    atomic_store (&self->job->cancel, 1);
  int w, h;
  gtk_window_get_default_size (window, &w, &h);
  g_settings_set_int (self->settings, "window-width", w);
  g_settings_set_int (self->settings, "window-height", h);
  g_settings_set_boolean (self->settings, "window-maximized", gtk_window_is_maximized (window));
  save_settings (self);
  return FALSE;
}

static void
ms_window_dispose (GObject *object)
{
  MsWindow *self = MS_WINDOW (object);
  if (self->job) {
    atomic_store (&self->job->cancel, 1);
    self->job = NULL;
  }
  gtk_widget_dispose_template (GTK_WIDGET (self), MS_TYPE_WINDOW);
  G_OBJECT_CLASS (ms_window_parent_class)->dispose (object);
}

static void
ms_window_finalize (GObject *object)
{
  MsWindow *self = MS_WINDOW (object);
  g_ptr_array_unref (self->runs);
  g_clear_pointer (&self->devices, g_array_unref);
  g_clear_object (&self->settings);
  g_clear_object (&self->table_store);
  g_clear_object (&self->table_selection);
  g_free (self->run_blocker);
  G_OBJECT_CLASS (ms_window_parent_class)->finalize (object);
}

static void
ms_window_class_init (MsWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  object_class->dispose = ms_window_dispose;
  object_class->finalize = ms_window_finalize;
  GTK_WINDOW_CLASS (klass)->close_request = on_close_request;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/memsweep/Memsweep/ms-window.ui");
#define CHILD(name) gtk_widget_class_bind_template_child (widget_class, MsWindow, name)
  CHILD (toasts);
  CHILD (run_button);
  CHILD (stop_button);
  CHILD (device_dropdown);
  CHILD (banner);
  CHILD (banner_label);
  CHILD (progress_revealer);
  CHILD (progress_bar);
  CHILD (min_exp_spin);
  CHILD (max_exp_spin);
  CHILD (step_spin);
  CHILD (reps_spin);
  CHILD (warmup_spin);
  CHILD (streams_spin);
  CHILD (min_exp_label);
  CHILD (max_exp_label);
  CHILD (sweep_summary);
  CHILD (order_dropdown);
  CHILD (modes_box);
  CHILD (stack);
  CHILD (paned);
  CHILD (reference_menu);
#undef CHILD
}

static void
ms_window_init (MsWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->runs = g_ptr_array_new_with_free_func ((GDestroyNotify) ms_results_free);
  self->scale = (MsViewScale){ 1, 1 };
  self->settings = g_settings_new ("io.github.memsweep.Memsweep");

  g_action_map_add_action_entries (G_ACTION_MAP (self), win_actions, G_N_ELEMENTS (win_actions),
                                   self);
  GAction *pres = g_action_map_lookup_action (G_ACTION_MAP (self), "presentation");
  g_signal_connect (pres, "activate", G_CALLBACK (action_presentation), self);

  for (int m = 0; m < MS_MODE_COUNT; m++) {
    GtkWidget *check = gtk_check_button_new_with_label (ms_mode_title (m));
    gtk_widget_set_tooltip_text (check, ms_mode_description (m));
    gtk_box_append (self->modes_box, check);
    self->mode_checks[m] = GTK_CHECK_BUTTON (check);
  }
  build_views (self);
  fill_reference_menu (self);
  load_settings (self);

  GtkSpinButton *spins[] = { self->min_exp_spin, self->max_exp_spin, self->step_spin,
                             self->reps_spin,    self->warmup_spin,  self->streams_spin };
  for (guint i = 0; i < G_N_ELEMENTS (spins); i++)
    g_signal_connect_swapped (spins[i], "value-changed", G_CALLBACK (on_setting_changed), self);
  g_signal_connect_swapped (self->order_dropdown, "notify::selected",
                            G_CALLBACK (on_setting_changed), self);
  for (int m = 0; m < MS_MODE_COUNT; m++)
    g_signal_connect_swapped (self->mode_checks[m], "toggled", G_CALLBACK (on_setting_changed),
                              self);
  g_signal_connect (self->banner, "response", G_CALLBACK (gtk_info_bar_set_revealed), NULL);

  GtkDropTarget *drop = gtk_drop_target_new (GDK_TYPE_FILE_LIST, GDK_ACTION_COPY);
  g_signal_connect (drop, "drop", G_CALLBACK (on_drop), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drop));

  gtk_window_set_default_size (GTK_WINDOW (self), g_settings_get_int (self->settings, "window-width"),
                               g_settings_get_int (self->settings, "window-height"));
  if (g_settings_get_boolean (self->settings, "window-maximized"))
    gtk_window_maximize (GTK_WINDOW (self));

  /* CUDA initialisation takes a moment: find devices off the main thread
   * so the window shows at once. */
  self->discovering = TRUE;
  GWeakRef *ref = g_new0 (GWeakRef, 1);
  g_weak_ref_init (ref, self);
  GTask *task = g_task_new (NULL, NULL, discover_done, ref);
  g_task_run_in_thread (task, discover_thread);
  g_object_unref (task);

  on_setting_changed (self);
  refresh_views (self);
}

MsWindow *
ms_window_new (AdwApplication *app)
{
  return g_object_new (MS_TYPE_WINDOW, "application", app, NULL);
}

void
ms_window_set_view (MsWindow *self, MsViewKind view)
{
  if (view < MS_VIEW_COUNT)
    adw_view_stack_set_visible_child (self->stack, self->view_pages[view]);
}

MsViewKind
ms_window_get_view (MsWindow *self)
{
  GtkWidget *child = adw_view_stack_get_visible_child (self->stack);
  for (int v = 0; v < MS_VIEW_COUNT; v++)
    if (self->view_pages[v] == child)
      return v;
  return MS_VIEW_BANDWIDTH;
}

guint
ms_window_get_n_runs (MsWindow *self)
{
  return self->runs->len;
}

gboolean
ms_window_is_sweeping (MsWindow *self)
{
  return self->job != NULL;
}

const MsResults *
ms_window_get_live (MsWindow *self)
{
  return self->live;
}

char *
ms_window_dup_run_blocker (MsWindow *self)
{
  return g_strdup (self->run_blocker);
}

void
ms_window_run_when_ready (MsWindow *self)
{
  if (self->discovering)
    self->run_when_ready = TRUE;
  else
    g_action_group_activate_action (G_ACTION_GROUP (self), "run", NULL);
}
