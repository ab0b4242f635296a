/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-verdict-rule.c: the verdict rule (ms-verdict-rule.h says it and
 * why), once: the ratio's interval from two sides' intervals, the one
 * ladder from an interval to a verdict that a cell's verdict and the
 * pooled ones (ms-compare-pool.c) both climb, and a verdict's reason by
 * name, stable for files and translated for tables (the verdict's own
 * words and band: ms-verdict.c). */
#include <math.h>

#include "ms-i18n.h"
#include "ms-names.h"
#include "ms-stats.h"
#include "ms-verdict-rule.h"

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
  double lo, hi;
  ms_verdict_band (threshold, &lo, &hi);
  bool above = j->lo > hi, below = j->hi < lo;
  if (j->lo >= lo && j->hi <= hi) {
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
  j.detectable = ms_verdict_band_detectable (threshold, exp (h));
  MsVerdictDoubts doubts = {
    .spread_known = known,
    .enough_reps = a->valid && b->valid,
    .two_states = (a->two_states && !a->graded) || (b->two_states && !b->graded),
  };
  ms_verdict_decide (&j, threshold, doubts, lower_is_faster);
  return j;
}

static const char *const why_keys[]
    = { "inside", "outside", "crosses", "no-spread", "few-reps", "two-states", "no-median" };
static const char *const why_texts[] = {
    /* xgettext:no-c-format */
    MS_N_ ("the ratio's 95% interval lies inside the threshold"),
    /* xgettext:no-c-format */
    MS_N_ ("the ratio's 95% interval lies wholly outside the threshold"),
    /* xgettext:no-c-format */
    MS_N_ ("the ratio's 95% interval crosses a bound of the threshold"),
    MS_N_ ("outside the threshold, but the spread between processes on this machine is "
           "unknown (calibrate, or a profile of this GPU model)"),
    MS_N_ ("outside the threshold, but a side has fewer than 6 repetitions"),
    MS_N_ ("outside the threshold, but a side's repetitions fell into two states"),
    MS_N_ ("a side has no median"),
};

MS_DEFINE_LOOKUP (ms_verdict_why_key, const char *, MsVerdictWhy, MS_WHY_COUNT, why_keys[i], "?")
MS_DEFINE_LOOKUP (ms_verdict_why_text, const char *, MsVerdictWhy, MS_WHY_COUNT,
                  ms_gettext (why_texts[i]), "?")

const char *
ms_verdict_remedy_text (MsVerdictWhy why)
{
  static const char *const texts[] = {
    "",
    "",
    MS_N_ ("measure both runs compare-grade (memsweep run --grade; more --processes or "
           "--rounds narrow the interval further)"),
    MS_N_ ("calibrate this machine (memsweep calibrate), or measure both runs compare-grade "
           "(memsweep run --grade)"),
    MS_N_ ("at least 6 repetitions a side (--min-reps 6), or a compare-grade run"),
    MS_N_ ("a compare-grade run (memsweep run --grade), whose rounds meet both states"),
    MS_N_ ("measure the cell again: it failed or is missing in one run"),
  };
  if (why < 0 || why >= MS_WHY_COUNT)
    return "?";
  return texts[why][0] ? ms_gettext (texts[why]) : "";
}
