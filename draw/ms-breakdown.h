/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-breakdown.h: where the median time of each mode goes at one size, as
 * stacked horizontal bars of phases, drawn with Cairo. */
#pragma once

#include "memsweep.h"
#include "ms-draw.h"

G_BEGIN_DECLS

/* One row per (run, mode) with a cell at 2^exponent, for every run given
 * (MsResults*). */
void ms_breakdown_draw (cairo_t *cr, GPtrArray *runs, int exponent, const MsChartStyle *style,
                        double width, double height);

G_END_DECLS
