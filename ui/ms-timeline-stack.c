/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-timeline-stack.c: the stacked timelines widget. The rows are copies,
 * so the runs they came from may go at any time. */
#include "ms-timeline-stack.h"

#include <math.h>

#include "ms-drawing.h"
#include "ms-props.h"
#include "ms-views.h"

struct _MsTimelineStack {
  MsChartView parent_instance;
  MsTimelineRows rows;
  MsTimeWindow win;
  MsTimelineLayout layouts[MS_TIMELINE_MAX_ROWS];
  gboolean show_setup;
  double pointer_x;
  /* The height every row needs, for the last width and font size asked. */
  gboolean need_stale;
  int need_width, need_height;
  double need_fs;
};

G_DEFINE_FINAL_TYPE (MsTimelineStack, ms_timeline_stack, MS_TYPE_CHART_VIEW)

/* Rows are aligned again, in place, whenever one is added: the layouts'
 * indexes of the events go with them. */
static void
reset_window (gpointer stack)
{
  MsTimelineStack *self = stack;
  for (int i = 0; i < MS_TIMELINE_MAX_ROWS; i++)
    ms_timeline_layout_forget_cell (&self->layouts[i]);
  ms_timeline_rows_window (&self->rows, self->show_setup, &self->win);
  self->need_stale = TRUE;
  gtk_widget_queue_resize (GTK_WIDGET (self));
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* The height that shows every row with lanes of the least height the
 * rows drawing keeps, its titles short: what the rows would like. */
static int
rows_height (MsTimelineStack *self, int width)
{
  MsChartStyle style;
  ms_chart_view_get_style (MS_CHART_VIEW (self), &style);
  double fs = ms_style_font_size (&style);
  if (self->rows.n == 0 || width <= 0)
    return 0;
  if (width == self->need_width && fs == self->need_fs && !self->need_stale)
    return self->need_height;
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1, 1);
  cairo_t *cr = cairo_create (surface);
  double need = ms_timeline_rows_least_height (cr, &self->rows, &style, width);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
  self->need_width = width;
  self->need_fs = fs;
  self->need_stale = FALSE;
  self->need_height = (int) ceil (need) + 2;
  return self->need_height;
}

static GtkSizeRequestMode
ms_timeline_stack_get_request_mode (GtkWidget *widget)
{
  return GTK_SIZE_REQUEST_HEIGHT_FOR_WIDTH;
}

static void
ms_timeline_stack_measure (GtkWidget *widget, GtkOrientation orientation, int for_size,
                           int *minimum, int *natural, int *minimum_baseline,
                           int *natural_baseline)
{
  /* The least is the widget's size request, whatever the text scale: the
   * rows drawing fits every row and the legend into what it is given
   * (thinner lanes, tight titles), so that a projected page shows them
   * all without scrolling; a least height that grew with the rows pushed
   * the legend and the last rows below the window. */
  *minimum = 0;
  *natural = orientation == GTK_ORIENTATION_VERTICAL
               ? rows_height (MS_TIMELINE_STACK (widget), for_size)
               : 0;
}

void
ms_timeline_stack_draw (MsTimelineStack *self, cairo_t *cr, const MsChartStyle *style,
                        double width, double height)
{
  ms_timeline_rows_draw (cr, &self->rows, &self->win, style, width, height, NULL);
}

static void
chart_draw (MsChartView *view, cairo_t *cr, const MsChartStyle *style, int w, int h)
{
  MsTimelineStack *self = MS_TIMELINE_STACK (view);
  ms_timeline_rows_draw (cr, &self->rows, &self->win, style, w, h, self->layouts);
}

static gboolean
on_scroll (GtkEventControllerScroll *scroll, double dx, double dy, MsTimelineStack *self)
{
  const MsTimelineLayout *l = &self->layouts[0];
  if (self->rows.n == 0 || l->plot_w <= 0 || dy == 0)
    return FALSE;
  /* Taller than the pane that scrolls it (every row kept drawn): the wheel
   * scrolls, Ctrl and the wheel zoom. */
  GtkWidget *pane = gtk_widget_get_ancestor (GTK_WIDGET (self), GTK_TYPE_SCROLLED_WINDOW);
  GdkModifierType mods =
    gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (scroll));
  if (pane && !(mods & GDK_CONTROL_MASK) &&
      gtk_widget_get_height (GTK_WIDGET (self)) > gtk_widget_get_height (pane))
    return FALSE;
  double frac = CLAMP ((self->pointer_x - l->plot_x) / l->plot_w, 0, 1);
  double anchor = self->win.t0 + frac * (self->win.t1 - self->win.t0);
  ms_time_window_zoom (&self->win, dy < 0 ? 1.25 : 0.8, anchor);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  return TRUE;
}

static void
on_motion (GtkEventControllerMotion *motion, double x, double y, MsTimelineStack *self)
{
  self->pointer_x = x;
}

enum { PROP_0, PROP_N_ROWS, PROP_SHOW_SETUP, N_PROPS };
static GParamSpec *props[N_PROPS];
static const MsProp prop_table[N_PROPS] = {
  [PROP_N_ROWS] = { "n-rows", G_TYPE_INT, MS_PROP_FIELD (MsTimelineStack, rows.n), 0,
                    MS_TIMELINE_MAX_ROWS, 0, .flags = G_PARAM_READABLE },
  [PROP_SHOW_SETUP] = { "show-setup", G_TYPE_BOOLEAN, MS_PROP_FIELD (MsTimelineStack, show_setup),
                        .changed = reset_window },
};

static void
ms_timeline_stack_finalize (GObject *object)
{
  MsTimelineStack *self = MS_TIMELINE_STACK (object);
  ms_timeline_rows_clear (&self->rows);
  for (int i = 0; i < MS_TIMELINE_MAX_ROWS; i++)
    ms_timeline_layout_clear (&self->layouts[i]);
  G_OBJECT_CLASS (ms_timeline_stack_parent_class)->finalize (object);
}

static void
ms_timeline_stack_class_init (MsTimelineStackClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  object_class->finalize = ms_timeline_stack_finalize;
  MS_CHART_VIEW_CLASS (klass)->draw = chart_draw;
  GTK_WIDGET_CLASS (klass)->measure = ms_timeline_stack_measure;
  GTK_WIDGET_CLASS (klass)->get_request_mode = ms_timeline_stack_get_request_mode;

  ms_props_install (object_class, prop_table, props, N_PROPS);
  gtk_widget_class_set_css_name (GTK_WIDGET_CLASS (klass), "mstimelinestack");
}

static void
ms_timeline_stack_init (MsTimelineStack *self)
{
  ms_timeline_rows_init (&self->rows);
  for (int i = 0; i < MS_TIMELINE_MAX_ROWS; i++)
    ms_timeline_layout_init (&self->layouts[i]);
  ms_time_window_reset (&self->win, 1);
  gtk_widget_set_size_request (GTK_WIDGET (self), 320, 240);
  GtkEventController *scroll =
    gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_VERTICAL);
  g_signal_connect (scroll, "scroll", G_CALLBACK (on_scroll), self);
  gtk_widget_add_controller (GTK_WIDGET (self), scroll);
  GtkEventController *motion = gtk_event_controller_motion_new ();
  g_signal_connect (motion, "motion", G_CALLBACK (on_motion), self);
  gtk_widget_add_controller (GTK_WIDGET (self), motion);
}

void
ms_timeline_stack_clear (MsTimelineStack *self)
{
  ms_timeline_rows_clear (&self->rows);
  reset_window (self);
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_N_ROWS]);
}

gboolean
ms_timeline_stack_add (MsTimelineStack *self, const MsCell *cell, int rep, const char *title)
{
  if (!ms_timeline_rows_add (&self->rows, cell, rep, title))
    return FALSE;
  reset_window (self);
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_N_ROWS]);
  return TRUE;
}

void
ms_timeline_stack_set_lesson_look (MsTimelineStack *self, MsLessonTopic topic)
{
  ms_lesson_rows_look (&self->rows, topic);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

int
ms_timeline_stack_get_n_rows (MsTimelineStack *self)
{
  return self->rows.n;
}

void
ms_timeline_stack_get_window (MsTimelineStack *self, double *t0, double *t1)
{
  *t0 = self->win.t0;
  *t1 = self->win.t1;
}
