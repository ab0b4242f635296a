/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-gpu-clock.c: a repetition's GPU times placed on its host clock
 * (engine/model/ms-gpu-clock.c): the lag on a synthetic cell, idempotence, what
 * is left alone, the cell driver's events, the probe lessons' launches
 * and kernels, and every reference run read back with no GPU work drawn
 * before the call or launch that issued it. */
#include <dirent.h>
#include <glib.h>
#include <math.h>
#include <string.h>

#include "lessons/ms-run-read.h"
#include "memsweep.h"
#include "model/ms-results.h"
#include "ms-cell-driver.h"
#include "ms-gpu-clock.h"
#include "ms-lesson-record.h"
#include "ms-modes.h"

static MsEvent
stream_event (MsPhase phase, int rep, double host_start, double gpu_start)
{
  return (MsEvent){ .phase = phase, .lane = 1, .rep = rep, .host_start_us = host_start,
                    .host_us = 5, .gpu_start_us = gpu_start, .gpu_us = 50, .bytes = 4096 };
}

static MsEvent
host_event (MsPhase phase, int rep, double host_start)
{
  return (MsEvent){ .phase = phase, .lane = MS_LANE_HOST, .rep = rep,
                    .host_start_us = host_start, .host_us = 30, .gpu_start_us = -1,
                    .gpu_us = -1 };
}

/* Seen only on the GPU, as the probe lessons record a kernel by its
 * clock stamps: the GPU start is its host start, its host time 0. */
static MsEvent
gpu_only_event (int rep, double start)
{
  return (MsEvent){ .phase = MS_PHASE_KERNEL, .lane = 2, .rep = rep, .host_start_us = start,
                    .host_us = 0, .gpu_start_us = start, .gpu_us = 40 };
}

enum { N_SYNTHETIC = 11 };

/* Repetition 0 leads by up to 20 us, repetition 1 by none, repetition 2
 * has a wait whose host part starts after its GPU part and no issued
 * work that leads. */
static void
synthetic_cell (MsEvent *ev)
{
  MsEvent all[N_SYNTHETIC] = {
    host_event (MS_PHASE_INIT, 0, 0),
    stream_event (MS_PHASE_H2D, 0, 100, 80),     /* leads by 20 */
    stream_event (MS_PHASE_KERNEL, 0, 110, 150), /* behind its latch */
    stream_event (MS_PHASE_D2H, 0, 120, 115),    /* leads by 5 */
    gpu_only_event (0, 60),
    host_event (MS_PHASE_VERIFY, 0, 300),
    stream_event (MS_PHASE_H2D, 1, 100, 104),
    stream_event (MS_PHASE_D2H, 1, 120, 160),
    stream_event (MS_PHASE_H2D, 2, 100, 103),
    /* A host function the stream ran: its host part need not come first. */
    stream_event (MS_PHASE_HOST_FUNC, 2, 200, 150),
    gpu_only_event (2, 10),
  };
  memcpy (ev, all, sizeof all);
}

static void
test_lag (void)
{
  MsEvent ev[N_SYNTHETIC], before[N_SYNTHETIC];
  synthetic_cell (ev);
  memcpy (before, ev, sizeof ev);
  g_assert_cmpfloat (ms_gpu_clock_lag (ev, N_SYNTHETIC, 0), ==, 20);
  g_assert_cmpfloat (ms_gpu_clock_lag (ev, N_SYNTHETIC, 1), ==, 0);
  g_assert_cmpfloat (ms_gpu_clock_lag (ev, N_SYNTHETIC, 2), ==, 0);
  g_assert_cmpfloat (ms_gpu_clock_lag (ev, N_SYNTHETIC, 3), ==, 0);
  ms_gpu_clock_align (ev, N_SYNTHETIC);

  /* Repetition 0: every GPU start with a host call moves by the lag. */
  g_assert_cmpfloat (ev[1].gpu_start_us, ==, 100);
  g_assert_cmpfloat (ev[2].gpu_start_us, ==, 170);
  g_assert_cmpfloat (ev[3].gpu_start_us, ==, 135);
  for (int i = 1; i <= 3; i++) {
    g_assert_cmpfloat (ev[i].host_start_us, ==, before[i].host_start_us);
    g_assert_cmpfloat (ev[i].gpu_us, ==, before[i].gpu_us);
    g_assert_cmpfloat (ev[i].gpu_start_us, >=, ev[i].host_start_us);
  }
  /* Host steps and work seen only on the GPU keep their times. */
  g_assert_true (memcmp (&ev[0], &before[0], sizeof ev[0]) == 0);
  g_assert_true (memcmp (&ev[4], &before[4], sizeof ev[4]) == 0);
  g_assert_true (memcmp (&ev[5], &before[5], sizeof ev[5]) == 0);
  /* Repetitions with nothing drawn before its call are untouched. */
  g_assert_true (memcmp (&ev[6], &before[6], 5 * sizeof ev[0]) == 0);
}

static void
test_idempotent (void)
{
  MsEvent ev[N_SYNTHETIC], once[N_SYNTHETIC];
  synthetic_cell (ev);
  ms_gpu_clock_align (ev, N_SYNTHETIC);
  memcpy (once, ev, sizeof ev);
  ms_gpu_clock_align (ev, N_SYNTHETIC);
  g_assert_true (memcmp (ev, once, sizeof ev) == 0);
  for (int rep = 0; rep < 3; rep++)
    g_assert_cmpfloat (ms_gpu_clock_lag (ev, N_SYNTHETIC, rep), <=, MS_GPU_CLOCK_RESOLUTION_US);
}

/* Repetitions far apart fall in different windows of the alignment. */
static void
test_many_reps (void)
{
  enum { REPS = 700 };
  MsEvent *ev = g_new (MsEvent, REPS);
  for (int rep = 0; rep < REPS; rep++)
    ev[REPS - 1 - rep] = stream_event (MS_PHASE_H2D, rep, 100, 100 - rep % 7);
  ms_gpu_clock_align (ev, REPS);
  for (int i = 0; i < REPS; i++)
    g_assert_cmpfloat (ev[i].gpu_start_us, ==, 100);
  g_free (ev);
}

/* ---- through the cell driver ------------------------------------------ */

static MsCellStatus
lead_alloc (void *data, MsCellDriver *drv)
{
  (void) data;
  (void) drv;
  return MS_CELL_OK;
}

/* Each repetition's copy comes out at least 12 us before its call, as a
 * reference event the GPU reached late makes it (the call starts 30 us
 * or more after the repetition's origin). */
static MsCellStatus
lead_rep (void *data, MsCellDriver *drv)
{
  (void) data;
  double t0 = ms_cell_driver_now (drv);
  if (ms_cell_driver_instrumented (drv)) {
    MsEvent ev = stream_event (MS_PHASE_H2D, 0, t0 + 30, 30 - 12);
    g_assert_true (ms_cell_driver_add_event (drv, &ev));
  }
  ms_cell_driver_set_e2e (drv, 10);
  return MS_CELL_OK;
}

static void
lead_release (void *data, MsCellDriver *drv)
{
  (void) data;
  (void) drv;
}

static void
test_driver (void)
{
  MsCellOps ops = { .alloc = lead_alloc, .rep = lead_rep, .release = lead_release };
  MsRunArgs args = { .mode = MS_MODE_PINNED, .n = 1024, .reps = 3, .warmup = 1 };
  MsRunOutput out;
  g_assert_cmpint (ms_cell_driver_run (&ops, NULL, &args, &out), ==, MS_CELL_OK);
  int copies = 0;
  for (size_t i = 0; i < out.n_events; i++)
    if (out.events[i].phase == MS_PHASE_H2D) {
      copies++;
      g_assert_cmpfloat (out.events[i].gpu_start_us, >=, out.events[i].host_start_us);
    }
  g_assert_cmpint (copies, ==, 3);
  ms_run_output_clear (&out);
}

/* ---- the probe lessons' launches and kernels -------------------------- */

static MsEvent
launch_event (MsPhase phase, int rep, int chunk, double host_start)
{
  return (MsEvent){ .phase = phase, .lane = MS_LANE_HOST, .chunk = chunk, .rep = rep,
                    .host_start_us = host_start, .host_us = 5, .gpu_start_us = -1,
                    .gpu_us = -1 };
}

/* A kernel as the probes record it: host start mirrored (or 0), host
 * time 0. */
static MsEvent
stamped_kernel (int lane, int chunk, int rep, double host_start, double gpu_start)
{
  return (MsEvent){ .phase = MS_PHASE_KERNEL, .lane = lane, .chunk = chunk, .rep = rep,
                    .host_start_us = host_start, .host_us = 0, .gpu_start_us = gpu_start,
                    .gpu_us = 100 };
}

enum { N_IMPLICIT = 7 };

/* implicit-sync with a kernel as the operation: launch, call (a launch on
 * the legacy stream), launch; kernels on lanes 1..3, host start 0.
 * Repetition 0 leads by up to 48 us (lane 1), repetition 1 by none. */
static void
implicit_cell (MsEvent *ev)
{
  MsEvent all[N_IMPLICIT] = {
    launch_event (MS_PHASE_LAUNCH, 0, 0, 60),
    launch_event (MS_PHASE_CALL, 0, 0, 66),
    launch_event (MS_PHASE_LAUNCH, 0, 1, 72),
    stamped_kernel (1, 0, 0, 0, 12),  /* 48 before its launch */
    stamped_kernel (3, 0, 0, 0, 30),  /* 36 before its call */
    stamped_kernel (2, 0, 0, 0, 600), /* queued behind the first */
    stamped_kernel (1, 0, 1, 0, 20),  /* no launch in repetition 1 */
  };
  memcpy (ev, all, sizeof all);
}

static void
test_probe_pairs (void)
{
  MsEvent ev[N_IMPLICIT], before[N_IMPLICIT];
  implicit_cell (ev);
  memcpy (before, ev, sizeof ev);
  g_assert_true (ms_lesson_kernel_issuer (ev, N_IMPLICIT, MS_TOPIC_IMPLICIT_SYNC, &ev[3]) == &ev[0]);
  g_assert_true (ms_lesson_kernel_issuer (ev, N_IMPLICIT, MS_TOPIC_IMPLICIT_SYNC, &ev[4]) == &ev[1]);
  g_assert_true (ms_lesson_kernel_issuer (ev, N_IMPLICIT, MS_TOPIC_IMPLICIT_SYNC, &ev[5]) == &ev[2]);
  g_assert_null (ms_lesson_kernel_issuer (ev, N_IMPLICIT, MS_TOPIC_IMPLICIT_SYNC, &ev[6]));
  g_assert_null (ms_lesson_kernel_issuer (ev, N_IMPLICIT, MS_TOPIC_IMPLICIT_SYNC, &ev[0]));
  /* Another probe's events pair nothing. */
  g_assert_null (ms_lesson_kernel_issuer (ev, N_IMPLICIT, MS_TOPIC_HOST_FUNC, &ev[3]));
  g_assert_cmpfloat (ms_lesson_kernel_lag (ev, N_IMPLICIT, MS_TOPIC_IMPLICIT_SYNC, 0), ==, 48);
  g_assert_cmpfloat (ms_lesson_kernel_lag (ev, N_IMPLICIT, MS_TOPIC_IMPLICIT_SYNC, 1), ==, 0);

  ms_lesson_align_kernels (ev, N_IMPLICIT, MS_TOPIC_HOST_FUNC);
  g_assert_true (memcmp (ev, before, sizeof ev) == 0);
  ms_lesson_align_kernels (ev, N_IMPLICIT, MS_TOPIC_IMPLICIT_SYNC);
  /* Host events keep their times; the kernels move by 48, their host
   * start of 0 stays. */
  g_assert_true (memcmp (ev, before, 3 * sizeof ev[0]) == 0);
  g_assert_cmpfloat (ev[3].gpu_start_us, ==, 60);
  g_assert_cmpfloat (ev[4].gpu_start_us, ==, 78);
  g_assert_cmpfloat (ev[5].gpu_start_us, ==, 648);
  for (int i = 3; i < 6; i++) {
    g_assert_cmpfloat (ev[i].host_start_us, ==, 0);
    g_assert_cmpfloat (ev[i].gpu_us, ==, before[i].gpu_us);
  }
  g_assert_true (memcmp (&ev[6], &before[6], sizeof ev[6]) == 0);
}

/* concurrent: K kernels on one stream (lane 1, chunk k) or on K (lane
 * k + 1); host start mirrors the GPU start. */
static void
test_probe_concurrent (void)
{
  MsEvent one[] = {
    launch_event (MS_PHASE_LAUNCH, 0, 0, 61.7),  launch_event (MS_PHASE_LAUNCH, 0, 1, 70),
    stamped_kernel (1, 0, 0, 13.5, 13.5),        stamped_kernel (1, 1, 0, 113.5, 113.5),
  };
  g_assert_true (ms_lesson_kernel_issuer (one, 4, MS_TOPIC_CONCURRENT, &one[3]) == &one[1]);
  ms_lesson_align_kernels (one, 4, MS_TOPIC_CONCURRENT);
  g_assert_cmpfloat (fabs (one[2].gpu_start_us - 61.7), <, 1e-9);
  g_assert_cmpfloat (one[2].host_start_us, ==, one[2].gpu_start_us);
  g_assert_cmpfloat (fabs (one[3].gpu_start_us - 161.7), <, 1e-9);
  g_assert_cmpfloat (one[3].host_start_us, ==, one[3].gpu_start_us);

  MsEvent many[] = {
    launch_event (MS_PHASE_LAUNCH, 0, 0, 10), launch_event (MS_PHASE_LAUNCH, 0, 1, 20),
    stamped_kernel (2, 0, 0, 12, 12),         stamped_kernel (1, 0, 0, 11, 11),
  };
  g_assert_true (ms_lesson_kernel_issuer (many, 4, MS_TOPIC_CONCURRENT, &many[2]) == &many[1]);
  g_assert_cmpfloat (ms_lesson_kernel_lag (many, 4, MS_TOPIC_CONCURRENT, 0), ==, 8);
  /* A launch missing: which kernel each issued is no longer certain. */
  g_assert_null (ms_lesson_kernel_issuer (many + 1, 3, MS_TOPIC_CONCURRENT, &many[3]));
  g_assert_cmpfloat (ms_lesson_kernel_lag (many + 1, 3, MS_TOPIC_CONCURRENT, 0), ==, 0);
}

static void
test_probe_idempotent (void)
{
  MsEvent ev[N_IMPLICIT], once[N_IMPLICIT];
  implicit_cell (ev);
  ms_lesson_align_kernels (ev, N_IMPLICIT, MS_TOPIC_IMPLICIT_SYNC);
  memcpy (once, ev, sizeof ev);
  ms_lesson_align_kernels (ev, N_IMPLICIT, MS_TOPIC_IMPLICIT_SYNC);
  ms_gpu_clock_align (ev, N_IMPLICIT);
  g_assert_true (memcmp (ev, once, sizeof ev) == 0);
  g_assert_cmpfloat (ms_lesson_kernel_lag (ev, N_IMPLICIT, MS_TOPIC_IMPLICIT_SYNC, 0), <=,
                     MS_GPU_CLOCK_RESOLUTION_US);
}

/* ---- the reference runs ----------------------------------------------- */

/* Every kernel of a probe lesson whose launch the lesson records starts
 * no earlier than that launch; the number of such kernels. */
static size_t
check_probe_pairs (const char *path, const MsResults *r)
{
  MsLessonTopic id = ms_lesson_topic_for_experiment (r->experiment);
  if (ms_lesson_kind (id) != MS_LESSON_KIND_PROBE)
    return 0;
  size_t paired = 0;
  for (size_t c = 0; c < r->n_cells; c++) {
    const MsCell *cell = &r->cells[c];
    for (size_t i = 0; i < cell->n_events; i++) {
      const MsEvent *ev = &cell->events[i];
      const MsEvent *issuer = ms_lesson_kernel_issuer (cell->events, cell->n_events, id, ev);
      if (!issuer)
        continue;
      paired++;
      if (ev->gpu_start_us < issuer->host_start_us - MS_GPU_CLOCK_RESOLUTION_US)
        g_error ("%s: %s rep %d: kernel (lane %d) on the GPU at %.3f us, its %s at %.3f us", path,
                 cell->variant, ev->rep, ev->lane, ev->gpu_start_us, ms_phase_name (issuer->phase),
                 issuer->host_start_us);
    }
  }
  /* The lessons that record launches beside their kernels pair them. */
  if (id == MS_TOPIC_IMPLICIT_SYNC || id == MS_TOPIC_CONCURRENT || id == MS_TOPIC_PRIORITY)
    g_assert_cmpuint (paired, >, 0);
  return paired;
}

static void
check_file (const char *path)
{
  char err[512];
  MsResults *r = ms_run_read_samples (path, err, sizeof err);
  if (!r)
    g_error ("%s: %s", path, err);
  size_t issued = 0;
  for (size_t c = 0; c < r->n_cells; c++) {
    const MsCell *cell = &r->cells[c];
    for (size_t i = 0; i < cell->n_events; i++) {
      const MsEvent *ev = &cell->events[i];
      if (!ms_gpu_clock_event_issued (ev))
        continue;
      issued++;
      if (ev->gpu_start_us < ev->host_start_us - MS_GPU_CLOCK_RESOLUTION_US)
        g_error ("%s: %s 2^%d %s rep %d: %s on the GPU at %.3f us, its call at %.3f us", path,
                 ms_mode_name (cell->mode), cell->exponent, cell->variant, ev->rep,
                 ms_phase_name (ev->phase), ev->gpu_start_us, ev->host_start_us);
    }
  }
  g_test_message ("%s: %zu events with a call and its GPU work, %zu launched kernels", path,
                  issued, check_probe_pairs (path, r));
  ms_results_free (r);
}

static void
test_reference_runs (void)
{
  DIR *dir = opendir (MS_REFERENCE_DIR);
  g_assert_nonnull (dir);
  int files = 0;
  struct dirent *e;
  while ((e = readdir (dir))) {
    if (!g_str_has_suffix (e->d_name, "-samples.csv.gz"))
      continue;
    char *path = g_build_filename (MS_REFERENCE_DIR, e->d_name, NULL);
    check_file (path);
    g_free (path);
    files++;
  }
  closedir (dir);
  g_assert_cmpint (files, >, 0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/gpu-clock/lag", test_lag);
  g_test_add_func ("/gpu-clock/idempotent", test_idempotent);
  g_test_add_func ("/gpu-clock/many-reps", test_many_reps);
  g_test_add_func ("/gpu-clock/driver", test_driver);
  g_test_add_func ("/gpu-clock/probe-pairs", test_probe_pairs);
  g_test_add_func ("/gpu-clock/probe-concurrent", test_probe_concurrent);
  g_test_add_func ("/gpu-clock/probe-idempotent", test_probe_idempotent);
  g_test_add_func ("/gpu-clock/reference-runs", test_reference_runs);
  return g_test_run ();
}
