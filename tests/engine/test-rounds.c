/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-rounds.c: the bookkeeping of repeatable numbers on the test backend:
 * rounds numbered and pooled, the GPU state and steady-state copies through
 * the samples file, flags, the warm-up and the pinned thread, and the
 * reference files still opening. */
#define _GNU_SOURCE
#include <sched.h>
#include <unistd.h>
#include <glib.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "memsweep.h"
#include "ms-backend-test.h"
#include "ms-gpu-state.h"
#include "ms-tmp-test.h"
#include "ms-sweep-test.h"
#include "files/ms-csv-io.h"
#include "model/ms-results.h"
#include "model/ms-rounds.h"
#include "model/ms-stats.h"
#include "ms-modes.h"
#include "ms-sweep.h"
#include "run/ms-backend.h"
#include "run/ms-runner.h"
#include "model/ms-rounds-private.h"
#include "lessons/ms-run-read.h"

static const char *data_dir = "data";

typedef struct {
  int calls;
  int last_index, n;
  bool in_order;
} Progress;

static void
on_progress (int index, int n, const MsCell *cell, void *user)
{
  Progress *p = user;
  (void) cell;
  p->in_order = p->in_order && index == p->last_index + 1;
  p->last_index = index;
  p->n = n;
  p->calls++;
}

static MsResults *
run_rounds (int rounds, Progress *progress)
{
  MsSweep s;
  MsTestBackendConfig cfg;
  ms_test_sweep_init (&s, NULL, 10, 12, 4);
  s.rounds = rounds;
  ms_test_backend_config_init (&cfg);
  cfg.unsupported[MS_MODE_MANAGED] = true;
  cfg.copy_bursts = true;
  MsBackend *b = ms_backend_new_test (&cfg);
  MsResults *r = NULL;
  char err[256] = "";
  MsRunStatus st = ms_sweep_run (&s, b, on_progress, progress, NULL, &r, err, sizeof err);
  g_assert_cmpint (st, ==, MS_RUN_OK);
  ms_backend_free (b);
  return r;
}

static void
test_rounds_numbered (void)
{
  Progress p = { .last_index = -1, .in_order = true };
  MsResults *r = run_rounds (3, &p);
  int cells = 3 * ms_sweep_n_modes (&r->sweep);
  g_assert_cmpuint (r->n_cells, ==, (size_t)cells);
  g_assert_cmpint (p.calls, ==, 3 * cells);
  g_assert_cmpint (p.n, ==, 3 * cells);
  g_assert_true (p.in_order);
  for (size_t i = 0; i < r->n_cells; i++) {
    const MsCell *c = &r->cells[i];
    if (c->mode == MS_MODE_MANAGED) {
      g_assert_cmpint (c->status, ==, MS_CELL_UNSUPPORTED);
      g_assert_true (c->n_rounds == 0);
      continue;
    }
    g_assert_cmpint (c->status, ==, MS_CELL_OK);
    g_assert_cmpint (c->n_reps, ==, 12);
    g_assert_cmpint (c->n_rounds, ==, 3);
    for (int k = 0; k < c->n_rounds; k++)
      g_assert_true (c->rounds[k].round == k && c->rounds[k].first_rep == 4 * k
                     && c->rounds[k].n_reps == 4);
    g_assert_true (ms_cell_round_of_rep (c, 9)->round == 2);
    g_assert_cmpint (c->stats.e2e.n, ==, 12);
    /* Each round's first instr_reps repetitions are instrumented. */
    int reps_seen = 0, want = 0;
    for (size_t e = 0; e < c->n_events; e++)
      reps_seen |= 1 << c->events[e].rep;
    for (int k = 0; k < 3; k++)
      for (int j = 0; j < MIN (r->sweep.instr_reps, 4); j++)
        want |= 1 << (4 * k + j);
    g_assert_cmphex (reps_seen, ==, want);
    g_assert_cmpint (ms_cell_timeline_reps (c, NULL, 0), ==, 3 * MIN (r->sweep.instr_reps, 4));
  }
  /* Steady copies come through the driver and the runner, per round. */
  const MsCell *pinned = ms_results_find (r, MS_MODE_PINNED, 12);
  g_assert_true (pinned);
  g_assert_true (pinned->n_copies == 3 * 2 * MS_COPY_SAMPLES);
  for (int k = 0; pinned && k < pinned->n_copies; k++)
    g_assert_cmpint (pinned->copies[k].round, ==, k / (2 * MS_COPY_SAMPLES));
  g_assert_true (pinned);
  g_assert_true (ms_cell_copy_gbps (pinned, true) > pinned->stats.h2d_gbps);
  g_assert_true (ms_cell_copy_gbps (pinned, false) > pinned->stats.d2h_gbps);
  const MsCell *pageable = ms_results_find (r, MS_MODE_PAGEABLE, 12);
  g_assert_true (pageable);
  g_assert_true (pageable->n_copies == 0);
  /* The host backend runs without NVML here: no state, no flags. */
  g_assert_false (r->cells[0].rounds[0].start.valid);
  g_assert_true (ms_cell_state_flags (&r->cells[0]) == 0);
  ms_results_free (r);

  MsSweep bad;
  char err[128];
  ms_sweep_init_default (&bad);
  bad.rounds = 0;
  g_assert_false (ms_sweep_validate (&bad, err, sizeof err));
  g_assert_nonnull (strstr (err, "rounds"));
  bad.rounds = MS_MAX_ROUNDS + 1;
  g_assert_false (ms_sweep_validate (&bad, err, sizeof err));
}

static MsResults *
run_adaptive (double noise_pct, double budget_ms)
{
  MsSweep s;
  MsTestBackendConfig cfg;
  ms_sweep_init_default (&s);
  s.min_exp = 10;
  s.max_exp = 11;
  s.reps_rule = MS_REPS_ADAPTIVE;
  s.min_reps = 10;
  s.ci_target_pct = 2;
  s.cell_budget_ms = budget_ms;
  ms_sweep_set_modes (&s, "pinned,pageable", NULL, 0);
  ms_test_backend_config_init (&cfg);
  cfg.noise_pct = noise_pct;
  MsBackend *b = ms_backend_new_test (&cfg);
  MsResults *r = NULL;
  char err[256] = "";
  MsRunStatus st = ms_sweep_run (&s, b, NULL, NULL, NULL, &r, err, sizeof err);
  g_assert_cmpint (st, ==, MS_RUN_OK);
  ms_backend_free (b);
  return r;
}

/* Quiet cells stop at the minimum; noisy ones go on until the budget; the
 * driver's bookkeeping (e2e grown past the first guess, events) holds. */
static void
test_adaptive_reps (void)
{
  MsResults *quiet = run_adaptive (0, 500);
  for (size_t i = 0; quiet && i < quiet->n_cells; i++) {
    const MsCell *c = &quiet->cells[i];
    g_assert_cmpint (c->status, ==, MS_CELL_OK);
    g_assert_cmpint (c->n_reps, ==, 10);
    g_assert_true (c->stats.e2e.n == 10);
    g_assert_cmpint (c->rounds[0].stop, ==, MS_STOP_CI_REACHED);
  }
  ms_results_free (quiet);

  /* A repetition takes a few hundred model microseconds: a 20 ms budget
   * allows some dozens, far fewer than +-2% at +-30% noise needs. */
  MsResults *noisy = run_adaptive (30, 20);
  for (size_t i = 0; noisy && i < noisy->n_cells; i++) {
    const MsCell *c = &noisy->cells[i];
    double lo, hi, med;
    ms_median_ci (c->e2e_us, c->n_reps, &med, &lo, &hi);
    g_assert_cmpint (c->status, ==, MS_CELL_OK);
    g_assert_cmpint (c->n_reps, >, 20);
    g_assert_cmpint (c->n_reps, <, 200);
    g_assert_true (hi - lo > 0.04 * med);
    g_assert_cmpint (c->rounds[0].stop, ==, MS_STOP_BUDGET);
    int max_rep = -1;
    for (size_t e = 0; e < c->n_events; e++)
      max_rep = c->events[e].rep > max_rep ? c->events[e].rep : max_rep;
    /* Events only in the instrumented repetitions, the first ones. */
    g_assert_cmpint (max_rep, ==, noisy->sweep.instr_reps - 1);
    g_assert_cmpint (c->stats.e2e_instr.n, ==, noisy->sweep.instr_reps);
  }
  ms_results_free (noisy);

  /* Generous budget, mild noise: the interval gets within the target. */
  MsResults *mild = run_adaptive (3, 10000);
  for (size_t i = 0; mild && i < mild->n_cells; i++) {
    const MsCell *c = &mild->cells[i];
    double lo, hi, med;
    ms_median_ci (c->e2e_us, c->n_reps, &med, &lo, &hi);
    g_assert_cmpint (c->n_reps, >=, 10);
    g_assert_true (hi - lo <= 0.04 * med + 1e-9);
  }
  ms_results_free (mild);
}

static MsGpuState
state (int sm, int mem, int temp, int pstate, uint64_t throttle)
{
  return (MsGpuState){ true, sm, mem, temp, pstate, throttle };
}

static void
check_state (const MsGpuState *a, const MsGpuState *b, const char *what)
{
  g_assert_true (a->valid == b->valid);
  g_assert_cmpint (a->sm_mhz, ==, b->sm_mhz);
  g_assert_cmpint (a->mem_mhz, ==, b->mem_mhz);
  g_assert_cmpint (a->temp_c, ==, b->temp_c);
  g_assert_cmpint (a->pstate, ==, b->pstate);
  g_assert_cmphex (a->throttle, ==, b->throttle);
}

/* Clocks, temperature, pstate and throttle reasons per round, steady
 * copies and the pinning metadata survive a write and a read. */
static void
test_state_round_trip (void)
{
  Progress p = { .last_index = -1, .in_order = true };
  MsResults *r = run_rounds (2, &p);
  MsCell *c = &r->cells[1];
  c->rounds[0].start = state (1980, 2619, 41, 0, 0x1);
  c->rounds[0].end = state (1980, 2619, 44, 0, 0);
  c->rounds[1].start = state (1980, 2619, 45, 0, 0);
  c->rounds[1].end = state (1410, 2619, 52, 0, 0x4);
  for (int k = 0; k < 4; k++) {
    MsCopySample s = { .round = k / 2, .to_device = k % 2 == 0, .gpu_us = 80.0 + k,
                       .bytes = MS_COPY_BURST * c->elements * sizeof (float) };
    g_assert_true (ms_cell_add_copy (c, &s));
  }
  r->device.pinned = true;
  r->device.measuring_cpu = 3;
  snprintf (r->device.gpu_near_cpus, sizeof r->device.gpu_near_cpus, "0-7");
  r->device.warmup_ms = 120;
  r->device.steady_sm_mhz = 1980;
  g_assert_true (ms_cell_round_flags (&c->rounds[0]) == 0);
  g_assert_cmpint (ms_cell_round_flags (&c->rounds[1]), ==,
                   (MS_STATE_CLOCK_CHANGED | MS_STATE_THROTTLED));

  char err[512];
  const char *path = ms_test_tmp_path ("state-samples.csv");
  const char *sum = ms_test_tmp_path ("state-summary.csv");
  g_assert_true (ms_csv_write_samples (r, path, err, sizeof err));
  g_assert_true (ms_csv_write_summary (r, sum, err, sizeof err));
  MsResults *back = ms_run_read_samples (path, err, sizeof err);
  g_assert_nonnull (back);
  if (back) {
    const MsCell *b = ms_results_find (back, c->mode, c->exponent);
    g_assert_cmpint (back->sweep.rounds, ==, 2);
    g_assert_true (back->device.pinned);
    g_assert_true (back->device.measuring_cpu == 3);
    g_assert_cmpstr (back->device.gpu_near_cpus, ==, "0-7");
    g_assert_true (back->device.steady_sm_mhz == 1980);
    g_assert_true (b);
    g_assert_true (b->n_rounds == 2);
    g_assert_true (b->n_reps == 8);
    for (int k = 0; b && k < 2 && k < b->n_rounds; k++) {
      g_assert_cmpint (b->rounds[k].round, ==, k);
      g_assert_true (b->rounds[k].first_rep == 4 * k);
      g_assert_true (b->rounds[k].stop == MS_STOP_FIXED_COUNT);
      check_state (&b->rounds[k].start, &c->rounds[k].start, "start");
      check_state (&b->rounds[k].end, &c->rounds[k].end, "end");
    }
    g_assert_true (b);
    g_assert_cmpint (b->n_copies, ==, c->n_copies);
    g_assert_cmpint (c->n_copies, >=, 4);
    g_assert_true (b);
    g_assert_true (fabs (ms_cell_copy_gbps (b, true) - ms_cell_copy_gbps (c, true)) < 1e-3);
    g_assert_true (ms_cell_copy_gbps (b, false) > 0);
    const MsCell *other = ms_results_find (back, r->cells[0].mode, r->cells[0].exponent);
    g_assert_true (other);
    g_assert_true (other->n_rounds == 2);
    g_assert_false (other->rounds[1].start.valid);
    ms_results_free (back);
  }
  FILE *f = fopen (sum, "r");
  char line[8192] = "", row[8192] = "";
  /* The header, then the second cell's row. */
  while (f && fgets (line, sizeof line, f) && line[0] == '#')
    continue;
  for (int k = 0; f && k < 2 && fgets (row, sizeof row, f); k++)
    continue;
  g_assert_nonnull (strstr (line, "h2d_copy_gbps"));
  g_assert_nonnull (strstr (line, "gpu_state"));
  g_assert_nonnull (strstr (row, "clock-changed throttled"));
  if (f)
    fclose (f);
  ms_results_free (r);
}

static void
test_malformed_state (void)
{
  Progress p = { .last_index = -1, .in_order = true };
  MsResults *r = run_rounds (1, &p);
  r->cells[0].rounds[0].start = state (1980, 2619, 41, 0, 0);
  r->cells[0].rounds[0].end = state (1980, 2619, 41, 0, 0);
  char err[512];
  const char *path = ms_test_tmp_path ("bad-state.csv");
  g_assert_true (ms_csv_write_samples (r, path, err, sizeof err));
  ms_results_free (r);
  /* Corrupt the first pstate: "P0" -> "Px". */
  FILE *f = fopen (path, "r+");
  static char buf[1 << 20];
  size_t n = fread (buf, 1, sizeof buf - 1, f);
  buf[n] = '\0';
  char *at = strstr (buf, ",P0,");
  g_assert_nonnull (at);
  if (at) {
    at[2] = 'x';
    rewind (f);
    fwrite (buf, 1, n, f);
  }
  fclose (f);
  MsResults *back = ms_run_read_samples (path, err, sizeof err);
  g_assert_null (back);
  g_assert_nonnull (strstr (err, "GPU state"));
  g_assert_nonnull (strstr (err, ".csv:"));
  ms_results_free (back);
}

/* Files written before rounds existed (tests/data/old-format, the 0.1
 * reference runs) read as one round without GPU state; the reference runs
 * shipped now carry the state of every GPU cell. */
static void
test_reference_files_open (void)
{
  const char *old[] = { "h100-default-samples.csv", "h100-large-samples.csv" };
  for (size_t i = 0; i < sizeof old / sizeof old[0]; i++) {
    char path[512], err[512] = "";
    snprintf (path, sizeof path, "%s/../tests/data/old-format/%s", data_dir, old[i]);
    MsResults *r = ms_run_read_samples (path, err, sizeof err);
    g_assert_true (r);
    g_assert_true (r->n_cells > 0);
    g_assert_true (r->sweep.rounds == 1);
    for (size_t k = 0; r && k < r->n_cells; k++) {
      const MsCell *c = &r->cells[k];
      if (c->n_reps > 0)
        g_assert_true (c->n_rounds == 1 && c->rounds[0].n_reps == c->n_reps && c->n_copies == 0
                       && !c->rounds[0].start.valid);
    }
    ms_results_free (r);
  }
  const char *now[] = { "h100-default-samples.csv.gz", "h200-default-samples.csv.gz",
                        "h100-large-samples.csv.gz" };
  for (size_t i = 0; i < sizeof now / sizeof now[0]; i++) {
    char path[512], err[512] = "";
    snprintf (path, sizeof path, "%s/reference/%s", data_dir, now[i]);
    MsResults *r = ms_run_read_samples (path, err, sizeof err);
    g_assert_true (r);
    g_assert_true (r->n_cells > 0);
    for (size_t k = 0; r && k < r->n_cells; k++) {
      const MsCell *c = &r->cells[k];
      if (c->n_reps > 0 && ms_mode_uses_gpu (c->mode))
        g_assert_true (c->n_rounds >= 1 && c->rounds[0].start.valid);
    }
    ms_results_free (r);
  }
}

static int spins;
static double spun_ms;

static bool
fake_spin (void *user, double ms)
{
  (void) user;
  spins++;
  spun_ms += ms;
  return true;
}

static void
test_warm_and_pin (void)
{
  int steady = -1;
  ms_gpu_warm (NULL, fake_spin, NULL, &steady);
  g_assert_cmpint (spins, ==, 1);
  g_assert_cmpfloat (spun_ms, ==, MS_WARM_BLIND_MS);
  g_assert_true (steady == 0);
  MsGpuState st;
  ms_gpu_state_before_cell (NULL, fake_spin, NULL, 1980, &st);
  g_assert_false (st.valid);
  g_assert_true (spins == 1);

  cpu_set_t before, saved, now;
  sched_getaffinity (0, sizeof before, &before);
  char near[64] = "x";
  int cpu = ms_pin_thread_at (NULL, false, &saved, near, sizeof near);
  sched_getaffinity (0, sizeof now, &now);
  g_assert_cmpint (cpu, >=, 0);
  g_assert_true (CPU_ISSET (cpu, &before));
  g_assert_true (CPU_COUNT (&now) == 1);
  g_assert_true (CPU_ISSET (cpu, &now));
  g_assert_true (near[0] == '\0');
  ms_unpin_thread (&saved);
  sched_getaffinity (0, sizeof now, &now);
  g_assert_true (CPU_EQUAL (&now, &before));

  cpu_set_t set;
  CPU_ZERO (&set);
  CPU_SET (0, &set);
  CPU_SET (1, &set);
  CPU_SET (2, &set);
  CPU_SET (5, &set);
  char text[64];
  ms_format_cpu_set (&set, text, sizeof text);
  g_assert_cmpstr (text, ==, "0-2 5");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  if (argc > 1)
    data_dir = argv[1];
  g_test_add_func ("/rounds/rounds-numbered", test_rounds_numbered);
  g_test_add_func ("/rounds/state-round-trip", test_state_round_trip);
  g_test_add_func ("/rounds/adaptive-reps", test_adaptive_reps);
  g_test_add_func ("/rounds/malformed-state", test_malformed_state);
  g_test_add_func ("/rounds/reference-files-open", test_reference_files_open);
  g_test_add_func ("/rounds/warm-and-pin", test_warm_and_pin);
  return g_test_run ();
}
