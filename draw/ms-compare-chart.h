/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-compare-chart.h: the difference chart of two runs (ms-compare-chart.c):
 * B's end-to-end time over A's (log, fitted) against size (log2 x), one series per mode in
 * its usual look, the threshold's band around 1 shaded, and each cell's
 * decided verdicts marked (a ring for faster or slower, nothing for
 * ambiguous or same). Drawn on any cairo_t through ms-chart.c. */
#pragma once

#include "ms-chart.h"
#include "ms-engine.h"

G_BEGIN_DECLS

/* The chart's series and its reference line at 1; title may be NULL. */
MsChartData *ms_compare_chart_data (const MsComparison *cmp, const char *title);

/* Draws the whole chart; layout as ms_chart_draw's (may be NULL). */
void ms_compare_chart_draw (cairo_t *cr, const MsComparison *cmp, const MsChartData *data,
                            const MsChartStyle *style, double width, double height,
                            MsChartLayout *layout);

/* A verdict's ring colour: the style's foreground for faster and slower
 * (which side of 1 tells them apart), paler for ambiguous and same. */
void ms_verdict_color (MsVerdict verdict, const MsChartStyle *style, MsColor *out);

G_END_DECLS
