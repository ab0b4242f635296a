/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-self-compare.c: the verdict rule on whole sweeps of the test
 * backend's noisy machines (ms-noise-model.h), as bench/self-compare.sh
 * runs it on a GPU: a calibration of 10 processes, then pairs of
 * processes compared. On a quiet machine at most 2% of the cells of 200
 * identical pairs may be called FASTER or SLOWER and a 10% change must be
 * found in at least 90% of the one-state cells from 2^14; on a machine as
 * noisy as the lent H100 the false claims stay at most 2%. */
#include <glib.h>

#include "memsweep.h"
#include "model/ms-results.h"
#include "model/ms-run-to-run.h"
#include "ms-backend-test.h"
#include "ms-compare.h"
#include "ms-sweep.h"
#include "run/ms-backend.h"
#include "run/ms-runner.h"

#define PAIRS 200

/* A sweep of four modes from 2^14 to 2^20 with 21 repetitions a cell, as
 * process seed of the machine; slowdown 1.10 is the known change. */
static MsResults *
sweep_as (const MsNoiseModel *machine, uint32_t seed, double slowdown)
{
  MsTestBackendConfig cfg;
  ms_test_backend_config_init (&cfg);
  cfg.noise_pct = 2;
  cfg.machine = machine;
  cfg.noise_seed = seed;
  cfg.slowdown = slowdown;
  MsBackend *backend = ms_backend_new_test (&cfg);
  MsSweep sweep;
  ms_sweep_init_default (&sweep);
  memset (sweep.modes, 0, sizeof sweep.modes);
  sweep.modes[MS_MODE_PINNED] = sweep.modes[MS_MODE_ZERO_COPY] = true;
  sweep.modes[MS_MODE_DEVICE] = sweep.modes[MS_MODE_MANAGED] = true;
  sweep.min_exp = 14;
  sweep.max_exp = 20;
  sweep.reps_rule = MS_REPS_FIXED;
  sweep.reps = 21;
  MsResults *r = NULL;
  char err[256];
  g_assert_cmpint (ms_sweep_run (&sweep, backend, NULL, NULL, NULL, &r, err, sizeof err), ==,
                   MS_RUN_OK);
  ms_backend_free (backend);
  return r;
}

/* The machine's spread between processes from 10 of them. */
static void
calibrate (const MsNoiseModel *machine, MsRunToRun *rr)
{
  MsResults *runs[10];
  char err[256];
  for (int k = 0; k < 10; k++)
    runs[k] = sweep_as (machine, 100000 + k, 1);
  g_assert_true (ms_run_to_run_measure (rr, runs, 10, err, sizeof err));
  for (int k = 0; k < 10; k++)
    ms_results_free (runs[k]);
}

/* The share of cells called FASTER or SLOWER over PAIRS pairs, B slowed
 * by slowdown; with a change, two-state cells are left out of the count. */
static double
claimed (const MsNoiseModel *machine, const MsRunToRun *rr, double slowdown)
{
  int claims = 0, cells = 0;
  char err[256];
  for (int p = 0; p < PAIRS; p++) {
    MsResults *a = sweep_as (machine, 2 * p + 1, 1), *b = sweep_as (machine, 2 * p + 2, slowdown);
    a->run_to_run = *rr;
    b->run_to_run = *rr;
    MsComparison *cmp = ms_compare_results (a, b, 0.05, MS_MODE_COUNT, err, sizeof err);
    g_assert_nonnull (cmp);
    for (size_t i = 0; i < cmp->n_cells; i++) {
      const MsCompareCell *c = &cmp->cells[i];
      if (slowdown != 1 && ms_noise_two_state_cell (machine, c->mode, c->exponent))
        continue;
      claims += c->verdict == MS_VERDICT_FASTER || c->verdict == MS_VERDICT_SLOWER;
      cells++;
    }
    ms_comparison_free (cmp);
    ms_results_free (a);
    ms_results_free (b);
  }
  return (double) claims / cells;
}

static void
test_quiet_machine (void)
{
  /* 0.4% drift and per-cell shift, a quarter of the cells with a slow
   * state 1.5x slower a third of the time, one repetition in 200 an
   * outlier. */
  MsNoiseModel machine = { 0.4, 0.4, 0.25, 1.5, 0.3, 0.005 };
  MsRunToRun rr;
  calibrate (&machine, &rr);
  double false_claims = claimed (&machine, &rr, 1);
  double found = claimed (&machine, &rr, 1.10);
  g_test_message ("quiet machine: %.2f%% false claims, a 10%% change found in %.1f%%",
                  100 * false_claims, 100 * found);
  g_assert_cmpfloat (false_claims, <=, 0.02);
  g_assert_cmpfloat (found, >=, 0.90);
}

static void
test_noisy_machine (void)
{
  /* As the lent H100 on 2026-11-24: 5% drift, 5% per cell. */
  MsNoiseModel machine = { 5, 5, 0.25, 1.5, 0.3, 0.01 };
  MsRunToRun rr;
  calibrate (&machine, &rr);
  double false_claims = claimed (&machine, &rr, 1);
  g_test_message ("noisy machine: %.2f%% false claims", 100 * false_claims);
  g_assert_cmpfloat (false_claims, <=, 0.02);
}

/* Two-state cells are found in a run and named. */
static void
test_two_states_found (void)
{
  MsNoiseModel machine = { 0, 0, 1, 1.5, 0.5, 0 };
  MsResults *r = sweep_as (&machine, 7, 1);
  int found = 0;
  for (size_t i = 0; i < r->n_cells; i++)
    found += r->cells[i].stats.states.found;
  g_test_message ("%d of %zu cells in two states", found, r->n_cells);
  g_assert_cmpint (found, >=, (int) r->n_cells / 2);
  ms_results_free (r);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_setenv ("MEMSWEEP_PROFILES_DIR", "/nonexistent", TRUE);
  g_test_add_func ("/self-compare/quiet-machine", test_quiet_machine);
  g_test_add_func ("/self-compare/noisy-machine", test_noisy_machine);
  g_test_add_func ("/self-compare/two-states-found", test_two_states_found);
  return g_test_run ();
}
