/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-fit.c: time = latency + bytes / bandwidth over the sizes of one mode,
 * by weighted least squares (GSL) with both parameters kept physical. */
#include <gsl/gsl_fit.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <string.h>

#include "memsweep.h"
#include "ms-fit.h"
#include "ms-modes.h"
#include "ms-variant.h"

bool
ms_fit_line_nonnegative (const double *x, const double *y, const double *w, int n,
                         double *intercept, double *slope, double *sse)
{
  /* The objective is a convex quadratic, so its minimum over the quadrant
   * lies in the interior (the free fit, when it is feasible) or on a face:
   * through the origin or flat, each face's 1-D least-squares solution,
   * which positive x and y keep feasible. The better face is the exact
   * constrained optimum. A free fit of points of one x is not finite. */
  double c0, c1, cov00, cov01, cov11, chisq;
  gsl_fit_wlinear (x, 1, w, 1, y, 1, n, &c0, &c1, &cov00, &cov01, &cov11, &chisq);
  if (c0 >= 0 && c1 >= 0 && isfinite (c0) && isfinite (c1) && isfinite (chisq)) {
    *intercept = c0, *slope = c1, *sse = chisq;
    return false;
  }
  /* Through the origin: every byte costs time, none is fixed. */
  double origin_slope, origin_cov, origin_sse;
  gsl_fit_wmul (x, 1, w, 1, y, 1, n, &origin_slope, &origin_cov, &origin_sse);
  /* Flat: the time does not grow with size. */
  double mean = gsl_stats_wmean (w, 1, y, 1, n);
  double flat_sse = gsl_stats_wtss_m (w, 1, y, 1, n, mean);
  if (origin_sse < flat_sse) {
    *intercept = 0, *slope = origin_slope, *sse = origin_sse;
  } else {
    *intercept = mean, *slope = 0, *sse = flat_sse;
  }
  return true;
}

/* The time and bytes a fit uses for one cell; false when it has none. */
static bool
cell_point (const MsCell *c, MsMode mode, MsPhase which, double *bytes, double *t)
{
  if (which == MS_PHASE_COUNT) {
    *t = c->stats.e2e.median;
    *bytes = 3.0 * ms_vector_bytes (c->elements);
  } else {
    MsPhase p = which == MS_PHASE_H2D ? ms_mode_to_device_phase (mode)
                                      : ms_mode_to_host_phase (mode);
    if (p >= MS_PHASE_COUNT)
      return false;
    *t = c->stats.phase[p].median;
    *bytes = (p == MS_PHASE_D2H ? 1.0 : 2.0) * ms_vector_bytes (c->elements);
  }
  return *t > 0 && isfinite (*t);
}

MsFit
ms_results_fit (const MsResults *results, MsMode mode, MsPhase which)
{
  /* The cells ms_results_find gives: a plain sweep's knobs (run --reuse 4)
   * name every cell of the modes they reach, and those cells are the
   * mode's line; an experiment's several variants have none. */
  const char *variants[2];
  int n = ms_results_variants (results, mode, variants, 2);
  return ms_results_fit_variant (results, mode, n == 1 ? variants[0] : "", which);
}

MsFit
ms_results_fit_variant (const MsResults *results, MsMode mode, const char *variant,
                        MsPhase which)
{
  /* Weights 1/t^2, i.e. relative residuals: the sizes span decades, and
   * plain residuals would let the largest sizes decide the latency too. */
  MsFit fit = { 0 };
  double x[MS_FIT_MAX_POINTS], y[MS_FIT_MAX_POINTS], w[MS_FIT_MAX_POINTS];
  int n = 0;

  for (size_t i = 0; i < results->n_cells && n < MS_FIT_MAX_POINTS; i++) {
    const MsCell *c = &results->cells[i];
    double bytes, t;
    if (c->mode != mode || c->status != MS_CELL_OK || strcmp (c->variant, variant ? variant : "") ||
        !cell_point (c, mode, which, &bytes, &t))
      continue;
    x[n] = bytes, y[n] = t, w[n] = 1.0 / (t * t);
    fit.exponent[n] = c->exponent;
    n++;
  }
  fit.n_points = n;
  if (n < 2)
    return fit;

  double slope, ss_res;
  fit.at_bound = ms_fit_line_nonnegative (x, y, w, n, &fit.latency_us, &slope, &ss_res);
  for (int i = 0; i < n; i++) {
    fit.residual[i] = (y[i] - fit.latency_us - slope * x[i]) / y[i];
    fit.max_abs_residual = fmax (fit.max_abs_residual, fabs (fit.residual[i]));
  }
  double ss_tot = gsl_stats_wtss (w, 1, y, 1, n);
  fit.valid = true;
  fit.bandwidth_gbps = slope > 0 ? 1e-3 / slope : 0;
  fit.r2 = ss_tot > 0 ? 1.0 - ss_res / ss_tot : 1.0;
  fit.describes_data = fit.r2 >= MS_FIT_MIN_R2 && fit.max_abs_residual <= MS_FIT_MAX_RESIDUAL;
  return fit;
}

bool
ms_fit_residual_at (const MsFit *fit, int exponent, double *residual)
{
  for (int i = 0; fit->valid && i < fit->n_points; i++)
    if (fit->exponent[i] == exponent) {
      *residual = fit->residual[i];
      return true;
    }
  return false;
}
