/* test-gpu.c: the gpu suite. Every mode at 2^10, 2^16 and 2^20 on a real
 * device, verified, with plausibility checks. Exits 77 (skip) without one. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "memsweep.h"
#include "ms-kernels.h"

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
  sweep.order = order;
  MsRunStatus st = ms_sweep_run (&sweep, backend, NULL, NULL, NULL, &results, err, sizeof err);
  CHECK (st == MS_RUN_OK, "sweep status %d: %s", st, err);
  return results;
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

typedef struct {
  MsBackend *backend;
  atomic_int cancel;
  MsRunStatus status;
  MsResults *results;
} CancelJob;

static void *
cancel_worker (void *data)
{
  CancelJob *job = data;
  MsSweep sweep;
  char err[256];
  ms_sweep_init_default (&sweep);
  sweep.min_exp = 18;
  sweep.max_exp = 26;
  job->status =
    ms_sweep_run (&sweep, job->backend, NULL, NULL, &job->cancel, &job->results, err, sizeof err);
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
  nanosleep (&(struct timespec){ .tv_sec = 0, .tv_nsec = 300 * 1000 * 1000 }, NULL);
  atomic_store (&job.cancel, 1);
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
  }
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
