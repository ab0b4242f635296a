/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-window.c: the main window: its properties and template, device
 * discovery, what it shows of the session's sweep, and the setting up of
 * its parts (ms-window-*.c), which call into none of this file. */
#include <glib/gi18n.h>

#include "ms-engine.h"
#include "ms-profiling.h"
#include "ms-props.h"
#include "ms-run.h"
#include "ms-window-private.h"
#include "ms-plot-view.h"

G_DEFINE_FINAL_TYPE (MsWindow, ms_window, ADW_TYPE_APPLICATION_WINDOW)

enum {
  PROP_0,
  PROP_PRESENTATION,
  PROP_HEADER_SHOWN,
  PROP_VIEW,
  PROP_RUN_BLOCKER,
  PROP_TOAST_TEXT,
  PROP_PAINTED,
  PROP_SESSION,
  PROP_SCALE_FIRST,
  N_PROPS = PROP_SCALE_FIRST + MS_VIEW_SCALE_N_PROPS
};
static GParamSpec *props[N_PROPS];

static const char *view_names[MS_VIEW_COUNT] = {
  "bandwidth", "time", "timeline", "breakdown", "table", "compare", "devices", "lessons",
};

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

static void
ms_window_update_actions (MsWindow *self)
{
  MsSweep s;
  char err[256] = "";
  gboolean valid = ms_session_get_sweep (self->session, &s, err, sizeof err);
  gboolean gpu_modes = ms_sweep_uses_gpu (&s);
  gboolean discovering = ms_session_get_discovering (self->session);
  gboolean sweeping = ms_session_get_sweeping (self->session);
  gboolean can_run = !sweeping && !discovering && valid && (have_gpu (self) || !gpu_modes);
  set_action_enabled (self, "run", can_run);
  set_action_enabled (self, "stop", sweeping);
  set_action_enabled (self, "export-csv", ms_session_get_n_runs (self->session) > 0);
  gtk_widget_set_visible (self->stop_button, sweeping);
  gtk_widget_set_visible (self->run_button, !sweeping);
  gtk_widget_set_sensitive (GTK_WIDGET (self->device_dropdown), !sweeping && have_gpu (self));

  const char *why = NULL;
  if (sweeping)
    why = _("A sweep is running");
  else if (!valid)
    why = err;
  else if (discovering)
    why = _("Looking for CUDA devices…");
  else if (!have_gpu (self) && gpu_modes)
    why = _("No GPU here: untick the GPU modes to run Host CPU");
  gtk_widget_set_tooltip_text (self->run_button, why ? why : _("Run the sweep (Ctrl+R)"));
  /* A greyed-out Run says why in words, not only in a tooltip. */
  gboolean show_why = why && !sweeping && !discovering &&
                      !gtk_info_bar_get_revealed (self->banner);
  g_autofree char *line = show_why ? g_strdup_printf (_("Run is off: %s"), why) : NULL;
  gtk_label_set_text (self->blocker_label, show_why ? line : "");
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->blocker_label), line);
  gtk_revealer_set_reveal_child (self->blocker_revealer, show_why);
  ms_props_set_string (self, &self->run_blocker, why, props[PROP_RUN_BLOCKER]);
}

/* ---- the sweep, which the session runs ------------------------------------------ */

/* The charts' x axis spans the sweep's planned sizes from the first cell,
 * so points do not move as sizes arrive (-1, -1: back to the data). */
static void
set_planned_range (MsWindow *self, int min_exp, int max_exp)
{
  MsChartPage *pages[] = { self->bandwidth_page, self->time_page };
  for (guint i = 0; i < G_N_ELEMENTS (pages); i++)
    g_object_set (ms_chart_page_get_view (pages[i]), "planned-min-exponent", min_exp,
                  "planned-max-exponent", max_exp, NULL);
}

static void
on_sweeping (MsWindow *self)
{
  MsRun *live = ms_session_get_live_run (self->session);
  if (ms_session_get_sweeping (self->session) && live) {
    const MsSweep *s = &ms_run_get_results (live)->sweep;
    set_planned_range (self, s->min_exp, s->max_exp);
  } else {
    set_planned_range (self, -1, -1);
  }
  ms_window_update_actions (self);
}

/* The progress bar shows the session's sweep; its end is a toast. */
static void
follow_sweep (MsWindow *self)
{
  g_signal_connect_object (self->session, "notify::sweeping", G_CALLBACK (on_sweeping), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "sweep-ended", G_CALLBACK (ms_window_toast), self,
                           G_CONNECT_SWAPPED);
  g_object_bind_property (self->session, "progress", self->progress_bar, "fraction",
                          G_BINDING_SYNC_CREATE);
  g_object_bind_property (self->session, "progress-text", self->progress_bar, "text",
                          G_BINDING_SYNC_CREATE);
  g_object_bind_property (self->session, "sweeping", self->progress_revealer, "reveal-child",
                          G_BINDING_SYNC_CREATE);
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
ms_window_dispose (GObject *object)
{
  MsWindow *self = MS_WINDOW (object);
  /* The window's work stops with it; the jobs end on their own, keeping
   * what they measured. */
  ms_session_stop_all (self->session);
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
  g_free (self->opened_first);
  /* Not at dispose: the Runs popover's rows let it go as they are unbound. */
  g_clear_object (&self->session);
  g_free (self->run_blocker);
  g_free (self->toast_text);
  G_OBJECT_CLASS (ms_window_parent_class)->finalize (object);
}

static void
redraw (gpointer window)
{
  gtk_widget_queue_draw (GTK_WIDGET (window));
}

/* What the window shows and does, told as it changes; presentation mode,
 * the view and the scale of every view's text and lines, set. */
#define FIELD(field) MS_PROP_FIELD (MsWindow, field)
#define SHOWS .flags = G_PARAM_READABLE
static const MsProp prop_table[N_PROPS] = {
  [PROP_PRESENTATION] = { "presentation", G_TYPE_BOOLEAN, FIELD (presentation),
                          .setter = G_CALLBACK (ms_window_presentation_set) },
  /* The header bar and banner: hidden in presentation mode until asked for. */
  [PROP_HEADER_SHOWN] = { "header-shown", G_TYPE_BOOLEAN, MS_PROP_NO_FIELD, .def = TRUE,
                          .getter = G_CALLBACK (ms_window_get_header_shown), SHOWS },
  [PROP_VIEW] = { "view", G_TYPE_INT, MS_PROP_NO_FIELD, 0, MS_VIEW_COUNT - 1, MS_VIEW_BANDWIDTH,
                  .setter = G_CALLBACK (ms_window_set_view),
                  .getter = G_CALLBACK (ms_window_get_view) },
  [PROP_RUN_BLOCKER] = { "run-blocker", G_TYPE_STRING, FIELD (run_blocker), SHOWS },
  [PROP_TOAST_TEXT] = { "toast-text", G_TYPE_STRING, FIELD (toast_text), SHOWS },
  [PROP_PAINTED] = { "painted", G_TYPE_BOOLEAN, FIELD (painted), SHOWS },
  [PROP_SESSION] = { "session", G_TYPE_OBJECT, FIELD (session), .get_type = ms_session_get_type,
                     SHOWS },
  MS_VIEW_SCALE_PROPS (MsWindow, scale, PROP_SCALE_FIRST, redraw),
};
#undef FIELD
#undef SHOWS

static void
ms_window_class_init (MsWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  object_class->dispose = ms_window_dispose;
  object_class->finalize = ms_window_finalize;
  ms_props_install (object_class, prop_table, props, N_PROPS);
  GTK_WINDOW_CLASS (klass)->close_request = on_close_request;

  g_type_ensure (MS_TYPE_SETTINGS_PANE);
  g_type_ensure (MS_TYPE_CHART_PAGE);
  g_type_ensure (MS_TYPE_TIMELINE_PAGE);
  g_type_ensure (MS_TYPE_BREAKDOWN_PAGE);
  g_type_ensure (MS_TYPE_TABLE_PAGE);
  g_type_ensure (MS_TYPE_COMPARE_PAGE);
  g_type_ensure (MS_TYPE_DEVICES_PAGE);
  g_type_ensure (MS_TYPE_LESSONS_PAGE);
#define CHILD(name) MS_TEMPLATE_CHILD (MsWindow, name)
  static const MsTemplateBind binds[] = {
    CHILD (toasts), CHILD (run_button), CHILD (stop_button), CHILD (device_dropdown),
    CHILD (banner), CHILD (banner_label), CHILD (banner_error), CHILD (blocker_label),
    CHILD (blocker_revealer), CHILD (runs_button), CHILD (runs_view), CHILD (runs_stack),
    CHILD (runs_popover), CHILD (main_menu_button), CHILD (progress_revealer), CHILD (progress_bar),
    CHILD (settings_pane), CHILD (stack), CHILD (top_revealer), CHILD (top_box),
    CHILD (switcher_bar), CHILD (switcher_title), CHILD (primary_menu), CHILD (bandwidth_page),
    CHILD (time_page), CHILD (timeline_page), CHILD (breakdown_page), CHILD (table_page),
    CHILD (compare_page), CHILD (devices_page), CHILD (lessons_page),
    MS_TEMPLATE_CALLBACK (ms_window_update_actions), MS_TEMPLATE_CALLBACK (on_view_changed),
    MS_TEMPLATE_CALLBACK (on_banner_response), MS_TEMPLATE_CALLBACK (ms_window_lesson_show_view)
  };
#undef CHILD
  ms_widget_class_set_template (widget_class, "ms-window", binds, G_N_ELEMENTS (binds));
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
  MsPage *pages[] = { MS_PAGE (self->bandwidth_page), MS_PAGE (self->time_page),
                      MS_PAGE (self->timeline_page),  MS_PAGE (self->breakdown_page),
                      MS_PAGE (self->devices_page),   MS_PAGE (self->lessons_page),
                      MS_PAGE (self->compare_page) };
  for (guint p = 0; p < G_N_ELEMENTS (pages); p++)
    ms_page_follow_scale (pages[p], G_OBJECT (self));
  /* In front of a class the chart takes the room of the health strip; a
   * link or clock that warns is still said above the chart. */
  MsChartPage *charts[] = { self->bandwidth_page, self->time_page };
  for (guint c = 0; c < G_N_ELEMENTS (charts); c++)
    g_object_bind_property (self, "presentation", ms_chart_page_get_health (charts[c]), "visible",
                            G_BINDING_SYNC_CREATE | G_BINDING_INVERT_BOOLEAN);
}

/* The next run's settings beside every view, unless hidden (F8: on the Lessons page of a
 * 1024 px window they left the slide 300 px) or presenting, when F8 does nothing (it flipped the
 * key unseen, and the pane came back, or did not, after). */
static void
show_settings_pane (MsWindow *self)
{
  gboolean shown = g_settings_get_boolean (self->settings, "settings-shown");
  gtk_widget_set_visible (GTK_WIDGET (self->settings_pane), !self->presentation && shown);
  GAction *action = g_action_map_lookup_action (G_ACTION_MAP (self), "settings-shown");
  g_simple_action_set_state (G_SIMPLE_ACTION (action), g_variant_new_boolean (shown));
  g_simple_action_set_enabled (G_SIMPLE_ACTION (action), !self->presentation);
}

static void
ms_window_init (MsWindow *self)
{
  self->scale = (MsViewScale){ 1, 1 };
  /* Before the template: its pages look the session up. */
  self->settings = g_settings_new (MS_APPLICATION_ID);
  g_autoptr (MsSweepSettings) sweep = ms_sweep_settings_new (self->settings);
  self->session = g_object_new (MS_TYPE_SESSION, "sweep-settings", sweep, NULL);
  ms_window_add_actions (self);
  ms_window_add_key_actions (self);
  gtk_widget_init_template (GTK_WIDGET (self));
  /* The pages follow the session themselves; the window only its actions. */
  g_signal_connect_object (self->session, "notify::n-runs", G_CALLBACK (ms_window_update_actions),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "notify::discovering",
                           G_CALLBACK (ms_window_update_actions), self, G_CONNECT_SWAPPED);
  follow_sweep (self);
  g_object_bind_property (self->device_dropdown, "selected", self->session, "device",
                          G_BINDING_SYNC_CREATE);
  g_settings_bind (self->settings, "window-width", self, "default-width", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "window-height", self, "default-height",
                   G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "window-maximized", self, "maximized", G_SETTINGS_BIND_DEFAULT);
  bind_view_scales (self);
  g_signal_connect_object (self->settings, "changed::settings-shown",
                           G_CALLBACK (show_settings_pane), self, G_CONNECT_SWAPPED);
  g_signal_connect (self, "notify::presentation", G_CALLBACK (show_settings_pane), NULL);
  show_settings_pane (self);
  ms_window_pages_init (self);
  ms_window_actions_follow_pages (self);
  gtk_menu_button_set_create_popup_func (self->main_menu_button, create_main_menu, self, NULL);
  ms_window_runs_init (self);
  ms_window_presentation_init (self);
  ms_window_library_init (self);

  ms_window_files_init (self);
  start_discovery (self);
  ms_window_update_actions (self);
  ms_profiling_watch_window (GTK_WINDOW (self));
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

void
ms_window_run_when_ready (MsWindow *self)
{
  if (ms_session_get_discovering (self->session))
    self->run_when_ready = TRUE;
  else
    g_action_group_activate_action (G_ACTION_GROUP (self), "run", NULL);
}
