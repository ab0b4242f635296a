/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-reuse-view.h: the reuse chart as a widget (ms-reuse-chart.h). */
#pragma once

#include <gtk/gtk.h>

#include "ms-chart-view.h"

#include "memsweep.h"
#include "ms-drawing.h"
#include "ms-run.h"

G_BEGIN_DECLS

#define MS_TYPE_REUSE_VIEW (ms_reuse_view_get_type ())
G_DECLARE_FINAL_TYPE (MsReuseView, ms_reuse_view, MS, REUSE_VIEW, MsChartView)

/* Properties: "exponent" (the size shown; -1: the largest with R cells),
 * "time" (TRUE: end-to-end time, FALSE: bandwidth), and the text-scale /
 * line-scale / high-contrast of MsChartView. */
/* run: held by the view, or NULL. */
void ms_reuse_view_set_run (MsReuseView *self, MsRun *run);
const MsResults *ms_reuse_view_get_run (MsReuseView *self);
/* The size drawn: the exponent property, or the default for -1. */
int ms_reuse_view_get_shown_exponent (MsReuseView *self);
/* Draws the chart as shown (size, time or bandwidth) into width x height:
 * the export. */
void ms_reuse_view_draw (MsReuseView *self, cairo_t *cr, const MsChartStyle *style, double width,
                         double height);

G_END_DECLS
