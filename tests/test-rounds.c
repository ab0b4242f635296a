/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-rounds.c: the bookkeeping of repeatable numbers on the test backend:
 * rounds numbered and pooled, the GPU state and steady-state copies through
 * the samples file, flags, the warm-up and the pinned thread, and the
 * reference files still opening. */
#define _GNU_SOURCE
#include <sched.h>
#include <unistd.h>

#include "memsweep.h"
#include "ms-backend-test.h"
#include "ms-gpu-state.h"
#include "ms-test.h"

static char tmpdir[256];
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
  ms_sweep_init_default (&s);
  s.min_exp = 10;
  s.max_exp = 12;
  s.reps = 4;
  s.reps_rule = MS_REPS_FIXED;
  s.rounds = rounds;
  ms_test_backend_config_init (&cfg);
  cfg.unsupported[MS_MODE_MANAGED] = true;
  cfg.copy_bursts = true;
  MsBackend *b = ms_backend_new_test (&cfg);
  MsResults *r = NULL;
  char err[256] = "";
  MsRunStatus st = ms_sweep_run (&s, b, on_progress, progress, NULL, &r, err, sizeof err);
  MS_CHECK (st == MS_RUN_OK, "rounds %d: %s", rounds, err);
  ms_backend_free (b);
  return r;
}

static void
test_rounds_numbered (void)
{
  Progress p = { .last_index = -1, .in_order = true };
  MsResults *r = run_rounds (3, &p);
  int cells = 3 * ms_sweep_n_modes (&r->sweep);
  MS_CHECK (r->n_cells == (size_t) cells, "one cell per (mode, size): %zu", r->n_cells);
  MS_CHECK (p.calls == 3 * cells && p.n == 3 * cells && p.in_order, "progress %d of %d",
            p.calls, p.n);
  for (size_t i = 0; i < r->n_cells; i++) {
    const MsCell *c = &r->cells[i];
    if (c->mode == MS_MODE_MANAGED) {
      MS_CHECK (c->status == MS_CELL_UNSUPPORTED && c->n_rounds == 0, "unsupported once");
      continue;
    }
    MS_CHECK (c->status == MS_CELL_OK && c->n_reps == 12 && c->n_rounds == 3,
              "%s: %d reps in %d rounds", ms_mode_name (c->mode), c->n_reps, c->n_rounds);
    for (int k = 0; k < c->n_rounds; k++)
      MS_CHECK (c->rounds[k].round == k && c->rounds[k].first_rep == 4 * k &&
                  c->rounds[k].n_reps == 4,
                "round %d: first %d n %d", c->rounds[k].round, c->rounds[k].first_rep,
                c->rounds[k].n_reps);
    MS_CHECK (ms_cell_round_of_rep (c, 9)->round == 2, "rep 9 is in round 2");
    MS_CHECK (c->stats.e2e.n == 12, "the summary pools rounds: %d", c->stats.e2e.n);
    int reps_seen = 0;
    for (size_t e = 0; e < c->n_events; e++)
      reps_seen |= 1 << c->events[e].rep;
    MS_CHECK (reps_seen == 0xfff, "events renumbered over rounds: %x", reps_seen);
  }
  /* Steady copies come through the driver and the runner, per round. */
  const MsCell *pinned = ms_results_find (r, MS_MODE_PINNED, 12);
  MS_CHECK (pinned && pinned->n_copies == 3 * 2 * MS_COPY_SAMPLES, "copy bursts in 3 rounds");
  for (int k = 0; pinned && k < pinned->n_copies; k++)
    MS_CHECK (pinned->copies[k].round == k / (2 * MS_COPY_SAMPLES), "burst %d in round %d", k,
              pinned->copies[k].round);
  MS_CHECK (pinned && ms_cell_copy_gbps (pinned, true) > pinned->stats.h2d_gbps &&
              ms_cell_copy_gbps (pinned, false) > pinned->stats.d2h_gbps,
            "the model's steady copy beats its single copy");
  const MsCell *pageable = ms_results_find (r, MS_MODE_PAGEABLE, 12);
  MS_CHECK (pageable && pageable->n_copies == 0, "no bursts where the backend has none");
  /* The host backend runs without NVML here: no state, no flags. */
  MS_CHECK (!r->cells[0].rounds[0].start.valid && ms_cell_state_flags (&r->cells[0]) == 0,
            "no NVML, no state");
  ms_results_free (r);

  MsSweep bad;
  char err[128];
  ms_sweep_init_default (&bad);
  bad.rounds = 0;
  MS_CHECK (!ms_sweep_validate (&bad, err, sizeof err) && strstr (err, "rounds"), "%s", err);
  bad.rounds = MS_MAX_ROUNDS + 1;
  MS_CHECK (!ms_sweep_validate (&bad, err, sizeof err), "too many rounds refused");
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
  MS_CHECK (st == MS_RUN_OK, "adaptive: %s", err);
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
    MS_CHECK (c->status == MS_CELL_OK && c->n_reps == 10 && c->stats.e2e.n == 10,
              "quiet %s 2^%d: %d reps", ms_mode_name (c->mode), c->exponent, c->n_reps);
    MS_CHECK (c->rounds[0].stop == MS_STOP_CI_REACHED, "quiet: stopped by %s",
              ms_stop_reason_name (c->rounds[0].stop));
  }
  ms_results_free (quiet);

  /* A repetition takes a few hundred model microseconds: a 20 ms budget
   * allows some dozens, far fewer than +-2% at +-30% noise needs. */
  MsResults *noisy = run_adaptive (30, 20);
  for (size_t i = 0; noisy && i < noisy->n_cells; i++) {
    const MsCell *c = &noisy->cells[i];
    double lo, hi, med;
    ms_median_ci (c->e2e_us, c->n_reps, &med, &lo, &hi);
    MS_CHECK (c->status == MS_CELL_OK && c->n_reps > 20 && c->n_reps < 200,
              "noisy %s 2^%d: %d reps", ms_mode_name (c->mode), c->exponent, c->n_reps);
    MS_CHECK (hi - lo > 0.04 * med, "noisy: the interval stays wider than the target");
    MS_CHECK (c->rounds[0].stop == MS_STOP_BUDGET, "noisy: stopped by %s",
              ms_stop_reason_name (c->rounds[0].stop));
    int max_rep = -1;
    for (size_t e = 0; e < c->n_events; e++)
      max_rep = c->events[e].rep > max_rep ? c->events[e].rep : max_rep;
    MS_CHECK (max_rep == c->n_reps - 1, "events up to the last repetition: %d", max_rep);
  }
  ms_results_free (noisy);

  /* Generous budget, mild noise: the interval gets within the target. */
  MsResults *mild = run_adaptive (3, 10000);
  for (size_t i = 0; mild && i < mild->n_cells; i++) {
    const MsCell *c = &mild->cells[i];
    double lo, hi, med;
    ms_median_ci (c->e2e_us, c->n_reps, &med, &lo, &hi);
    MS_CHECK (c->n_reps >= 10 && hi - lo <= 0.04 * med + 1e-9, "mild: %d reps, +-%.2f%%",
              c->n_reps, 50 * (hi - lo) / med);
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
  MS_CHECK (a->valid == b->valid && a->sm_mhz == b->sm_mhz && a->mem_mhz == b->mem_mhz &&
              a->temp_c == b->temp_c && a->pstate == b->pstate && a->throttle == b->throttle,
            "%s: %d/%d MHz %d C P%d %llx vs %d/%d MHz %d C P%d %llx", what, a->sm_mhz,
            a->mem_mhz, a->temp_c, a->pstate, (unsigned long long) a->throttle, b->sm_mhz,
            b->mem_mhz, b->temp_c, b->pstate, (unsigned long long) b->throttle);
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
    MS_CHECK (ms_cell_add_copy (c, &s), "copy sample %d", k);
  }
  r->device.pinned = true;
  r->device.measuring_cpu = 3;
  snprintf (r->device.gpu_near_cpus, sizeof r->device.gpu_near_cpus, "0-7");
  r->device.warmup_ms = 120;
  r->device.steady_sm_mhz = 1980;
  MS_CHECK (ms_cell_round_flags (&c->rounds[0]) == 0, "round 0 steady (idle is no throttle)");
  MS_CHECK (ms_cell_round_flags (&c->rounds[1]) == (MS_STATE_CLOCK_CHANGED | MS_STATE_THROTTLED),
            "round 1 flagged: %d", ms_cell_round_flags (&c->rounds[1]));

  char path[300], sum[300], err[512];
  snprintf (path, sizeof path, "%s/state-samples.csv", tmpdir);
  snprintf (sum, sizeof sum, "%s/state-summary.csv", tmpdir);
  MS_CHECK (ms_csv_write_samples (r, path, err, sizeof err), "%s", err);
  MS_CHECK (ms_csv_write_summary (r, sum, err, sizeof err), "%s", err);
  MsResults *back = ms_csv_read_samples (path, err, sizeof err);
  MS_CHECK (back != NULL, "%s", err);
  if (back) {
    const MsCell *b = ms_results_find (back, c->mode, c->exponent);
    MS_CHECK (back->sweep.rounds == 2, "rounds metadata: %d", back->sweep.rounds);
    MS_CHECK (back->device.pinned && back->device.measuring_cpu == 3 &&
                strcmp (back->device.gpu_near_cpus, "0-7") == 0 &&
                back->device.steady_sm_mhz == 1980,
              "pinning and warm-up metadata");
    MS_CHECK (b && b->n_rounds == 2 && b->n_reps == 8, "rounds back");
    for (int k = 0; b && k < 2 && k < b->n_rounds; k++) {
      MS_CHECK (b->rounds[k].round == k && b->rounds[k].first_rep == 4 * k, "round %d", k);
      MS_CHECK (b->rounds[k].stop == MS_STOP_FIXED_COUNT, "stop reason back: %s",
                ms_stop_reason_name (b->rounds[k].stop));
      check_state (&b->rounds[k].start, &c->rounds[k].start, "start");
      check_state (&b->rounds[k].end, &c->rounds[k].end, "end");
    }
    MS_CHECK (b && b->n_copies == c->n_copies && c->n_copies >= 4, "copies back: %d", c->n_copies);
    MS_CHECK (b && fabs (ms_cell_copy_gbps (b, true) - ms_cell_copy_gbps (c, true)) < 1e-3 &&
                ms_cell_copy_gbps (b, false) > 0,
              "copy rates back");
    const MsCell *other = ms_results_find (back, r->cells[0].mode, r->cells[0].exponent);
    MS_CHECK (other && other->n_rounds == 2 && !other->rounds[1].start.valid,
              "unknown state stays unknown");
    ms_results_free (back);
  }
  FILE *f = fopen (sum, "r");
  char line[8192] = "", row[8192] = "";
  /* The header, then the second cell's row. */
  while (f && fgets (line, sizeof line, f) && line[0] == '#')
    continue;
  for (int k = 0; f && k < 2 && fgets (row, sizeof row, f); k++)
    continue;
  MS_CHECK (strstr (line, "h2d_copy_gbps") && strstr (line, "gpu_state"), "summary columns");
  MS_CHECK (strstr (row, "clock-changed throttled"), "summary flags the cell: %s", row);
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
  char path[300], err[512];
  snprintf (path, sizeof path, "%s/bad-state.csv", tmpdir);
  MS_CHECK (ms_csv_write_samples (r, path, err, sizeof err), "%s", err);
  ms_results_free (r);
  /* Corrupt the first pstate: "P0" -> "Px". */
  FILE *f = fopen (path, "r+");
  static char buf[1 << 20];
  size_t n = fread (buf, 1, sizeof buf - 1, f);
  buf[n] = '\0';
  char *at = strstr (buf, ",P0,");
  MS_CHECK (at != NULL, "a pstate was written");
  if (at) {
    at[2] = 'x';
    rewind (f);
    fwrite (buf, 1, n, f);
  }
  fclose (f);
  MsResults *back = ms_csv_read_samples (path, err, sizeof err);
  MS_CHECK (back == NULL && strstr (err, "GPU state") && strstr (err, ".csv:"), "refused: %s",
            err);
  ms_results_free (back);
}

static void
test_reference_files_open (void)
{
  const char *names[] = { "h100-default-samples.csv", "h200-default-samples.csv",
                          "h100-large-samples.csv" };
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    char path[512], err[512] = "";
    snprintf (path, sizeof path, "%s/reference/%s", data_dir, names[i]);
    MsResults *r = ms_csv_read_samples (path, err, sizeof err);
    MS_CHECK (r && r->n_cells > 0 && r->sweep.rounds == 1, "%s: %s", names[i], err);
    for (size_t k = 0; r && k < r->n_cells; k++) {
      const MsCell *c = &r->cells[k];
      if (c->n_reps > 0)
        MS_CHECK (c->n_rounds == 1 && c->rounds[0].n_reps == c->n_reps && c->n_copies == 0 &&
                    !c->rounds[0].start.valid,
                  "%s: old cells are one round without state", names[i]);
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
  MS_CHECK (spins == 1 && spun_ms == MS_WARM_BLIND_MS && steady == 0,
            "without NVML: one blind spin of %.0f ms (%d, %.0f)", MS_WARM_BLIND_MS, spins,
            spun_ms);
  MsGpuState st;
  ms_gpu_state_before_cell (NULL, fake_spin, NULL, 1980, &st);
  MS_CHECK (!st.valid && spins == 1, "no state, no re-warm without NVML");

  cpu_set_t before, saved, now;
  sched_getaffinity (0, sizeof before, &before);
  char near[64] = "x";
  int cpu = ms_pin_thread (NULL, &saved, near, sizeof near);
  sched_getaffinity (0, sizeof now, &now);
  MS_CHECK (cpu >= 0 && CPU_ISSET (cpu, &before) && CPU_COUNT (&now) == 1 && CPU_ISSET (cpu, &now),
            "pinned to one allowed CPU (%d)", cpu);
  MS_CHECK (near[0] == '\0', "no NVML, no near CPUs");
  ms_unpin_thread (&saved);
  sched_getaffinity (0, sizeof now, &now);
  MS_CHECK (CPU_EQUAL (&now, &before), "unpinned afterwards");

  cpu_set_t set;
  CPU_ZERO (&set);
  CPU_SET (0, &set);
  CPU_SET (1, &set);
  CPU_SET (2, &set);
  CPU_SET (5, &set);
  char text[64];
  ms_format_cpu_set (&set, text, sizeof text);
  MS_CHECK_STR (text, "0-2 5");
}

int
main (int argc, char **argv)
{
  if (argc > 1)
    data_dir = argv[1];
  snprintf (tmpdir, sizeof tmpdir, "/tmp/memsweep-rounds-XXXXXX");
  if (!mkdtemp (tmpdir))
    return 1;
  MS_RUN (test_rounds_numbered);
  MS_RUN (test_state_round_trip);
  MS_RUN (test_adaptive_reps);
  MS_RUN (test_malformed_state);
  MS_RUN (test_reference_files_open);
  MS_RUN (test_warm_and_pin);
  char cmd[300];
  snprintf (cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
  if (system (cmd) != 0)
    fprintf (stderr, "could not remove %s\n", tmpdir);
  return ms_test_finish ();
}
