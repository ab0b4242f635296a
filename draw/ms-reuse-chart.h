/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-reuse-chart.h: the data reuse lesson's chart: end-to-end bandwidth or
 * time against R (accesses per element), one series per mode, at one size.
 * Cairo, Pango and GLib only, like the other charts. */
#pragma once

#include "ms-chart.h"

G_BEGIN_DECLS

typedef enum {
  MS_REUSE_BANDWIDTH, /* end-to-end GB/s */
  MS_REUSE_TIME,      /* end-to-end µs */
} MsReuseMetric;

typedef struct {
  double plot_x, plot_y, plot_w, plot_h;
  MsScale xs, ys; /* xs: R on a log2 axis */
  guint n_series; /* series drawn */
} MsReuseLayout;

/* The largest size with cells that carry an R setting, or -1. */
int ms_reuse_default_exponent (const MsResults *run);
/* The series of run at exponent: one per mode (zero-copy's read-only and
 * write-only variants apart), points at x = R with the median's interval
 * as error bar. The caller frees it. */
MsChartData *ms_reuse_chart_build (const MsResults *run, int exponent, MsReuseMetric metric);
/* Draws data (from ms_reuse_chart_build) into width x height; layout, when
 * given, receives the geometry. */
void ms_reuse_chart_draw (cairo_t *cr, const MsChartData *data, const MsChartStyle *style,
                          double width, double height, MsReuseLayout *layout);

G_END_DECLS
