/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-chart-page.h: a chart page: bandwidth (with a metric picker) or time
 * against size, a log-scale toggle and a series picker; the health strip
 * under the chart and a warning when a run's link trained down or a cell
 * throttled. */
#pragma once

#include <gtk/gtk.h>

#include "ms-page.h"

#include "ms-health-view.h"
#include "ms-plot-view.h"

G_BEGIN_DECLS

#define MS_TYPE_CHART_PAGE (ms_chart_page_get_type ())
G_DECLARE_FINAL_TYPE (MsChartPage, ms_chart_page, MS, CHART_PAGE, MsPage)

/* Properties: "metric" (an MsMetric; the picker shows for the bandwidth
 * ones), "log-scale", "modes" (mode names, comma-separated: only their
 * series are drawn, under a bar "Showing only: ..." with Show All, which
 * sets it back to NULL). */
MsPlotView *ms_chart_page_get_view (MsChartPage *self);
/* The health strip under the chart: the last run's. */
MsHealthView *ms_chart_page_get_health (MsChartPage *self);

G_END_DECLS
