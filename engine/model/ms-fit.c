/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-fit.c: time = latency + bytes / bandwidth over the sizes of one mode,
 * by weighted least squares with both parameters kept physical. */
#include <math.h>
#include <string.h>

#include "memsweep.h"
#include "ms-fit.h"
#include "ms-modes.h"
#include "ms-variant.h"

typedef struct {
  double w, x, y;
} FitPoint;

/* Weighted sums over the points: the normal equations' terms. */
typedef struct {
  double sw, sx, sy, sxx, sxy;
} FitSums;

static double
weighted_sse (const FitPoint *pts, int n, double latency, double slope)
{
  double sse = 0;
  for (int i = 0; i < n; i++) {
    double r = pts[i].y - latency - slope * pts[i].x;
    sse += pts[i].w * r * r;
  }
  return sse;
}

/* Keeps (latency, slope) when it is feasible and beats the best so far. */
static void
consider (const FitPoint *pts, int n, double latency, double slope, double *best_sse,
          double *best_lat, double *best_slope)
{
  if (!(latency >= 0) || !(slope >= 0))
    return;
  double sse = weighted_sse (pts, n, latency, slope);
  if (sse < *best_sse) {
    *best_sse = sse;
    *best_lat = latency;
    *best_slope = slope;
  }
}

/* Minimises sum w (y - latency - slope x)^2 subject to latency >= 0 and
 * slope >= 0; true when a bound holds (the free fit was not physical). The
 * objective is a convex quadratic, so the minimum lies in the interior (the
 * unconstrained solution) or on a face, where it is the 1-D least-squares
 * solution clamped to the face: the best feasible of these candidates is the
 * exact constrained optimum. */
static bool
solve_constrained (const FitPoint *pts, int n, double *latency, double *slope)
{
  bool interior = false;
  FitSums s = { 0 };
  for (int i = 0; i < n; i++) {
    s.sw += pts[i].w;
    s.sx += pts[i].w * pts[i].x;
    s.sy += pts[i].w * pts[i].y;
    s.sxx += pts[i].w * pts[i].x * pts[i].x;
    s.sxy += pts[i].w * pts[i].x * pts[i].y;
  }
  double best = INFINITY, lat = 0, sl = 0;
  double det = s.sw * s.sxx - s.sx * s.sx;
  if (fabs (det) > 1e-300 * s.sw * s.sxx) {
    double b = (s.sw * s.sxy - s.sx * s.sy) / det;
    consider (pts, n, (s.sy - b * s.sx) / s.sw, b, &best, &lat, &sl);
    interior = isfinite (best);
  }
  /* Through the origin: every byte costs time, none is fixed. */
  if (s.sxx > 0)
    consider (pts, n, 0, fmax (0, s.sxy / s.sxx), &best, &lat, &sl);
  /* Flat: the time does not grow with size. */
  consider (pts, n, fmax (0, s.sy / s.sw), 0, &best, &lat, &sl);
  *latency = lat;
  *slope = sl;
  return !interior;
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
  FitPoint pts[MS_FIT_MAX_POINTS];
  int n = 0;

  for (size_t i = 0; i < results->n_cells && n < MS_FIT_MAX_POINTS; i++) {
    const MsCell *c = &results->cells[i];
    double bytes, t;
    if (c->mode != mode || c->status != MS_CELL_OK || strcmp (c->variant, variant ? variant : "") ||
        !cell_point (c, mode, which, &bytes, &t))
      continue;
    pts[n] = (FitPoint) { 1.0 / (t * t), bytes, t };
    fit.exponent[n] = c->exponent;
    n++;
  }
  fit.n_points = n;
  if (n < 2)
    return fit;

  double slope;
  fit.at_bound = solve_constrained (pts, n, &fit.latency_us, &slope);
  double sw = 0, sy = 0, ss_tot = 0, ss_res = 0;
  for (int i = 0; i < n; i++) {
    sw += pts[i].w;
    sy += pts[i].w * pts[i].y;
  }
  for (int i = 0; i < n; i++) {
    double pred = fit.latency_us + slope * pts[i].x;
    double d = pts[i].y - sy / sw;
    ss_res += pts[i].w * (pts[i].y - pred) * (pts[i].y - pred);
    ss_tot += pts[i].w * d * d;
    fit.residual[i] = (pts[i].y - pred) / pts[i].y;
    fit.max_abs_residual = fmax (fit.max_abs_residual, fabs (fit.residual[i]));
  }
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
