/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-compare-pool.c: one verdict per mode and per run, pooled from many
 * cells (what it estimates and why: ms-compare-pool.h). */
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ms-compare-pool.h"
#include "ms-i18n.h"
#include "ms-modes.h"
#include "ms-results.h"
#include "ms-stats.h"
#include "ms-sweep.h"

/* Mean and variance of each process's mean over the cells kept. */
static bool
process_means (const double *v, int np, int n_cells, const bool *keep, double *mean,
               double *var)
{
  int kept = 0;
  for (int c = 0; c < n_cells; c++)
    kept += keep[c];
  double *x = np >= 2 && kept > 0 ? malloc (sizeof (double) * np) : NULL;
  if (!x)
    return false;
  for (int p = 0; p < np; p++)
    x[p] = ms_grade_process_mean (v + (size_t) p * n_cells, n_cells, keep);
  *mean = gsl_stats_mean (x, 1, np);
  *var = gsl_stats_variance_m (x, 1, np, *mean);
  free (x);
  return true;
}

static bool
column_finite (const double *v, int np, int n_cells, int c)
{
  for (int p = 0; p < np; p++)
    if (!isfinite (v[p * n_cells + c]))
      return false;
  return true;
}

/* The rows of v (np x n_cells) of the processes that measured the mode at
 * all, into out: a grade run's later processes measure only the modes
 * still wide (ms-cli-processes.c), and the others have no value there. */
static int
measured_rows (const double *v, int np, int n_cells, double *out)
{
  int k = 0;
  for (int p = 0; p < np; p++) {
    bool any = false;
    for (int c = 0; c < n_cells; c++)
      any = any || isfinite (v[p * n_cells + c]);
    if (any)
      memcpy (out + (size_t) k++ * n_cells, v + (size_t) p * n_cells,
              sizeof (double) * (size_t) n_cells);
  }
  return k;
}

static bool
pool_rows (const double *a, int pa, const double *b, int pb, int n_cells, MsPoolEstimate *est);

bool
ms_pool_processes (const double *a, int pa, const double *b, int pb, int n_cells,
                   MsPoolEstimate *est)
{
  double *ra = malloc (sizeof (double) * ((size_t) pa * n_cells + 1));
  double *rb = malloc (sizeof (double) * ((size_t) pb * n_cells + 1));
  bool ok = false;
  memset (est, 0, sizeof *est);
  if (ra && rb) {
    int ka = measured_rows (a, pa, n_cells, ra), kb = measured_rows (b, pb, n_cells, rb);
    ok = ka >= 2 && kb >= 2 && pool_rows (ra, ka, rb, kb, n_cells, est);
    est->pa = ka;
    est->pb = kb;
  }
  free (ra);
  free (rb);
  return ok;
}

static bool
pool_rows (const double *a, int pa, const double *b, int pb, int n_cells, MsPoolEstimate *est)
{
  bool *keep = calloc ((size_t) n_cells + 1, sizeof *keep);
  double ma, va, mb, vb;
  memset (est, 0, sizeof *est);
  for (int c = 0; keep && c < n_cells; c++) {
    keep[c] = column_finite (a, pa, n_cells, c) && column_finite (b, pb, n_cells, c);
    est->n_cells += keep[c];
  }
  bool ok = keep && process_means (a, pa, n_cells, keep, &ma, &va) &&
            process_means (b, pb, n_cells, keep, &mb, &vb);
  free (keep);
  if (!ok)
    return false;
  double wa = va / pa, wb = vb / pb, w = wa + wb + 2 * MS_POOL_RUN_SHIFT * MS_POOL_RUN_SHIFT;
  est->d = mb - ma;
  est->se = sqrt (w);
  /* Welch-Satterthwaite, the runs' shift a part of infinite degrees of
   * freedom; two sides without any spread count as normal. */
  double df = wa + wb > 0 ? w * w / (wa * wa / (pa - 1) + wb * wb / (pb - 1)) : 1e6;
  est->df = df > 1e6 ? 1000000 : (int) floor (df);
  est->df = est->df < 1 ? 1 : est->df;
  return true;
}

/* ---- a comparison's pooled verdicts --------------------------------- */

static bool
pooled_cell (const MsCompareCell *c, MsMode mode, int min_exp)
{
  return c->in_a && c->in_b && (mode == MS_MODE_COUNT || c->mode == mode) &&
         c->exponent >= min_exp && isfinite (c->ratio) && isfinite (c->judgement.lo);
}

/* The pooled sizes start at 2^14 where the mode (or the run) has cells
 * there; where it has none, every size is pooled. */
static int
pool_min_exp (const MsComparison *cmp, MsMode mode)
{
  for (size_t i = 0; i < cmp->n_cells; i++)
    if (pooled_cell (&cmp->cells[i], mode, MS_GRADE_SURE_EXP))
      return MS_GRADE_SURE_EXP;
  return 0;
}

/* The verdict of a pooled interval, by the rule a cell's follows
 * (ms_verdict_decide): known says whether the spread between processes is
 * in it. */
static void
judge (MsPooledVerdict *v, double threshold, bool known, bool valid)
{
  double h = log (v->hi / v->ratio);
  v->detectable = ms_verdict_band_detectable (threshold, exp (h));
  v->within = fmax (1 - v->lo, v->hi - 1);
  MsJudgement j = { .ratio = v->ratio, .lo = v->lo, .hi = v->hi };
  MsVerdictDoubts doubts = { .spread_known = known, .enough_reps = valid, .two_states = false };
  ms_verdict_decide (&j, threshold, doubts, true);
  v->verdict = j.verdict;
  v->why = j.why;
}

/* Compare-grade runs: each process's values of the pooled cells, k of
 * them, into a row of k per process of each side. */
static bool
pool_by_processes (const MsComparison *cmp, const MsResults *a, const MsResults *b,
                   MsMode mode, MsPooledVerdict *v)
{
  int pa = ms_sweep_n_processes (&a->sweep), pb = ms_sweep_n_processes (&b->sweep);
  size_t k = 0, j = 0;
  if (pa < 2 || pb < 2 || pa > MS_MAX_PROCESSES || pb > MS_MAX_PROCESSES)
    return false;
  for (size_t i = 0; i < cmp->n_cells; i++)
    k += pooled_cell (&cmp->cells[i], mode, v->min_exp);
  double *va = malloc (sizeof (double) * (size_t) pa * (k + 1));
  double *vb = malloc (sizeof (double) * (size_t) pb * (k + 1));
  double col[MS_MAX_PROCESSES];
  for (size_t i = 0; va && vb && i < cmp->n_cells; i++) {
    const MsCompareCell *c = &cmp->cells[i];
    if (!pooled_cell (c, mode, v->min_exp))
      continue;
    ms_grade_process_values (a, ms_results_find_variant (a, c->mode, c->exponent, c->variant),
                             cmp->figure, col);
    for (int p = 0; p < pa; p++)
      va[(size_t) p * k + j] = col[p];
    ms_grade_process_values (b, ms_results_find_variant (b, c->mode, c->exponent, c->variant),
                             cmp->figure, col);
    for (int p = 0; p < pb; p++)
      vb[(size_t) p * k + j] = col[p];
    j++;
  }
  MsPoolEstimate est;
  bool ok = va && vb && k > 0 && ms_pool_processes (va, pa, vb, pb, (int) k, &est);
  free (va);
  free (vb);
  if (!ok)
    return false;
  double q = ms_student_t_975 (est.df);
  v->method = MS_POOL_PROCESSES;
  v->n_cells = est.n_cells;
  v->processes_a = est.pa;
  v->processes_b = est.pb;
  v->df = est.df;
  v->ratio = exp (est.d);
  v->lo = exp (est.d - q * est.se);
  v->hi = exp (est.d + q * est.se);
  judge (v, cmp->threshold, true, true);
  return true;
}

/* Runs of one process: the mean of the cells' ln ratios, with the mean of
 * their half-widths (the cells moving together, as a process moves them). */
static void
pool_by_cells (const MsComparison *cmp, MsMode mode, MsPooledVerdict *v)
{
  double d = 0, h = 0;
  bool known = true, valid = true;
  int k = 0;
  for (size_t i = 0; i < cmp->n_cells; i++) {
    const MsCompareCell *c = &cmp->cells[i];
    if (!pooled_cell (c, mode, v->min_exp))
      continue;
    d += log (c->judgement.ratio);
    h += log (c->judgement.hi / c->judgement.ratio);
    known = known && c->a.between_known && c->b.between_known;
    valid = valid && c->a.valid && c->b.valid;
    k++;
  }
  if (k == 0)
    return;
  d /= k;
  h /= k;
  v->method = MS_POOL_CELLS;
  v->n_cells = k;
  v->processes_a = v->processes_b = 1;
  v->ratio = exp (d);
  v->lo = exp (d - h);
  v->hi = exp (d + h);
  judge (v, cmp->threshold, known, valid);
}

static void
find_disagreements (const MsComparison *cmp, MsMode mode, MsPooledVerdict *v)
{
  for (size_t i = 0; i < cmp->n_cells && v->method != MS_POOL_NONE; i++) {
    const MsCompareCell *c = &cmp->cells[i];
    if (!pooled_cell (c, mode, v->min_exp) || c->verdict == MS_VERDICT_AMBIGUOUS ||
        c->verdict == v->verdict || v->n_disagree >= MS_POOL_MAX_DISAGREE)
      continue;
    v->disagree_mode[v->n_disagree] = c->mode;
    v->disagree_exp[v->n_disagree] = c->exponent;
    v->disagree_verdict[v->n_disagree++] = c->verdict;
  }
}

static void
pool_one (const MsComparison *cmp, const MsResults *a, const MsResults *b, MsMode mode,
          MsPooledVerdict *v)
{
  memset (v, 0, sizeof *v);
  v->ratio = v->lo = v->hi = v->detectable = v->within = NAN;
  v->verdict = MS_VERDICT_AMBIGUOUS;
  v->why = MS_WHY_NO_MEDIAN;
  v->min_exp = pool_min_exp (cmp, mode);
  if (!pool_by_processes (cmp, a, b, mode, v))
    pool_by_cells (cmp, mode, v);
  find_disagreements (cmp, mode, v);
}

void
ms_compare_pool (MsComparison *cmp, const MsResults *a, const MsResults *b)
{
  for (int m = 0; m < MS_MODE_COUNT; m++)
    pool_one (cmp, a, b, (MsMode) m, &cmp->pooled[m]);
  pool_one (cmp, a, b, MS_MODE_COUNT, &cmp->pooled_run);
}

void
ms_pooled_verdict_describe (const MsPooledVerdict *v, char *buf, size_t len)
{
  double pct = 100 * v->within, detect = 100 * v->detectable;
  if (v->method == MS_POOL_NONE)
    snprintf (buf, len, "%s", ms_gettext ("no cell in common"));
  else if (v->verdict == MS_VERDICT_SAME)
    snprintf (buf, len, ms_gettext ("SAME within ±%.0f%%"), pct < 1 ? 1 : ceil (pct));
  else if (v->verdict != MS_VERDICT_AMBIGUOUS)
    snprintf (buf, len, ms_gettext ("%s: %.2f× (%.2f–%.2f)"), ms_verdict_label (v->verdict),
              v->ratio, v->lo, v->hi);
  else
    snprintf (buf, len, ms_gettext ("AMBIGUOUS: could detect only changes above %.0f%%"),
              ceil (detect));
}

const MsPooledVerdict *
ms_comparison_host_moved (const MsComparison *cmp)
{
  for (int m = 0; m < MS_MODE_COUNT; m++) {
    const MsPooledVerdict *v = &cmp->pooled[m];
    if (ms_mode_uses_gpu ((MsMode) m) || v->method == MS_POOL_NONE || !(v->lo > 0))
      continue;
    if (v->lo > 1 || v->hi < 1)
      return v;
  }
  return NULL;
}

/* The interval's ends to three places: at two, 0.995 reads 1.00, which
 * looks like no difference beside a sentence that says there is one. A
 * host that moved less than the threshold is SAME in its own verdict and
 * is said to have moved, not to differ. */
void
ms_host_moved_describe (const MsPooledVerdict *host, char *buf, size_t len)
{
  if (host->verdict == MS_VERDICT_SAME)
    snprintf (buf, len,
              ms_gettext ("The host side moved, less than the threshold: the CPU baseline, which "
                          "uses no GPU, reads %.2f× (%.3f–%.3f) in B, so not 1. Modes that go "
                          "through host memory may move with it, not with the GPU; on one "
                          "machine, compare --live measures A and B in turns."),
              host->ratio, host->lo, host->hi);
  else
    snprintf (buf, len,
              ms_gettext ("The host side differs: the CPU baseline, which uses no GPU, reads "
                          "%.2f× (%.3f–%.3f) in B. Modes that go through host memory may differ "
                          "with it, not with the GPU; on one machine, compare --live measures A "
                          "and B in turns."),
              host->ratio, host->lo, host->hi);
}
