/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-breakdown-view.h: where one repetition's time goes, per mode, at one size. */
#pragma once

#include <gtk/gtk.h>

#include "ms-chart-view.h"

#include "memsweep.h"

G_BEGIN_DECLS

#define MS_TYPE_BREAKDOWN_VIEW (ms_breakdown_view_get_type ())
G_DECLARE_FINAL_TYPE (MsBreakdownView, ms_breakdown_view, MS, BREAKDOWN_VIEW, MsChartView)

/* Properties: "runs" (GPtrArray of MsRun*, referenced), "exponent" (the
 * size, 2^exponent elements; -1: none), "one-time" (the one-time costs in
 * a second group; off: the per-repetition path alone, which adds up to the
 * Time view's median), and the text-scale / line-scale / high-contrast of
 * MsChartView. */
int ms_breakdown_view_get_exponent (MsBreakdownView *self);
/* Whether the one-time costs show beside the per-repetition path. */
gboolean ms_breakdown_view_get_one_time (MsBreakdownView *self);

G_END_DECLS
