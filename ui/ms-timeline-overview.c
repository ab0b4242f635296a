/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-timeline-overview.c: the whole repetition in a thin strip, the visible
 * window marked. The bars are drawn once per cell, repetition, size and
 * style into an image; a moving window redraws only the mark. */
#include "ms-timeline-overview.h"

#include <glib/gi18n.h>
#include <math.h>

#include "ms-props.h"
#include "ms-views.h"
#include "ms-timeline-view.h"

struct _MsTimelineOverview {
  GtkWidget parent_instance;
  MsTimelineView *view; /* weak: the page holds both */
  cairo_surface_t *bars;
  const MsCell *bars_cell;
  int bars_rep, bars_w, bars_h;
  gboolean bars_dark;
};

G_DEFINE_FINAL_TYPE (MsTimelineOverview, ms_timeline_overview, GTK_TYPE_WIDGET)

enum { PROP_0, PROP_VIEW, N_PROPS };
static GParamSpec *props[N_PROPS];

/* The strip's inner width: a frame's width in from each side. */
static void
strip_x (MsTimelineOverview *self, double *x, double *w)
{
  *x = 1;
  *w = MAX (gtk_widget_get_width (GTK_WIDGET (self)) - 2, 1);
}

/* The time in µs at x in the strip (for a click there). */
static double
time_at (MsTimelineOverview *self, double x)
{
  double x0, w;
  strip_x (self, &x0, &w);
  const MsTimeWindow *win = ms_timeline_view_get_window (self->view);
  return CLAMP ((x - x0) / w, 0, 1) * win->total_us;
}

/* The time of each phase in each pixel column of a half (host calls,
 * GPU work), added up from the events that touch the column. */
static void
sum_columns (const MsCell *cell, int rep, size_t first, size_t end, double total, double w,
             int cols, double *time)
{
  for (size_t i = first; i < end; i++) {
    const MsEvent *ev = &cell->events[i];
    if (ev->rep != rep || (unsigned) ev->phase >= MS_PHASE_COUNT)
      continue;
    gboolean gpu = ev->gpu_us >= 0;
    double t0 = gpu ? ev->gpu_start_us : ev->host_start_us, d = gpu ? ev->gpu_us : ev->host_us;
    double x0 = t0 / total * w, x1 = x0 + MAX (d / total * w, 1);
    if (!isfinite (x0) || !isfinite (x1) || x1 <= 0 || x0 >= cols)
      continue;
    double *half = time + (gpu ? cols : 0) * MS_PHASE_COUNT;
    for (int c = MAX (0, (int) x0); c < MIN (cols, (int) ceil (x1)); c++)
      half[c * MS_PHASE_COUNT + ev->phase] += MIN (x1, c + 1) - MAX (x0, c);
  }
}

static int
dominant_phase (const double *col)
{
  int best = -1;
  for (int p = 0; p < MS_PHASE_COUNT; p++)
    if (col[p] > 0 && (best < 0 || col[p] > col[best]))
      best = p;
  return best;
}

/* Host calls on the upper half, GPU work on the lower; each pixel column
 * in the colour of the phase with most time there, so that a million
 * events cost one pass and a fill per phase. */
static void
draw_bars (cairo_t *cr, MsTimelineView *view, double w, double h, gboolean dark)
{
  int rep;
  const MsCell *cell = ms_timeline_view_get_cell (view, &rep);
  double total = ms_timeline_view_get_window (view)->total_us;
  size_t first, past;
  ms_timeline_view_get_rep_range (view, &first, &past);
  int cols = MAX (1, (int) ceil (w));
  double *time = g_new0 (double, 2 * (size_t) cols * MS_PHASE_COUNT);
  int *phase = g_new (int, 2 * (size_t) cols);
  sum_columns (cell, rep, first, past, total, w, cols, time);
  for (int c = 0; c < 2 * cols; c++)
    phase[c] = dominant_phase (time + (size_t) c * MS_PHASE_COUNT);
  for (int p = 0; p < MS_PHASE_COUNT; p++) {
    for (int gpu = 0; gpu < 2; gpu++) {
      const int *row = phase + gpu * cols;
      for (int c = 0; c < cols; c++) {
        int end = c;
        while (end < cols && row[end] == p)
          end++;
        if (end > c)
          cairo_rectangle (cr, c, gpu ? h / 2 : 1, end - c, h / 2 - 1);
        c = end;
      }
    }
    MsColor color;
    ms_phase_color (p, dark, &color);
    ms_set_color (cr, &color, 1);
    cairo_fill (cr);
  }
  g_free (time);
  g_free (phase);
}

static void
update_bars (MsTimelineOverview *self, const MsCell *cell, int rep, int w, int h, gboolean dark)
{
  if (self->bars && self->bars_cell == cell && self->bars_rep == rep && self->bars_w == w
      && self->bars_h == h && self->bars_dark == dark)
    return;
  g_clear_pointer (&self->bars, cairo_surface_destroy);
  self->bars_cell = cell, self->bars_rep = rep, self->bars_w = w, self->bars_h = h;
  self->bars_dark = dark;
  if (!cell || w <= 0 || h <= 0)
    return;
  self->bars = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, w, h);
  cairo_t *cr = cairo_create (self->bars);
  draw_bars (cr, self->view, w, h, dark);
  cairo_destroy (cr);
}

static void
ms_timeline_overview_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  MsTimelineOverview *self = MS_TIMELINE_OVERVIEW (widget);
  int h = gtk_widget_get_height (widget);
  if (!self->view)
    return;
  int rep;
  const MsCell *cell = ms_timeline_view_get_cell (self->view, &rep);
  size_t first, end;
  /* While the view indexes a large cell the strip waits with it. */
  if (!ms_timeline_view_get_rep_range (self->view, &first, &end))
    cell = NULL;
  MsViewScale scale = { 1, 1 };
  MsChartStyle style;
  ms_view_style_from_widget (widget, &scale, &style);
  double x0, w;
  strip_x (self, &x0, &w);
  update_bars (self, cell, rep, (int)w, h, style.dark);
  if (!self->bars)
    return;
  cairo_t *cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, x0 + w, h));
  ms_set_color (cr, &style.fg, 0.06);
  cairo_rectangle (cr, x0, 0, w, h);
  cairo_fill (cr);
  cairo_set_source_surface (cr, self->bars, x0, 0);
  cairo_paint (cr);
  /* The view's window: the rest dimmed, the window framed. */
  const MsTimeWindow *win = ms_timeline_view_get_window (self->view);
  double a = x0 + win->t0 / win->total_us * w, b = x0 + win->t1 / win->total_us * w;
  ms_set_color (cr, &style.bg, 0.6);
  cairo_rectangle (cr, x0, 0, a - x0, h);
  cairo_rectangle (cr, b, 0, x0 + w - b, h);
  cairo_fill (cr);
  ms_set_color (cr, &style.fg, 1);
  cairo_set_line_width (cr, 2);
  cairo_rectangle (cr, a, 1, MAX (b - a, 2), h - 2);
  cairo_stroke (cr);
  cairo_destroy (cr);
}

static void
jump_to (MsTimelineOverview *self, double x)
{
  if (self->view && ms_timeline_view_get_cell (self->view, NULL))
    ms_timeline_view_center_on (self->view, time_at (self, x));
}

static void
on_drag_begin (GtkGestureDrag *g, double x, double y, MsTimelineOverview *self)
{
  jump_to (self, x);
}

static void
on_drag_update (GtkGestureDrag *g, double dx, double dy, MsTimelineOverview *self)
{
  double x, y;
  gtk_gesture_drag_get_start_point (g, &x, &y);
  jump_to (self, x + dx);
}

static void
set_view (MsTimelineOverview *self, MsTimelineView *view)
{
  if (self->view)
    g_signal_handlers_disconnect_by_data (self->view, self);
  g_set_weak_pointer (&self->view, view);
  if (view)
    g_signal_connect_swapped (view, "window-changed", G_CALLBACK (gtk_widget_queue_draw), self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static MsTimelineView *
get_view (MsTimelineOverview *self)
{
  return self->view;
}

static const MsProp prop_table[N_PROPS] = {
  [PROP_VIEW] = { "view", G_TYPE_OBJECT, MS_PROP_NO_FIELD, .get_type = ms_timeline_view_get_type,
                  .setter = G_CALLBACK (set_view), .getter = G_CALLBACK (get_view) },
};

static void
ms_timeline_overview_dispose (GObject *object)
{
  MsTimelineOverview *self = MS_TIMELINE_OVERVIEW (object);
  set_view (self, NULL);
  g_clear_pointer (&self->bars, cairo_surface_destroy);
  G_OBJECT_CLASS (ms_timeline_overview_parent_class)->dispose (object);
}

static void
ms_timeline_overview_class_init (MsTimelineOverviewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  object_class->dispose = ms_timeline_overview_dispose;
  widget_class->snapshot = ms_timeline_overview_snapshot;
  ms_props_install (object_class, prop_table, props, N_PROPS);
  gtk_widget_class_set_css_name (widget_class, "mstimelineoverview");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
ms_timeline_overview_init (MsTimelineOverview *self)
{
  gtk_widget_set_size_request (GTK_WIDGET (self), -1, 22);
  gtk_widget_set_hexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self),
                               _ ("The whole repetition, the part shown framed: click or drag to "
                                  "move there"));
  GtkGesture *drag = gtk_gesture_drag_new ();
  g_signal_connect (drag, "drag-begin", G_CALLBACK (on_drag_begin), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (on_drag_update), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drag));
  ms_view_follow_style (GTK_WIDGET (self), G_CALLBACK (gtk_widget_queue_draw));
}
