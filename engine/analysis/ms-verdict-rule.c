/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-verdict-rule.c: the verdict rule (ms-compare.h says it and why),
 * once: the ratio's interval from two sides' intervals, and the one ladder
 * from an interval to a verdict that a cell's verdict and the pooled ones
 * (ms-compare-pool.c) both climb. Declared in ms-compare.h; apart from
 * ms-compare.c so that the pooled verdicts, which ms-compare.c calls, use
 * it without calling back into it. */
#include <math.h>

#include "ms-compare.h"
#include "ms-stats.h"

/* The variance of ln(median) of one side: the larger of the within-run
 * one (from the 95% interval, or min..max read as +-2 sd below 6
 * repetitions) and the between-process one. */
static double
side_variance (const MsInterval *iv)
{
  double within = 0;
  if (iv->lo > 0 && iv->hi >= iv->lo)
    within = log (iv->hi / iv->lo) / (iv->valid ? 2 * 1.96 : 2.0);
  double between = iv->between_known ? iv->between_sd : 0;
  return fmax (within * within, between * between);
}

void
ms_verdict_decide (MsJudgement *j, double threshold, MsVerdictDoubts doubts,
                   bool lower_is_faster)
{
  bool above = j->lo > 1 + threshold, below = j->hi < 1 - threshold;
  if (j->lo >= 1 - threshold && j->hi <= 1 + threshold) {
    j->verdict = MS_VERDICT_SAME;
    j->why = MS_WHY_INSIDE;
    return;
  }
  j->why = !above && !below        ? MS_WHY_CROSSES
           : !doubts.spread_known ? MS_WHY_NO_SPREAD
           : !doubts.enough_reps  ? MS_WHY_FEW_REPS
           : doubts.two_states    ? MS_WHY_TWO_STATES
                                  : MS_WHY_OUTSIDE;
  j->verdict = j->why != MS_WHY_OUTSIDE     ? MS_VERDICT_AMBIGUOUS
               : below == lower_is_faster ? MS_VERDICT_FASTER
                                          : MS_VERDICT_SLOWER;
}

MsJudgement
ms_verdict_judgement (const MsInterval *a, const MsInterval *b, double threshold,
                      bool lower_is_faster)
{
  MsJudgement j = { MS_VERDICT_AMBIGUOUS, MS_WHY_NO_MEDIAN, NAN, NAN, NAN, NAN };
  if (!ms_interval_has_median (a) || !ms_interval_has_median (b))
    return j;
  bool known = a->between_known && b->between_known;
  int df = a->between_df < b->between_df ? a->between_df : b->between_df;
  double q = known ? ms_student_t_975 (df > 0 ? df : 1000) : 1.96;
  double h = q * sqrt (side_variance (a) + side_variance (b));
  j.ratio = b->median / a->median;
  j.lo = j.ratio * exp (-h);
  j.hi = j.ratio * exp (h);
  j.detectable = (1 + threshold) * exp (h) - 1;
  MsVerdictDoubts doubts = {
    .spread_known = known,
    .enough_reps = a->valid && b->valid,
    .two_states = (a->two_states && !a->graded) || (b->two_states && !b->graded),
  };
  ms_verdict_decide (&j, threshold, doubts, lower_is_faster);
  return j;
}

MsVerdict
ms_verdict_judge (const MsInterval *a, const MsInterval *b, double threshold, bool lower_is_faster)
{
  return ms_verdict_judgement (a, b, threshold, lower_is_faster).verdict;
}

