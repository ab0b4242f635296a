/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-stats.h: the statistics of a cell's times: medians and their
 * intervals, two states, Student's t, and when a cell has repetitions
 * enough. Defined in ms-stats.c. */
#pragma once

#include <stdbool.h>

#include "memsweep.h"

/* Whether a cell with n timed repetitions (samples: their times, any order)
 * that has spent elapsed_ms so far needs another. MS_REPS_ADAPTIVE: at least
 * min_reps; then stop once the median's 95% interval lies within
 * +-ci_target_pct of the median (both sides; never below 6 samples), or once
 * elapsed_ms >= cell_budget_ms, or at MS_MAX_REPS. Past min_reps the interval
 * is evaluated when n is a multiple of max (1, n / 32), so calling this after
 * every repetition costs O(n log n) in all and overshoots by at most 1/32. */
MsStopReason ms_sweep_stop_rule (const MsSweep *sweep, const double *samples, int n,
                                 double elapsed_ms);

const char *ms_stop_reason_name (MsStopReason reason);

/* Whether values (n times, reordered in place) fall into two states: a
 * split into a fast and a slow cluster, each with at least 20% of the
 * values (and 3), whose medians differ by at least MS_TWO_STATES_MIN_RATIO
 * and stand apart by Ashman's D >= 3 (robust spreads from the median
 * absolute deviation, floored at 0.5%). Fewer than 10 values: never. */
#define MS_TWO_STATES_MIN_RATIO 1.15
bool ms_two_states_find (double *values, int n, MsTwoStates *out);

/* The two-sided 95% quantile of Student's t with df degrees of freedom
 * (infinite below 1). */
double ms_student_t_975 (int df);

/* Median of values (sorted copy); 0 for n == 0. */
double ms_median (const double *values, int n);

MsStat ms_stat_compute (const double *values, int n);

/* The same, reordering values in place (selections, no full sort). */
void ms_stat_compute_in_place (MsStat *st, double *values, int n);

/* Median of values (need not be sorted) and its distribution-free 95%
 * confidence interval. Returns false when n is too small for 95% (n < 6);
 * lo and hi are then min and max. */
bool ms_median_ci (const double *values, int n, double *median, double *lo, double *hi);

/* 1-based ranks l and n + 1 - l of the order statistics that bound the
 * median with at least 95% coverage, l as large as possible: n = 10 gives 2
 * and 9. False for n < 6, with the ranks 1 and n. */
bool ms_median_ci_ranks (int n, int *lo_rank, int *hi_rank);
