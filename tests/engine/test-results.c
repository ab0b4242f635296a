/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-results.c: the median's confidence interval, statistics by
 * selection, the constrained fit, the stop rule and the summary columns. */
#include <stdint.h>
#include <unistd.h>
#include <glib.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "files/ms-csv-io.h"
#include "lessons/ms-run-read.h"
#include "memsweep.h"
#include "model/ms-fit.h"
#include "model/ms-results.h"
#include "model/ms-stats.h"
#include "ms-sweep.h"
#include "ms-tmp-test.h"

/* The largest l with P(B <= l - 1) <= 2.5%, B ~ Binomial(n, 1/2), from
 * exact integer binomial coefficients: independent of the engine's
 * logarithmic sum. Valid for n <= 60. */
static int
exact_lower_rank (int n)
{
  uint64_t coef = 1; /* C(n, k) */
  double tail = 0;
  int l = 0;
  for (int k = 0; k < n; k++) {
    tail += ldexp ((double) coef, -n);
    if (tail > 0.025)
      break;
    l = k + 1;
    coef = coef * (uint64_t) (n - k) / (uint64_t) (k + 1);
  }
  return l;
}

static void
test_ci_ranks (void)
{
  /* Published tables of distribution-free intervals for the median; from
   * 1000 on, the binomial tail summed term by term in quadruple precision
   * (__float128), beyond where the exact sum below reaches. */
  static const struct { int n, lo, hi; } table[] = {
    { 6, 1, 6 }, { 10, 2, 9 }, { 20, 6, 15 }, { 30, 10, 21 }, { 50, 18, 33 }, { 100, 40, 61 },
    { 1000, 469, 532 }, { 10000, 4902, 5099 }, { 100000, 49690, 50311 },
    { 1000000, 499020, 500981 },
  };
  for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
    int lo = -1, hi = -1;
    bool ok = ms_median_ci_ranks (table[i].n, &lo, &hi);
    g_assert_true (ok);
    g_assert_cmpint (lo, ==, table[i].lo);
    g_assert_cmpint (hi, ==, table[i].hi);
  }
  for (int n = 1; n <= 60; n++) {
    int lo = -1, hi = -1;
    int want = exact_lower_rank (n);
    bool ok = ms_median_ci_ranks (n, &lo, &hi);
    if (want == 0)
      g_assert_true (!ok && lo == 1 && hi == n);
    else
      g_assert_true (ok && lo == want && hi == n + 1 - want);
  }
  /* Large n: the interval shrinks like 1/sqrt(n) around the middle rank, and
   * the normal approximation n/2 - 0.98 sqrt(n) is good to a rank or two. */
  static const int big[] = { 1000, 12345, 100000 };
  for (size_t i = 0; i < 3; i++) {
    int n = big[i], lo, hi;
    bool ok = ms_median_ci_ranks (n, &lo, &hi);
    double approx = n / 2.0 - 0.98 * sqrt ((double) n);
    g_assert_true (ok);
    g_assert_true (fabs (lo - approx) <= 2);
    g_assert_cmpint (hi, ==, n + 1 - lo);
  }
}

static void
test_median_ci (void)
{
  /* Unsorted 1..10: ranks 2 and 9 are the values 2 and 9. */
  double v[] = { 7, 3, 10, 1, 9, 2, 8, 5, 4, 6 };
  double med, lo, hi;
  g_assert_true (ms_median_ci (v, 10, &med, &lo, &hi));
  g_assert_cmpfloat (med, ==, 5.5);
  g_assert_cmpfloat (lo, ==, 2);
  g_assert_cmpfloat (hi, ==, 9);
  g_assert_true (v[0] == 7);
  g_assert_true (v[9] == 6);
  /* Five samples: no 95% interval; min and max stand in. */
  g_assert_false (ms_median_ci (v, 5, &med, &lo, &hi));
  g_assert_cmpfloat (med, ==, 7);
  g_assert_cmpfloat (lo, ==, 1);
  g_assert_cmpfloat (hi, ==, 10);
  g_assert_false (ms_median_ci (v, 0, &med, &lo, &hi));
  MsStat st = ms_stat_compute (v, 10);
  g_assert_true (st.ci_valid);
  g_assert_true (st.ci_low == 2);
  g_assert_true (st.ci_high == 9);
  g_assert_true (st.min == 1);
  g_assert_true (st.max == 10);
}

/* Results with one OK cell per exponent of mode, e2e median times[i]. */
static MsResults *
results_with_times (MsMode mode, int first_exp, const double *times, int n)
{
  MsResults *r = ms_results_new (NULL, NULL);
  for (int i = 0; i < n; i++) {
    MsCell c = { .mode = mode, .exponent = first_exp + i, .status = MS_CELL_OK };
    c.elements = 1ull << c.exponent;
    c.stats.e2e = (MsStat) { .n = 10, .median = times[i], .min = times[i], .max = times[i] };
    ms_results_add_cell (r, &c);
  }
  return r;
}

static double
weighted_sse (const double *x, const double *y, int n, double latency, double slope)
{
  double sse = 0;
  for (int i = 0; i < n; i++) {
    double res = (y[i] - latency - slope * x[i]) / y[i];
    sse += res * res;
  }
  return sse;
}

static void
test_fit_constrained (void)
{
  /* Time that grows faster than linearly, as managed memory does past its
   * fault-batch size: the free straight line crosses zero below the first
   * size. */
  enum { N = 6 };
  double t[N], x[N];
  for (int i = 0; i < N; i++) {
    x[i] = 3.0 * 4 * (1u << (14 + i));
    t[i] = x[i] / 4000.0 * (1.0 + 0.15 * i); /* 4 GB/s, then slower */
  }
  /* The free weighted fit, computed here on its own. */
  double sw = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (int i = 0; i < N; i++) {
    double w = 1 / (t[i] * t[i]);
    sw += w, sx += w * x[i], sy += w * t[i], sxx += w * x[i] * x[i], sxy += w * x[i] * t[i];
  }
  double free_slope = (sw * sxy - sx * sy) / (sw * sxx - sx * sx);
  double free_latency = (sy - free_slope * sx) / sw;
  g_assert_cmpfloat (free_latency, <, 0);

  MsResults *r = results_with_times (MS_MODE_MANAGED, 14, t, N);
  MsFit fit = ms_results_fit (r, MS_MODE_MANAGED, MS_PHASE_COUNT);
  g_assert_true (fit.valid);
  g_assert_true (fit.n_points == N);
  g_assert_true (fit.at_bound);
  g_assert_cmpfloat (fit.latency_us, ==, 0);
  /* Through the origin: slope = sum (w x y) / sum (w x^2). */
  g_assert_cmpfloat (fabs ((double)(fit.bandwidth_gbps) - (double)(1e-3 / (sxy / sxx))), <=, 1e-9);
  /* No feasible point nearby does better. */
  double slope = 1e-3 / fit.bandwidth_gbps, best = weighted_sse (x, t, N, 0, slope);
  for (int a = 0; a <= 20; a++)
    for (int b = -20; b <= 20; b++) {
      double sse = weighted_sse (x, t, N, a * 0.5, slope * (1 + b * 0.005));
      g_assert_true (sse >= best - 1e-12);
    }
  for (int i = 0; i < N; i++) {
    double res;
    g_assert_true (ms_fit_residual_at (&fit, 14 + i, &res));
    g_assert_cmpfloat (fabs ((double)(res) - (double)((t[i] - slope * x[i]) / t[i])), <=, 1e-12);
  }
  double unused;
  g_assert_false (ms_fit_residual_at (&fit, 13, &unused));
  ms_results_free (r);

  /* A straight line with latency: recovered exactly and describes the data. */
  for (int i = 0; i < N; i++)
    t[i] = 20 + x[i] / 50e3;
  r = results_with_times (MS_MODE_PINNED, 14, t, N);
  fit = ms_results_fit (r, MS_MODE_PINNED, MS_PHASE_COUNT);
  g_assert_false (fit.at_bound);
  g_assert_true (fit.describes_data);
  g_assert_cmpfloat (fabs ((double)(fit.latency_us) - (double)(20)), <=, 1e-9);
  g_assert_cmpfloat (fabs ((double)(fit.bandwidth_gbps) - (double)(50)), <=, 1e-9);
  g_assert_cmpfloat (fabs ((double)(fit.max_abs_residual) - (double)(0)), <=, 1e-12);
  ms_results_free (r);

  /* Time that falls with size: no physical line; flat at the weighted mean,
   * no bandwidth, and flagged. */
  double falling[] = { 100, 80, 60, 40, 30 };
  r = results_with_times (MS_MODE_PINNED, 10, falling, 5);
  fit = ms_results_fit (r, MS_MODE_PINNED, MS_PHASE_COUNT);
  g_assert_true (fit.valid);
  g_assert_true (fit.at_bound);
  g_assert_true (fit.bandwidth_gbps == 0);
  g_assert_true (fit.latency_us > 0);
  g_assert_false (fit.describes_data);
  ms_results_free (r);
}

static void
test_fit_reference (void)
{
  /* The large H100 sweep of the first release (kept as a test file; the
   * shipped reference run is newer): its free managed fit had latency
   * -454 us. */
  char err[512];
  MsResults *r = ms_run_read_samples (MS_OLD_FORMAT_DIR "/h100-large-samples.csv", err, sizeof err);
  g_assert_nonnull (r);
  if (!r)
    return;
  MsFit fit = ms_results_fit (r, MS_MODE_MANAGED, MS_PHASE_COUNT);
  g_assert_true (fit.valid);
  g_assert_true (fit.at_bound);
  g_assert_cmpfloat (fit.latency_us, ==, 0);
  g_assert_cmpfloat (fit.bandwidth_gbps, >, 3);
  g_assert_cmpfloat (fit.bandwidth_gbps, <, 5);
  for (int m = 0; m < MS_MODE_COUNT; m++) {
    fit = ms_results_fit (r, m, MS_PHASE_COUNT);
    g_assert_true (!fit.valid || fit.latency_us >= 0);
  }
  fit = ms_results_fit (r, MS_MODE_PINNED, MS_PHASE_COUNT);
  g_assert_true (fit.describes_data);
  g_assert_false (fit.at_bound);
  g_assert_true (fit.latency_us > 0);
  /* Old files open with a fixed count: they have no reps-rule key. */
  g_assert_cmpint (r->sweep.reps_rule, ==, MS_REPS_FIXED);
  ms_results_free (r);
}

/* n samples of a noisy, skewed timing: 10 us plus up to spread x 10 us. */
static void
noisy_samples (double *v, int n, double spread)
{
  uint32_t state = 12345;
  for (int i = 0; i < n; i++) {
    state = state * 1664525u + 1013904223u;
    double u = (state >> 8) / 16777216.0;
    v[i] = 10.0 * (1 + spread * u * u);
  }
}

/* Runs the rule as a runner would, one repetition of rep_ms after another. */
static MsStopReason
run_rule (const MsSweep *s, const double *samples, int max_n, double rep_ms, int *n_taken)
{
  MsStopReason why = MS_STOP_CONTINUE;
  int n = 0;
  while (why == MS_STOP_CONTINUE && n < max_n) {
    n++;
    why = ms_sweep_stop_rule (s, samples, n, n * rep_ms);
  }
  *n_taken = n;
  return why;
}

static void
test_stop_rule (void)
{
  static double v[MS_MAX_REPS];
  MsSweep s;
  int n;
  ms_sweep_init_default (&s);
  g_assert_cmpint (s.reps_rule, ==, MS_REPS_ADAPTIVE);
  g_assert_true (s.min_reps == 6);
  g_assert_true (s.ci_target_pct == 2);
  g_assert_true (s.cell_budget_ms == 12);
  /* The rule's cases below were written for 10 repetitions and 20 ms. */
  s.min_reps = 10;
  s.cell_budget_ms = 20;

  /* Quiet: within 0.1%, done at the minimum. */
  noisy_samples (v, 1000, 0.001);
  g_assert_cmpint (run_rule (&s, v, 1000, 0.01, &n), ==, MS_STOP_CI_REACHED);
  g_assert_cmpint (n, ==, 10);
  /* Below 6 samples there is no 95% interval: the minimum cannot end it. */
  s.min_reps = 3;
  g_assert_cmpint (run_rule (&s, v, 1000, 0.01, &n), ==, MS_STOP_CI_REACHED);
  g_assert_cmpint (n, ==, 6);
  s.min_reps = 10;

  /* Noisy: +-2% is out of reach; the budget ends it, at the first
   * repetition that reaches it. */
  noisy_samples (v, MS_MAX_REPS, 2.0);
  g_assert_cmpint (run_rule (&s, v, MS_MAX_REPS, 1.0, &n), ==, MS_STOP_BUDGET);
  g_assert_cmpint (n, ==, (int)s.cell_budget_ms);
  /* Moderately noisy: reached past the minimum, and then truly within. */
  noisy_samples (v, MS_MAX_REPS, 0.3);
  g_assert_cmpint (run_rule (&s, v, MS_MAX_REPS, 0.001, &n), ==, MS_STOP_CI_REACHED);
  g_assert_cmpint (n, >, 10);
  double med, lo, hi;
  g_assert_true (ms_median_ci (v, n, &med, &lo, &hi));
  g_assert_true (hi - med <= 0.02 * med);
  g_assert_true (med - lo <= 0.02 * med);
  /* A budget never spent: the cap. */
  s.cell_budget_ms = MS_MAX_CELL_BUDGET_MS;
  s.ci_target_pct = 0.001;
  g_assert_cmpint (ms_sweep_stop_rule (&s, v, MS_MAX_REPS, 0), ==, MS_STOP_MAX_REPS);

  /* The fixed count ignores everything else. */
  s.reps_rule = MS_REPS_FIXED;
  s.reps = 7;
  g_assert_true (run_rule (&s, v, 1000, 1e9, &n) == MS_STOP_FIXED_COUNT);
  g_assert_cmpint (n, ==, 7);
  g_assert_cmpstr (ms_stop_reason_name (MS_STOP_BUDGET), ==, "budget");
}

static void
test_rule_validation (void)
{
  static const struct {
    const char *what;
    int min_reps;
    double ci, budget;
    const char *message;
  } cases[] = {
    { "min 0", 0, 2, 500, "minimum repetitions must be at least 1 (got 0)" },
    { "min big", MS_MAX_REPS + 1, 2, 500,
      "minimum repetitions must be at most 100000 (got 100001)" },
    { "ci 0", 10, 0, 500,
      "confidence interval target must be more than 0% and at most 100% of the median (got 0%)" },
    { "ci nan", 10, NAN, 500,
      "confidence interval target must be more than 0% and at most 100% of the median (got nan%)" },
    { "ci big", 10, 150, 500,
      "confidence interval target must be more than 0% and at most 100% of the median (got 150%)" },
    { "budget", 10, 2, -1,
      "time budget per cell must be more than 0 ms and at most 3600000 ms (got -1 ms)" },
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    MsSweep s;
    char err[256] = "";
    ms_sweep_init_default (&s);
    s.min_reps = cases[i].min_reps;
    s.ci_target_pct = cases[i].ci;
    s.cell_budget_ms = cases[i].budget;
    g_assert_false (ms_sweep_validate (&s, err, sizeof err));
    g_assert_cmpstr (err, ==, cases[i].message);
    /* A fixed count does not look at the adaptive settings. */
    s.reps_rule = MS_REPS_FIXED;
    g_assert_true (ms_sweep_validate (&s, err, sizeof err));
  }
}

/* Index of name in a header line split at commas, or -1. */
static int
column_index (char **fields, int n, const char *name)
{
  for (int i = 0; i < n; i++)
    if (strcmp (fields[i], name) == 0)
      return i;
  return -1;
}

/* Splits line at commas in place; the summary's numbers are never quoted,
 * and only the last column (message) may hold a comma. */
static int
split_fields (char *line, char **fields, int max)
{
  int n = 0;
  for (char *p = line; n < max; p++) {
    fields[n++] = p;
    p = strchr (p, ',');
    if (!p)
      break;
    *p = '\0';
  }
  return n;
}

static double
number_at (char **fields, int col)
{
  char *end;
  double v = strtod (fields[col], &end);
  return (col >= 0 && *fields[col] && !*end) ? v : NAN;
}

static void
test_summary_columns (void)
{
  char err[512], line[8192], *head[256], *row[256];
  const char *path = ms_test_tmp_path ("summary.csv");
  MsResults *r =
    ms_run_read_samples (MS_REFERENCE_DIR "/h100-default-samples.csv.gz", err, sizeof err);
  g_assert_nonnull (r);
  if (!r)
    return;
  g_assert_true (ms_csv_write_summary (r, path, err, sizeof err));
  FILE *f = fopen (path, "r");
  g_assert_nonnull (f);
  if (!f) {
    ms_results_free (r);
    return;
  }
  char header[8192] = "";
  int n_head = 0, rows = 0;
  while (fgets (line, sizeof line, f)) {
    line[strcspn (line, "\n")] = '\0';
    if (line[0] == '#')
      continue;
    if (!header[0]) {
      snprintf (header, sizeof header, "%s", line);
      n_head = split_fields (header, head, 256);
      continue;
    }
    int n_row = split_fields (line, row, 256);
    g_assert_cmpint (n_row, >=, n_head);
    if (n_row < n_head)
      break;
    int med = column_index (head, n_head, "e2e_median_us");
    double lo = number_at (row, column_index (head, n_head, "e2e_ci_low_us"));
    double hi = number_at (row, column_index (head, n_head, "e2e_ci_high_us"));
    double m = number_at (row, med);
    g_assert_cmpfloat (lo, <=, m);
    g_assert_cmpfloat (m, <=, hi);
    double k_lo = number_at (row, column_index (head, n_head, "kernel_ci_low_us"));
    double k_hi = number_at (row, column_index (head, n_head, "kernel_ci_high_us"));
    g_assert_true (isnan (k_lo) || k_lo <= k_hi);
    g_assert_true (number_at (row, column_index (head, n_head, "e2e_ci_95")) == 1);
    double lat = number_at (row, column_index (head, n_head, "fit_latency_us"));
    double r2 = number_at (row, column_index (head, n_head, "fit_r2"));
    double res = number_at (row, column_index (head, n_head, "fit_residual"));
    double ok = number_at (row, column_index (head, n_head, "fit_describes_data"));
    g_assert_cmpfloat (lat, >=, 0);
    g_assert_cmpfloat (r2, <=, 1);
    g_assert_true (fabs (res) < 1);
    g_assert_true (ok == 0 || ok == 1);
    g_assert_true (number_at (row, column_index (head, n_head, "fit_gbps")) > 0);
    rows++;
  }
  fclose (f);
  g_assert_cmpint (rows, ==, (int)r->n_cells);
  g_assert_true (n_head > 0);
  g_assert_cmpstr (head[n_head - 1], ==, "message");
  ms_results_free (r);
}

static void
test_reference_files_open (void)
{
  static const char *names[] = { "h100-default-samples.csv.gz", "h100-large-samples.csv.gz",
                                 "h200-default-samples.csv.gz" };
  for (size_t i = 0; i < 3; i++) {
    char path[1024], err[512];
    snprintf (path, sizeof path, "%s/%s", MS_REFERENCE_DIR, names[i]);
    MsResults *r = ms_run_read_samples (path, err, sizeof err);
    g_assert_true (r);
    g_assert_true (r->n_cells > 0);
    for (size_t c = 0; r && c < r->n_cells; c++) {
      const MsStat *e2e = &r->cells[c].stats.e2e;
      if (r->cells[c].status == MS_CELL_OK)
        g_assert_true (e2e->ci_valid == (e2e->n >= 6) && e2e->min <= e2e->ci_low
                       && e2e->ci_low <= e2e->median && e2e->median <= e2e->ci_high
                       && e2e->ci_high <= e2e->max);
    }
    ms_results_free (r);
  }
}

static void
test_rule_metadata_round_trip (void)
{
  char err[512];
  MsSweep s;
  ms_sweep_init_default (&s);
  s.min_reps = 17;
  s.ci_target_pct = 0.5;
  s.cell_budget_ms = 1234.5;
  double t[] = { 10, 20 };
  MsResults *r = results_with_times (MS_MODE_HOST, 10, t, 2);
  /* These cells have no samples: the reader refuses an 'ok' cell without
   * them, so they say why they have none. */
  for (size_t i = 0; i < r->n_cells; i++)
    r->cells[i].status = MS_CELL_CANCELLED;
  r->sweep = s;
  const char *path = ms_test_tmp_path ("rule-samples.csv");
  g_assert_true (ms_csv_write_samples (r, path, err, sizeof err));
  MsResults *back = ms_run_read_samples (path, err, sizeof err);
  g_assert_nonnull (back);
  if (back)
    g_assert_true (back->sweep.reps_rule == MS_REPS_ADAPTIVE && back->sweep.min_reps == 17
                   && back->sweep.ci_target_pct == 0.5 && back->sweep.cell_budget_ms == 1234.5);
  ms_results_free (back);
  ms_results_free (r);
}

static int
compare_values (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

/* The statistics come from selections, not a sort: every field must equal
 * the one read off a sorted copy, for ties, runs and random samples. */
static void
test_stat_selection (void)
{
  enum { MAX_N = 2500 };
  static double values[MAX_N], sorted[MAX_N];
  uint64_t seed = 12345;
  for (int t = 0; t < 600; t++) {
    int n = 1 + (t < 300 ? t % 40 : (int) (seed >> 33) % MAX_N);
    for (int i = 0; i < n; i++) {
      seed = seed * 6364136223846793005ull + 1442695040888963407ull;
      values[i] = t % 4 == 0 ? (double) (seed >> 61)  /* many ties */
                  : t % 4 == 1 ? i                   /* ascending */
                  : t % 4 == 2 ? n - i               /* descending */
                               : (double) (seed >> 11) * 0x1p-40;
    }
    memcpy (sorted, values, n * sizeof (double));
    qsort (sorted, n, sizeof (double), compare_values);
    MsStat st;
    ms_stat_compute_in_place (&st, values, n);
    int lo, hi;
    bool ci = ms_median_ci_ranks (n, &lo, &hi);
    double median = n % 2 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
    g_assert_cmpint (st.n, ==, n);
    g_assert_true (st.min == sorted[0]);
    g_assert_true (st.max == sorted[n - 1]);
    g_assert_cmpfloat (st.median, ==, median);
    g_assert_true (st.ci_valid == ci);
    g_assert_cmpfloat (st.ci_low, ==, sorted[lo - 1]);
    g_assert_cmpfloat (st.ci_high, ==, sorted[hi - 1]);
  }
}

/* The two-sided 95% quantile of Student's t against values computed
 * elsewhere (the closed forms of its CDF for whole degrees of freedom), to
 * 1e-6: above 20 degrees of freedom too, where a table used to step. */
static void
test_student_t (void)
{
  static const struct {
    int df;
    double t;
  } known[] = {
    { 1, 12.7062047362 }, { 2, 4.3026527297 },  { 3, 3.1824463053 },  { 4, 2.7764451052 },
    { 5, 2.5705818356 },  { 10, 2.2281388520 }, { 20, 2.0859634473 }, { 21, 2.0796138447 },
    { 24, 2.0638985616 }, { 30, 2.0422724563 }, { 40, 2.0210753903 }, { 60, 2.0002978220 },
    { 120, 1.9799304051 }, { 1000, 1.9623390808 },
  };
  for (size_t i = 0; i < G_N_ELEMENTS (known); i++)
    g_assert_cmpfloat_with_epsilon (ms_student_t_975 (known[i].df), known[i].t, 1e-6);
  g_assert_true (isinf (ms_student_t_975 (0)));
  /* Falls with the degrees of freedom towards the normal's 1.959964. */
  for (int df = 1; df < 2000; df++)
    g_assert_cmpfloat (ms_student_t_975 (df + 1), <, ms_student_t_975 (df));
  g_assert_cmpfloat (ms_student_t_975 (100000), >, 1.959964);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/results/student-t", test_student_t);
  g_test_add_func ("/results/ci-ranks", test_ci_ranks);
  g_test_add_func ("/results/median-ci", test_median_ci);
  g_test_add_func ("/results/fit-constrained", test_fit_constrained);
  g_test_add_func ("/results/fit-reference", test_fit_reference);
  g_test_add_func ("/results/stop-rule", test_stop_rule);
  g_test_add_func ("/results/rule-validation", test_rule_validation);
  g_test_add_func ("/results/summary-columns", test_summary_columns);
  g_test_add_func ("/results/reference-files-open", test_reference_files_open);
  g_test_add_func ("/results/rule-metadata-round-trip", test_rule_metadata_round_trip);
  g_test_add_func ("/results/stat-selection", test_stat_selection);
  int rc = g_test_run ();
  return rc;
}
