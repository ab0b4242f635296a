/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench-plain: memsweep's end-to-end time against a plain program doing the
 * same work (bench-plain-seq.cu), in one process on one GPU. For every GPU
 * mode at 2^10, 2^14, 2^17 and 2^20 elements per vector, in several
 * rounds, a block of plain repetitions and a one-cell memsweep sweep with
 * as many repetitions alternate (which goes first alternates too, so that
 * drift hits both), with a second plain block as a control; each round
 * gives a ratio of the medians, and the table shows the median of each
 * side and of the ratios, the rounds' range, and the control's. Target: ratio <= 1.05
 * (printed, not asserted). Usage: bench-plain [ROUNDS (default 7) [REPS (default 51)]].
 *
 * bench-plain --cells REPS: the yardstick of the self-comparison benchmark
 * (bench/self-compare.sh): the plain program alone over the default
 * sweep's GPU cells, one block of REPS repetitions each, printed as CSV
 * lines "mode,exponent,median_us", so that its medians' repeatability
 * between processes can be set beside memsweep's. bench-plain --cells
 * SUMMARY.csv: each cell with as many repetitions as that memsweep run
 * kept for it (at least 6), so that both are measured the same way. */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench-fixture.h"
#include "bench-plain.h"
#include "files/ms-csv-io.h"
#include "model/ms-results.h"
#include "model/ms-stats.h"
#include "ms-modes.h"
#include "run/ms-runner.h"

#define MAX_ROUNDS 16
#define MAX_REPS 1000
#define PLAIN_WARMUP 3

static const int exps[] = { 10, 14, 17, 20 };
/* The GPU modes the plain program has a sequence for, pinned first. */
static const MsMode modes[] = {
  MS_MODE_PINNED,  MS_MODE_PAGEABLE, MS_MODE_REGISTERED,       MS_MODE_WRITE_COMBINED,
  MS_MODE_ZERO_COPY, MS_MODE_UVA,    MS_MODE_MANAGED,          MS_MODE_MANAGED_PREFETCH,
  MS_MODE_STREAMS, MS_MODE_DEVICE,
};

/* One memsweep cell as `memsweep run` would measure it, but with a fixed
 * repetition count: its end-to-end median, or < 0 with err. */
static double
memsweep_median (MsBackend *backend, MsMode mode, int e, int reps, char *err, size_t errlen)
{
  MsSweep sweep;
  bench_one_cell_sweep (&sweep, mode, e, reps);
  MsResults *res = NULL;
  double median = -1;
  if (ms_sweep_run (&sweep, backend, NULL, NULL, NULL, &res, err, errlen) != MS_RUN_OK) {
    ms_results_free (res);
    return -1;
  }
  const MsCell *c = ms_results_find (res, mode, e);
  if (c && c->status == MS_CELL_OK)
    median = c->stats.e2e.median;
  else
    snprintf (err, errlen, "%s", c ? c->message : "no cell");
  ms_results_free (res);
  return median;
}

static double
plain_median (const MsSweep *defaults, MsMode mode, int e, int reps, char *err, size_t errlen)
{
  double times[MAX_REPS];
  if (bench_plain_run (defaults->device, ms_mode_name (mode), 1ull << e, defaults->streams,
                       defaults->order == MS_ORDER_BREADTH_FIRST, PLAIN_WARMUP, reps, times, err,
                       errlen) != 0)
    return -1;
  return ms_median (times, reps);
}

static void
ratio_range (const double *ratio, int rounds, double *lo, double *hi)
{
  *lo = *hi = ratio[0];
  for (int r = 1; r < rounds; r++) {
    *lo = ratio[r] < *lo ? ratio[r] : *lo;
    *hi = ratio[r] > *hi ? ratio[r] : *hi;
  }
}

/* One (mode, size): rounds of three blocks, the plain program, memsweep
 * and the plain program again as a control (the first and the last swap
 * places every other round, so that drift hits both sides). The control's
 * ratio to the first plain block is the yardstick's own noise: a
 * memsweep ratio inside the control's range cannot be told from it. */
static int
compare_cell (MsBackend *backend, const MsSweep *defaults, MsMode mode, int e, int rounds,
              int reps, double *worst, int *noise_bound)
{
  char err[512] = "";
  double plain[MAX_ROUNDS], ms[MAX_ROUNDS], ctl[MAX_ROUNDS], ratio[MAX_ROUNDS],
    noise[MAX_ROUNDS];
  for (int r = 0; r < rounds; r++) {
    double *order[3] = { r % 2 ? &ctl[r] : &plain[r], &ms[r], r % 2 ? &plain[r] : &ctl[r] };
    for (int k = 0; k < 3; k++) {
      bool plain_now = k != 1;
      *order[k] = plain_now ? plain_median (defaults, mode, e, reps, err, sizeof err)
                            : memsweep_median (backend, mode, e, reps, err, sizeof err);
      if (*order[k] < 0) {
        printf ("%-17s 2^%-3d %s failed: %s\n", ms_mode_name (mode), e,
                plain_now ? "plain" : "memsweep", err);
        return -1;
      }
    }
    ratio[r] = ms[r] / plain[r];
    noise[r] = ctl[r] / plain[r];
  }
  double q = ms_median (ratio, rounds), lo, hi, nlo, nhi;
  ratio_range (ratio, rounds, &lo, &hi);
  ratio_range (noise, rounds, &nlo, &nhi);
  bool within = q <= 1.05, in_noise = !within && q <= nhi;
  printf ("%-17s 2^%-3d %12.2f %12.2f %8.3f %6.3f-%-6.3f %8.3f %6.3f-%-6.3f %s\n",
          ms_mode_name (mode), e, ms_median (plain, rounds), ms_median (ms, rounds), q, lo, hi,
          ms_median (noise, rounds), nlo, nhi,
          within ? "" : in_noise ? "over 1.05, inside the control's range" : "over 1.05");
  fflush (stdout);
  if (q > *worst)
    *worst = q;
  *noise_bound += in_noise;
  return within ? 1 : 0;
}

/* The plain blocks run on the CPU memsweep measures on: the first sweep
 * pins its thread and records the CPU; the process keeps to it. */
static void
pin_like_memsweep (MsBackend *backend)
{
  char err[256];
  MsSweep sweep;
  bench_one_cell_sweep (&sweep, MS_MODE_DEVICE, 10, 0);
  MsResults *res = NULL;
  if (ms_sweep_run (&sweep, backend, NULL, NULL, NULL, &res, err, sizeof err) == MS_RUN_OK &&
      res->device.pinned) {
    cpu_set_t one;
    CPU_ZERO (&one);
    CPU_SET (res->device.measuring_cpu, &one);
    if (sched_setaffinity (0, sizeof one, &one) == 0)
      printf ("measuring CPU: %d (memsweep's)\n", res->device.measuring_cpu);
  }
  ms_results_free (res);
}

/* A cell's repetitions: as many as memsweep's run kept, where one is given. */
static int
cell_reps (const MsResults *like, MsMode mode, int e, int reps)
{
  const MsCell *c = like ? ms_results_find (like, mode, e) : NULL;
  /* A summary file keeps the count in the end-to-end statistics. */
  int n = c ? (c->n_reps > c->stats.e2e.n ? c->n_reps : c->stats.e2e.n) : 0;
  if (n <= 0)
    return reps > 0 ? reps : 6;
  return n < 6 ? 6 : n > MAX_REPS ? MAX_REPS : n;
}

/* The plain program over every GPU cell of the default sweep. */
static int
plain_cells (MsBackend *backend, const MsDeviceInfo *info, int reps, const MsResults *like)
{
  MsSweep defaults;
  ms_sweep_init_default (&defaults);
  printf ("mode,exponent,median_us\n");
  for (size_t m = 0; m < sizeof modes / sizeof modes[0]; m++) {
    char why[256];
    if (!ms_backend_supports (backend, info, modes[m], why, sizeof why))
      continue;
    for (int e = defaults.min_exp; e <= defaults.max_exp; e += defaults.step) {
      char err[512] = "";
      double median = plain_median (&defaults, modes[m], e, cell_reps (like, modes[m], e, reps),
                                    err, sizeof err);
      if (median < 0) {
        fprintf (stderr, "%s 2^%d failed: %s\n", ms_mode_name (modes[m]), e, err);
        return 1;
      }
      printf ("%s,%d,%.3f\n", ms_mode_name (modes[m]), e, median);
    }
  }
  return 0;
}

int
main (int argc, char **argv)
{
  if (argc == 3 && strcmp (argv[1], "--cells") == 0) {
    char err[512] = "";
    char *end;
    long reps = strtol (argv[2], &end, 10);
    MsResults *like = *end ? ms_csv_read_summary (argv[2], err, sizeof err) : NULL;
    if ((*end && !like) || (!*end && (reps < 6 || reps > MAX_REPS))) {
      fprintf (stderr, "usage: bench-plain --cells REPS (6-%d) | SUMMARY.csv %s\n", MAX_REPS,
               err);
      return 2;
    }
    MsDeviceInfo info;
    MsBackend *backend = bench_open_device (&info, stderr);
    if (!backend) {
      ms_results_free (like);
      return 77;
    }
    pin_like_memsweep (backend);
    int rc = plain_cells (backend, &info, (int) reps, like);
    ms_results_free (like);
    ms_backend_free (backend);
    return rc;
  }
  int rounds = argc > 1 ? atoi (argv[1]) : 7;
  int reps = argc > 2 ? atoi (argv[2]) : 51;
  if (rounds < 1 || rounds > MAX_ROUNDS || reps < 6 || reps > MAX_REPS) {
    fprintf (stderr, "usage: bench-plain [ROUNDS (1-%d) [REPS (6-%d)]]\n", MAX_ROUNDS,
             MAX_REPS);
    return 2;
  }
  MsDeviceInfo info;
  MsBackend *backend = bench_open_device (&info, stdout);
  if (!backend)
    return 77;
  MsSweep defaults;
  ms_sweep_init_default (&defaults);
  printf ("device: %s (cc %d.%d); %d rounds of %d repetitions per side; streams: %d, %s\n",
          info.name, info.cc_major, info.cc_minor, rounds, reps, defaults.streams,
          defaults.order == MS_ORDER_BREADTH_FIRST ? "breadth-first" : "depth-first");
  pin_like_memsweep (backend);
  printf ("\n%-17s %-5s %12s %12s %8s %13s %8s %13s\n", "mode", "size", "plain us",
          "memsweep us", "ratio", "rounds' range", "control", "control range");
  int within = 0, total = 0, noise_bound = 0;
  double worst = 0;
  for (size_t m = 0; m < sizeof modes / sizeof modes[0]; m++) {
    char why[256];
    if (!ms_backend_supports (backend, &info, modes[m], why, sizeof why)) {
      printf ("%-17s not supported here: %s\n", ms_mode_name (modes[m]), why);
      continue;
    }
    for (size_t i = 0; i < sizeof exps / sizeof exps[0]; i++) {
      int ok = compare_cell (backend, &defaults, modes[m], exps[i], rounds, reps, &worst,
                             &noise_bound);
      within += ok > 0;
      total++;
    }
  }
  printf ("\n%d of %d cells within ratio <= 1.05 (worst %.3f; the median over rounds of "
          "memsweep's median / the plain median)\n",
          within, total, worst);
  printf ("%d of the %d others lie inside the range of the plain program against itself "
          "(control: a second plain block in the same round)\n",
          noise_bound, total - within);
  ms_backend_free (backend);
  return 0;
}
