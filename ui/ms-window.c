/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-window.c: the main window: the runs shown, device discovery, files,
 * and what the other ms-window-*.c files share. */
#include <glib/gi18n.h>
#include <string.h>

#include "ms-eta.h"
#include "ms-probe.h"
#include "ms-run.h"
#include "ms-window-private.h"

G_DEFINE_FINAL_TYPE (MsWindow, ms_window, ADW_TYPE_APPLICATION_WINDOW)

enum {
  PROP_0,
  PROP_PRESENTATION,
  PROP_HEADER_SHOWN,
  PROP_VIEW,
  PROP_SWEEPING,
  PROP_N_RUNS,
  PROP_RUN_BLOCKER,
  PROP_TOAST_TEXT,
  PROP_PAINTED,
  PROP_SESSION,
  PROP_SCALE_FIRST,
  N_PROPS = PROP_SCALE_FIRST
};
static GParamSpec *props[N_PROPS];

static const char *view_names[MS_VIEW_COUNT] = {
  "bandwidth", "time", "timeline", "breakdown", "table", "compare", "devices", "lessons",
};

void
ms_window_toast (MsWindow *self, const char *text)
{
  /* Text from files, drivers and errors is shown as it is: never as
   * markup, and with invalid UTF-8 made visible. */
  g_autofree char *valid = g_utf8_make_valid (text, -1);
  g_autofree char *markup = g_markup_escape_text (valid, -1);
  AdwToast *t = adw_toast_new (markup);
  adw_toast_set_timeout (t, 6);
  adw_toast_overlay_add_toast (self->toasts, t);
  g_free (self->toast_text);
  self->toast_text = g_steal_pointer (&valid);
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_TOAST_TEXT]);
}

const char *
ms_window_get_toast_text (MsWindow *self)
{
  return self->toast_text;
}

static gboolean
have_gpu (MsWindow *self)
{
  return ms_session_have_gpu (self->session);
}

static void
set_action_enabled (MsWindow *self, const char *name, gboolean enabled)
{
  GAction *action = g_action_map_lookup_action (G_ACTION_MAP (self), name);
  g_simple_action_set_enabled (G_SIMPLE_ACTION (action), enabled);
}

void
ms_window_update_actions (MsWindow *self)
{
  MsSweep s;
  char err[256] = "";
  gboolean valid = ms_session_get_sweep (self->session, &s, err, sizeof err);
  gboolean gpu_modes = FALSE;
  for (int m = 0; m < MS_MODE_COUNT; m++)
    gpu_modes = gpu_modes || (s.modes[m] && ms_mode_uses_gpu (m));
  gboolean discovering = ms_session_get_discovering (self->session);
  gboolean can_run = !self->job && !discovering && valid && (have_gpu (self) || !gpu_modes);
  set_action_enabled (self, "run", can_run);
  set_action_enabled (self, "stop", self->job != NULL);
  set_action_enabled (self, "export-csv", ms_session_get_n_runs (self->session) > 0);
  gtk_widget_set_visible (self->stop_button, self->job != NULL);
  gtk_widget_set_visible (self->run_button, self->job == NULL);
  gtk_widget_set_sensitive (GTK_WIDGET (self->device_dropdown), !self->job && have_gpu (self));

  const char *why = NULL;
  if (self->job)
    why = _("A sweep is running");
  else if (!valid)
    why = err;
  else if (discovering)
    why = _("Looking for CUDA devices…");
  else if (!have_gpu (self) && gpu_modes)
    why = _("No GPU here: untick the GPU modes to run Host CPU");
  gtk_widget_set_tooltip_text (self->run_button, why ? why : _("Run the sweep (Ctrl+R)"));
  /* A greyed-out Run says why in words, not only in a tooltip. */
  gboolean show_why = why && !self->job && !discovering &&
                      !gtk_info_bar_get_revealed (self->banner);
  g_autofree char *line = show_why ? g_strdup_printf (_("Run is off: %s"), why) : NULL;
  gtk_label_set_text (self->blocker_label, show_why ? line : "");
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->blocker_label), line);
  gtk_revealer_set_reveal_child (self->blocker_revealer, show_why);
  if (g_strcmp0 (why, self->run_blocker) != 0) {
    g_free (self->run_blocker);
    self->run_blocker = g_strdup (why);
    g_object_notify_by_pspec (G_OBJECT (self), props[PROP_RUN_BLOCKER]);
  }
}

/* The pages follow the session themselves; the window only its actions. */
static void
on_n_runs_changed (MsWindow *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_N_RUNS]);
  ms_window_update_actions (self);
}

void
ms_window_set_text_scale (MsWindow *self, double text_scale)
{
  g_object_set (self, "text-scale", text_scale, NULL);
}

/* ---- files ------------------------------------------------------------------ */

static MsRun *
read_run (const char *path, GError **error)
{
  char err[512];
  MsResults *r = ms_csv_read_samples (path, err, sizeof err);
  if (!r) {
    g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, err);
    return NULL;
  }
  /* A file saved with a name keeps it; others (the reader names them after
   * the file) are named by device, kind and date. */
  g_autofree char *base = g_path_get_basename (path);
  if (g_strcmp0 (r->label, base) == 0)
    r->label[0] = '\0';
  g_autofree char *label = ms_plot_run_label (r);
  g_snprintf (r->label, sizeof r->label, "%s", label);
  MsRun *run = ms_run_new (r, MS_RUN_KIND_REFERENCE);
  ms_run_set_source_file (run, path);
  return run;
}

gboolean
ms_window_load_path (MsWindow *self, const char *path, GError **error)
{
  g_autoptr (MsRun) run = read_run (path, error);
  if (run)
    ms_session_add_run (self->session, run);
  return run != NULL;
}

static void
load_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  GError *error = NULL;
  MsRun *r = read_run (task_data, &error);
  if (r)
    g_task_return_pointer (task, r, g_object_unref);
  else
    g_task_return_error (task, error);
}

/* A file read, waiting for its turn: files are read in parallel but their
 * runs join the session in the order they were asked for (the command
 * line's order), so that markers and captions do not depend on which file
 * was read first. */
typedef struct {
  MsRun *run;
  char *error;
  char *path;
} LoadedFile;

static void
loaded_file_free (LoadedFile *f)
{
  g_clear_object (&f->run);
  g_free (f->error);
  g_free (f->path);
  g_free (f);
}

/* The files read so far whose turn it is join the session together: in
 * one change of its runs, so that each page rebuilds once for all of them
 * (files opened together tend to finish together). */
static void
add_loaded_in_order (MsWindow *self)
{
  g_autoptr (GPtrArray) files = g_ptr_array_new_with_free_func ((GDestroyNotify) loaded_file_free);
  g_autoptr (GPtrArray) runs = g_ptr_array_new ();
  LoadedFile *f;
  while ((f = g_hash_table_lookup (self->loaded, GUINT_TO_POINTER (self->load_next_added)))) {
    g_hash_table_steal (self->loaded, GUINT_TO_POINTER (self->load_next_added));
    self->load_next_added++;
    g_ptr_array_add (files, f);
    if (f->run)
      g_ptr_array_add (runs, f->run);
  }
  if (!files->len)
    return;
  g_autoptr (GPtrArray) added =
    ms_session_add_runs (self->session, (MsRun **) runs->pdata, runs->len);
  for (guint i = 0; i < files->len; i++) {
    f = g_ptr_array_index (files, i);
    guint pos;
    if (!f->run) {
      ms_window_toast (self, f->error);
    } else if (g_ptr_array_find (added, f->run, &pos)) {
      g_autofree char *msg = g_strdup_printf (_("Opened %s"), ms_run_get_name (f->run));
      ms_window_toast (self, msg);
    }
    ms_probe_open_added (f->path, f->error);
  }
}

typedef struct {
  GWeakRef window;
  guint ticket;
} LoadTicket;

static void
load_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  g_autoptr (GError) error = NULL;
  LoadTicket *ticket = user_data;
  g_autoptr (MsWindow) self = g_weak_ref_get (&ticket->window);
  LoadedFile *f = g_new0 (LoadedFile, 1);
  f->path = g_strdup (g_task_get_task_data (G_TASK (result)));
  f->run = g_task_propagate_pointer (G_TASK (result), &error);
  f->error = error ? g_strdup (error->message) : NULL;
  g_weak_ref_clear (&ticket->window);
  if (!self) {
    loaded_file_free (f);
    g_free (ticket);
    return;
  }
  g_hash_table_insert (self->loaded, GUINT_TO_POINTER (ticket->ticket), f);
  g_free (ticket);
  add_loaded_in_order (self);
}

static void
start_load (MsWindow *self, const char *path)
{
  /* The worker gets its own copy of the path; the window is not the task's
   * source object, so it may go away while the file loads. */
  LoadTicket *ticket = g_new0 (LoadTicket, 1);
  g_weak_ref_init (&ticket->window, self);
  ticket->ticket = self->load_next_ticket++;
  GTask *task = g_task_new (NULL, NULL, load_done, ticket);
  g_task_set_task_data (task, g_strdup (path), g_free);
  g_task_run_in_thread (task, load_thread);
  g_object_unref (task);
}

void
ms_window_open_file (MsWindow *self, GFile *file)
{
  g_autofree char *path = g_file_get_path (file);
  if (!path) {
    g_autofree char *uri = g_file_get_uri (file);
    g_autofree char *msg = g_strdup_printf (_("%s: only local files can be opened"), uri);
    ms_window_toast (self, msg);
    return;
  }
  /* A peer matrix or a sweep on several GPUs has its own page
   * (ms-devices-page.c). */
  if (g_str_has_suffix (path, "-peer.csv") || g_str_has_suffix (path, "-multi.csv")) {
    ms_window_open_devices_file (self, path);
    return;
  }
  ms_probe_open_asked (path);
  /* Files given at launch wait for the first frame: a small file read
   * before it would only delay it. */
  if (!self->painted)
    g_ptr_array_add (self->pending_paths, g_steal_pointer (&path));
  else
    start_load (self, path);
}

static void
on_first_paint (MsWindow *self, GdkFrameClock *clock)
{
  g_signal_handlers_disconnect_by_func (clock, on_first_paint, self);
  self->painted = TRUE;
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_PAINTED]);
  for (guint i = 0; i < self->pending_paths->len; i++)
    start_load (self, g_ptr_array_index (self->pending_paths, i));
  g_ptr_array_set_size (self->pending_paths, 0);
}

static void
on_realize (MsWindow *self)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (GTK_WIDGET (self));
  if (!self->painted)
    g_signal_connect_object (clock, "after-paint", G_CALLBACK (on_first_paint), self,
                             G_CONNECT_SWAPPED);
}

static gboolean
on_drop (MsWindow *self, const GValue *value, double x, double y, GtkDropTarget *target)
{
  if (!G_VALUE_HOLDS (value, GDK_TYPE_FILE_LIST))
    return FALSE;
  for (GSList *l = g_value_get_boxed (value); l; l = l->next)
    ms_window_open_file (self, l->data);
  return TRUE;
}

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

/* One line in plain words; what CUDA said goes into the details. */
static void
show_no_gpu_banner (MsWindow *self, const MsDeviceInfo *d)
{
  g_autofree char *why = g_utf8_make_valid (d->error[0] ? d->error : _("no CUDA device"), -1);
  gtk_label_set_text (self->banner_label,
                      _("No usable GPU here: Run measures the host baseline (Host CPU); "
                        "reference runs and CSV files open as usual."));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->banner_label),
                               gtk_label_get_text (self->banner_label));
  gtk_label_set_text (self->banner_error, why);
  gtk_info_bar_set_revealed (self->banner, !self->banner_dismissed);
}

static void
on_banner_response (MsWindow *self, int response)
{
  /* The close button; the run button's tooltip and label still say why. */
  self->banner_dismissed = TRUE;
  gtk_info_bar_set_revealed (self->banner, FALSE);
  ms_window_update_actions (self);
}

static void
show_devices (MsWindow *self)
{
  GArray *devices = ms_session_get_devices (self->session);
  GtkStringList *list = gtk_string_list_new (NULL);
  for (guint i = 0; i < devices->len; i++) {
    const MsDeviceInfo *d = &g_array_index (devices, MsDeviceInfo, i);
    g_autofree char *name = g_utf8_make_valid (d->name, -1);
    g_autofree char *item = g_strdup_printf ("%u: %s", i, name);
    if (d->present)
      gtk_string_list_append (list, item);
  }
  if (g_list_model_get_n_items (G_LIST_MODEL (list)) == 0)
    gtk_string_list_append (list, _("No GPU"));
  gtk_drop_down_set_model (self->device_dropdown, G_LIST_MODEL (list));
  g_object_unref (list);
  /* Without a GPU the sweep is the host baseline at once; the GPU modes
   * the user ticked stay saved. */
  g_object_set (ms_session_get_sweep_settings (self->session), "gpu-present", have_gpu (self),
                NULL);
  if (!have_gpu (self))
    show_no_gpu_banner (self, &g_array_index (devices, MsDeviceInfo, 0));
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
  ms_session_set_devices (self->session, devices);
  g_array_unref (devices);
  show_devices (self);
  ms_window_update_actions (self);
  if (self->run_when_ready) {
    self->run_when_ready = FALSE;
    g_action_group_activate_action (G_ACTION_GROUP (self), "run", NULL);
  }
}

static void
start_discovery (MsWindow *self)
{
  /* CUDA initialisation takes a moment: find devices off the main thread
   * so the window shows at once. */
  GWeakRef *ref = g_new0 (GWeakRef, 1);
  g_weak_ref_init (ref, self);
  GTask *task = g_task_new (NULL, NULL, discover_done, ref);
  g_task_run_in_thread (task, discover_thread);
  g_object_unref (task);
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

/* g_ptr_array_sort hands the comparison pointers to the elements. */
int
ms_compare_names (gconstpointer a, gconstpointer b)
{
  return g_strcmp0 (*(const char *const *) a, *(const char *const *) b);
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
  g_ptr_array_sort (names, ms_compare_names);
  for (guint i = 0; i < names->len; i++) {
    const char *file = g_ptr_array_index (names, i);
    g_autofree char *path = g_build_filename (dir, file, NULL);
    g_autofree char *stem = g_strndup (file, strlen (file) - strlen ("-samples.csv"));
    g_autofree char *label = g_filename_display_name (stem);
    GMenuItem *item = g_menu_item_new (label, NULL);
    /* As bytes: a file's name need not be UTF-8. */
    g_menu_item_set_action_and_target_value (item, "win.reference", g_variant_new_bytestring (path));
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
on_view_changed (MsWindow *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_VIEW]);
}

static gboolean
on_close_request (GtkWindow *window)
{
  /* A running sweep asks first; settings and the window's size are bound
   * to GSettings and so already saved. */
  return ms_window_library_confirm_close (MS_WINDOW (window));
}

static void
ms_window_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  MsWindow *self = MS_WINDOW (object);
  switch (prop_id) {
  case PROP_PRESENTATION:
    ms_window_presentation_set (self, g_value_get_boolean (value));
    break;
  case PROP_VIEW:
    ms_window_set_view (self, g_value_get_int (value));
    break;
  default:
    if (!ms_view_scale_set (object, &self->scale, prop_id - PROP_SCALE_FIRST, value))
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
  }
}

static void
ms_window_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  MsWindow *self = MS_WINDOW (object);
  switch (prop_id) {
  case PROP_PRESENTATION: g_value_set_boolean (value, self->presentation); break;
  case PROP_HEADER_SHOWN: g_value_set_boolean (value, ms_window_get_header_shown (self)); break;
  case PROP_VIEW: g_value_set_int (value, ms_window_get_view (self)); break;
  case PROP_SWEEPING: g_value_set_boolean (value, self->job != NULL); break;
  case PROP_N_RUNS: g_value_set_uint (value, ms_session_get_n_runs (self->session)); break;
  case PROP_RUN_BLOCKER: g_value_set_string (value, self->run_blocker); break;
  case PROP_TOAST_TEXT: g_value_set_string (value, self->toast_text); break;
  case PROP_PAINTED: g_value_set_boolean (value, self->painted); break;
  case PROP_SESSION: g_value_set_object (value, self->session); break;
  default:
    if (!ms_view_scale_get (&self->scale, prop_id - PROP_SCALE_FIRST, value))
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
  }
}

static void
ms_window_dispose (GObject *object)
{
  MsWindow *self = MS_WINDOW (object);
  ms_window_sweep_cancel (self);
  /* The worker finishes on its own; nothing of it reaches the window now. */
  if (self->job)
    g_signal_handlers_disconnect_by_data (self->job, self);
  g_clear_object (&self->job);
  gtk_widget_dispose_template (GTK_WIDGET (self), MS_TYPE_WINDOW);
  g_clear_object (&self->settings);
  G_OBJECT_CLASS (ms_window_parent_class)->dispose (object);
}

static void
ms_window_finalize (GObject *object)
{
  MsWindow *self = MS_WINDOW (object);
  g_ptr_array_unref (self->pending_paths);
  g_hash_table_unref (self->loaded);
  /* Not at dispose: the Runs popover's rows let it go as they are unbound. */
  g_clear_object (&self->session);
  g_free (self->run_blocker);
  g_free (self->toast_text);
  ms_eta_free (self->eta);
  G_OBJECT_CLASS (ms_window_parent_class)->finalize (object);
}

static void
install_properties (GObjectClass *object_class)
{
  const GParamFlags rw = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;
  const GParamFlags ro = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS;
  props[PROP_PRESENTATION] = g_param_spec_boolean ("presentation", NULL, NULL, FALSE, rw);
  /* The header bar and banner: hidden in presentation mode until asked for. */
  props[PROP_HEADER_SHOWN] = g_param_spec_boolean ("header-shown", NULL, NULL, TRUE, ro);
  props[PROP_VIEW] =
    g_param_spec_int ("view", NULL, NULL, 0, MS_VIEW_COUNT - 1, MS_VIEW_BANDWIDTH, rw);
  props[PROP_SWEEPING] = g_param_spec_boolean ("sweeping", NULL, NULL, FALSE, ro);
  props[PROP_N_RUNS] = g_param_spec_uint ("n-runs", NULL, NULL, 0, G_MAXUINT, 0, ro);
  props[PROP_RUN_BLOCKER] = g_param_spec_string ("run-blocker", NULL, NULL, NULL, ro);
  props[PROP_TOAST_TEXT] = g_param_spec_string ("toast-text", NULL, NULL, NULL, ro);
  props[PROP_PAINTED] = g_param_spec_boolean ("painted", NULL, NULL, FALSE, ro);
  props[PROP_SESSION] = g_param_spec_object ("session", NULL, NULL, MS_TYPE_SESSION, ro);
  g_object_class_install_properties (object_class, N_PROPS, props);
  ms_view_scale_install (object_class, PROP_SCALE_FIRST);
}

static void
ms_window_class_init (MsWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  object_class->dispose = ms_window_dispose;
  object_class->finalize = ms_window_finalize;
  object_class->set_property = ms_window_set_property;
  object_class->get_property = ms_window_get_property;
  GTK_WINDOW_CLASS (klass)->close_request = on_close_request;
  install_properties (object_class);

  g_type_ensure (MS_TYPE_SETTINGS_PANE);
  g_type_ensure (MS_TYPE_CHART_PAGE);
  g_type_ensure (MS_TYPE_TIMELINE_PAGE);
  g_type_ensure (MS_TYPE_BREAKDOWN_PAGE);
  g_type_ensure (MS_TYPE_TABLE_PAGE);
  g_type_ensure (MS_TYPE_COMPARE_PAGE);
  g_type_ensure (MS_TYPE_DEVICES_PAGE);
  g_type_ensure (MS_TYPE_LESSONS_PAGE);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/memsweep/Memsweep/ms-window.ui");
#define CHILD(name) gtk_widget_class_bind_template_child (widget_class, MsWindow, name)
  CHILD (toasts);
  CHILD (run_button);
  CHILD (stop_button);
  CHILD (device_dropdown);
  CHILD (banner);
  CHILD (banner_label);
  CHILD (banner_error);
  CHILD (blocker_label);
  CHILD (blocker_revealer);
  CHILD (runs_button);
  CHILD (runs_view);
  CHILD (runs_stack);
  CHILD (runs_popover);
  CHILD (main_menu_button);
  CHILD (progress_revealer);
  CHILD (progress_bar);
  CHILD (settings_pane);
  CHILD (stack);
  CHILD (top_revealer);
  CHILD (top_box);
  CHILD (switcher_bar);
  CHILD (switcher_title);
  CHILD (reference_menu);
  CHILD (primary_menu);
  CHILD (bandwidth_page);
  CHILD (time_page);
  CHILD (timeline_page);
  CHILD (breakdown_page);
  CHILD (table_page);
  CHILD (compare_page);
  CHILD (devices_page);
  CHILD (lessons_page);
#undef CHILD
  gtk_widget_class_bind_template_callback (widget_class, ms_window_update_actions);
  gtk_widget_class_bind_template_callback (widget_class, on_view_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_banner_response);
  gtk_widget_class_bind_template_callback (widget_class, ms_window_lesson_show_view);
}

/* The main menu's popover (about a hundred widgets) is built the first
 * time it opens, not before the window's first frame. GtkMenuButton calls
 * this on every opening, and setting a model builds a new popover: once. */
static void
create_main_menu (GtkMenuButton *button, gpointer data)
{
  if (gtk_menu_button_get_menu_model (button))
    return;
  gtk_menu_button_set_menu_model (button, MS_WINDOW (data)->primary_menu);
  g_signal_connect_object (gtk_menu_button_get_popover (button), "closed",
                           G_CALLBACK (ms_window_presentation_popover_closed), data,
                           G_CONNECT_SWAPPED);
}

/* Every view follows the window's text and line scale. */
static void
bind_view_scales (MsWindow *self)
{
  GObject *views[] = {
    G_OBJECT (ms_chart_page_get_view (self->bandwidth_page)),
    G_OBJECT (ms_chart_page_get_view (self->time_page)),
    G_OBJECT (ms_timeline_page_get_view (self->timeline_page)),
    G_OBJECT (ms_breakdown_page_get_view (self->breakdown_page)),
    G_OBJECT (ms_devices_page_get_matrix_view (self->devices_page)),
    G_OBJECT (ms_devices_page_get_topology_view (self->devices_page)),
    G_OBJECT (ms_lessons_page_get_reuse_view (self->lessons_page)),
    G_OBJECT (ms_lessons_page_get_picture_view (self->lessons_page)),
    G_OBJECT (ms_lessons_page_get_timeline_stack (self->lessons_page)),
    G_OBJECT (self->compare_page),
  };
  const char *names[] = { "text-scale", "line-scale", "high-contrast" };
  for (guint v = 0; v < G_N_ELEMENTS (views); v++)
    for (guint n = 0; n < G_N_ELEMENTS (names); n++)
      g_object_bind_property (self, names[n], views[v], names[n], G_BINDING_SYNC_CREATE);
  /* In front of a class the chart takes the room of the health strip; a
   * link or clock that warns is still said above the chart. */
  MsChartPage *charts[] = { self->bandwidth_page, self->time_page };
  for (guint c = 0; c < G_N_ELEMENTS (charts); c++)
    g_object_bind_property (self, "presentation", ms_chart_page_get_health (charts[c]), "visible",
                            G_BINDING_SYNC_CREATE | G_BINDING_INVERT_BOOLEAN);
}

static void
ms_window_init (MsWindow *self)
{
  self->pending_paths = g_ptr_array_new_with_free_func (g_free);
  self->loaded =
    g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, (GDestroyNotify) loaded_file_free);
  self->scale = (MsViewScale){ 1, 1 };
  /* Before the template: its pages look the session up. */
  self->settings = g_settings_new ("io.github.memsweep.Memsweep");
  g_autoptr (MsSweepSettings) sweep = ms_sweep_settings_new (self->settings);
  self->session = g_object_new (MS_TYPE_SESSION, "sweep-settings", sweep, NULL);
  ms_window_add_actions (self);
  gtk_widget_init_template (GTK_WIDGET (self));
  g_signal_connect_object (self->session, "notify::n-runs", G_CALLBACK (on_n_runs_changed), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "notify::discovering",
                           G_CALLBACK (ms_window_update_actions), self, G_CONNECT_SWAPPED);
  g_object_bind_property (self->device_dropdown, "selected", self->session, "device",
                          G_BINDING_SYNC_CREATE);
  g_settings_bind (self->settings, "window-width", self, "default-width", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "window-height", self, "default-height",
                   G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "window-maximized", self, "maximized", G_SETTINGS_BIND_DEFAULT);
  bind_view_scales (self);
  ms_window_pages_init (self);
  fill_reference_menu (self);
  gtk_menu_button_set_create_popup_func (self->main_menu_button, create_main_menu, self, NULL);
  ms_window_runs_init (self);
  ms_window_presentation_init (self);
  ms_window_library_init (self);

  GtkDropTarget *drop = gtk_drop_target_new (GDK_TYPE_FILE_LIST, GDK_ACTION_COPY);
  g_signal_connect_swapped (drop, "drop", G_CALLBACK (on_drop), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drop));

  g_signal_connect (self, "realize", G_CALLBACK (on_realize), NULL);
  start_discovery (self);
  ms_window_update_actions (self);
  ms_probe_watch_window (GTK_WINDOW (self));
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
    adw_view_stack_set_visible_child_name (self->stack, view_names[view]);
}

MsViewKind
ms_window_get_view (MsWindow *self)
{
  const char *name = adw_view_stack_get_visible_child_name (self->stack);
  for (int v = 0; v < MS_VIEW_COUNT; v++)
    if (g_strcmp0 (name, view_names[v]) == 0)
      return v;
  return MS_VIEW_BANDWIDTH;
}

guint
ms_window_get_n_runs (MsWindow *self)
{
  return ms_session_get_n_runs (self->session);
}

MsSession *
ms_window_get_session (MsWindow *self)
{
  return self->session;
}

const MsResults *
ms_window_get_live (MsWindow *self)
{
  MsRun *live = ms_session_get_live_run (self->session);
  return live ? ms_run_get_results (live) : NULL;
}

char *
ms_window_dup_run_blocker (MsWindow *self)
{
  return g_strdup (self->run_blocker);
}

void
ms_window_run_when_ready (MsWindow *self)
{
  if (ms_session_get_discovering (self->session))
    self->run_when_ready = TRUE;
  else
    g_action_group_activate_action (G_ACTION_GROUP (self), "run", NULL);
}
