/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-reuse-view.c: the reuse chart widget: the chart data is built when the
 * run, size or metric changes, and drawn at every frame. */
#include "ms-reuse-view.h"

#include "ms-drawing.h"
#include "ms-props.h"
#include "ms-run.h"
#include "ms-views.h"

struct _MsReuseView {
  MsChartView parent_instance;
  MsRun *held;
  const MsResults *run; /* held's results */
  int exponent;
  gboolean time;
  MsChartData *data; /* built lazily */
};

G_DEFINE_FINAL_TYPE (MsReuseView, ms_reuse_view, MS_TYPE_CHART_VIEW)

int
ms_reuse_view_get_shown_exponent (MsReuseView *self)
{
  return self->exponent >= 0 ? self->exponent : ms_reuse_default_exponent (self->run);
}

static void
invalidate (gpointer view)
{
  MsReuseView *self = view;
  g_clear_pointer (&self->data, ms_chart_data_free);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
ms_reuse_view_draw (MsReuseView *self, cairo_t *cr, const MsChartStyle *style, double width,
                    double height)
{
  if (!self->data)
    self->data = ms_reuse_chart_build (self->run, ms_reuse_view_get_shown_exponent (self),
                                       self->time ? MS_REUSE_TIME : MS_REUSE_BANDWIDTH);
  ms_reuse_chart_draw (cr, self->data, style, width, height, NULL);
}

static void
chart_draw (MsChartView *view, cairo_t *cr, const MsChartStyle *style, int w, int h)
{
  ms_reuse_view_draw (MS_REUSE_VIEW (view), cr, style, w, h);
}

enum { PROP_0, PROP_EXPONENT, PROP_TIME, N_PROPS };
static GParamSpec *props[N_PROPS];
static const MsProp prop_table[N_PROPS] = {
  [PROP_EXPONENT] = { "exponent", G_TYPE_INT, MS_PROP_FIELD (MsReuseView, exponent), -1,
                      MS_MAX_EXPONENT, -1, .changed = invalidate },
  [PROP_TIME] = { "time", G_TYPE_BOOLEAN, MS_PROP_FIELD (MsReuseView, time), .def = TRUE,
                  .changed = invalidate },
};

static void
ms_reuse_view_dispose (GObject *object)
{
  MsReuseView *self = MS_REUSE_VIEW (object);
  g_clear_object (&self->held);
  self->run = NULL;
  g_clear_pointer (&self->data, ms_chart_data_free);
  G_OBJECT_CLASS (ms_reuse_view_parent_class)->dispose (object);
}

static void
ms_reuse_view_class_init (MsReuseViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  object_class->dispose = ms_reuse_view_dispose;
  MS_CHART_VIEW_CLASS (klass)->draw = chart_draw;
  ms_props_install (object_class, prop_table, props, N_PROPS);

  gtk_widget_class_set_css_name (GTK_WIDGET_CLASS (klass), "msreuseview");
}

static void
ms_reuse_view_init (MsReuseView *self)
{
  self->exponent = -1;
  self->time = TRUE;
  gtk_widget_set_size_request (GTK_WIDGET (self), 320, 200);
}

void
ms_reuse_view_set_run (MsReuseView *self, MsRun *run)
{
  if (!g_set_object (&self->held, run))
    return;
  self->run = run ? ms_run_get_results (run) : NULL;
  invalidate (self);
}

const MsResults *
ms_reuse_view_get_run (MsReuseView *self)
{
  return self->run;
}
