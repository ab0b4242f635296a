/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-compare.c: verdicts between runs (ms-compare.c): the rule on
 * synthetic intervals (apart, overlapping, one-sided, missing, the
 * threshold's edge), the run-to-run profile widening them, and whole runs:
 * the H100 reference against itself and against the H200's. */
#include <glib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "memsweep.h"
#include "ms-compare.h"

#define H100 MS_REFERENCE_DIR "/h100-default-samples.csv"
#define H200 MS_REFERENCE_DIR "/h200-default-samples.csv"

static MsInterval
iv (double median, double lo, double hi, gboolean valid)
{
  return (MsInterval){ median, lo, hi, valid };
}

static MsVerdict
judge (MsInterval a, MsInterval b, double threshold)
{
  return ms_verdict_judge (&a, &b, threshold, TRUE);
}

static void
test_apart (void)
{
  /* Times: B 20% lower with the intervals apart is faster, higher slower. */
  g_assert_cmpint (judge (iv (100, 98, 102, TRUE), iv (80, 79, 81, TRUE), 0.05), ==,
                   MS_VERDICT_FASTER);
  g_assert_cmpint (judge (iv (100, 98, 102, TRUE), iv (120, 119, 121, TRUE), 0.05), ==,
                   MS_VERDICT_SLOWER);
  /* Rates: higher is faster. */
  MsInterval a = iv (50, 49, 51, TRUE), b = iv (60, 59, 61, TRUE);
  g_assert_cmpint (ms_verdict_judge (&a, &b, 0.05, FALSE), ==, MS_VERDICT_FASTER);
  /* Apart but within the threshold: too small to matter. */
  g_assert_cmpint (judge (iv (100, 99.5, 100.5, TRUE), iv (103, 102.5, 103.5, TRUE), 0.05), ==,
                   MS_VERDICT_SAME);
}

static void
test_overlapping (void)
{
  /* Within the threshold and overlapping: same. */
  g_assert_cmpint (judge (iv (100, 95, 105, TRUE), iv (102, 97, 107, TRUE), 0.05), ==,
                   MS_VERDICT_SAME);
  /* 20% apart in the medians, but the intervals overlap: ambiguous. */
  g_assert_cmpint (judge (iv (100, 80, 130, TRUE), iv (120, 110, 140, TRUE), 0.05), ==,
                   MS_VERDICT_AMBIGUOUS);
  /* Touching is overlapping. */
  g_assert_cmpint (judge (iv (100, 90, 110, TRUE), iv (120, 110, 130, TRUE), 0.05), ==,
                   MS_VERDICT_AMBIGUOUS);
}

static void
test_one_sided (void)
{
  /* One interval from fewer than 6 repetitions (min..max): no 95% claim,
   * so a difference is ambiguous even with the intervals apart. */
  g_assert_cmpint (judge (iv (100, 99, 101, TRUE), iv (130, 129, 131, FALSE), 0.05), ==,
                   MS_VERDICT_AMBIGUOUS);
  g_assert_cmpint (judge (iv (100, 99, 101, FALSE), iv (130, 129, 131, TRUE), 0.05), ==,
                   MS_VERDICT_AMBIGUOUS);
  /* ... but no difference is still the same. */
  g_assert_cmpint (judge (iv (100, 99, 101, FALSE), iv (101, 100, 102, TRUE), 0.05), ==,
                   MS_VERDICT_SAME);
}

static void
test_missing (void)
{
  g_assert_cmpint (judge (iv (NAN, NAN, NAN, FALSE), iv (100, 99, 101, TRUE), 0.05), ==,
                   MS_VERDICT_AMBIGUOUS);
  g_assert_cmpint (judge (iv (100, 99, 101, TRUE), iv (0, 0, 0, FALSE), 0.05), ==,
                   MS_VERDICT_AMBIGUOUS);
  /* A failed cell has no interval. */
  MsCell failed = { .mode = MS_MODE_PINNED, .exponent = 10, .status = MS_CELL_FAILED };
  MsInterval i = ms_compare_cell_interval (&failed, NULL);
  g_assert_false (i.median > 0);
}

static void
test_threshold_edge (void)
{
  /* Exactly the threshold is not more than it. */
  g_assert_cmpint (judge (iv (100, 99, 101, TRUE), iv (105, 104, 106, TRUE), 0.05), ==,
                   MS_VERDICT_SAME);
  g_assert_cmpint (judge (iv (100, 99, 101, TRUE), iv (105.1, 104, 106, TRUE), 0.05), ==,
                   MS_VERDICT_SLOWER);
  g_assert_cmpint (judge (iv (100, 99, 101, TRUE), iv (95, 94, 96, TRUE), 0.05), ==,
                   MS_VERDICT_SAME);
  g_assert_cmpint (judge (iv (100, 99, 101, TRUE), iv (94.9, 94, 96, TRUE), 0.05), ==,
                   MS_VERDICT_FASTER);
  /* Threshold 0: any difference with apart intervals counts. */
  g_assert_cmpint (judge (iv (100, 99.9, 100.1, TRUE), iv (100.5, 100.4, 100.6, TRUE), 0), ==,
                   MS_VERDICT_SLOWER);
}

/* A profile widens the interval as ms_run_to_run_interval does. */
static void
test_widened_cell (void)
{
  MsCell c = { .mode = MS_MODE_PINNED, .exponent = 20, .status = MS_CELL_OK };
  c.stats.e2e = (MsStat){
    .n = 20, .median = 100, .min = 95, .max = 110, .ci_low = 99, .ci_high = 101, .ci_valid = true
  };
  MsInterval plain = ms_compare_cell_interval (&c, NULL);
  g_assert_cmpfloat (plain.lo, ==, 99);
  g_assert_cmpfloat (plain.hi, ==, 101);
  MsRunToRun rr;
  ms_run_to_run_clear (&rr);
  rr.valid = true;
  rr.runs = 5;
  rr.sd[MS_MODE_PINNED][20] = 0.1;
  MsInterval wide = ms_compare_cell_interval (&c, &rr);
  double lo, hi;
  g_assert_true (ms_run_to_run_interval (&rr, &c, &lo, &hi));
  g_assert_cmpfloat (wide.lo, ==, lo);
  g_assert_cmpfloat (wide.hi, ==, hi);
  g_assert_cmpfloat (wide.lo, <, 80);
  g_assert_true (wide.valid);
}

static MsResults *
read_run (const char *path)
{
  char err[512];
  MsResults *r = ms_csv_read_samples (path, err, sizeof err);
  if (!r)
    g_printerr ("%s\n", err);
  g_assert_nonnull (r);
  return r;
}

static void
test_self_same (void)
{
  MsResults *a = read_run (H100), *b = read_run (H100);
  char err[256];
  MsComparison *cmp = ms_compare_results (a, b, 0.05, MS_MODE_COUNT, err, sizeof err);
  g_assert_nonnull (cmp);
  g_assert_cmpint (cmp->all.n_common, ==, (int)a->n_cells);
  g_assert_cmpint (cmp->all.count[MS_VERDICT_SAME], ==, (int)a->n_cells);
  g_assert_cmpfloat (cmp->all.median_ratio, ==, 1);
  g_assert_false (ms_comparison_differs (cmp));
  /* With threshold 0 too: equal medians never differ. */
  ms_comparison_free (cmp);
  cmp = ms_compare_results (a, b, 0, MS_MODE_COUNT, err, sizeof err);
  g_assert_cmpint (cmp->all.count[MS_VERDICT_SAME], ==, (int)a->n_cells);
  ms_comparison_free (cmp);
  ms_results_free (a);
  ms_results_free (b);
}

/* Every verdict agrees with its cell's figures. */
static void
check_consistent (const MsComparison *cmp)
{
  for (size_t i = 0; i < cmp->n_cells; i++) {
    const MsCompareCell *c = &cmp->cells[i];
    g_assert_true (c->in_a && c->in_b);
    if (c->verdict == MS_VERDICT_FASTER || c->verdict == MS_VERDICT_SLOWER) {
      g_assert_cmpfloat (fabs (c->ratio - 1), >, cmp->threshold);
      g_assert_true (c->b.hi < c->a.lo || c->b.lo > c->a.hi);
      g_assert_cmpint (c->verdict == MS_VERDICT_FASTER, ==, c->ratio < 1);
    } else if (c->verdict == MS_VERDICT_SAME) {
      g_assert_cmpfloat (fabs (c->ratio - 1), <=, cmp->threshold + 1e-12);
    }
  }
}

static void
test_h100_h200 (void)
{
  MsResults *a = read_run (H100), *b = read_run (H200);
  char err[256];
  MsComparison *cmp = ms_compare_results (a, b, 0.05, MS_MODE_COUNT, err, sizeof err);
  g_assert_nonnull (cmp);
  g_assert_true (ms_comparison_differs (cmp));
  check_consistent (cmp);
  /* The host mode (the CPU's c = a + b, no GPU) at 2^20 took 796 us on the
   * H100's host and 1095 us on the H200's, intervals far apart. */
  for (size_t i = 0; i < cmp->n_cells; i++)
    if (cmp->cells[i].mode == MS_MODE_HOST && cmp->cells[i].exponent == 20)
      g_assert_cmpint (cmp->cells[i].verdict, ==, MS_VERDICT_SLOWER);
  int sum = 0;
  for (int v = 0; v < MS_VERDICT_COUNT; v++)
    sum += cmp->all.count[v];
  g_assert_cmpint (sum, ==, cmp->all.n_common);
  g_assert_false (cmp->widened);
  ms_comparison_free (cmp);

  /* One mode only. */
  cmp = ms_compare_results (a, b, 0.05, MS_MODE_PINNED, err, sizeof err);
  g_assert_nonnull (cmp);
  for (size_t i = 0; i < cmp->n_cells; i++)
    g_assert_cmpint (cmp->cells[i].mode, ==, MS_MODE_PINNED);
  g_assert_cmpint (cmp->all.n_common, ==, cmp->mode[MS_MODE_PINNED].n_common);
  ms_comparison_free (cmp);

  /* A wide run-to-run profile on A alone widens both runs' intervals: no
   * difference then stands. */
  ms_run_to_run_clear (&a->run_to_run);
  a->run_to_run.valid = true;
  a->run_to_run.runs = 5;
  for (int m = 0; m < MS_MODE_COUNT; m++)
    for (int e = MS_MIN_EXPONENT; e <= MS_MAX_EXPONENT; e++)
      a->run_to_run.sd[m][e] = 0.5;
  cmp = ms_compare_results (a, b, 0.05, MS_MODE_COUNT, err, sizeof err);
  g_assert_true (cmp->widened);
  g_assert_false (ms_comparison_differs (cmp));
  g_assert_cmpint (cmp->all.count[MS_VERDICT_AMBIGUOUS], >, 0);
  ms_comparison_free (cmp);
  ms_results_free (a);
  ms_results_free (b);
}

static void
test_only_one_run (void)
{
  MsResults *a = read_run (H100);
  MsResults *b = ms_results_new (&a->sweep, &a->device);
  int dropped = 0;
  for (size_t i = 0; i < a->n_cells; i++) {
    if (a->cells[i].exponent == 20)
      dropped++;
    else
      g_assert_true (ms_results_add_cell (b, &a->cells[i]));
  }
  char err[256];
  MsComparison *cmp = ms_compare_results (a, b, 0.05, MS_MODE_COUNT, err, sizeof err);
  g_assert_nonnull (cmp);
  g_assert_cmpint (cmp->all.only_a, ==, dropped);
  g_assert_cmpint (cmp->all.only_b, ==, 0);
  g_assert_cmpint (cmp->all.count[MS_VERDICT_SAME], ==, cmp->all.n_common);
  g_assert_cmpint (cmp->mode[MS_MODE_PINNED].only_a, ==, 1);
  /* Common cells first, then those of one run. */
  g_assert_true (cmp->cells[cmp->n_cells - 1].in_a && !cmp->cells[cmp->n_cells - 1].in_b);
  g_assert_false (ms_comparison_differs (cmp));
  ms_comparison_free (cmp);
  cmp = ms_compare_results (b, a, 0.05, MS_MODE_COUNT, err, sizeof err);
  g_assert_cmpint (cmp->all.only_b, ==, dropped);
  ms_comparison_free (cmp);
  ms_results_free (a);
  ms_results_free (b);
}

static void
test_no_common_cell (void)
{
  MsResults *a = read_run (H100), *b = read_run (MS_REFERENCE_DIR "/h100-lesson-reuse-samples.csv");
  char err[256] = "";
  g_assert_null (ms_compare_results (a, b, 0.05, MS_MODE_COUNT, err, sizeof err));
  g_assert_nonnull (strstr (err, "no cell in common"));
  /* A mode neither run has. */
  MsResults *pinned = ms_results_new (&a->sweep, &a->device);
  for (size_t i = 0; i < a->n_cells; i++)
    if (a->cells[i].mode == MS_MODE_PINNED)
      ms_results_add_cell (pinned, &a->cells[i]);
  g_assert_null (ms_compare_results (pinned, pinned, 0.05, MS_MODE_HOST, err, sizeof err));
  g_assert_nonnull (strstr (err, "host"));
  ms_results_free (pinned);
  ms_results_free (a);
  ms_results_free (b);
}

static void
test_file_kinds (void)
{
  g_assert_cmpint (ms_file_kind (H100), ==, MS_FILE_KIND_SAMPLES);
  g_assert_cmpint (ms_file_kind (MS_REFERENCE_DIR "/h200x2-peer.csv"), ==, MS_FILE_KIND_PEER);
  g_assert_cmpint (ms_file_kind ("/nonexistent/memsweep"), ==, MS_FILE_KIND_UNREADABLE);
  g_assert_cmpint (ms_file_kind (MS_REFERENCE_DIR "/../../README.md"), ==, MS_FILE_KIND_UNKNOWN);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/compare/apart", test_apart);
  g_test_add_func ("/compare/overlapping", test_overlapping);
  g_test_add_func ("/compare/one-sided", test_one_sided);
  g_test_add_func ("/compare/missing", test_missing);
  g_test_add_func ("/compare/threshold-edge", test_threshold_edge);
  g_test_add_func ("/compare/widened-cell", test_widened_cell);
  g_test_add_func ("/compare/self-same", test_self_same);
  g_test_add_func ("/compare/h100-h200", test_h100_h200);
  g_test_add_func ("/compare/only-one-run", test_only_one_run);
  g_test_add_func ("/compare/no-common-cell", test_no_common_cell);
  g_test_add_func ("/compare/file-kinds", test_file_kinds);
  return g_test_run ();
}
