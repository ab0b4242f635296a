/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-timeline-view.c: the timeline widget. */
#include "ms-timeline-view.h"

#include <glib/gi18n.h>
#include <math.h>

#include "ms-engine.h"
#include "ms-props.h"
#include "ms-run.h"
#include "ms-views.h"

struct _MsTimelineView {
  MsChartView parent_instance;
  /* The run shown, held, and the cell's index in it: no copy of its
   * events, and a run closed meanwhile stays valid until the next cell. */
  MsRun *held;
  const MsResults *run; /* held's results */
  size_t index;
  int rep;
  char *title;
  char *empty_text; /* what to do when no cell is shown (NULL: open a run) */
  MsTimeWindow window;
  gboolean zoomed;
  MsTimelineLayout layout;
  double drag_t0;
  double pointer_x;
  gboolean pointer_inside;
  /* The time the user last pointed at or clicked (-1: none): zooming from
   * the keyboard or the buttons keeps it in place. */
  double anchor_us;
  gboolean show_setup; /* the window opens on the whole repetition */
  /* Where the cell's repetitions lie; a large cell's is read in idle
   * slices (fill_source), the view saying so meanwhile. */
  MsRepMap *reps;
  guint fill_source;
};

G_DEFINE_FINAL_TYPE (MsTimelineView, ms_timeline_view, MS_TYPE_CHART_VIEW)

enum { PROP_0, PROP_TITLE, PROP_ZOOMED, PROP_SHOW_SETUP, PROP_EMPTY_TEXT, N_PROPS };
static GParamSpec *props[N_PROPS];

enum { WINDOW_CHANGED, N_SIGNALS };
static guint signals[N_SIGNALS];

/* Redraws, and tells bindings whether the window still shows everything. */
static void
window_changed (MsTimelineView *self)
{
  /* The whole repetition opens at its first event (the origin), not 0. */
  gboolean zoomed =
    self->window.t0 > self->window.origin_us || self->window.t1 < self->window.total_us;
  ms_chart_view_redraw (MS_CHART_VIEW (self));
  g_signal_emit (self, signals[WINDOW_CHANGED], 0);
  if (zoomed != self->zoomed) {
    self->zoomed = zoomed;
    g_object_notify_by_pspec (G_OBJECT (self), props[PROP_ZOOMED]);
  }
}

static const MsCell *
shown_cell (MsTimelineView *self)
{
  return self->run && self->index < self->run->n_cells ? &self->run->cells[self->index] : NULL;
}

static gboolean
indexing (MsTimelineView *self)
{
  return self->fill_source != 0;
}

/* What the view shows, on any cairo_t: the screen's and an export's. */
static void
draw_view (MsTimelineView *self, cairo_t *cr, const MsChartStyle *style, double w, double h,
           MsTimelineLayout *layout)
{
  /* The picture names its run (the header bar does not, and is hidden
   * when projected). */
  g_autoptr (GPtrArray) shown = g_ptr_array_new ();
  if (self->run)
    g_ptr_array_add (shown, (gpointer) self->run);
  g_autofree char *line = ms_plot_runs_line (shown);
  double strip = ms_draw_runs_line_height (cr, style, line, h);
  h -= strip;
  if (indexing (self))
    ms_timeline_draw_message (cr, style, w, h, self->title, _("Indexing repetitions…"));
  else if (!shown_cell (self) && self->empty_text)
    ms_timeline_draw_message (cr, style, w, h, self->title, self->empty_text);
  else
    ms_timeline_draw (cr, shown_cell (self), self->rep, &self->window, style, w, h, self->title,
                      layout);
  ms_draw_runs_line (cr, style, line, w, h + strip);
}

void
ms_timeline_view_draw (MsTimelineView *self, cairo_t *cr, const MsChartStyle *style,
                       double width, double height)
{
  draw_view (self, cr, style, width, height, NULL);
}

/* The lanes, kept by the base class: frames that change nothing of the
 * picture (focus, a tooltip) reuse them. */
static void
chart_draw (MsChartView *view, cairo_t *cr, const MsChartStyle *style, int w, int h)
{
  MsTimelineView *self = MS_TIMELINE_VIEW (view);
  draw_view (self, cr, style, w, h, &self->layout);
}

static double
pixel_to_time (MsTimelineView *self, double x)
{
  const MsTimelineLayout *l = &self->layout;
  if (l->plot_w <= 0)
    return self->window.t0;
  return self->window.t0 + (x - l->plot_x) / l->plot_w * (self->window.t1 - self->window.t0);
}

static gboolean
in_plot (MsTimelineView *self, double x)
{
  const MsTimelineLayout *l = &self->layout;
  return l->plot_w > 0 && x >= l->plot_x && x <= l->plot_x + l->plot_w;
}

static void
on_timeline_motion (GtkEventControllerMotion *c, double x, double y, MsTimelineView *self)
{
  self->pointer_x = x;
  self->pointer_inside = TRUE;
  if (in_plot (self, x))
    self->anchor_us = pixel_to_time (self, x);
}

static void
on_timeline_leave (GtkEventControllerMotion *c, MsTimelineView *self)
{
  self->pointer_inside = FALSE;
}

/* Where a zoom not made with the wheel keeps its place: the pointer when it
 * is over the lanes, else the time last pointed at while it is shown, else
 * the middle. */
static double
zoom_anchor (MsTimelineView *self)
{
  if (self->pointer_inside && in_plot (self, self->pointer_x))
    return pixel_to_time (self, self->pointer_x);
  if (self->anchor_us >= self->window.t0 && self->anchor_us <= self->window.t1)
    return self->anchor_us;
  return (self->window.t0 + self->window.t1) / 2;
}

static gboolean
on_timeline_key (GtkEventControllerKey *c, guint keyval, guint keycode, GdkModifierType state,
                 MsTimelineView *self)
{
  if (state & (GDK_CONTROL_MASK | GDK_ALT_MASK))
    return FALSE;
  double span = self->window.t1 - self->window.t0;
  switch (keyval) {
  case GDK_KEY_Left: case GDK_KEY_KP_Left:
    ms_timeline_view_pan (self, -0.2 * span);
    return TRUE;
  case GDK_KEY_Right: case GDK_KEY_KP_Right:
    ms_timeline_view_pan (self, 0.2 * span);
    return TRUE;
  case GDK_KEY_Home: case GDK_KEY_KP_Home:
    ms_timeline_view_pan (self, -self->window.t0);
    return TRUE;
  case GDK_KEY_End: case GDK_KEY_KP_End:
    ms_timeline_view_pan (self, self->window.total_us - self->window.t1);
    return TRUE;
  case GDK_KEY_plus: case GDK_KEY_equal: case GDK_KEY_KP_Add:
    ms_timeline_view_zoom (self, 1.5);
    return TRUE;
  case GDK_KEY_minus: case GDK_KEY_KP_Subtract:
    ms_timeline_view_zoom (self, 1 / 1.5);
    return TRUE;
  case GDK_KEY_0: case GDK_KEY_KP_0:
    ms_timeline_view_reset_zoom (self);
    return TRUE;
  case GDK_KEY_a: case GDK_KEY_A:
    g_object_set (self, "show-setup", !self->show_setup, NULL);
    return TRUE;
  default:
    return FALSE;
  }
}

static void
on_timeline_pressed (GtkGestureClick *g, int n, double x, double y, MsTimelineView *self)
{
  /* A click gives the keyboard to the lanes and marks where to zoom. */
  gtk_widget_grab_focus (GTK_WIDGET (self));
  if (in_plot (self, x))
    self->anchor_us = pixel_to_time (self, x);
}

static gboolean
on_timeline_scroll (GtkEventControllerScroll *c, double dx, double dy, MsTimelineView *self)
{
  /* Wheel zooms around the pointer; horizontal scrolling pans. */
  if (dy != 0) {
    self->anchor_us = pixel_to_time (self, self->pointer_x);
    ms_time_window_zoom (&self->window, pow (1.2, -dy), self->anchor_us);
  }
  else if (dx != 0)
    ms_time_window_pan (&self->window, dx * (self->window.t1 - self->window.t0) * 0.05);
  window_changed (self);
  return TRUE;
}

static void
on_drag_begin (GtkGestureDrag *g, double x, double y, MsTimelineView *self)
{
  self->drag_t0 = self->window.t0;
}

static void
on_drag_update (GtkGestureDrag *g, double dx, double dy, MsTimelineView *self)
{
  double span = self->window.t1 - self->window.t0;
  double per_px = self->layout.plot_w > 0 ? span / self->layout.plot_w : 0;
  double t0 = self->drag_t0 - dx * per_px;
  ms_time_window_pan (&self->window, t0 - self->window.t0);
  window_changed (self);
}

/* Said from the times alone: the call blocked the host while the GPU worked
 * only if it was still running once the GPU had started. */
static void
append_host_overlap (GString *s, const MsEvent *ev)
{
  double host_end = ev->host_start_us + ev->host_us, gpu_end = ev->gpu_start_us + ev->gpu_us;
  double overlap = MIN (host_end, gpu_end) - MAX (ev->host_start_us, ev->gpu_start_us);
  if (overlap > 0)
    g_string_append_printf (s, _("\nthe call blocked the host for %.2f µs of the GPU work"),
                            overlap);
  else if (host_end <= ev->gpu_start_us)
    g_string_append_printf (s, _("\nthe call returned %.2f µs before the GPU started"),
                            ev->gpu_start_us - host_end);
}

char *
ms_timeline_view_describe_event (const MsEvent *ev, gboolean host_part)
{
  GString *s = g_string_new (NULL);
  /* Markup: the translations hold no markup characters. */
  const char *where = host_part         ? _(" (host call)")
                      : ev->gpu_us >= 0 ? _(" (on the GPU)")
                                        : "";
  g_string_append_printf (s, "<b>%s</b>%s\n", ms_phase_name (ev->phase), where);
  g_string_append_printf (s, _("start %.2f µs (host clock)\nhost %.2f µs"), ev->host_start_us,
                          ev->host_us);
  if (ev->gpu_us >= 0) {
    g_string_append_printf (s, _("\nGPU %.2f µs, starting at %.2f µs"), ev->gpu_us,
                            ev->gpu_start_us);
    append_host_overlap (s, ev);
  }
  if (ev->bytes) {
    char b[32];
    ms_format_bytes (ev->bytes, b, sizeof b);
    double t = ev->gpu_us >= 0 ? ev->gpu_us : ev->host_us;
    g_string_append_printf (s, "\n%s", b);
    if (t > 0 && ev->phase != MS_PHASE_REGISTER && ev->phase != MS_PHASE_UNREGISTER)
      g_string_append_printf (s, ", %.2f GB/s", ev->bytes / t * 1e-3);
  }
  if (ev->lane > 0)
    g_string_append_printf (s, _("\nstream %d, chunk %d"), ev->lane - 1, ev->chunk);
  return g_string_free (s, FALSE);
}

static gboolean
on_timeline_tooltip (GtkWidget *widget, int x, int y, gboolean keyboard, GtkTooltip *tooltip,
                     gpointer data)
{
  MsTimelineView *self = MS_TIMELINE_VIEW (widget);
  const MsTimelineBar *bar = ms_timeline_layout_hit (&self->layout, x, y);
  if (!bar)
    return FALSE;
  g_autofree char *text = ms_timeline_view_describe_event (bar->event, bar->host_part);
  gtk_tooltip_set_markup (tooltip, text);
  return TRUE;
}

static void
reset_zoom (gpointer self)
{
  ms_timeline_view_reset_zoom (self);
}

static const MsProp prop_table[N_PROPS] = {
  [PROP_TITLE] = { "title", G_TYPE_STRING, MS_PROP_FIELD (MsTimelineView, title),
                   .flags = G_PARAM_READABLE },
  [PROP_ZOOMED] = { "zoomed", G_TYPE_BOOLEAN, MS_PROP_FIELD (MsTimelineView, zoomed),
                    .flags = G_PARAM_READABLE },
  [PROP_SHOW_SETUP] = { "show-setup", G_TYPE_BOOLEAN, MS_PROP_FIELD (MsTimelineView, show_setup),
                        .changed = reset_zoom },
  [PROP_EMPTY_TEXT] = { "empty-text", G_TYPE_STRING, MS_PROP_FIELD (MsTimelineView, empty_text),
                        .changed = ms_chart_view_property_changed },
};

static void
ms_timeline_view_finalize (GObject *object)
{
  MsTimelineView *self = MS_TIMELINE_VIEW (object);
  g_clear_handle_id (&self->fill_source, g_source_remove);
  g_clear_pointer (&self->reps, ms_rep_map_unref);
  g_clear_object (&self->held);
  self->run = NULL;
  ms_timeline_layout_clear (&self->layout);
  G_OBJECT_CLASS (ms_timeline_view_parent_class)->finalize (object);
}

static void
ms_timeline_view_class_init (MsTimelineViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  object_class->finalize = ms_timeline_view_finalize;
  MS_CHART_VIEW_CLASS (klass)->draw = chart_draw;
  MS_CHART_VIEW_CLASS (klass)->keeps_picture = TRUE;

  signals[WINDOW_CHANGED] = g_signal_new ("window-changed", G_TYPE_FROM_CLASS (klass),
                                          G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  ms_props_install (object_class, prop_table, props, N_PROPS);

  gtk_widget_class_set_css_name (widget_class, "mstimelineview");
}

static void
ms_timeline_view_init (MsTimelineView *self)
{
  ms_timeline_layout_init (&self->layout);
  ms_time_window_reset (&self->window, 1);
  gtk_widget_set_size_request (GTK_WIDGET (self), 320, 200);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  self->anchor_us = -1;
  GtkEventController *keys = gtk_event_controller_key_new ();
  g_signal_connect (keys, "key-pressed", G_CALLBACK (on_timeline_key), self);
  gtk_widget_add_controller (GTK_WIDGET (self), keys);
  GtkGesture *click = gtk_gesture_click_new ();
  g_signal_connect (click, "pressed", G_CALLBACK (on_timeline_pressed), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));
  g_signal_connect (self, "query-tooltip", G_CALLBACK (on_timeline_tooltip), NULL);
  GtkEventController *scroll =
    gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);
  g_signal_connect (scroll, "scroll", G_CALLBACK (on_timeline_scroll), self);
  gtk_widget_add_controller (GTK_WIDGET (self), scroll);
  GtkEventController *motion = gtk_event_controller_motion_new ();
  g_signal_connect (motion, "motion", G_CALLBACK (on_timeline_motion), self);
  g_signal_connect (motion, "leave", G_CALLBACK (on_timeline_leave), self);
  gtk_widget_add_controller (GTK_WIDGET (self), motion);
  GtkGesture *drag = gtk_gesture_drag_new ();
  g_signal_connect (drag, "drag-begin", G_CALLBACK (on_drag_begin), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (on_drag_update), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drag));
}

/* The map is complete: the window opens on the repetition. */
static void
open_window (MsTimelineView *self)
{
  ms_timeline_layout_set_reps (&self->layout, self->reps);
  self->anchor_us = -1;
  ms_timeline_view_reset_zoom (self);
}

/* A slice of a frame's time at most, so that input and drawing go on. */
#define FILL_SLICE_US 4000

static gboolean
fill_reps (gpointer data)
{
  MsTimelineView *self = data;
  const MsCell *cell = shown_cell (self);
  /* A cell replaced in place meanwhile is read again from its start. */
  if (cell && !ms_rep_map_matches (self->reps, cell)) {
    ms_rep_map_unref (self->reps);
    self->reps = ms_rep_map_new (cell);
  }
  if (cell && !ms_rep_map_fill (self->reps, cell, g_get_monotonic_time () + FILL_SLICE_US))
    return G_SOURCE_CONTINUE;
  self->fill_source = 0;
  open_window (self);
  return G_SOURCE_REMOVE;
}

/* Reading this many events takes about a millisecond: a cell that small
 * is mapped at once. */
#define FILL_AT_ONCE 262144

/* The map of the cell shown: kept when it is the same cell, else made, at
 * once or in idle slices. */
static void
map_reps (MsTimelineView *self, const MsCell *cell)
{
  if (!cell) {
    g_clear_pointer (&self->reps, ms_rep_map_unref);
  } else if (!ms_rep_map_matches (self->reps, cell)) {
    g_clear_pointer (&self->reps, ms_rep_map_unref);
    self->reps = ms_rep_map_new (cell);
  }
  g_clear_handle_id (&self->fill_source, g_source_remove);
  if (!cell || ms_rep_map_complete (self->reps))
    return;
  if (cell->n_events <= FILL_AT_ONCE) {
    ms_rep_map_fill (self->reps, cell, 0);
    return;
  }
  self->fill_source = g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, fill_reps, self, NULL);
  g_source_set_name_by_id (self->fill_source, "[memsweep] timeline repetitions");
}

void
ms_timeline_view_set_cell (MsTimelineView *self, MsRun *held, const MsCell *cell, int rep,
                           const char *title)
{
  const MsResults *run = held ? ms_run_get_results (held) : NULL;
  g_return_if_fail (!cell || (run && cell >= run->cells && cell < run->cells + run->n_cells));
  /* Hold the new run before letting the old one go: they may be the same. */
  MsRun *old = self->held;
  self->held = cell ? g_object_ref (held) : NULL;
  self->run = cell ? run : NULL;
  self->index = cell ? (size_t) (cell - run->cells) : 0;
  g_clear_object (&old);
  /* The layout's index and bars may describe the cell that lived here. */
  ms_timeline_layout_forget_cell (&self->layout);
  if (self->layout.bars)
    g_array_set_size (self->layout.bars, 0);
  self->rep = rep;
  ms_props_set_string (self, &self->title, title, props[PROP_TITLE]);
  map_reps (self, cell);
  if (!indexing (self)) {
    open_window (self);
    return;
  }
  ms_time_window_reset (&self->window, 1);
  window_changed (self);
}

const char *
ms_timeline_view_get_title (MsTimelineView *self)
{
  return self->title;
}

void
ms_timeline_view_zoom (MsTimelineView *self, double factor)
{
  ms_time_window_zoom (&self->window, factor, zoom_anchor (self));
  window_changed (self);
}

void
ms_timeline_view_pan (MsTimelineView *self, double delta_us)
{
  ms_time_window_pan (&self->window, delta_us);
  window_changed (self);
}

void
ms_timeline_view_center_on (MsTimelineView *self, double t_us)
{
  ms_timeline_view_pan (self, t_us - (self->window.t0 + self->window.t1) / 2);
}

void
ms_timeline_view_reset_zoom (MsTimelineView *self)
{
  /* While a large cell is indexed its window is a placeholder. */
  if (indexing (self))
    ms_time_window_reset (&self->window, self->window.total_us);
  else
    ms_time_window_open (&self->window, shown_cell (self), self->rep, self->reps,
                         self->show_setup);
  window_changed (self);
}

const MsTimeWindow *
ms_timeline_view_get_window (MsTimelineView *self)
{
  return &self->window;
}

const MsCell *
ms_timeline_view_get_cell (MsTimelineView *self, int *rep)
{
  if (rep)
    *rep = self->rep;
  return shown_cell (self);
}

gboolean
ms_timeline_view_get_rep_range (MsTimelineView *self, size_t *first, size_t *end)
{
  *first = *end = 0;
  if (indexing (self) || !shown_cell (self))
    return FALSE;
  ms_rep_map_bounds (self->reps, shown_cell (self), self->rep, first, end);
  return TRUE;
}
