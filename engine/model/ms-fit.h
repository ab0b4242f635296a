/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-fit.h: time = latency + bytes / bandwidth fitted over a mode's
 * cells, and each point's residual. Defined in ms-fit.c. */
#pragma once

#include <stdbool.h>

#include "memsweep.h"

/* time = latency + bytes / bandwidth over the OK cells of a mode (its plain
 * cells, or its one variant's as in ms_results_find), by least
 * squares weighted 1/t^2 (relative residuals) with latency >= 0 and
 * bandwidth > 0 enforced exactly. which: MS_PHASE_H2D or MS_PHASE_D2H for
 * copy bandwidth, or MS_PHASE_COUNT for end-to-end. */
MsFit ms_results_fit (const MsResults *results, MsMode mode, MsPhase which);

/* The same over the cells of one variant. */
MsFit ms_results_fit_variant (const MsResults *results, MsMode mode, const char *variant,
                              MsPhase which);

/* y = intercept + slope x over n points (x > 0, y > 0) by least squares
 * weighted w, with intercept >= 0 and slope >= 0 enforced exactly; sse is
 * the weighted sum of squared residuals. True when a bound holds (the free
 * fit was not physical). */
bool ms_fit_line_nonnegative (const double *x, const double *y, const double *w, int n,
                              double *intercept, double *slope, double *sse);

/* The relative residual of the point at exponent; false when none. */
bool ms_fit_residual_at (const MsFit *fit, int exponent, double *residual);
