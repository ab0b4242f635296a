/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-breakdown-view.c: the phase breakdown widget. */
#include "ms-breakdown-view.h"

#include <math.h>
#include <stdlib.h>
#include "ms-props.h"
#include "ms-run.h"

#include "ms-drawing.h"
#include "ms-views.h"

struct _MsBreakdownView {
  MsChartView parent_instance;
  GPtrArray *runs;
  int exponent;
  gboolean one_time; /* the one-time costs beside the per-repetition path */
  int legible_h;     /* the height its rows' text needs (ms_breakdown_draw_full) */
  guint resize_id;
};

G_DEFINE_FINAL_TYPE (MsBreakdownView, ms_breakdown_view, MS_TYPE_CHART_VIEW)

#define MS_BREAKDOWN_VIEW_MIN_H 200

static gboolean
ask_legible_height (gpointer data)
{
  MsBreakdownView *self = data;
  self->resize_id = 0;
  gtk_widget_set_size_request (GTK_WIDGET (self), 320, self->legible_h);
  return G_SOURCE_REMOVE;
}

static void
ms_breakdown_view_draw (MsChartView *view, cairo_t *cr, const MsChartStyle *style, int w, int h)
{
  MsBreakdownView *self = MS_BREAKDOWN_VIEW (view);
  g_autoptr (GPtrArray) results = ms_run_array_results (self->runs);
  /* The picture names its runs (the header bar does not, and is hidden
   * when projected). */
  g_autofree char *line = ms_plot_runs_line (results);
  double strip = ms_draw_runs_line_height (cr, style, line, h);
  double legible = ms_breakdown_draw_full (cr, results, self->exponent, self->one_time, style, w,
                                           h - strip);
  ms_draw_runs_line (cr, style, line, w, h);
  /* Rows too many to read at this height ask for the height they need,
   * and the page scrolls (not while drawing: a resize then is refused).
   * It depends on the width, not the height, so asking settles. */
  int want = MAX (MS_BREAKDOWN_VIEW_MIN_H, (int) ceil (legible + strip));
  if (abs (want - self->legible_h) > 1 && !self->resize_id) {
    self->legible_h = want;
    self->resize_id = g_idle_add (ask_legible_height, self);
  }
}

static void
ms_breakdown_view_dispose (GObject *object)
{
  MsBreakdownView *self = MS_BREAKDOWN_VIEW (object);
  g_clear_handle_id (&self->resize_id, g_source_remove);
  G_OBJECT_CLASS (ms_breakdown_view_parent_class)->dispose (object);
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
  G_OBJECT_CLASS (klass)->dispose = ms_breakdown_view_dispose;
  ms_props_install (G_OBJECT_CLASS (klass), prop_table, props, N_PROPS);

  gtk_widget_class_set_css_name (GTK_WIDGET_CLASS (klass), "msbreakdownview");
}

static void
ms_breakdown_view_init (MsBreakdownView *self)
{
  self->exponent = 20;
  self->legible_h = MS_BREAKDOWN_VIEW_MIN_H;
  gtk_widget_set_size_request (GTK_WIDGET (self), 320, MS_BREAKDOWN_VIEW_MIN_H);
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
