/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-breakdown-view.c: the phase breakdown widget. */
#include "ms-breakdown-view.h"
#include "ms-props.h"
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

enum { PROP_0, PROP_RUNS, PROP_EXPONENT, PROP_ONE_TIME, N_PROPS };
static GParamSpec *props[N_PROPS];
static const MsProp prop_table[N_PROPS] = {
  /* Always redrawn: the same array may have changed in place. */
  [PROP_RUNS] = { "runs", G_TYPE_BOXED, MS_PROP_FIELD (MsBreakdownView, runs),
                  .get_type = g_ptr_array_get_type, .changed = ms_chart_view_property_changed,
                  .always_changed = TRUE },
  [PROP_EXPONENT] = { "exponent", G_TYPE_INT, MS_PROP_FIELD (MsBreakdownView, exponent), -1,
                      MS_MAX_EXPONENT, 20, .changed = ms_chart_view_property_changed },
  /* Off by default: the per-repetition path alone adds up to end-to-end. */
  [PROP_ONE_TIME] = { "one-time", G_TYPE_BOOLEAN, MS_PROP_FIELD (MsBreakdownView, one_time),
                      .changed = ms_chart_view_property_changed },
};

static void
ms_breakdown_view_class_init (MsBreakdownViewClass *klass)
{
  MS_CHART_VIEW_CLASS (klass)->draw = ms_breakdown_view_draw;
  ms_props_install (G_OBJECT_CLASS (klass), prop_table, props, N_PROPS);

  gtk_widget_class_set_css_name (GTK_WIDGET_CLASS (klass), "msbreakdownview");
}

static void
ms_breakdown_view_init (MsBreakdownView *self)
{
  self->exponent = 20;
  gtk_widget_set_size_request (GTK_WIDGET (self), 320, 200);
}

int
ms_breakdown_view_get_exponent (MsBreakdownView *self)
{
  return self->exponent;
}

gboolean
ms_breakdown_view_get_one_time (MsBreakdownView *self)
{
  return self->one_time;
}
