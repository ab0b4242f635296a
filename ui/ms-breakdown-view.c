/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-breakdown-view.c: the phase breakdown widget. */
#include "ms-breakdown-view.h"
#include "ms-run.h"

#include "ms-drawing.h"
#include "ms-views.h"

struct _MsBreakdownView {
  MsChartView parent_instance;
  GPtrArray *runs;
  int exponent;
  gboolean one_time; /* the one-time costs beside the per-repetition path */
};

G_DEFINE_FINAL_TYPE (MsBreakdownView, ms_breakdown_view, MS_TYPE_CHART_VIEW)

enum { PROP_0, PROP_RUNS, PROP_EXPONENT, PROP_ONE_TIME, N_PROPS };
static GParamSpec *props[N_PROPS];

static void
ms_breakdown_view_draw (MsChartView *view, cairo_t *cr, const MsChartStyle *style, int w, int h)
{
  MsBreakdownView *self = MS_BREAKDOWN_VIEW (view);
  g_autoptr (GPtrArray) results = ms_run_array_results (self->runs);
  /* The picture names its runs (the header bar does not, and is hidden
   * when projected). */
  g_autofree char *line = ms_plot_runs_line (results);
  double strip = ms_draw_runs_line_height (cr, style, line, h);
  ms_breakdown_draw_full (cr, results, self->exponent, self->one_time, style, w, h - strip);
  ms_draw_runs_line (cr, style, line, w, h);
}

static void
ms_breakdown_view_set_property (GObject *object, guint prop_id, const GValue *value,
                                GParamSpec *pspec)
{
  MsBreakdownView *self = MS_BREAKDOWN_VIEW (object);
  switch (prop_id) {
  case PROP_RUNS: ms_breakdown_view_set_runs (self, g_value_get_boxed (value)); break;
  case PROP_EXPONENT: ms_breakdown_view_set_exponent (self, g_value_get_int (value)); break;
  case PROP_ONE_TIME: ms_breakdown_view_set_one_time (self, g_value_get_boolean (value)); break;
  default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
  }
}

static void
ms_breakdown_view_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  MsBreakdownView *self = MS_BREAKDOWN_VIEW (object);
  switch (prop_id) {
  case PROP_RUNS: g_value_set_boxed (value, self->runs); break;
  case PROP_EXPONENT: g_value_set_int (value, self->exponent); break;
  case PROP_ONE_TIME: g_value_set_boolean (value, self->one_time); break;
  default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
  }
}

static void
ms_breakdown_view_dispose (GObject *object)
{
  g_clear_pointer (&MS_BREAKDOWN_VIEW (object)->runs, g_ptr_array_unref);
  G_OBJECT_CLASS (ms_breakdown_view_parent_class)->dispose (object);
}

static void
ms_breakdown_view_class_init (MsBreakdownViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  object_class->dispose = ms_breakdown_view_dispose;
  object_class->set_property = ms_breakdown_view_set_property;
  object_class->get_property = ms_breakdown_view_get_property;
  MS_CHART_VIEW_CLASS (klass)->draw = ms_breakdown_view_draw;

  const GParamFlags flags = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;
  props[PROP_RUNS] = g_param_spec_boxed ("runs", NULL, NULL, G_TYPE_PTR_ARRAY, flags);
  props[PROP_EXPONENT] =
    g_param_spec_int ("exponent", NULL, NULL, -1, MS_MAX_EXPONENT, 20, flags);
  /* Off by default: the per-repetition path alone adds up to end-to-end. */
  props[PROP_ONE_TIME] = g_param_spec_boolean ("one-time", NULL, NULL, FALSE, flags);
  g_object_class_install_properties (object_class, N_PROPS, props);

  gtk_widget_class_set_css_name (GTK_WIDGET_CLASS (klass), "msbreakdownview");
}

static void
ms_breakdown_view_init (MsBreakdownView *self)
{
  self->exponent = 20;
  gtk_widget_set_size_request (GTK_WIDGET (self), 320, 200);
}

GtkWidget *
ms_breakdown_view_new (void)
{
  return g_object_new (MS_TYPE_BREAKDOWN_VIEW, NULL);
}

void
ms_breakdown_view_set_runs (MsBreakdownView *self, GPtrArray *runs)
{
  /* Always redraws: the same array may have changed in place. */
  if (runs != self->runs) {
    g_clear_pointer (&self->runs, g_ptr_array_unref);
    self->runs = runs ? g_ptr_array_ref (runs) : NULL;
    g_object_notify_by_pspec (G_OBJECT (self), props[PROP_RUNS]);
  }
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

int
ms_breakdown_view_get_exponent (MsBreakdownView *self)
{
  return self->exponent;
}

void
ms_breakdown_view_set_exponent (MsBreakdownView *self, int exponent)
{
  if (exponent == self->exponent)
    return;
  self->exponent = exponent;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_EXPONENT]);
}

gboolean
ms_breakdown_view_get_one_time (MsBreakdownView *self)
{
  return self->one_time;
}

void
ms_breakdown_view_set_one_time (MsBreakdownView *self, gboolean one_time)
{
  one_time = !!one_time;
  if (one_time == self->one_time)
    return;
  self->one_time = one_time;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_ONE_TIME]);
}
