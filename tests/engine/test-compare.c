/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-compare.c: verdicts between runs (ms-compare.c): the rule on
 * synthetic intervals (apart, overlapping, one-sided, missing, the
 * threshold's edge), the run-to-run profile widening them, and whole runs:
 * the H100 reference against itself and against the H200's. */
#include <glib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "files/ms-run-to-run-file.h"
#include "lessons/ms-run-read.h"
#include "memsweep.h"
#include "model/ms-results.h"
#include "model/ms-run-to-run.h"
#include "model/ms-stats.h"
#include "ms-compare.h"
#include "ms-file-kinds.h"
#include "ms-compare-pool.h"
#include "ms-multi-file.h"
#include "ms-peer-file.h"
#include "ms-tmp-test.h"

#define H100 MS_REFERENCE_DIR "/h100-default-samples.csv.gz"
#define H200 MS_REFERENCE_DIR "/h200-default-samples.csv.gz"

static MsInterval
iv (double median, double lo, double hi, gboolean valid)
{
  return (MsInterval){ median, lo, hi, valid, FALSE, 0, 0 };
}

/* The same with a known spread between processes (sd of ln median). */
static MsInterval
ivb (double median, double lo, double hi, double sd)
{
  return (MsInterval){ median, lo, hi, TRUE, TRUE, sd, 8 };
}

static MsVerdict
judge (MsInterval a, MsInterval b, double threshold)
{
  return ms_verdict_judgement (&a, &b, threshold, TRUE).verdict;
}

static void
test_outside (void)
{
  /* Times: B 20% lower with a narrow ratio interval is faster, higher slower. */
  g_assert_cmpint (judge (ivb (100, 98, 102, 0.01), ivb (80, 79, 81, 0.01), 0.05), ==,
                   MS_VERDICT_FASTER);
  g_assert_cmpint (judge (ivb (100, 98, 102, 0.01), ivb (120, 119, 121, 0.01), 0.05), ==,
                   MS_VERDICT_SLOWER);
  /* Rates: higher is faster. */
  MsInterval a = ivb (50, 49, 51, 0.01), b = ivb (60, 59, 61, 0.01);
  g_assert_cmpint (ms_verdict_judgement (&a, &b, 0.05, FALSE).verdict, ==, MS_VERDICT_FASTER);
  /* A real 3% difference inside a 5% threshold: too small to matter. */
  g_assert_cmpint (judge (ivb (100, 99.5, 100.5, 0.002), ivb (103, 102.5, 103.5, 0.002), 0.05),
                   ==, MS_VERDICT_SAME);
}

static void
test_crosses (void)
{
  /* Within the threshold with a narrow interval: same. */
  g_assert_cmpint (judge (ivb (100, 99, 101, 0.005), ivb (102, 101, 103, 0.005), 0.05), ==,
                   MS_VERDICT_SAME);
  /* The same medians, but the spread between processes is 5%: the ratio's
   * interval reaches past 5% either way. */
  MsInterval a = ivb (100, 99, 101, 0.05), b = ivb (102, 101, 103, 0.05);
  MsJudgement j = ms_verdict_judgement (&a, &b, 0.05, TRUE);
  g_assert_cmpint (j.verdict, ==, MS_VERDICT_AMBIGUOUS);
  g_assert_cmpint (j.why, ==, MS_WHY_CROSSES);
  g_assert_cmpfloat (j.lo, <, 0.95);
  g_assert_cmpfloat (j.hi, >, 1.05);
  /* 20% apart, but wide within-run intervals: ambiguous. */
  g_assert_cmpint (judge (ivb (100, 80, 130, 0.01), ivb (120, 110, 140, 0.01), 0.05), ==,
                   MS_VERDICT_AMBIGUOUS);
}

static void
test_unknown_spread (void)
{
  /* Apart and far beyond the threshold, but nothing is known of the
   * spread between processes: no difference is claimed. */
  MsInterval a = iv (100, 99, 101, TRUE), b = iv (130, 129, 131, TRUE);
  MsJudgement j = ms_verdict_judgement (&a, &b, 0.05, TRUE);
  g_assert_cmpint (j.verdict, ==, MS_VERDICT_AMBIGUOUS);
  g_assert_cmpint (j.why, ==, MS_WHY_NO_SPREAD);
  /* ... on one side is as good as none. */
  b = ivb (130, 129, 131, 0.01);
  g_assert_cmpint (judge (a, b, 0.05), ==, MS_VERDICT_AMBIGUOUS);
  /* No difference is still the same. */
  g_assert_cmpint (judge (iv (100, 99, 101, TRUE), iv (101, 100, 102, TRUE), 0.05), ==,
                   MS_VERDICT_SAME);
}

static void
test_few_reps (void)
{
  /* Fewer than 6 repetitions (min..max, read as +-2 sd): no 95% claim. */
  MsInterval a = ivb (100, 99, 101, 0.01), b = ivb (130, 129, 131, 0.01);
  b.valid = FALSE;
  MsJudgement j = ms_verdict_judgement (&a, &b, 0.05, TRUE);
  g_assert_cmpint (j.verdict, ==, MS_VERDICT_AMBIGUOUS);
  g_assert_cmpint (j.why, ==, MS_WHY_FEW_REPS);
  g_assert_cmpstr (ms_verdict_why_key (j.why), ==, "few-reps");
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
  /* A point against a point (a fleet's median against a node's): the
   * interval is the ratio itself; exactly the band's edges are inside.
   * The edges come from the band's one place, so a new band shape keeps
   * this test true. */
  double lo, hi;
  ms_verdict_band (0.05, &lo, &hi);
  MsInterval a = ivb (1, 1, 1, 0);
  g_assert_cmpint (judge (a, ivb (hi, hi, hi, 0), 0.05), ==, MS_VERDICT_SAME);
  g_assert_cmpint (judge (a, ivb (hi * 1.001, hi * 1.001, hi * 1.001, 0), 0.05), ==,
                   MS_VERDICT_SLOWER);
  g_assert_cmpint (judge (a, ivb (lo, lo, lo, 0), 0.05), ==, MS_VERDICT_SAME);
  g_assert_cmpint (judge (a, ivb (lo * 0.999, lo * 0.999, lo * 0.999, 0), 0.05), ==,
                   MS_VERDICT_FASTER);
}

/* The cell's between-process spread comes from the profile, moderated by
 * the mode's band. */
static void
test_between_cell (void)
{
  MsCell c = { .mode = MS_MODE_PINNED, .exponent = 20, .status = MS_CELL_OK };
  c.stats.e2e = (MsStat){
    .n = 20, .median = 100, .min = 95, .max = 110, .ci_low = 99, .ci_high = 101, .ci_valid = true
  };
  MsInterval plain = ms_compare_cell_interval (&c, NULL);
  g_assert_cmpfloat (plain.lo, ==, 99);
  g_assert_false (plain.between_known);
  MsRunToRun rr;
  ms_run_to_run_clear (&rr);
  rr.valid = true;
  rr.runs = 5;
  rr.sd[MS_MODE_PINNED][20] = 0.1;
  rr.sd[MS_MODE_PINNED][19] = 0.02;
  MsInterval known = ms_compare_cell_interval (&c, &rr);
  g_assert_true (known.between_known);
  g_assert_cmpint (known.between_df, ==, 8);
  /* Between the cell's own 0.1 and the band's root mean square. */
  g_assert_cmpfloat (known.between_sd, <, 0.1);
  g_assert_cmpfloat (known.between_sd, >, 0.05);
  g_assert_cmpfloat (known.lo, ==, 99);
}

/* ---- self-comparison on simulated machines ---------------------------- */

/* A machine like the lent GPUs' (docs/compare.md): each process draws a
 * whole-run shift (sd drift), each cell a process-level offset (sd cell),
 * and a two-state cell sits in its slow state for a whole process with
 * probability 0.3; within a run, repetitions scatter 2% and 2% of them
 * are outliers. */
typedef struct {
  double drift, cell, two_state_gap;
} Machine;

static double
gauss (GRand *r)
{
  double u = g_rand_double_range (r, 1e-12, 1), v = g_rand_double (r);
  return sqrt (-2 * log (u)) * cos (2 * G_PI * v);
}

/* One cell's median and its within-run interval from 21 repetitions. */
static MsInterval
simulate_cell (GRand *r, double centre, const Machine *m, gboolean two_state, double shift)
{
  double reps[21];
  double level = centre * exp (shift + m->cell * gauss (r));
  if (two_state && g_rand_double (r) < 0.3)
    level *= m->two_state_gap;
  for (int i = 0; i < 21; i++)
    reps[i] = level * exp (0.02 * gauss (r)) * (g_rand_double (r) < 0.02 ? 3 : 1);
  MsStat st = ms_stat_compute (reps, 21);
  return (MsInterval){ st.median, st.ci_low, st.ci_high, st.ci_valid, FALSE, 0, 0 };
}

/* The spread a 10-process calibration (as the shipped profiles are made)
 * would measure for one cell. */
#define CALIBRATION_RUNS 10
static double
calibrate_cell (GRand *r, const Machine *m, gboolean two_state)
{
  double logs[CALIBRATION_RUNS], mean = 0, ss = 0;
  for (int k = 0; k < CALIBRATION_RUNS; k++) {
    MsInterval c = simulate_cell (r, 100, m, two_state, m->drift * gauss (r));
    logs[k] = log (c.median);
    mean += logs[k] / CALIBRATION_RUNS;
  }
  for (int k = 0; k < CALIBRATION_RUNS; k++)
    ss += (logs[k] - mean) * (logs[k] - mean);
  return sqrt (ss / (CALIBRATION_RUNS - 1));
}

/* Over pairs of runs of 110 cells (every 8th a two-state cell), the share
 * of cells called FASTER or SLOWER; when B is change times slower, the
 * share of the one-state cells found (a two-state cell's flips between
 * processes are as large as the change). */
static double
claimed_share (const Machine *m, double change, int pairs, guint32 seed)
{
  GRand *r = g_rand_new_with_seed (seed);
  int claimed = 0, cells = 0;
  for (int p = 0; p < pairs; p++) {
    double shift_a = m->drift * gauss (r), shift_b = m->drift * gauss (r);
    /* The calibration: one value per size from 2^14, as a real profile. */
    MsRunToRun rr;
    ms_run_to_run_clear (&rr);
    rr.valid = TRUE;
    rr.runs = CALIBRATION_RUNS;
    for (int e = 14; e <= 20; e++)
      rr.sd[MS_MODE_PINNED][e] = calibrate_cell (r, m, FALSE);
    for (int c = 0; c < 110; c++) {
      gboolean two = c % 8 == 0;
      int e = 14 + c % 7;
      double kept = rr.sd[MS_MODE_PINNED][e];
      if (two)
        rr.sd[MS_MODE_PINNED][e] = calibrate_cell (r, m, TRUE);
      MsInterval a = simulate_cell (r, 100, m, two, shift_a);
      MsInterval b = simulate_cell (r, 100 * change, m, two, shift_b);
      ms_run_to_run_between (&rr, MS_MODE_PINNED, e, &a.between_sd, &a.between_df);
      rr.sd[MS_MODE_PINNED][e] = kept;
      b.between_sd = a.between_sd;
      b.between_df = a.between_df;
      a.between_known = b.between_known = TRUE;
      MsVerdict v = ms_verdict_judgement (&a, &b, 0.05, TRUE).verdict;
      if (change != 1.0 && two)
        continue;
      claimed += v == MS_VERDICT_FASTER || v == MS_VERDICT_SLOWER;
      cells++;
    }
  }
  g_rand_free (r);
  return (double) claimed / cells;
}

static void
test_self_comparison_model (void)
{
  /* A quiet machine: 0.4% whole-run drift, 0.4% per cell, a 1.5x
   * two-state gap. A 10% change stands out of a 5% threshold only when the
   * ratio's interval is narrower than about +-4%, which needs a spread
   * between processes well under 1% per run. */
  Machine quiet = { 0.004, 0.004, 1.5 };
  double false_claims = claimed_share (&quiet, 1.0, 200, 1);
  g_test_message ("quiet machine: %.2f%% of cells FASTER or SLOWER in 200 self-comparisons",
                  100 * false_claims);
  g_assert_cmpfloat (false_claims, <=, 0.02);
  /* A known 10% change found in at least 90% of the one-state cells. */
  double found = claimed_share (&quiet, 1.10, 200, 2);
  g_test_message ("quiet machine: a 10%% change found in %.1f%% of one-state cells",
                  100 * found);
  g_assert_cmpfloat (found, >=, 0.90);
  /* A machine as noisy as the lent H100's (5% drift, 5% per cell) where,
   * harsher than the test backend's machines (test-self-compare.c), a
   * two-state cell sits in one state for a whole process, so no run sees
   * both and only the calibration can: the rule found little and claimed
   * 2.0% of the cells falsely. That is the H100's run 2 of 2026-11-24
   * (docs/measurements.md); the bound here is a ceiling on that case, the
   * 2% target holds where states mix within a run. */
  Machine noisy = { 0.05, 0.05, 1.5 };
  false_claims = claimed_share (&noisy, 1.0, 200, 3);
  g_test_message ("noisy machine: %.2f%% of cells FASTER or SLOWER", 100 * false_claims);
  g_assert_cmpfloat (false_claims, <=, 0.025);
}

static void
test_two_states (void)
{
  /* 14 fast repetitions near 20 us and 8 slow near 33: two states. */
  double v[22];
  for (int i = 0; i < 22; i++)
    v[i] = i < 14 ? 20 + 0.1 * i : 33 + 0.2 * (i - 14);
  MsTwoStates st;
  g_assert_true (ms_two_states_find (v, 22, &st));
  g_assert_cmpfloat (fabs (st.low_us - 20.65), <, 0.2);
  g_assert_cmpfloat (fabs (st.high_us - 33.7), <, 0.2);
  g_assert_cmpfloat (fabs (st.high_share - 8.0 / 22), <, 1e-9);
  /* One cluster with two outliers: not two states. */
  for (int i = 0; i < 22; i++)
    v[i] = i < 20 ? 20 + 0.05 * i : 60;
  g_assert_false (ms_two_states_find (v, 22, &st));
  /* A smooth spread is one state. */
  for (int i = 0; i < 22; i++)
    v[i] = 20 * (1 + 0.01 * i);
  g_assert_false (ms_two_states_find (v, 22, &st));
  /* Too few repetitions to tell. */
  g_assert_false (ms_two_states_find (v, 9, &st));
}

static MsResults *
read_run (const char *path)
{
  char err[512];
  MsResults *r = ms_run_read_samples (path, err, sizeof err);
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
  g_assert_cmpfloat (cmp->all.median_ratio, ==, 1);
  g_assert_false (ms_comparison_differs (cmp));
  /* Equal medians: the ratio's interval is centred on 1, so a cell is SAME
   * or, where its own interval is wider than the threshold, AMBIGUOUS. */
  g_assert_cmpint (cmp->all.count[MS_VERDICT_SAME] + cmp->all.count[MS_VERDICT_AMBIGUOUS], ==,
                   (int)a->n_cells);
  g_assert_cmpint (cmp->all.count[MS_VERDICT_SAME], >, (int)a->n_cells / 2);
  /* With threshold 0 too: equal medians never differ. */
  ms_comparison_free (cmp);
  cmp = ms_compare_results (a, b, 0, MS_MODE_COUNT, err, sizeof err);
  g_assert_false (ms_comparison_differs (cmp));
  ms_comparison_free (cmp);
  ms_results_free (a);
  ms_results_free (b);
}

/* Every verdict agrees with its cell's figures and the band's one place. */
static void
check_consistent (const MsComparison *cmp)
{
  double lo, hi;
  ms_verdict_band (cmp->threshold, &lo, &hi);
  for (size_t i = 0; i < cmp->n_cells; i++) {
    const MsCompareCell *c = &cmp->cells[i];
    g_assert_true (c->in_a && c->in_b);
    const MsJudgement *j = &c->judgement;
    if (c->verdict == MS_VERDICT_FASTER || c->verdict == MS_VERDICT_SLOWER) {
      g_assert_true (j->hi < lo || j->lo > hi);
      g_assert_true (c->a.between_known && c->b.between_known);
      g_assert_cmpint (c->verdict == MS_VERDICT_FASTER, ==, c->ratio < 1);
    } else if (c->verdict == MS_VERDICT_SAME) {
      g_assert_cmpfloat (j->lo, >=, lo - 1e-12);
      g_assert_cmpfloat (j->hi, <=, hi + 1e-12);
    }
  }
}

/* A profile of 0.5% for every cell. */
static void
set_quiet_profile (MsResults *r, double sd)
{
  ms_run_to_run_clear (&r->run_to_run);
  r->run_to_run.valid = true;
  r->run_to_run.runs = 5;
  snprintf (r->run_to_run.date, sizeof r->run_to_run.date, "2026-11-24T09:00:00Z");
  for (int m = 0; m < MS_MODE_COUNT; m++)
    for (int e = MS_MIN_EXPONENT; e <= MS_MAX_EXPONENT; e++)
      r->run_to_run.sd[m][e] = sd;
}

static void
test_h100_h200 (void)
{
  MsResults *a = read_run (H100), *b = read_run (H200);
  char err[256];
  /* No spread known for either (no shipped profiles here): no claim. */
  MsComparison *cmp = ms_compare_results (a, b, 0.05, MS_MODE_COUNT, err, sizeof err);
  g_assert_nonnull (cmp);
  g_assert_false (ms_comparison_differs (cmp));
  g_assert_false (cmp->widened);
  g_assert_cmpstr (cmp->spread_a, ==, "");
  check_consistent (cmp);
  ms_comparison_free (cmp);

  /* With a quiet calibration on both, the two hosts' CPUs differ: some
   * cell is FASTER or SLOWER, each by the rule (check_consistent), and no
   * cell whose repetitions fell into two states gets a claim. */
  set_quiet_profile (a, 0.005);
  set_quiet_profile (b, 0.005);
  cmp = ms_compare_results (a, b, 0.05, MS_MODE_COUNT, err, sizeof err);
  g_assert_true (ms_comparison_differs (cmp));
  g_assert_true (cmp->widened);
  g_assert_nonnull (strstr (cmp->spread_a, "5 runs"));
  check_consistent (cmp);
  for (size_t i = 0; i < cmp->n_cells; i++) {
    const MsCompareCell *c = &cmp->cells[i];
    if (c->two_states)
      g_assert_true (c->verdict != MS_VERDICT_FASTER && c->verdict != MS_VERDICT_SLOWER);
  }
  int sum = 0;
  for (int v = 0; v < MS_VERDICT_COUNT; v++)
    sum += cmp->all.count[v];
  g_assert_cmpint (sum, ==, cmp->all.n_common);
  ms_comparison_free (cmp);

  /* One mode only. */
  cmp = ms_compare_results (a, b, 0.05, MS_MODE_PINNED, err, sizeof err);
  g_assert_nonnull (cmp);
  for (size_t i = 0; i < cmp->n_cells; i++)
    g_assert_cmpint (cmp->cells[i].mode, ==, MS_MODE_PINNED);
  g_assert_cmpint (cmp->all.n_common, ==, cmp->mode[MS_MODE_PINNED].n_common);
  ms_comparison_free (cmp);

  /* A wide spread: no difference stands. */
  set_quiet_profile (a, 0.5);
  set_quiet_profile (b, 0.5);
  cmp = ms_compare_results (a, b, 0.05, MS_MODE_COUNT, err, sizeof err);
  g_assert_false (ms_comparison_differs (cmp));
  g_assert_cmpint (cmp->all.count[MS_VERDICT_AMBIGUOUS], >, 0);
  ms_comparison_free (cmp);
  ms_results_free (a);
  ms_results_free (b);
}

/* A profile shipped for the GPU model is used where a run has none, and
 * named. */
static void
test_shipped_profile (void)
{
  const char *dir = ms_test_tmp_folder ("profiles");
  const char *path = ms_test_tmp_path ("profiles/h100.csv");
  MsResults *a = read_run (H100), *b = read_run (H100);
  MsRunToRun rr;
  set_quiet_profile (a, 0.01);
  char err[256];
  g_assert_true (ms_run_to_run_write_profile (&a->run_to_run, a, path, err, sizeof err));
  ms_run_to_run_clear (&a->run_to_run);
  g_setenv ("MEMSWEEP_PROFILES_DIR", dir, TRUE);
  g_assert_true (ms_run_to_run_load_shipped (&rr, a->device.name));
  g_assert_nonnull (strstr (rr.source, "shipped"));
  g_assert_false (ms_run_to_run_load_shipped (&rr, "NVIDIA H200"));
  MsComparison *cmp = ms_compare_results (a, b, 0.05, MS_MODE_COUNT, err, sizeof err);
  g_assert_true (cmp->widened);
  g_assert_nonnull (strstr (cmp->spread_a, "shipped"));
  g_assert_nonnull (strstr (cmp->spread_b, "shipped"));
  ms_comparison_free (cmp);
  g_setenv ("MEMSWEEP_PROFILES_DIR", "/nonexistent", TRUE);
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
  g_assert_cmpint (cmp->all.count[MS_VERDICT_SAME] + cmp->all.count[MS_VERDICT_AMBIGUOUS], ==,
                   cmp->all.n_common);
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
  MsResults *a = read_run (H100), *b = read_run (MS_REFERENCE_DIR "/h100-lesson-reuse-samples.csv.gz");
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
  g_assert_cmpint (ms_file_kind (MS_REFERENCE_DIR "/h200x2-peer.csv.gz"), ==, MS_FILE_KIND_PEER);
  g_assert_cmpint (ms_file_kind ("/nonexistent/memsweep"), ==, MS_FILE_KIND_UNREADABLE);
  g_assert_cmpint (ms_file_kind (MS_REFERENCE_DIR "/../../README.md"), ==, MS_FILE_KIND_UNKNOWN);
  /* Plain peer and multi-GPU files (their metadata in a sidecar): by header. */
  ms_test_tmp_file ("plain-peer.csv",
                    "method,direction,src,dst,gbps,note\ncopy-access-on,uni,0,1,1.000,\n");
  ms_test_tmp_file ("plain-multi.csv", "mode,exponent,bytes,gpus_ok,h2d_sum_gbps,d2h_sum_gbps,"
                                     "e2e_sum_gbps,h2d_slowest_gbps,d2h_slowest_gbps\n");
  g_assert_cmpint (ms_file_kind (ms_test_tmp_path ("plain-peer.csv")), ==, MS_FILE_KIND_PEER);
  g_assert_cmpint (ms_file_kind (ms_test_tmp_path ("plain-multi.csv")), ==, MS_FILE_KIND_MULTI);
}

/* The host's sentence: a baseline that moved less than the threshold
 * (SAME in its own verdict) moved, and did not differ; its interval's
 * ends are given to three places, so that 0.995 does not read 1.00. */
static void
test_host_moved_words (void)
{
  MsPooledVerdict host = { .method = MS_POOL_PROCESSES, .ratio = 0.953, .lo = 0.911,
                           .hi = 0.995, .verdict = MS_VERDICT_SAME };
  char text[512];
  ms_host_moved_describe (&host, text, sizeof text);
  g_assert_nonnull (strstr (text, "moved, less than the threshold"));
  g_assert_nonnull (strstr (text, "0.911–0.995"));
  host.verdict = MS_VERDICT_SLOWER;
  host.lo = 1.019, host.hi = 1.111, host.ratio = 1.06;
  ms_host_moved_describe (&host, text, sizeof text);
  g_assert_nonnull (strstr (text, "The host side differs"));
  g_assert_nonnull (strstr (text, "1.019–1.111"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  /* The shipped profiles stay out unless a test names its own. */
  g_setenv ("MEMSWEEP_PROFILES_DIR", "/nonexistent", TRUE);
  g_test_add_func ("/compare/outside", test_outside);
  g_test_add_func ("/compare/crosses", test_crosses);
  g_test_add_func ("/compare/unknown-spread", test_unknown_spread);
  g_test_add_func ("/compare/few-reps", test_few_reps);
  g_test_add_func ("/compare/missing", test_missing);
  g_test_add_func ("/compare/threshold-edge", test_threshold_edge);
  g_test_add_func ("/compare/between-cell", test_between_cell);
  g_test_add_func ("/compare/self-comparison-model", test_self_comparison_model);
  g_test_add_func ("/compare/two-states", test_two_states);
  g_test_add_func ("/compare/shipped-profile", test_shipped_profile);
  g_test_add_func ("/compare/self-same", test_self_same);
  g_test_add_func ("/compare/h100-h200", test_h100_h200);
  g_test_add_func ("/compare/only-one-run", test_only_one_run);
  g_test_add_func ("/compare/no-common-cell", test_no_common_cell);
  g_test_add_func ("/compare/file-kinds", test_file_kinds);
  g_test_add_func ("/compare/host-moved-words", test_host_moved_words);
  return g_test_run ();
}
