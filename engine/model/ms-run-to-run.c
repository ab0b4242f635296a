/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-run-to-run.c: the spread between whole invocations, and the interval
 * that covers it.
 *
 * On the lent H100 and H200 the medians of three default sweeps differ by
 * up to 2x at small sizes while each run's own 95% interval is a few per
 * cent wide: the variation lies between runs (the host's and the GPU's
 * state over tens of milliseconds), so another run's median fell inside a
 * run's interval for only 19-32% of the cells. No single run can see that
 * spread, so `memsweep calibrate` measures it over separate processes and
 * the profile widens every later run's interval:
 *
 *   h = t(0.975, runs - 1) * sqrt(2) * max(sd(cell), sd(mode))
 *
 * sd is the standard deviation of ln(median) between the calibration runs;
 * sqrt(2) because two runs' medians differ by the spread of both; Student's
 * t because the sd comes from a few runs; and the mode's pooled sd (root
 * mean square over its sizes) is a floor, since a cell's own sd from five
 * runs is itself noisy. The interval is median * exp(+-h), never narrower
 * than the run's own interval. Chosen on nine H100 default sweeps: measured
 * on five, checked on the other four, the medians of two runs lay inside
 * each other's interval for 97.1% of the cells (mean of 30 random splits,
 * 92.3% at worst) against 20% with the within-run interval; a cell's own sd
 * alone gave 89% (tools/run-to-run-rules.py, docs/measurements). */
#define _GNU_SOURCE
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ms-i18n.h"
#include "memsweep.h"
#include "ms-run-to-run.h"
#include "ms-stats.h"

void
ms_run_to_run_clear (MsRunToRun *rr)
{
  memset (rr, 0, sizeof *rr);
  for (int m = 0; m < MS_MODE_COUNT; m++)
    for (int e = 0; e <= MS_MAX_EXPONENT; e++)
      rr->sd[m][e] = -1;
}

/* The cell of (mode, exponent) as ms_results_find picks it (the plain
 * one, else the only one whatever its variant), read straight from the
 * run's cells so that this file needs nothing of ms-results.c, which sets
 * up the profile of every new run. */
static const MsCell *
plain_cell (const MsResults *run, MsMode mode, int exponent)
{
  const MsCell *only = NULL;
  int count = 0;
  for (size_t i = 0; i < run->n_cells; i++) {
    const MsCell *c = &run->cells[i];
    if (c->mode != mode || c->exponent != exponent)
      continue;
    if (!c->variant[0])
      return c;
    only = c;
    count++;
  }
  return count == 1 ? only : NULL;
}

static double
cell_sd (MsResults *const *runs, int n, MsMode mode, int exponent)
{
  double logs[MS_RR_MAX_RUNS];
  for (int i = 0; i < n; i++) {
    const MsCell *c = plain_cell (runs[i], mode, exponent);
    if (!c || c->status != MS_CELL_OK || !(c->stats.e2e.median > 0))
      return -1;
    logs[i] = log (c->stats.e2e.median);
  }
  return gsl_stats_sd (logs, 1, n);
}

bool
ms_run_to_run_measure (MsRunToRun *rr, MsResults *const *runs, int n, char *err, size_t errlen)
{
  ms_run_to_run_clear (rr);
  if (n < 3 || n > MS_RR_MAX_RUNS) {
    snprintf (err, errlen, ms_gettext ("the run-to-run spread needs 3 to %d runs, not %d"),
              MS_RR_MAX_RUNS, n);
    return false;
  }
  int cells = 0;
  for (int m = 0; m < MS_MODE_COUNT; m++)
    for (int e = MS_MIN_EXPONENT; e <= MS_MAX_EXPONENT; e++) {
      rr->sd[m][e] = cell_sd (runs, n, (MsMode) m, e);
      cells += rr->sd[m][e] >= 0;
    }
  if (cells == 0) {
    snprintf (err, errlen, ms_gettext ("no cell was measured without failure in every run"));
    return false;
  }
  rr->valid = true;
  rr->runs = n;
  snprintf (rr->date, sizeof rr->date, "%s", runs[n - 1]->date);
  return true;
}

double
ms_run_to_run_mode_sd (const MsRunToRun *rr, MsMode mode)
{
  double ss = 0;
  int n = 0;
  for (int e = MS_MIN_EXPONENT; e <= MS_MAX_EXPONENT; e++)
    if (rr->sd[mode][e] >= 0) {
      ss += rr->sd[mode][e] * rr->sd[mode][e];
      n++;
    }
  return n ? sqrt (ss / n) : -1;
}

double
ms_run_to_run_half_width (const MsRunToRun *rr, MsMode mode, int exponent)
{
  if (!rr->valid || mode < 0 || mode >= MS_MODE_COUNT)
    return 0;
  double pooled = ms_run_to_run_mode_sd (rr, mode);
  if (pooled < 0)
    return 0;
  double sd = pooled;
  if (exponent >= MS_MIN_EXPONENT && exponent <= MS_MAX_EXPONENT && rr->sd[mode][exponent] > sd)
    sd = rr->sd[mode][exponent];
  return ms_student_t_975 (rr->runs - 1) * sqrt (2.0) * sd;
}

/* The median of the mode's values in one size band (below 2^14, or from
 * 2^14), and how many there are: a median, not a mean, so that one cell
 * with two states does not widen every other cell of its band. */
static double
band_sd (const MsRunToRun *rr, MsMode mode, int exponent, int *cells)
{
  double v[MS_MAX_EXPONENT + 1];
  *cells = 0;
  for (int e = MS_MIN_EXPONENT; e <= MS_MAX_EXPONENT; e++)
    if (rr->sd[mode][e] >= 0 && (e < MS_GRADE_SURE_EXP) == (exponent < MS_GRADE_SURE_EXP))
      v[(*cells)++] = rr->sd[mode][e];
  return *cells ? ms_median (v, *cells) : -1;
}

/* A cell's own sd from a few runs is itself noisy (from 5 runs its 95%
 * range spans about 0.35x to 2.9x the truth), so it is moderated toward
 * the band's typical value, weighted as PRIOR_DF degrees of freedom; the
 * estimate then has the cell's own plus those. */
#define PRIOR_DF 4

bool
ms_run_to_run_between (const MsRunToRun *rr, MsMode mode, int exponent, double *sd, int *df)
{
  if (!rr->valid || mode < 0 || mode >= MS_MODE_COUNT)
    return false;
  int cells;
  double pooled = band_sd (rr, mode, exponent, &cells);
  double own = exponent >= 0 && exponent <= MS_MAX_EXPONENT ? rr->sd[mode][exponent] : -1;
  int own_df = rr->runs - 1;
  if (pooled < 0)
    return false;
  if (own < 0) {
    *sd = pooled;
    *df = PRIOR_DF;
    return true;
  }
  *sd = sqrt ((own_df * own * own + PRIOR_DF * pooled * pooled) / (own_df + PRIOR_DF));
  *df = own_df + PRIOR_DF;
  return true;
}

bool
ms_run_to_run_interval (const MsRunToRun *rr, const MsCell *cell, double *lo, double *hi)
{
  const MsStat *st = &cell->stats.e2e;
  double h = ms_run_to_run_half_width (rr, cell->mode, cell->exponent);
  if (!(h > 0) || !(st->median > 0) || st->n == 0)
    return false;
  *lo = fmin (st->ci_low, st->median * exp (-h));
  *hi = fmax (st->ci_high, st->median * exp (h));
  return true;
}
