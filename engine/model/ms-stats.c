/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-stats.c: per-statistic summaries of repeated timings: the median with
 * a distribution-free 95% confidence interval from order statistics, and the
 * rule that decides when a cell has enough repetitions.
 *
 * Timings are skewed and carry outliers (a page fault, a clock change), so
 * nothing here assumes a normal distribution: the interval for the median
 * comes from the binomial distribution of how many samples fall below it.
 */
#include <gsl/gsl_cdf.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "memsweep.h"
#include "ms-names.h"
#include "ms-stats.h"

static int
cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

/* The largest l with P(B <= l - 1) <= 2.5%, B ~ Binomial(n, 1/2); 0 when
 * none. Bisected over k = l - 1, the tail rising with k: about log2 n of
 * GSL's tails. Invariant: P(B <= k) <= 2.5% at k = below (-1: none),
 * > 2.5% at k = above (from n / 2 on the tail is at least a half). GSL's
 * tail is good to about 1e-7 relative at n = 10^8: above some millions of
 * samples a rare n may get a rank one off, as the sum of logarithms used
 * before did. */
static int
lower_rank_of (int n)
{
  int below = -1, above = n / 2;
  while (above - below > 1) {
    int k = below + (above - below) / 2;
    if (gsl_cdf_binomial_P ((unsigned) k, 0.5, (unsigned) n) <= 0.025)
      below = k;
    else
      above = k;
  }
  return below + 1;
}

/* The rank depends on n alone, and the stop rule asks after every
 * repetition while n is small: each n's is worked out once (a few of GSL's
 * tails take microseconds, as long as a small cell's repetition). Cells
 * are summarised on several threads at once, hence the lock. Entry n holds
 * the rank + 1, 0 before. */
enum { RANK_MEMO = 4096 };
static int rank_memo[RANK_MEMO];
static pthread_mutex_t rank_memo_lock = PTHREAD_MUTEX_INITIALIZER;

static int
lower_rank (int n)
{
  if (n < 0 || n >= RANK_MEMO)
    return lower_rank_of (n);
  pthread_mutex_lock (&rank_memo_lock);
  if (rank_memo[n] == 0)
    rank_memo[n] = lower_rank_of (n) + 1;
  int l = rank_memo[n] - 1;
  pthread_mutex_unlock (&rank_memo_lock);
  return l;
}

bool
ms_median_ci_ranks (int n, int *lo_rank, int *hi_rank)
{
  /* [x_(l), x_(n+1-l)] covers the median with probability
   * 1 - 2 P(B <= l - 1), B ~ Binomial(n, 1/2): the largest l whose lower
   * tail is at most 2.5%. */
  int l = lower_rank (n);
  if (l < 1) {
    *lo_rank = n > 0 ? 1 : 0;
    *hi_rank = n;
    return false;
  }
  *lo_rank = l;
  *hi_rank = n + 1 - l;
  return true;
}

static inline void
swap_double (double *a, double *b)
{
  double t = *a;
  *a = *b;
  *b = t;
}

/* Splits v[lo..hi] around a median-of-three pivot: afterwards
 * v[lo..*j] <= pivot <= v[*i..hi], and v(*j..*i) == pivot. */
static void
partition (double *v, int lo, int hi, int *i_out, int *j_out)
{
  int mid = lo + (hi - lo) / 2;
  if (v[mid] < v[lo])
    swap_double (&v[mid], &v[lo]);
  if (v[hi] < v[lo])
    swap_double (&v[hi], &v[lo]);
  if (v[hi] < v[mid])
    swap_double (&v[hi], &v[mid]);
  double pivot = v[mid];
  int i = lo, j = hi;
  while (i <= j) {
    /* Bounded: a NaN compares false with everything. */
    while (i <= hi && v[i] < pivot)
      i++;
    while (j >= lo && pivot < v[j])
      j--;
    if (i <= j)
      swap_double (&v[i++], &v[j--]);
  }
  *i_out = i;
  *j_out = j;
}

/* One more split of v[lo..hi], or, once a range has split badly *budget
 * times, the range sorted by qsort, which bounds the worst case: returns
 * false then (nothing left to split). */
static bool
partition_or_sort (double *v, int lo, int hi, int *budget, int *i_out, int *j_out)
{
  if (--*budget == 0) {
    qsort (v + lo, hi - lo + 1, sizeof (double), cmp_double);
    return false;
  }
  partition (v, lo, hi, i_out, j_out);
  return true;
}

static void
insertion_sort (double *v, int lo, int hi)
{
  for (int a = lo + 1; a <= hi; a++) {
    double x = v[a];
    int b = a - 1;
    for (; b >= lo && x < v[b]; b--)
      v[b + 1] = v[b];
    v[b + 1] = x;
  }
}

/* Moves the k-th smallest of v[0..n) to v[k], smaller ones before it and
 * larger ones after (quickselect): linear on average, where a sort is
 * n log n. A range that keeps splitting badly is sorted instead, which
 * bounds the worst case. */
static void
select_kth (double *v, int n, int k)
{
  int lo = 0, hi = n - 1, budget = 64;
  while (hi - lo > 16) {
    int i, j;
    if (!partition_or_sort (v, lo, hi, &budget, &i, &j))
      return;
    if (k <= j)
      hi = j;
    else if (k >= i)
      lo = i;
    else
      return;
  }
  insertion_sort (v, lo, hi);
}

/* Sorts v[lo..hi]: quicksort with the comparison inline. qsort's call per
 * comparison made the two sorts of a cell's end-to-end times an eighth of
 * `show`'s time on a 10^7-row file (perf, 2026-11-25); this takes about
 * half as long. The smaller side recurses, so the depth stays below
 * log2 n; a range that keeps splitting badly goes to qsort. */
static void
sort_range (double *v, int lo, int hi, int budget)
{
  while (hi - lo > 16) {
    int i, j;
    if (!partition_or_sort (v, lo, hi, &budget, &i, &j))
      return;
    if (j - lo < hi - i) {
      sort_range (v, lo, j, budget);
      lo = i;
    } else {
      sort_range (v, i, hi, budget);
      hi = j;
    }
  }
  insertion_sort (v, lo, hi);
}

/* The largest of v[0..n), n > 0. */
static double
max_of (const double *v, int n)
{
  double m = v[0];
  for (int i = 1; i < n; i++)
    m = v[i] > m ? v[i] : m;
  return m;
}

void
ms_stat_compute_in_place (MsStat *st, double *values, int n)
{
  memset (st, 0, sizeof *st);
  if (n <= 0)
    return;
  int lo, hi, mid = n / 2;
  st->n = n;
  st->ci_valid = ms_median_ci_ranks (n, &lo, &hi);
  /* Ranks from the top down, each selection within the part below the
   * previous one: hi - 1 >= mid >= lo - 1. */
  select_kth (values, n, hi - 1);
  st->ci_high = values[hi - 1];
  st->max = max_of (values + hi - 1, n - (hi - 1));
  select_kth (values, hi - 1 > mid ? hi - 1 : n, mid);
  st->median = n % 2 ? values[mid] : 0.5 * (max_of (values, mid) + values[mid]);
  select_kth (values, mid > lo - 1 ? mid : n, lo - 1);
  st->ci_low = values[lo - 1];
  double min = values[0];
  for (int i = 1; i < lo; i++)
    min = values[i] < min ? values[i] : min;
  st->min = min;
}

MsStat
ms_stat_compute (const double *values, int n)
{
  MsStat st = { 0 };
  if (n <= 0)
    return st;
  double *sorted = malloc (sizeof (double) * n);
  if (!sorted)
    return st;
  memcpy (sorted, values, sizeof (double) * n);
  ms_stat_compute_in_place (&st, sorted, n);
  free (sorted);
  return st;
}

double
ms_median (const double *values, int n)
{
  return ms_stat_compute (values, n).median;
}

bool
ms_median_ci (const double *values, int n, double *median, double *lo, double *hi)
{
  MsStat st = ms_stat_compute (values, n);
  *median = st.median;
  *lo = st.ci_low;
  *hi = st.ci_high;
  return st.ci_valid;
}

/* Whether the interval of samples lies within +-pct of their median. */
static bool
ci_within (const double *samples, int n, double pct)
{
  double median, lo, hi;
  if (!ms_median_ci (samples, n, &median, &lo, &hi) || !(median > 0))
    return false;
  return median - lo <= median * pct / 100.0 && hi - median <= median * pct / 100.0;
}

MsStopReason
ms_sweep_stop_rule (const MsSweep *sweep, const double *samples, int n, double elapsed_ms)
{
  if (sweep->reps_rule == MS_REPS_FIXED)
    return n >= sweep->reps ? MS_STOP_FIXED_COUNT : MS_STOP_CONTINUE;
  if (n < sweep->min_reps)
    return MS_STOP_CONTINUE;
  if (n >= MS_MAX_REPS)
    return MS_STOP_MAX_REPS;
  /* Sorting all samples after every repetition would cost O(n^2 log n):
   * look at the interval on a schedule that grows with n instead. */
  int every = n / 32 > 1 ? n / 32 : 1;
  if ((n == sweep->min_reps || n % every == 0) && ci_within (samples, n, sweep->ci_target_pct))
    return MS_STOP_CI_REACHED;
  if (elapsed_ms >= sweep->cell_budget_ms)
    return MS_STOP_BUDGET;
  return MS_STOP_CONTINUE;
}

static const char *const stop_names[]
    = { "continue", "fixed-count", "ci-reached", "budget", "max-reps" };

MS_DEFINE_LOOKUP (ms_stop_reason_name, const char *, MsStopReason,
                  sizeof stop_names / sizeof stop_names[0], stop_names[i], "unknown")

/* ---- two states ------------------------------------------------------- */

/* The robust spread (1.4826 x the median absolute deviation) of n sorted
 * logarithms around their median m, floored at 0.5%: a cluster of equal
 * values is not infinitely sharp. */
static double
robust_sd (const double *logs, int n, double m, double *scratch)
{
  for (int i = 0; i < n; i++)
    scratch[i] = fabs (logs[i] - m);
  /* Its median alone: a selection, not a sort. */
  select_kth (scratch, n, n / 2);
  double mad = n % 2 ? scratch[n / 2] : 0.5 * (max_of (scratch, n / 2) + scratch[n / 2]);
  return fmax (1.4826 * mad, 0.005);
}

static double
sorted_median (const double *v, int n)
{
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

bool
ms_two_states_find (double *values, int n, MsTwoStates *out)
{
  memset (out, 0, sizeof *out);
  if (n < 10)
    return false;
  double *logs = malloc (2 * sizeof (double) * n);
  if (!logs)
    return false;
  for (int i = 0; i < n; i++)
    logs[i] = log (fmax (values[i], 1e-9));
  sort_range (logs, 0, n - 1, 64);
  /* The split at the widest gap that leaves each side its share. */
  int least = (int) ceil (0.2 * n) > 3 ? (int) ceil (0.2 * n) : 3, split = -1;
  double gap = 0;
  for (int k = least; k <= n - least; k++)
    if (logs[k] - logs[k - 1] > gap) {
      gap = logs[k] - logs[k - 1];
      split = k;
    }
  if (split > 0) {
    double m_lo = sorted_median (logs, split), m_hi = sorted_median (logs + split, n - split);
    double s_lo = robust_sd (logs, split, m_lo, logs + n);
    double s_hi = robust_sd (logs + split, n - split, m_hi, logs + n);
    double d = sqrt (2.0) * (m_hi - m_lo) / sqrt (s_lo * s_lo + s_hi * s_hi);
    if (m_hi - m_lo >= log (MS_TWO_STATES_MIN_RATIO) && d >= 3) {
      *out = (MsTwoStates){ true, exp (m_lo), exp (m_hi), (double) (n - split) / n };
    }
  }
  free (logs);
  return out->found;
}

/* Computed (GSL), not a table: a table's steps above 20 degrees of
 * freedom (2.04 for 21..39) made intervals up to 1.9% too narrow. */
double
ms_student_t_975 (int df)
{
  if (df < 1)
    return INFINITY;
  return gsl_cdf_tdist_Pinv (0.975, df);
}
