/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-comparison.h: what a comparison of two runs holds, types only: its
 * cells with their verdicts (filled by ms-compare.c), the summaries, and
 * the verdicts pooled per mode and per run (ms-compare-pool.c). Apart from
 * ms-compare.h so that the pool, which ms-compare.c calls, fills them
 * without including the header of its caller. Plain C, no GLib. */
#pragma once

#include "memsweep.h"
#include "model/ms-grade.h"
#include "ms-verdict-rule.h"

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
