/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-compare-pool.h: one verdict per mode and one per run, each pooled
 * from many cells (ms-compare-pool.c).
 *
 * Eleven sizes judged one by one are eleven coin flips where each cell's
 * interval sits near the threshold; the question a user asks ("did pinned
 * copies get slower?") is one question, answered by all of the mode's
 * cells at once. The pooled figure is the mean over the cells of ln(B/A),
 * from 2^14 up where the mode has such cells (below, latency rules and a
 * cell flips between states), over all sizes otherwise.
 *
 * Its interval must hold what moves between processes, which on the lent
 * machines is larger than anything within one (PITFALLS 28) and moves
 * the cells of one process together. For compare-grade runs each process
 * gives one value, its mean over the pooled cells of ln(its rounds'
 * median); the sides' means of those differ by the pooled ln ratio and
 * their spread across processes gives its standard error (Welch, Student's
 * t with Welch-Satterthwaite's degrees of freedom): resampling whole
 * processes, in closed form. For runs of one process the cells' own
 * intervals are averaged as if the cells moved together, the widest an
 * average of them can honestly be.
 *
 * Plain C, no GLib. */
#pragma once

#include "ms-comparison.h"

/* The sd of ln(time) by which a whole run sits apart from another of the
 * same settings made a minute before or after it, beyond what its own
 * processes scatter: two grade runs of the lent H100 a minute apart
 * differed by a median B/A of 1.010 in pinned, the mode whose processes
 * scatter least, and by more in every other mode (docs/compare.md,
 * "Live"). Two separate runs' pooled interval holds it for each run, as a
 * part known exactly; a live comparison, whose sides take turns, has none
 * (ms-turns.c). Without it a simulated pair of grade runs whose runs
 * shift so called a change at the threshold SAME in up to 9% of checks in
 * the modes that scatter least (bench/bench-turns.c). */
#define MS_POOL_RUN_SHIFT 0.01

/* The estimate of a difference of means between two sets of processes:
 * values are n_proc x n_cells (row by row) of ln figures; a cell with a
 * NAN in any process of either side is left out. d: mean ln(B/A), se its
 * standard error (the two runs' shifts, MS_POOL_RUN_SHIFT, included), df
 * Welch's degrees of freedom. A process with no value at all (it did not
 * measure the mode) is left out. False when fewer than 2 processes a side
 * or no cell remain. */
typedef struct {
  double d, se;
  int df, n_cells;
  int pa, pb; /* the processes of each side that measured the mode */
} MsPoolEstimate;

bool ms_pool_processes (const double *a, int pa, const double *b, int pb, int n_cells,
                        MsPoolEstimate *est);

/* Fills cmp->pooled (each mode) and cmp->pooled_run from the comparison's
 * cells and the two runs they came from (ms_compare_results_figure calls
 * it). */
void ms_compare_pool (MsComparison *cmp, const MsResults *a, const MsResults *b);

/* One line in words: "SAME within ±3%", "SLOWER: 1.19× (1.15–1.23)",
 * "AMBIGUOUS: could detect only changes above 14%". Translated. */
void ms_pooled_verdict_describe (const MsPooledVerdict *v, char *buf, size_t len);

/* The pooled verdict of a mode that uses no GPU (the CPU baseline) whose
 * interval leaves out 1, or NULL: then the host side differs between the
 * runs (another machine, or one that changed between them), and the modes
 * that go through host memory may differ with it rather than with the
 * GPU. Two runs made minutes apart on one H100 showed it
 * (docs/measurements.md, 2026-11-26). */
const MsPooledVerdict *ms_comparison_host_moved (const MsComparison *cmp);

/* That in words, for the table's head and the Compare page. Translated. */
void ms_host_moved_describe (const MsPooledVerdict *host, char *buf, size_t len);
