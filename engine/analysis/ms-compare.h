/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-compare.h: verdicts between two runs (ms-compare.c; their names,
 * ms-verdict-names.c; the rule, ms-verdict-rule.c), and the one rule the
 * fleet report also judges its nodes by.
 *
 * A verdict says how B stands against A on one figure, from the 95%
 * interval of the ratio B/A and a threshold t (a fraction: 0.05 is 5%):
 *
 *   SAME              the interval lies inside 1 - t .. 1 + t
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
#include <stdio.h>

#include "memsweep.h"
#include "model/ms-grade.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  MS_VERDICT_SAME,
  MS_VERDICT_FASTER, /* B faster than A */
  MS_VERDICT_SLOWER, /* B slower than A */
  MS_VERDICT_AMBIGUOUS,
  MS_VERDICT_COUNT
} MsVerdict;

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

/* "same", "faster", "slower", "ambiguous": stable, for files and JSON. */
const char *ms_verdict_key (MsVerdict verdict);
/* "SAME", "FASTER", ...: translated, for tables. */
const char *ms_verdict_label (MsVerdict verdict);

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

/* B against A. lower_is_faster: the figure is a time (true) or a rate
 * (false). threshold: a fraction, >= 0. */
MsVerdict ms_verdict_judge (const MsInterval *a, const MsInterval *b, double threshold,
                            bool lower_is_faster);
/* The same with the ratio's interval and the reason. */
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

/* The spread between processes to judge a run by: its own calibration;
 * else other's (NULL: there is no other run), when that was measured on
 * the same GPU model (the spread lies in the machine, not in the file);
 * else the profile of its GPU model shipped with memsweep, read into
 * shipped; else NULL. The fleet report takes each node's from here too. */
const MsRunToRun *ms_compare_profile_of (const MsResults *own, const MsResults *other,
                                         MsRunToRun *shipped);

/* A cell's end-to-end median (its plain repetitions) with its within-run
 * interval, and the between-process spread from rr when rr is valid and
 * knows the cell's mode. */
MsInterval ms_compare_cell_interval (const MsCell *cell, const MsRunToRun *rr);
/* A cell's figure of results with its interval: from the rounds of a
 * compare-grade run (pool: ms_grade_pool of results), else its median
 * with the within-run interval, widened by rr's between-process spread
 * where rr knows the figure (end to end only). */
MsInterval ms_compare_figure_interval (const MsResults *results, const MsGradePool *pool,
                                       const MsCell *cell, MsFigure figure,
                                       const MsRunToRun *rr);

typedef struct {
  MsMode mode;
  int exponent;
  char variant[MS_VARIANT_LEN];
  bool in_a, in_b;   /* only one of them: the cell is in that run only */
  MsInterval a, b;   /* end-to-end microseconds */
  double ratio;      /* b.median / a.median; NAN without both */
  MsVerdict verdict; /* cells in both runs only */
  MsJudgement judgement; /* the ratio's interval and why the verdict */
  bool two_states;   /* either side's repetitions fell into two states */
} MsCompareCell;

typedef struct {
  int count[MS_VERDICT_COUNT];
  int only_a, only_b;
  int n_common;
  double median_ratio; /* of the common cells' ratios; NAN when none */
} MsCompareSummary;

/* One verdict for a mode's cells, or for the whole run's, pooled into one
 * ratio (ms-compare-pool.c): the geometric mean of the cells' ratios B/A
 * with a 95% interval that holds what moves between processes. */
typedef enum {
  MS_POOL_NONE,      /* nothing to pool */
  MS_POOL_PROCESSES, /* from each process's mean over the cells (compare-grade runs) */
  MS_POOL_CELLS,     /* from the cells' own intervals, as if they moved together */
  MS_POOL_TURNS,     /* from the processes' values, taken in turns and decided look
                      * by look (compare --live: ms-turns.c) */
} MsPoolMethod;

#define MS_POOL_MAX_DISAGREE 16

typedef struct {
  MsPoolMethod method;
  int n_cells;              /* cells pooled */
  int min_exp;              /* the smallest size pooled (2^14 where the mode has it) */
  int processes_a, processes_b;
  double ratio, lo, hi;     /* B/A and its 95% interval; NAN: none */
  int df;                   /* the interval's degrees of freedom; 0: normal */
  MsVerdict verdict;
  MsVerdictWhy why;
  /* The smallest change (a fraction) it could have called FASTER or
   * SLOWER, and how far from 1 the interval reaches: "SAME within ±3%". */
  double detectable, within;
  /* MS_POOL_TURNS: seconds into the turns when it was decided; 0 open. */
  double decided_s;
  /* The cells (mode and size) whose own verdict is decided and differs
   * from this one. */
  int n_disagree;
  MsMode disagree_mode[MS_POOL_MAX_DISAGREE];
  int disagree_exp[MS_POOL_MAX_DISAGREE];
  MsVerdict disagree_verdict[MS_POOL_MAX_DISAGREE];
} MsPooledVerdict;

typedef struct {
  MsCompareCell *cells; /* by mode, variant, size; then the cells of one run */
  size_t n_cells;
  double threshold;
  MsFigure figure; /* which figure of the cells was compared */
  bool graded_a, graded_b; /* the run is a compare-grade run (ms-grade.h) */
  bool widened; /* a between-process spread was known for the runs */
  /* Where each run's between-process spread came from, in words ("" when
   * none was known: within-run intervals only). */
  char spread_a[200], spread_b[200];
  MsCompareSummary mode[MS_MODE_COUNT];
  MsCompareSummary all;
  /* One verdict per mode and one for the run (ms-compare-pool.h). */
  MsPooledVerdict pooled[MS_MODE_COUNT];
  MsPooledVerdict pooled_run;
  /* Modes of either run left out because they have no phase of the
   * figure (zero-copy has no d2h copy): no verdict, not AMBIGUOUS. */
  bool left_out[MS_MODE_COUNT];
} MsComparison;
/* Whether mode has the figure's phase (e2e and kernel: every mode). */
bool ms_mode_has_figure (MsMode mode, MsFigure figure);
/* The names of the modes left out, ", " between them, into buf; false
 * when none was. */
bool ms_comparison_left_out (const MsComparison *comparison, char *buf, size_t len);

/* Every cell of a and b (of mode only, unless mode is MS_MODE_COUNT).
 * Each run's intervals are widened by its run-to-run profile, or by the
 * other run's when it has none (the spread lies in the machine, not in the
 * file). NULL with a message when no cell is common to both. */
MsComparison *ms_compare_results (const MsResults *a, const MsResults *b, double threshold,
                                  MsMode mode, char *err, size_t errlen);
/* The same on one figure of the cells: end to end, or a phase's GPU time. */
MsComparison *ms_compare_results_figure (const MsResults *a, const MsResults *b,
                                         double threshold, MsMode mode, MsFigure figure,
                                         char *err, size_t errlen);
void ms_comparison_free (MsComparison *comparison);
/* Any FASTER or SLOWER cell. */
bool ms_comparison_differs (const MsComparison *comparison);
/* The cells whose ratio lies outside the threshold but which could not be
 * called FASTER or SLOWER (no spread between processes, few repetitions,
 * two states): a change compare can neither confirm nor rule out. */
int ms_comparison_unsettled (const MsComparison *comparison);
/* No cell decided: none SAME, FASTER or SLOWER, and some AMBIGUOUS. */
bool ms_comparison_undecided (const MsComparison *comparison);



#ifdef __cplusplus
}
#endif
