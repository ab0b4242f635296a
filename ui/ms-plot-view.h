/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-plot-view.h: the line chart widget (bandwidth or time against size). */
#pragma once

#include <gtk/gtk.h>

#include "ms-chart-view.h"

#include "memsweep.h"
#include "ms-drawing.h"

G_BEGIN_DECLS

#define MS_TYPE_PLOT_VIEW (ms_plot_view_get_type ())
G_DECLARE_FINAL_TYPE (MsPlotView, ms_plot_view, MS, PLOT_VIEW, MsChartView)

/* Properties: "runs" (GPtrArray of MsRun*, referenced), "metric" (an
 * MsMetric), "log-scale", "direct-labels" (each line named at its end; set
 * with "high-contrast", so on in presentation mode), "planned-min-exponent"
 * and "planned-max-exponent" (a running sweep's sizes, -1 for none: the x
 * axis spans them from the start), "modes" (mode names, comma-separated:
 * only their series are drawn; NULL for all), and the text-scale / line-scale /
 * high-contrast of MsChartView. */
const char *ms_plot_view_get_modes (MsPlotView *self);
/* The data as drawn now (for exports and tests). */
const MsChartData *ms_plot_view_get_data (MsPlotView *self);
void ms_plot_view_set_series_hidden (MsPlotView *self, const char *label, gboolean hidden);
/* Toggles a series as a legend click does; returns FALSE if none is there. */
gboolean ms_plot_view_click (MsPlotView *self, double x, double y);
/* What the legend entry at (x, y) stands for ("UVA: pinned memory whose
 * host pointers ... (unified virtual addressing)"), NULL off the legend. */
char *ms_plot_view_legend_tooltip (MsPlotView *self, double x, double y);

G_END_DECLS
