/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench-memsweep: the performance figures of the engine on a real GPU.
 *  1. pinned h2d/d2h bandwidth of memsweep at 2^20 and 2^26 elements against
 *     a reference loop of cudaMemcpyAsync timed with events, same run: the
 *     pipeline's single copy and memsweep's steady-state copy throughput
 *     (bursts of back-to-back copies; target >= 0.98 of the reference);
 *  2. wall time of the default sweep after CUDA initialisation;
 *  3. with --processes MEMSWEEP: whole processes of the command line, the
 *     default sweep and one process of a compare-grade run, each timed
 *     from exec to exit with its time ledger (MEMSWEEP_TIME_LEDGER=cells):
 *     the share its timed repetitions take, its fixed cost (all but the
 *     cells) and each mode's cost (its cells' wall time).
 * Usage: bench-memsweep [ROUNDS [--sweep-only [--cell-budget MS]]]
 *        bench-memsweep ROUNDS --processes MEMSWEEP
 * (--sweep-only: 2. alone; --cell-budget: the default sweep under another
 * cell budget, with what it does to the cells' repetitions and intervals).
 * Prints figures and a PASS/FAIL line per target; exits 0 either way. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include "bench-fixture.h"
#include "model/ms-results.h"
#include "model/ms-rounds.h"
#include "model/ms-stats.h"
#include "ms-clock.h"
#include "ms-kernels.h"
#include "ms-modes.h"
#include "run/ms-runner.h"

/* 1. Reference against memsweep, alternating so drift hits both: the
 * pipeline's single copy and the steady-state copy bursts. */
static int
compare_with_reference (MsBackend *backend, int rounds)
{
  char err[512];
  const int exps[] = { 20, 26 };
  printf ("\n%-6s %-4s %12s %12s %8s %12s %8s\n", "size", "dir", "ref GB/s", "single", "ratio",
          "steady", "ratio");
  double worst_steady = 1e9;
  for (int i = 0; i < 2; i++) {
    int e = exps[i];
    uint64_t vec = ms_exponent_bytes (e);
    double ref_h2d[16], ref_d2h[16], ms_h2d[16], ms_d2h[16], st_h2d[16], st_d2h[16];
    for (int r = 0; r < rounds && r < 16; r++) {
      double t_h2d = ms_k_reference_copy_us (0, vec, 1, 5, 21, 10, MS_K_HOST_REUSED, err, sizeof err);
      double t_d2h = ms_k_reference_copy_us (0, vec, 0, 5, 21, 10, MS_K_HOST_REUSED, err, sizeof err);
      ref_h2d[r] = vec / t_h2d * 1e-3;
      ref_d2h[r] = vec / t_d2h * 1e-3;
      MsSweep sweep;
      bench_one_cell_sweep (&sweep, MS_MODE_PINNED, e, 21);
      MsResults *res = NULL;
      if (ms_sweep_run (&sweep, backend, NULL, NULL, NULL, &res, err, sizeof err) != MS_RUN_OK) {
        printf ("sweep failed: %s\n", err);
        return 1;
      }
      const MsCell *c = ms_results_find (res, MS_MODE_PINNED, e);
      ms_h2d[r] = c->stats.h2d_gbps;
      ms_d2h[r] = c->stats.d2h_gbps;
      st_h2d[r] = ms_cell_copy_gbps (c, true);
      st_d2h[r] = ms_cell_copy_gbps (c, false);
      ms_results_free (res);
    }
    int n = rounds < 16 ? rounds : 16;
    double rh = ms_median (ref_h2d, n), rd = ms_median (ref_d2h, n);
    double mh = ms_median (ms_h2d, n), md = ms_median (ms_d2h, n);
    double sh = ms_median (st_h2d, n), sd = ms_median (st_d2h, n);
    printf ("2^%-4d %-4s %12.2f %12.2f %8.3f %12.2f %8.3f\n", e, "h2d", rh, mh, mh / rh, sh,
            sh / rh);
    printf ("2^%-4d %-4s %12.2f %12.2f %8.3f %12.2f %8.3f\n", e, "d2h", rd, md, md / rd, sd,
            sd / rd);
    worst_steady = fmin (worst_steady, fmin (sh / rh, sd / rd));
  }
  printf ("%s: steady-state copy throughput >= 0.98 of the reference loop (worst %.3f)\n",
          worst_steady >= 0.98 ? "PASS" : "FAIL", worst_steady);
  return 0;
}

static void
reference_variants (void)
{
  char err[512];
  /* Where a gap comes from: one copy per event pair, and a fresh pinned
   * buffer per sample, against the reference loop. */
  printf ("\nreference variants at 2^20 (GB/s): loop of 10 | 1 copy per pair | 1 copy, fresh "
          "buffer | 1 copy, CPU memset before | 1 copy, CPU streaming-store fill before\n");
  for (int dir = 1; dir >= 0; dir--) {
    uint64_t vec = ms_exponent_bytes (20);
    double loop = ms_k_reference_copy_us (0, vec, dir, 5, 21, 10, MS_K_HOST_REUSED, err, sizeof err);
    double one = ms_k_reference_copy_us (0, vec, dir, 5, 21, 1, MS_K_HOST_REUSED, err, sizeof err);
    double fresh = ms_k_reference_copy_us (0, vec, dir, 5, 21, 1, MS_K_HOST_FRESH, err, sizeof err);
    double dirty = ms_k_reference_copy_us (0, vec, dir, 5, 21, 1, MS_K_HOST_CPU_WRITTEN, err, sizeof err);
    double stream = ms_k_reference_copy_us (0, vec, dir, 5, 21, 1, MS_K_HOST_CPU_STREAMED, err, sizeof err);
    printf ("  %s  %8.2f %8.2f %8.2f %8.2f %8.2f\n", dir ? "h2d" : "d2h", vec / loop * 1e-3,
            vec / one * 1e-3, vec / fresh * 1e-3, vec / dirty * 1e-3, vec / stream * 1e-3);
  }
}

/* What the budget does to the cells: how many stopped at it, their median
 * repetition count, and the median half-width of all cells' intervals. */
static void
print_cell_budget_effect (const MsResults *res)
{
  double reps[4096], halves[4096];
  int n_budget = 0, n_half = 0;
  for (size_t i = 0; i < res->n_cells && i < 4096; i++) {
    const MsCell *c = &res->cells[i];
    const MsStat *e = &c->stats.e2e;
    if (c->n_rounds > 0 && c->rounds[0].stop == MS_STOP_BUDGET)
      reps[n_budget++] = c->n_reps;
    if (e->ci_valid && e->median > 0)
      halves[n_half++] = 100.0 * fmax (e->median - e->ci_low, e->ci_high - e->median) / e->median;
  }
  printf ("    %d of %zu cells stopped at the budget (median %.0f repetitions);"
          " median interval half-width %.2f%%\n",
          n_budget, res->n_cells, ms_median (reps, n_budget), ms_median (halves, n_half));
}

static void
time_default_sweep (MsBackend *backend, int rounds, double cell_budget_ms)
{
  char err[512];
  /* 2. The default sweep, timed after CUDA is initialised (the device query
   * above created the context). */
  printf ("\ndefault sweep (11 sizes x all modes, 2 warm-up, the default repetition rule):\n");
  double walls[8];
  int n_walls = 0;
  for (int r = 0; r < rounds && r < 8; r++) {
    MsSweep sweep;
    ms_sweep_init_default (&sweep);
    if (cell_budget_ms > 0)
      sweep.cell_budget_ms = cell_budget_ms;
    MsResults *res = NULL;
    double t0 = ms_now_s ();
    MsRunStatus st = ms_sweep_run (&sweep, backend, NULL, NULL, NULL, &res, err, sizeof err);
    double wall = ms_now_s () - t0;
    int bad = 0;
    for (size_t i = 0; res && i < res->n_cells; i++)
      bad += res->cells[i].status != MS_CELL_OK;
    printf ("  round %d: %.3f s, status %d, %d cells not ok (cell budget %g ms)\n", r + 1, wall,
            st, bad, sweep.cell_budget_ms);
    if (res)
      print_cell_budget_effect (res);
    /* Per-mode share of the time: where do the seconds go? */
    if (r == 0 && res) {
      double per_mode[MS_MODE_COUNT] = { 0 };
      for (size_t i = 0; i < res->n_cells; i++) {
        const MsCell *c = &res->cells[i];
        for (size_t e = 0; e < c->n_events; e++)
          per_mode[c->mode] += c->events[e].host_us;
      }
      for (int m = 0; m < MS_MODE_COUNT; m++)
        printf ("    %-17s %8.1f ms of host time in timed reps\n", ms_mode_name (m),
                per_mode[m] * 1e-3);
    }
    walls[n_walls++] = wall;
    ms_results_free (res);
  }
  double wall = ms_median (walls, n_walls);
  printf ("default sweep wall time: median %.3f s over %d rounds\n", wall, n_walls);
  printf ("%s: default sweep under 3 s after CUDA initialisation (%.3f s)\n",
          wall < 3.0 ? "PASS" : "FAIL", wall);
}

/* 3. What one whole process of the command line spends, from its time
 * ledger: kind 0 the default sweep, 1 a compare-grade run's process (the
 * settings --grade gives one process). */
typedef struct {
  /* wall: fork to wait, the CUDA runtime's teardown at exit included;
   * whole: the ledger's exec to its exit handler (0: not said). */
  double wall, whole, cells, measured, per_mode[MS_MODE_COUNT];
} ProcessLedger;

static bool
ledger_value (const char *line, const char *label, double *out)
{
  const char *p = strstr (line, label);
  return p && sscanf (p + strlen (label), " %lf", out) == 1;
}

static bool
time_process (const char *memsweep, int kind, int round, ProcessLedger *pl)
{
  char log[64], prefix[64];
  snprintf (log, sizeof log, "/tmp/bench-ledger-%d-%d.txt", (int) getpid (), kind);
  snprintf (prefix, sizeof prefix, "/tmp/bench-ledger-%d-%d-%d", (int) getpid (), kind, round);
  char *const sweep[] = { (char *) memsweep, "run", "--quiet", "--out", prefix, NULL };
  char *const grade[] = { (char *) memsweep, "run", "--grade", "--processes", "1",
                          "--grade-target", "0", "--no-profile", "--quiet", "--out", prefix, NULL };
  /* Or the child's freopen writes out what this process had buffered. */
  fflush (NULL);
  double t0 = ms_now_s ();
  pid_t pid = fork ();
  if (pid == 0) {
    setenv ("MEMSWEEP_TIME_LEDGER", "cells", 1);
    if (!freopen (log, "w", stderr) || !freopen ("/dev/null", "w", stdout))
      _exit (127);
    execv (memsweep, kind ? grade : sweep);
    _exit (127);
  }
  int status = 0;
  if (pid < 0 || waitpid (pid, &status, 0) != pid || !WIFEXITED (status) ||
      WEXITSTATUS (status) != 0)
    return false;
  memset (pl, 0, sizeof *pl);
  pl->wall = ms_now_s () - t0;
  FILE *f = fopen (log, "r");
  char line[512], mode[64];
  double rec = 0, instr = 0, wall_ms;
  while (f && fgets (line, sizeof line, f)) {
    int e, reps;
    if (sscanf (line, "ledger cell: %63s %d reps %d stop %*s wall %lf", mode, &e, &reps,
                &wall_ms) == 4) {
      MsMode m;
      if (ms_mode_from_name (mode, &m))
        pl->per_mode[m] += wall_ms * 1e-3;
    }
    ledger_value (line, "whole process", &pl->whole);
    ledger_value (line, "cells (backend run)", &pl->cells);
    ledger_value (line, "of which recorded e2e reps", &rec);
    ledger_value (line, "of which instrumented reps", &instr);
  }
  if (f)
    fclose (f);
  pl->measured = rec + instr;
  char rm[256];
  snprintf (rm, sizeof rm, "rm -f %s-* %s", prefix, log);
  return system (rm) == 0 && pl->cells > 0;
}

static void
time_processes (const char *memsweep, int rounds)
{
  static const char *const kinds[] = { "default sweep", "grade process" };
  ProcessLedger pl[2][16];
  int n[2] = { 0, 0 };
  /* Interleaved, so that the host's drift reaches both kinds. */
  for (int r = 0; r < rounds && r < 16; r++)
    for (int k = 0; k < 2; k++) {
      if (!time_process (memsweep, k, r, &pl[k][n[k]])) {
        printf ("  %s, process %d: failed\n", kinds[k], r + 1);
        continue;
      }
      const ProcessLedger *p = &pl[k][n[k]++];
      printf ("  %s, process %d: %.3f s whole (ledger %.3f s exec to exit), cells %.3f s, "
              "timed repetitions %.3f s (%.0f%%)\n",
              kinds[k], r + 1, p->wall, p->whole, p->cells, p->measured,
              100 * p->measured / p->wall);
    }
  for (int k = 0; k < 2; k++) {
    double whole[16], share[16], fixed[16], mode_s[16];
    for (int i = 0; i < n[k]; i++) {
      whole[i] = pl[k][i].wall;
      share[i] = pl[k][i].measured / pl[k][i].wall;
      fixed[i] = pl[k][i].wall - pl[k][i].cells;
    }
    printf ("%s, %d processes: whole median %.3f s, timed repetitions %.0f%% of it, fixed cost "
            "(all but the cells) %.3f s; each mode's cells (median s):",
            kinds[k], n[k], ms_median (whole, n[k]), 100 * ms_median (share, n[k]),
            ms_median (fixed, n[k]));
    for (int m = 0; m < MS_MODE_COUNT; m++) {
      for (int i = 0; i < n[k]; i++)
        mode_s[i] = pl[k][i].per_mode[m];
      printf (" %s %.3f", ms_mode_name (m), ms_median (mode_s, n[k]));
    }
    printf ("\n");
  }
}

int
main (int argc, char **argv)
{
  int rounds = argc > 1 ? atoi (argv[1]) : 3;
  if (argc > 3 && strcmp (argv[2], "--processes") == 0) {
    time_processes (argv[3], rounds);
    return 0;
  }
  MsDeviceInfo info;
  MsBackend *backend = bench_open_device (&info, stdout);
  if (!backend)
    return 77;
  printf ("device: %s (cc %d.%d), PCIe gen%d x%d\n", info.name, info.cc_major, info.cc_minor,
          info.pcie_gen, info.pcie_width);

  /* --sweep-only: the default sweep's wall time alone (tools/gpu.sh spread
   * times it under each experiment switch). */
  bool sweep_only = argc > 2 && strcmp (argv[2], "--sweep-only") == 0;
  if (!sweep_only && compare_with_reference (backend, rounds) != 0)
    return 1;
  if (!sweep_only)
    reference_variants ();
  double cell_budget_ms = argc > 4 && strcmp (argv[3], "--cell-budget") == 0 ? atof (argv[4]) : 0;
  time_default_sweep (backend, rounds, cell_budget_ms);
  ms_backend_free (backend);
  return 0;
}
