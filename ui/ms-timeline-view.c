/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-timeline-view.c: the timeline widget. */
#include "ms-timeline-view.h"

#include <glib/gi18n.h>
#include <math.h>

#include "ms-run.h"
#include "ms-views.h"

struct _MsTimelineView {
  GtkWidget parent_instance;
  /* The run shown, held, and the cell's index in it: no copy of its
   * events, and a run closed meanwhile stays valid until the next cell. */
  MsResults *run;
  size_t index;
  int rep;
  char *title;
  MsTimeWindow window;
  gboolean zoomed;
  MsTimelineLayout layout;
  MsViewScale scale;
  double drag_t0;
  double pointer_x;
};

G_DEFINE_FINAL_TYPE (MsTimelineView, ms_timeline_view, GTK_TYPE_WIDGET)

enum { PROP_0, PROP_TITLE, PROP_ZOOMED, PROP_SCALE_FIRST, N_PROPS };
static GParamSpec *props[N_PROPS];

/* Redraws, and tells bindings whether the window still shows everything. */
static void
window_changed (MsTimelineView *self)
{
  gboolean zoomed = self->window.t0 > 0 || self->window.t1 < self->window.total_us;
  gtk_widget_queue_draw (GTK_WIDGET (self));
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

static void
ms_timeline_view_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  MsTimelineView *self = MS_TIMELINE_VIEW (widget);
  int w = gtk_widget_get_width (widget), h = gtk_widget_get_height (widget);
  MsChartStyle style;
  ms_view_style_from_widget (widget, &self->scale, &style);
  cairo_t *cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, w, h));
  ms_timeline_draw (cr, shown_cell (self), self->rep, &self->window, &style, w,
                    h, self->title, &self->layout);
  cairo_destroy (cr);
}

static double
pixel_to_time (MsTimelineView *self, double x)
{
  const MsTimelineLayout *l = &self->layout;
  if (l->plot_w <= 0)
    return self->window.t0;
  return self->window.t0 + (x - l->plot_x) / l->plot_w * (self->window.t1 - self->window.t0);
}

static void
on_timeline_motion (GtkEventControllerMotion *c, double x, double y, MsTimelineView *self)
{
  self->pointer_x = x;
}

static gboolean
on_timeline_scroll (GtkEventControllerScroll *c, double dx, double dy, MsTimelineView *self)
{
  /* Wheel zooms around the pointer; horizontal scrolling pans. */
  if (dy != 0)
    ms_time_window_zoom (&self->window, pow (1.2, -dy), pixel_to_time (self, self->pointer_x));
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

static gboolean
on_timeline_tooltip (GtkWidget *widget, int x, int y, gboolean keyboard, GtkTooltip *tooltip,
                     gpointer data)
{
  MsTimelineView *self = MS_TIMELINE_VIEW (widget);
  const MsTimelineBar *bar = ms_timeline_layout_hit (&self->layout, x, y);
  if (!bar)
    return FALSE;
  const MsEvent *ev = bar->event;
  GString *s = g_string_new (NULL);
  /* Markup: the translations hold no markup characters. */
  const char *where = bar->host_part    ? _(" (host call)")
                      : ev->gpu_us >= 0 ? _(" (on the GPU)")
                                        : "";
  g_string_append_printf (s, "<b>%s</b>%s\n", ms_phase_name (ev->phase), where);
  g_string_append_printf (s, _("start %.2f µs (host clock)\nhost %.2f µs"), ev->host_start_us,
                          ev->host_us);
  if (ev->gpu_us >= 0) {
    g_string_append_printf (s, _("\nGPU %.2f µs, starting at %.2f µs"), ev->gpu_us,
                            ev->gpu_start_us);
    if (ms_event_blocked_host (ev))
      g_string_append (s, _("\nthe call blocked the host while the GPU worked"));
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
  gtk_tooltip_set_markup (tooltip, s->str);
  g_string_free (s, TRUE);
  return TRUE;
}

static void
ms_timeline_view_set_property (GObject *object, guint prop_id, const GValue *value,
                               GParamSpec *pspec)
{
  MsTimelineView *self = MS_TIMELINE_VIEW (object);
  if (!ms_view_scale_set (object, &self->scale, prop_id - PROP_SCALE_FIRST, value))
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
ms_timeline_view_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  MsTimelineView *self = MS_TIMELINE_VIEW (object);
  switch (prop_id) {
  case PROP_TITLE: g_value_set_string (value, self->title); break;
  case PROP_ZOOMED: g_value_set_boolean (value, self->zoomed); break;
  default:
    if (!ms_view_scale_get (&self->scale, prop_id - PROP_SCALE_FIRST, value))
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
  }
}

static void
ms_timeline_view_finalize (GObject *object)
{
  MsTimelineView *self = MS_TIMELINE_VIEW (object);
  g_clear_pointer (&self->run, ms_run_unref);
  g_free (self->title);
  ms_timeline_layout_clear (&self->layout);
  G_OBJECT_CLASS (ms_timeline_view_parent_class)->finalize (object);
}

static void
ms_timeline_view_class_init (MsTimelineViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  object_class->finalize = ms_timeline_view_finalize;
  object_class->set_property = ms_timeline_view_set_property;
  object_class->get_property = ms_timeline_view_get_property;
  widget_class->snapshot = ms_timeline_view_snapshot;

  props[PROP_TITLE] = g_param_spec_string ("title", NULL, NULL, NULL,
                                           G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  props[PROP_ZOOMED] = g_param_spec_boolean ("zoomed", NULL, NULL, FALSE,
                                             G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, PROP_SCALE_FIRST, props);
  ms_view_scale_install (object_class, PROP_SCALE_FIRST);

  gtk_widget_class_set_css_name (widget_class, "mstimelineview");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
ms_timeline_view_init (MsTimelineView *self)
{
  self->scale = (MsViewScale){ 1, 1 };
  ms_timeline_layout_init (&self->layout);
  ms_time_window_reset (&self->window, 1);
  gtk_widget_set_hexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_size_request (GTK_WIDGET (self), 320, 200);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  g_signal_connect (self, "query-tooltip", G_CALLBACK (on_timeline_tooltip), NULL);
  GtkEventController *scroll =
    gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);
  g_signal_connect (scroll, "scroll", G_CALLBACK (on_timeline_scroll), self);
  gtk_widget_add_controller (GTK_WIDGET (self), scroll);
  GtkEventController *motion = gtk_event_controller_motion_new ();
  g_signal_connect (motion, "motion", G_CALLBACK (on_timeline_motion), self);
  gtk_widget_add_controller (GTK_WIDGET (self), motion);
  GtkGesture *drag = gtk_gesture_drag_new ();
  g_signal_connect (drag, "drag-begin", G_CALLBACK (on_drag_begin), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (on_drag_update), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drag));
  ms_view_follow_style (GTK_WIDGET (self), G_CALLBACK (gtk_widget_queue_draw));
}

GtkWidget *
ms_timeline_view_new (void)
{
  return g_object_new (MS_TYPE_TIMELINE_VIEW, NULL);
}

void
ms_timeline_view_set_cell (MsTimelineView *self, const MsResults *run, const MsCell *cell, int rep,
                           const char *title)
{
  g_return_if_fail (!cell || (run && cell >= run->cells && cell < run->cells + run->n_cells));
  /* Hold the new run before letting the old one go: they may be the same. */
  MsResults *old = self->run;
  self->run = cell ? ms_run_ref (run) : NULL;
  self->index = cell ? (size_t) (cell - run->cells) : 0;
  ms_run_unref (old);
  /* The layout's index and bars may describe the cell that lived here. */
  ms_timeline_layout_forget_cell (&self->layout);
  if (self->layout.bars)
    g_array_set_size (self->layout.bars, 0);
  self->rep = rep;
  if (g_strcmp0 (title, self->title) != 0) {
    g_free (self->title);
    self->title = g_strdup (title);
    g_object_notify_by_pspec (G_OBJECT (self), props[PROP_TITLE]);
  }
  ms_time_window_reset (&self->window, cell ? ms_timeline_extent (cell, rep) : 1);
  window_changed (self);
}

const char *
ms_timeline_view_get_title (MsTimelineView *self)
{
  return self->title;
}

gboolean
ms_timeline_view_get_zoomed (MsTimelineView *self)
{
  return self->zoomed;
}

void
ms_timeline_view_zoom (MsTimelineView *self, double factor)
{
  ms_time_window_zoom (&self->window, factor, (self->window.t0 + self->window.t1) / 2);
  window_changed (self);
}

void
ms_timeline_view_reset_zoom (MsTimelineView *self)
{
  ms_time_window_reset (&self->window, self->window.total_us);
  window_changed (self);
}

const MsTimeWindow *
ms_timeline_view_get_window (MsTimelineView *self)
{
  return &self->window;
}
