/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-gpu.c: the gpu suite. Every mode at 2^10, 2^16 and 2^20 on a real
 * device, verified, with plausibility checks; the latch-timed kernel, the
 * steady-state copies, the GPU state per cell and rounds, the PCIe link
 * under load against the device's maximum. Exits 77 (skip)
 * without one. */
#include <pthread.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "memsweep.h"
#include "model/ms-results.h"
#include "model/ms-rounds.h"
#include "ms-health.h"
#include "ms-kernels.h"
#include "ms-modes.h"
#include "ms-sweep.h"
#include "run/ms-backend.h"
#include "run/ms-runner.h"

/* Device-only time of the add kernel at 2^10 (12 KiB touched): an H100
 * does it in about 2 us; 8 us leaves room for any current GPU. */
#define KERNEL_2_10_BOUND_US 8.0

static int failures;

#define CHECK(cond, ...)                                                      \
  do {                                                                        \
    if (!(cond)) {                                                            \
      failures++;                                                             \
      printf ("FAIL %s:%d: ", __FILE__, __LINE__);                            \
      printf (__VA_ARGS__);                                                   \
      printf ("\n");                                                          \
    }                                                                         \
  } while (0)

static MsResults *
run (MsBackend *backend, int min_exp, int max_exp, int step, MsIssueOrder order)
{
  MsSweep sweep;
  char err[512];
  MsResults *results = NULL;
  ms_sweep_init_default (&sweep);
  sweep.min_exp = min_exp;
  sweep.max_exp = max_exp;
  sweep.step = step;
  sweep.reps = 5;
  sweep.reps_rule = MS_REPS_FIXED;
  sweep.order = order;
  MsRunStatus st = ms_sweep_run (&sweep, backend, NULL, NULL, NULL, &results, err, sizeof err);
  CHECK (st == MS_RUN_OK, "sweep status %d: %s", st, err);
  return results;
}

/* Plain repetitions do the instrumented ones' work without the latch and
 * the events: the plain median's interval may not lie wholly above the
 * instrumented repetitions' (min..max below 6 repetitions), so a cell
 * whose overhead is within the noise passes and one where the plain
 * sequence is really slower fails. */
static void
check_plain_not_slower (const MsCell *c)
{
  double ratio = 0, diff = 0;
  CHECK (ms_cell_instr_overhead (c, &ratio, &diff), "%s 2^%d: no instrumented repetitions",
         ms_mode_name (c->mode), c->exponent);
  if (c->stats.e2e_instr.n == 0)
    return;
  /* Judged where the plain sequence is the instrumented one minus its
   * timers. Printed, not judged:
   * - the CPU baseline: one clock read apart, the host's noise decides (an
   *   H100, 2026-11-23: host 2^20 plain 1041.6 us against 921.8 us);
   * - managed memory: the latch holds the stream while the prefetches and
   *   the kernel are queued, which changes when the driver migrates pages,
   *   and the instrumented sequence can be the faster one (managed-prefetch
   *   2^20 on an H200: plain 1013.8 us, instrumented 644.4 us; managed 2^16
   *   on an H100: 507.0 against 286.4 us). The plain figure is the one a
   *   program sees (bench-plain agrees with it). */
  bool judged = c->mode != MS_MODE_HOST && c->mode != MS_MODE_MANAGED &&
                c->mode != MS_MODE_MANAGED_PREFETCH;
  printf ("%-16s 2^%-2d plain %9.1f us, instrumented %9.1f us (%.2fx, %+.1f us)\n",
          ms_mode_name (c->mode), c->exponent, c->stats.e2e.median, c->stats.e2e_instr.median,
          ratio, diff);
  /* Slower only where the two intervals lie apart, with a 2% margin: the
   * plain median alone against the other's interval failed on the host's
   * staging noise (pageable 2^20 on an H100: 2114.0 us against a high of
   * 2110.6 us; on 2026-11-23 1594 us against 1542 us, then passing twice).
   * Timers inside the plain window, the fault this guards against, would
   * cost 10-100% at small sizes and move every repetition. */
  CHECK (!judged || c->stats.e2e.ci_low <= 1.02 * c->stats.e2e_instr.ci_high,
         "%s 2^%d: plain e2e %.1f us (interval from %.1f) above the instrumented one's "
         "interval (median %.1f, high %.1f)",
         ms_mode_name (c->mode), c->exponent, c->stats.e2e.median, c->stats.e2e.ci_low,
         c->stats.e2e_instr.median, c->stats.e2e_instr.ci_high);
}

static void
check_cells (const MsResults *r)
{
  for (size_t i = 0; i < r->n_cells; i++) {
    const MsCell *c = &r->cells[i];
    bool allowed_unsupported =
      c->status == MS_CELL_UNSUPPORTED && c->mode == MS_MODE_MANAGED_PREFETCH &&
      !r->device.concurrent_managed_access;
    CHECK (c->status == MS_CELL_OK || allowed_unsupported, "%s 2^%d: %s: %s",
           ms_mode_name (c->mode), c->exponent, ms_cell_status_name (c->status), c->message);
    if (c->status != MS_CELL_OK)
      continue;
    CHECK (c->n_reps == 5, "%s 2^%d kept %d reps", ms_mode_name (c->mode), c->exponent, c->n_reps);
    CHECK (c->stats.e2e.median > 0, "%s 2^%d e2e %.3f", ms_mode_name (c->mode), c->exponent,
           c->stats.e2e.median);
    int gpu_events = 0;
    for (size_t e = 0; e < c->n_events; e++) {
      const MsEvent *ev = &c->events[e];
      if (ev->lane == MS_LANE_HOST)
        continue;
      gpu_events++;
      CHECK (ev->gpu_us > 0, "%s 2^%d %s: GPU time %.3f us", ms_mode_name (c->mode),
             c->exponent, ms_phase_name (ev->phase), ev->gpu_us);
    }
    if (c->mode != MS_MODE_HOST)
      CHECK (gpu_events > 0, "%s has no GPU-timed events", ms_mode_name (c->mode));
    check_plain_not_slower (c);
  }
}

static void
check_plausible_2_20 (const MsResults *r)
{
  const MsCell *pageable = ms_results_find (r, MS_MODE_PAGEABLE, 20);
  const MsCell *pinned = ms_results_find (r, MS_MODE_PINNED, 20);
  const MsCell *streams = ms_results_find (r, MS_MODE_STREAMS, 20);
  if (pageable && pinned && pageable->status == MS_CELL_OK && pinned->status == MS_CELL_OK) {
    double tp = pageable->stats.phase[MS_PHASE_H2D].median;
    double tq = pinned->stats.phase[MS_PHASE_H2D].median;
    printf ("2^20 h2d: pageable %.1f us (%.2f GB/s), pinned %.1f us (%.2f GB/s)\n", tp,
            pageable->stats.h2d_gbps, tq, pinned->stats.h2d_gbps);
    CHECK (tq < tp, "pinned h2d (%.1f us) not faster than pageable (%.1f us)", tq, tp);
  } else {
    CHECK (false, "pageable or pinned missing at 2^20");
  }
  if (streams && streams->status == MS_CELL_OK) {
    printf ("2^20 streams: e2e %.1f us, sum of parts %.1f us\n", streams->stats.e2e.median,
            streams->stats.parts_sum.median);
    CHECK (streams->stats.e2e.median < streams->stats.parts_sum.median,
           "streams e2e %.1f not below the sum of its parts %.1f", streams->stats.e2e.median,
           streams->stats.parts_sum.median);
  } else {
    CHECK (false, "streams missing at 2^20");
  }
}

/* The latch keeps the launch out of the kernel's time: below a sane bound,
 * and below the event pair around the launch, measured in the same run. */
static void
check_latched_kernel (const MsResults *small)
{
  double latched = 0, unlatched = 0, launch = 0;
  char err[256] = "";
  int rc = ms_k_kernel_probe (0, 1u << 10, 51, &latched, &unlatched, &launch, err, sizeof err);
  CHECK (rc == 0, "kernel probe: %s", err);
  printf ("2^10 kernel: latched %.2f us, events around the launch %.2f us, launch call %.2f us\n",
          latched, unlatched, launch);
  CHECK (latched > 0 && latched < KERNEL_2_10_BOUND_US, "latched kernel %.2f us not in (0, %g)",
         latched, KERNEL_2_10_BOUND_US);
  CHECK (latched < unlatched, "latched kernel %.2f us not below the old pair's %.2f us", latched,
         unlatched);
  const MsCell *dev = small ? ms_results_find (small, MS_MODE_DEVICE, 10) : NULL;
  if (dev && dev->status == MS_CELL_OK) {
    double k = dev->stats.phase[MS_PHASE_KERNEL].median;
    double l = dev->stats.phase[MS_PHASE_LAUNCH].median;
    printf ("2^10 device cell: kernel %.2f us, launch %.2f us (%d launch samples)\n", k, l,
            dev->stats.phase[MS_PHASE_LAUNCH].n);
    CHECK (k > 0 && k < KERNEL_2_10_BOUND_US, "device 2^10 kernel %.2f us", k);
    CHECK (dev->stats.phase[MS_PHASE_LAUNCH].n == ms_cell_timeline_reps (dev, NULL, 0), "launch phase in every instrumented rep");
  } else {
    CHECK (false, "device 2^10 missing");
  }
}

/* Steady-state copies: several back-to-back copies deliver at least what
 * the pipeline's single copy (two for h2d) does. */
/* The fastest steady-state burst of a cell in one direction, GB/s. */
static double
best_burst_gbps (const MsCell *c, bool to_device)
{
  double best = 0;
  for (int i = 0; i < c->n_copies; i++)
    if (c->copies[i].to_device == to_device && c->copies[i].gpu_us > 0)
      best = fmax (best, c->copies[i].bytes / c->copies[i].gpu_us * 1e-3);
  return best;
}

/* The single copy's rate at the slow end of its median's 95% interval. */
static double
slow_end_gbps (const MsCell *c, MsPhase phase, double median_gbps)
{
  const MsStat *st = &c->stats.phase[phase];
  return st->ci_high > 0 ? median_gbps * st->median / st->ci_high : median_gbps;
}

static void
check_steady_copies (const MsResults *r)
{
  const MsMode modes[] = { MS_MODE_PINNED, MS_MODE_REGISTERED, MS_MODE_WRITE_COMBINED,
                           MS_MODE_PAGEABLE };
  for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++) {
    const MsCell *c = ms_results_find (r, modes[i], 20);
    if (!c || c->status != MS_CELL_OK) {
      CHECK (false, "%s 2^20 missing", ms_mode_name (modes[i]));
      continue;
    }
    double sh = ms_cell_copy_gbps (c, true), sd = ms_cell_copy_gbps (c, false);
    printf ("2^20 %-14s copy throughput h2d %.2f GB/s (single %.2f), d2h %.2f (single %.2f), "
            "%d bursts\n",
            ms_mode_name (modes[i]), sh, c->stats.h2d_gbps, sd, c->stats.d2h_gbps, c->n_copies);
    CHECK (c->n_copies == 2 * MS_COPY_SAMPLES, "%s: %d copy bursts", ms_mode_name (modes[i]),
           c->n_copies);
    /* Bursts skip the single copy's start-up, so they are not slower.
     * Intervals, not one sample each (PITFALLS 30: this check once failed
     * on a single low median): the fastest burst against the slow end of
     * the single copy's interval, with 3% for the noise between them. */
    if (modes[i] == MS_MODE_PINNED) {
      double bh = best_burst_gbps (c, true), bd = best_burst_gbps (c, false);
      double lh = slow_end_gbps (c, MS_PHASE_H2D, c->stats.h2d_gbps);
      double ld = slow_end_gbps (c, MS_PHASE_D2H, c->stats.d2h_gbps);
      CHECK (bh >= 0.97 * lh && bd >= 0.97 * ld,
             "pinned steady copy below the single copy: best burst h2d %.2f < %.2f or d2h %.2f "
             "< %.2f (the single copy's slow end)", bh, lh, bd, ld);
    }
  }
  const MsCell *z = ms_results_find (r, MS_MODE_ZERO_COPY, 20);
  CHECK (!z || z->n_copies == 0, "zero-copy has no copies of its own");
}

/* Clocks, temperature, pstate and throttle reasons per cell when NVML is
 * there; the warm-up reached a clock; the thread was pinned. */
static void
check_gpu_state (const MsResults *r)
{
  const MsDeviceInfo *d = &r->device;
  printf ("warm-up: %.0f ms to %d MHz; measuring thread on CPU %d (pinned %d, near %s)\n",
          d->warmup_ms, d->steady_sm_mhz, d->measuring_cpu, d->pinned,
          d->gpu_near_cpus[0] ? d->gpu_near_cpus : "unknown");
  CHECK (d->pinned, "the measuring thread was not pinned");
  CHECK (d->warmup_ms > 0, "no warm-up");
  int with_state = 0, gpu_cells = 0, flagged = 0;
  for (size_t i = 0; i < r->n_cells; i++) {
    const MsCell *c = &r->cells[i];
    if (c->status != MS_CELL_OK || !ms_mode_uses_gpu (c->mode))
      continue;
    gpu_cells++;
    const MsCellRound *round = &c->rounds[0];
    if (c->n_rounds > 0 && round->start.valid && round->end.valid && round->start.sm_mhz > 0 &&
        round->start.mem_mhz > 0 && round->start.pstate >= 0)
      with_state++;
    flagged += ms_cell_state_flags (c) != 0;
  }
  if (d->steady_sm_mhz == 0) {
    printf ("SKIP clocks: NVML did not answer\n");
    return;
  }
  printf ("GPU state recorded for %d of %d GPU cells, %d flagged\n", with_state, gpu_cells,
          flagged);
  CHECK (with_state == gpu_cells && gpu_cells > 0, "state recorded for %d of %d cells",
         with_state, gpu_cells);
}

/* The PCIe link read under load, right after each cell's last copy: known
 * for every GPU cell and equal to the device's maximum on a healthy
 * machine (an idle link trains down, so this is the reading that counts).
 * The PCIe counters are read or said to be unreadable, never left unset. */
static void
check_link_under_load (const MsResults *r)
{
  const MsDeviceInfo *d = &r->device;
  char sentence[1024];
  ms_health_describe (r, sentence, sizeof sentence);
  printf ("%s\n", sentence);
  if (d->pcie_gen_max == 0 || d->pcie_width_max == 0) {
    printf ("SKIP link under load: NVML did not give the link's maximum\n");
    return;
  }
  int gpu_cells = 0, at_max = 0;
  for (size_t i = 0; i < r->n_cells; i++) {
    const MsCell *c = &r->cells[i];
    int gen, width;
    if (c->status != MS_CELL_OK || !ms_mode_uses_gpu (c->mode))
      continue;
    gpu_cells++;
    bool known = ms_cell_link_under_load (c, &gen, &width);
    CHECK (known, "%s 2^%d: no link read under load", ms_mode_name (c->mode), c->exponent);
    if (!known)
      continue;
    at_max += gen == d->pcie_gen_max && width == d->pcie_width_max;
    CHECK (gen == d->pcie_gen_max && width == d->pcie_width_max,
           "%s 2^%d: link under load gen%d x%d, the device's maximum gen%d x%d",
           ms_mode_name (c->mode), c->exponent, gen, width, d->pcie_gen_max, d->pcie_width_max);
  }
  printf ("link under load at its maximum gen%d x%d in %d of %d GPU cells\n", d->pcie_gen_max,
          d->pcie_width_max, at_max, gpu_cells);
  CHECK (gpu_cells > 0, "no GPU cells");
  CHECK (r->aer_correctable.state != MS_COUNTER_UNKNOWN && r->replays.state != MS_COUNTER_UNKNOWN,
         "PCIe counters neither read nor said unreadable");
}

/* Two rounds: every cell twice, repetitions pooled and numbered. */
static void
check_rounds (MsBackend *backend)
{
  MsSweep sweep;
  char err[512];
  MsResults *r = NULL;
  ms_sweep_init_default (&sweep);
  sweep.min_exp = sweep.max_exp = 12;
  sweep.reps = 3;
  sweep.reps_rule = MS_REPS_FIXED;
  sweep.rounds = 2;
  MsRunStatus st = ms_sweep_run (&sweep, backend, NULL, NULL, NULL, &r, err, sizeof err);
  CHECK (st == MS_RUN_OK, "rounds sweep: %s", err);
  for (size_t i = 0; r && i < r->n_cells; i++) {
    const MsCell *c = &r->cells[i];
    if (c->status == MS_CELL_OK)
      CHECK (c->n_reps == 6 && c->n_rounds == 2 && c->rounds[1].first_rep == 3,
             "%s: %d reps in %d rounds", ms_mode_name (c->mode), c->n_reps, c->n_rounds);
  }
  ms_results_free (r);
}

typedef struct {
  MsBackend *backend;
  atomic_int cancel;
  MsRunStatus status;
  MsResults *results;
} CancelJob;

/* The cancel comes once the sweep has finished a cell (a state, not a
 * time: a fast GPU could finish the sweep within any fixed delay). */
static void
cancel_after_first_cell (int index, int n, const MsCell *cell, void *data)
{
  CancelJob *job = data;
  (void) index, (void) n, (void) cell;
  atomic_store (&job->cancel, 1);
}

static void *
cancel_worker (void *data)
{
  CancelJob *job = data;
  MsSweep sweep;
  char err[256];
  ms_sweep_init_default (&sweep);
  sweep.min_exp = 18;
  sweep.max_exp = 26;
  job->status = ms_sweep_run (&sweep, job->backend, cancel_after_first_cell, job, &job->cancel,
                              &job->results, err, sizeof err);
  return NULL;
}

/* Cancels a real sweep part-way and checks the device memory comes back. */
static void
check_cancel (MsBackend *backend)
{
  char err[256] = "";
  ms_k_device_free_memory (0, err, sizeof err);
  uint64_t before = ms_k_device_free_memory (0, err, sizeof err);
  CancelJob job = { .backend = backend };
  pthread_t thread;
  pthread_create (&thread, NULL, cancel_worker, &job);
  pthread_join (thread, NULL);
  uint64_t after = ms_k_device_free_memory (0, err, sizeof err);
  printf ("cancel: status %d after %zu cells; device free %llu -> %llu bytes\n", job.status,
          job.results ? job.results->n_cells : 0, (unsigned long long) before,
          (unsigned long long) after);
  CHECK (job.status == MS_RUN_CANCELLED, "sweep not cancelled (status %d)", job.status);
  /* The driver may round to its allocation granularity: allow 2 MiB. */
  CHECK (after + (2u << 20) >= before, "device memory not returned: %llu -> %llu",
         (unsigned long long) before, (unsigned long long) after);
  ms_results_free (job.results);
}

int
main (void)
{
  MsBackend *backend = ms_backend_new_system ();
  MsDeviceInfo info;
  if (!ms_backend_query_device (backend, 0, &info)) {
    printf ("SKIP: no usable CUDA device: %s\n", info.error);
    ms_backend_free (backend);
    return 77;
  }
  printf ("device: %s, cc %d.%d\n", info.name, info.cc_major, info.cc_minor);

  MsResults *small = run (backend, 10, 16, 6, MS_ORDER_DEPTH_FIRST);
  MsResults *large = run (backend, 20, 20, 1, MS_ORDER_DEPTH_FIRST);
  MsResults *breadth = run (backend, 20, 20, 1, MS_ORDER_BREADTH_FIRST);
  if (small)
    check_cells (small);
  if (large) {
    check_cells (large);
    check_plausible_2_20 (large);
    check_steady_copies (large);
    check_gpu_state (large);
    check_link_under_load (large);
  }
  check_latched_kernel (small);
  check_rounds (backend);
  if (breadth) {
    check_cells (breadth);
    const MsCell *s = ms_results_find (breadth, MS_MODE_STREAMS, 20);
    if (s && s->status == MS_CELL_OK)
      printf ("2^20 streams breadth-first: e2e %.1f us, sum of parts %.1f us\n",
              s->stats.e2e.median, s->stats.parts_sum.median);
  }
  check_cancel (backend);

  ms_results_free (small);
  ms_results_free (large);
  ms_results_free (breadth);
  ms_backend_free (backend);
  printf ("%s: %d failure%s\n", failures ? "FAILED" : "PASSED", failures,
          failures == 1 ? "" : "s");
  return failures ? 1 : 0;
}
