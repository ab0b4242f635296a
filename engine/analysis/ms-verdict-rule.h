/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-verdict-rule.h: the verdict rule, once (ms-verdict-rule.c): a
 * verdict, its reason and their names, and the ladder every verdict climbs,
 * a cell's (ms-compare.c), the pooled ones (ms-compare-pool.c) and the
 * fleet report's nodes'.
 *
 * A verdict says how B stands against A on one figure, from the 95%
 * interval of the ratio B/A and a threshold t (a fraction: 0.05 is 5%):
 *
 *   SAME              the interval lies inside the band, 1 - t .. 1 + t
 *                     (ms_verdict_band, ms-verdict.c: its one place)
 *   FASTER or SLOWER  the interval lies wholly outside it, on one side
 *   AMBIGUOUS         anything else: the interval crosses a bound; or it
 *                     lies outside but the spread between processes is
 *                     unknown for a side, or a side has fewer than 6
 *                     repetitions or its repetitions fell into two states
 *                     (its median is then neither state's); or a side has
 *                     no median
 *
 * The interval is ln(B/A) +- q * sqrt(v_A + v_B) on the log scale. Each
 * side's v is the larger of its within-run variance (from its median's 95%
 * interval) and the variance of ln(median) between processes on that
 * machine (ms-run-to-run.c: calibrate, or a shipped profile of the GPU
 * model), since two runs of the same thing differ by more than one run
 * shows (docs/compare.md). q is Student's t for the between-process
 * spread's degrees of freedom, 1.96 where it is unknown; and where it is
 * unknown no difference is claimed.
 *
 * Plain C, no GLib. */
#pragma once

#include <math.h>
#include <stdbool.h>

#include "ms-verdict.h"


/* A median and its interval; valid: a 95% interval (ms_median_ci_ranks). A
 * median <= 0 or NaN is "none". between_known: the standard deviation of
 * ln(median) between processes on this machine is between_sd, estimated
 * with between_df degrees of freedom (a fleet's median: the standard error
 * of a median under its nodes' spread, ms-fleet-spread.c). Zeroed:
 * within-run only. */
typedef struct {
  double median, lo, hi;
  bool valid;
  bool between_known;
  double between_sd;
  int between_df;
  bool two_states; /* the repetitions fell into two states (MsTwoStates) */
  /* A compare-grade run's figure (ms-grade.h): median is its center, lo
   * and hi its 95% interval at 1.96 standard errors, and the interval
   * already holds the spread between processes (between_known, with
   * between_sd 0 and between_df its degrees of freedom). */
  bool graded;
} MsInterval;

/* Whether iv has a median (a side that failed or is missing has none). */
static inline bool
ms_interval_has_median (const MsInterval *iv)
{
  return iv->median > 0 && isfinite (iv->median);
}

/* Why a verdict is what it is; stable keys for JSON (ms_verdict_why_key). */
typedef enum {
  MS_WHY_INSIDE,    /* the ratio's interval lies inside the threshold */
  MS_WHY_OUTSIDE,   /* wholly outside it */
  MS_WHY_CROSSES,   /* it crosses a bound of the threshold */
  MS_WHY_NO_SPREAD, /* outside, but the between-process spread is unknown */
  MS_WHY_FEW_REPS,  /* outside, but a side has fewer than 6 repetitions */
  MS_WHY_TWO_STATES, /* outside, but a side's repetitions fell into two states */
  MS_WHY_NO_MEDIAN, /* a side failed or is missing */
  MS_WHY_COUNT
} MsVerdictWhy;

typedef struct {
  MsVerdict verdict;
  MsVerdictWhy why;
  double ratio, lo, hi; /* B/A and its 95% interval; NAN without medians */
  /* The smallest change, as a fraction (0.12: 12%), that this pair of
   * intervals would have called FASTER or SLOWER: the threshold widened
   * by the interval's half-width. NAN without medians. */
  double detectable;
} MsJudgement;

/* What may keep an interval that lies outside the threshold from
 * deciding, in the order the rule asks: the spread between processes
 * unknown for a side, a side with fewer than 6 repetitions, a side whose
 * repetitions fell into two states. */
typedef struct {
  bool spread_known;
  bool enough_reps;
  bool two_states;
} MsVerdictDoubts;

/* The rule itself, the one ladder every verdict climbs (a cell's, and the
 * pooled ones of ms-compare-pool.c): from j's ratio interval lo..hi and
 * the doubts, j's verdict and why. lower_is_faster: below 1 - threshold
 * reads FASTER. */
void ms_verdict_decide (MsJudgement *j, double threshold, MsVerdictDoubts doubts,
                        bool lower_is_faster);

/* B against A, with the ratio's interval and the reason. lower_is_faster:
 * the figure is a time (true) or a rate (false). threshold: a fraction,
 * >= 0. */
MsJudgement ms_verdict_judgement (const MsInterval *a, const MsInterval *b, double threshold,
                                  bool lower_is_faster);
/* "inside", "outside", "crosses", "no-spread", "few-reps", "two-states",
 * "no-median". */
const char *ms_verdict_why_key (MsVerdictWhy why);
/* The reason in words, translated. */
const char *ms_verdict_why_text (MsVerdictWhy why);
/* What would decide a verdict with this reason, in words, translated; ""
 * where it is decided (inside, outside). */
const char *ms_verdict_remedy_text (MsVerdictWhy why);
