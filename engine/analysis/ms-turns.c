/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-turns.c: verdicts of sides measured in turns, decided look by look
 * (ms-turns.h).
 *
 * The model of one mode: a process's value is its side's level, plus an
 * excess when it went first in its turn (the order effect the lent hosts
 * show, PITFALLS 41), plus a draw of the process (PITFALLS 28), whose
 * spread all sides share: they are siblings on one host, or one build
 * against itself. Least squares fits the levels and the excess; a side's
 * figure is its level over the mean of the others' (two sides: B over A),
 * so that one slowed card of four stands out by its own change and not
 * by a third of it.
 *
 * The rule is sequential: the interval at each look is a
 * (1 - 2 LOOK_LEVEL) one, and a verdict, once decided, is final. The
 * level is Pocock's for the looks' schedule: over all the looks a change
 * at the threshold is called SAME in at most ALPHA of checks, and one at
 * the threshold called different likewise, however often the check looks; bench/bench-turns.c measures
 * the rates on the noise the lent hosts show. Never "look until SAME":
 * the looks are counted and paid for. */
#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ms-turns.h"

void
ms_turns_init (MsTurns *t, int n_sides, double threshold)
{
  memset (t, 0, sizeof *t);
  t->n_sides = n_sides < MS_TURNS_MAX_SIDES ? n_sides : MS_TURNS_MAX_SIDES;
  t->threshold = threshold;
  for (int m = 0; m < MS_MODE_COUNT; m++)
    for (int s = 0; s < MS_TURNS_MAX_SIDES; s++)
      t->v[m][s] = (MsTurnVerdict){ MS_VERDICT_AMBIGUOUS, NAN, NAN, NAN, 0, NAN };
}

void
ms_turns_add (MsTurns *t, MsMode mode, int side, double value, bool first)
{
  if (side < 0 || side >= t->n_sides || !isfinite (value) || t->n[mode][side] >= MS_MAX_PROCESSES)
    return;
  int k = t->n[mode][side]++;
  t->x[mode][side][k] = value;
  t->first[mode][side][k] = first;
  t->used[mode] = true;
}

double
ms_turns_quantile (int df)
{
  return gsl_cdf_tdist_Qinv (MS_TURNS_LOOK_LEVEL, df > 0 ? df : 1);
}

/* The least-squares fit of one mode: each side's level in level[], the
 * first process's excess, the residual spread and its degrees of freedom;
 * false where a side has too few processes. */
typedef struct {
  double level[MS_TURNS_MAX_SIDES], mean_first[MS_TURNS_MAX_SIDES];
  double order, sxx, sd;
  int df;
} Fit;

static bool
fit_mode (const MsTurns *t, int m, Fit *f)
{
  double sxy = 0, syy = 0, mean_x[MS_TURNS_MAX_SIDES];
  int total = 0;
  memset (f, 0, sizeof *f);
  for (int s = 0; s < t->n_sides; s++) {
    int n = t->n[m][s];
    if (n < MS_TURNS_MIN_PROCESSES)
      return false;
    mean_x[s] = 0;
    for (int k = 0; k < n; k++) {
      mean_x[s] += t->x[m][s][k] / n;
      f->mean_first[s] += (double) t->first[m][s][k] / n;
    }
    total += n;
  }
  for (int s = 0; s < t->n_sides; s++)
    for (int k = 0; k < t->n[m][s]; k++) {
      double dx = t->first[m][s][k] - f->mean_first[s], dy = t->x[m][s][k] - mean_x[s];
      f->sxx += dx * dx;
      sxy += dx * dy;
      syy += dy * dy;
    }
  /* The excess is fitted only where the turns varied who went first. */
  bool fitted = f->sxx > 1e-9;
  f->order = fitted ? sxy / f->sxx : 0;
  f->df = total - t->n_sides - fitted;
  double rss = syy - f->order * sxy;
  f->sd = f->df > 0 ? sqrt (fmax (rss, 0) / f->df) : NAN;
  for (int s = 0; s < t->n_sides; s++)
    f->level[s] = mean_x[s] - f->order * f->mean_first[s];
  return f->df > 0;
}

/* Side g's level over the mean of the others', with its standard error. */
static void
contrast (const MsTurns *t, int m, const Fit *f, int g, double *d, double *se)
{
  double w_var = 0, w_first = 0;
  *d = 0;
  for (int s = 0; s < t->n_sides; s++) {
    double w = s == g ? 1 : -1.0 / (t->n_sides - 1);
    *d += w * f->level[s];
    w_var += w * w / t->n[m][s];
    w_first += w * f->mean_first[s];
  }
  double v = w_var + (f->sxx > 1e-9 ? w_first * w_first / f->sxx : 0);
  *se = f->sd * sqrt (v);
}

static void
decide (MsTurns *t, int m, int g, const Fit *f)
{
  MsTurnVerdict *v = &t->v[m][g];
  double d, se;
  contrast (t, m, f, g, &d, &se);
  double h = ms_turns_quantile (f->df) * se;
  if (v->look)
    return; /* decided at an earlier look: final, with its interval */
  v->ratio = exp (d);
  v->lo = exp (d - h);
  v->hi = exp (d + h);
  MsJudgement j = { .ratio = v->ratio, .lo = v->lo, .hi = v->hi };
  MsVerdictDoubts doubts = { .spread_known = true, .enough_reps = true, .two_states = false };
  ms_verdict_decide (&j, t->threshold, doubts, true);
  if (j.verdict == MS_VERDICT_AMBIGUOUS)
    return;
  v->verdict = j.verdict;
  v->look = t->looks;
  v->seconds = t->seconds;
}

/* Of three sides or more, one far slower card pulls its siblings' mean
 * with it, so that a sibling may read faster than the others by its third
 * of the change. Where sides are named both ways at one look, only the
 * way of the farthest stands; the others stay open. */
static void
keep_the_odd_one (MsTurns *t, int m)
{
  int far = -1;
  for (int g = 0; g < t->n_sides; g++) {
    const MsTurnVerdict *v = &t->v[m][g];
    bool named = v->look == t->looks &&
                 (v->verdict == MS_VERDICT_SLOWER || v->verdict == MS_VERDICT_FASTER);
    if (named && (far < 0 || fabs (log (v->ratio)) > fabs (log (t->v[m][far].ratio))))
      far = g;
  }
  if (t->n_sides < 3 || far < 0)
    return;
  for (int g = 0; g < t->n_sides; g++) {
    MsTurnVerdict *v = &t->v[m][g];
    if (v->look == t->looks && v->verdict != MS_VERDICT_SAME &&
        v->verdict != t->v[m][far].verdict) {
      v->verdict = MS_VERDICT_AMBIGUOUS;
      v->look = 0;
      v->seconds = NAN;
    }
  }
}

void
ms_turns_look (MsTurns *t, double seconds)
{
  if (t->looks >= MS_TURNS_MAX_LOOKS)
    return;
  bool looked = false;
  Fit f;
  for (int m = 0; m < MS_MODE_COUNT; m++) {
    if (!ms_turns_mode_open (t, (MsMode) m) || !fit_mode (t, m, &f))
      continue;
    if (!looked) {
      t->looks++;
      t->seconds = seconds;
      looked = true;
    }
    t->sd[m] = f.sd;
    t->order[m] = f.order;
    t->df[m] = f.df;
    for (int g = 0; g < t->n_sides; g++)
      decide (t, m, g, &f);
    keep_the_odd_one (t, m);
  }
}

bool
ms_turns_mode_open (const MsTurns *t, MsMode mode)
{
  if (!t->used[mode] || t->looks >= MS_TURNS_MAX_LOOKS)
    return false;
  bool open = false;
  for (int s = 0; s < t->n_sides; s++) {
    MsVerdict v = t->v[mode][s].verdict;
    /* A card named among three or more: what the mode says is said. */
    if (t->n_sides >= 3 && (v == MS_VERDICT_FASTER || v == MS_VERDICT_SLOWER))
      return false;
    open = open || v == MS_VERDICT_AMBIGUOUS;
  }
  return open;
}

bool
ms_turns_look_due (int processes)
{
  for (int at = MS_TURNS_MIN_PROCESSES, k = 0; k < MS_TURNS_MAX_LOOKS; k++) {
    if (processes == at)
      return true;
    int next = (int) ceil (at * 1.2);
    at = next > at ? next : at + 1;
  }
  return false;
}

int
ms_turns_process_values (const MsResults *run, MsMode mode, MsFigure figure, double *out)
{
  /* A mode without cells from 2^14 pools every size. */
  int min_exp = 0, np = 0, k = 0, n = 0;
  for (size_t i = 0; i < run->n_cells; i++)
    if (run->cells[i].mode == mode && run->cells[i].exponent >= MS_GRADE_SURE_EXP)
      min_exp = MS_GRADE_SURE_EXP;
  for (size_t i = 0; i < run->n_cells; i++)
    n += run->cells[i].mode == mode && run->cells[i].exponent >= min_exp;
  double col[MS_MAX_PROCESSES], *v = malloc (sizeof (double) * MS_MAX_PROCESSES * (n + 1));
  for (size_t i = 0; v && i < run->n_cells; i++) {
    const MsCell *c = &run->cells[i];
    if (c->mode != mode || c->exponent < min_exp)
      continue;
    np = ms_grade_process_values (run, c, figure, col);
    for (int p = 0; p < np; p++)
      v[p * n + k] = col[p];
    k++;
  }
  /* A process that missed a cell would be judged on other sizes: NAN. */
  for (int p = 0; p < MS_MAX_PROCESSES; p++)
    out[p] = v && n > 0 && p < np ? ms_grade_process_mean (v + p * n, n, NULL) : NAN;
  free (v);
  return np;
}

void
ms_turns_apply (const MsTurns *t, MsComparison *cmp)
{
  for (int m = 0; m < MS_MODE_COUNT; m++) {
    MsPooledVerdict *p = &cmp->pooled[m];
    const MsTurnVerdict *v = &t->v[m][1];
    if (!t->used[m] || p->method == MS_POOL_NONE || !isfinite (v->ratio))
      continue;
    p->method = MS_POOL_TURNS;
    p->ratio = v->ratio;
    p->lo = v->lo;
    p->hi = v->hi;
    p->df = t->df[m];
    p->processes_a = t->n[m][0];
    p->processes_b = t->n[m][1];
    p->verdict = v->verdict;
    p->why = v->verdict == MS_VERDICT_SAME        ? MS_WHY_INSIDE
             : v->verdict == MS_VERDICT_AMBIGUOUS ? MS_WHY_CROSSES
                                                  : MS_WHY_OUTSIDE;
    p->detectable = ms_verdict_band_detectable (t->threshold, v->hi / v->ratio);
    p->within = fmax (1 - v->lo, v->hi - 1);
    p->decided_s = v->look ? v->seconds : 0;
  }
}
