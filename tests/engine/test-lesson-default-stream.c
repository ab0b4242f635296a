/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-lesson-default-stream.c: the default-stream lesson: its options,
 * its cells, a run through the engine on a model of a GPU, the caption
 * where per-thread default streams let two threads overlap and where they
 * do not, and the file round trip. */
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>

#include "memsweep.h"
#include "ms-backend-test.h"
#include "ms-lesson-probe-test.h"
#include "ms-lesson-caption.h"
#include "ms-probe-cells.h"
#include "lessons/ms-lesson-table.h"
#include "model/ms-results.h"
#include "ms-sweep.h"

/* The probe's arguments, as engine/lessons/ms-lesson-default-stream.c numbers them. */
enum { ARG_THREADS, ARG_PER_THREAD, ARG_KERNEL_US, ARG_COPY_KIB };

/* One thread's work: two copies at 25 GB/s and the kernel. overlap: a GPU
 * where per-thread default streams run the threads together; otherwise
 * every pair of threads serialises. */
static MsCellStatus
model (const MsProbeArgs *a, MsProbeSample *out, void *user)
{
  gboolean overlap = GPOINTER_TO_INT (user);
  double one = 2 * a->arg[ARG_COPY_KIB] * 1024 / 25e3 + a->arg[ARG_KERNEL_US];
  int n = a->arg[ARG_THREADS];
  out->value_us = n == 1 ? one : overlap && a->arg[ARG_PER_THREAD] ? 1.1 * one : 2 * one;
  if (a->instrumented) {
    for (int t = 0; t < n; t++)
      out->events[t] = (MsEvent){ .phase = MS_PHASE_KERNEL,
                                  .lane = t + 1,
                                  .gpu_start_us = t * one,
                                  .gpu_us = a->arg[ARG_KERNEL_US] };
    out->n_events = n;
  }
  return MS_CELL_OK;
}

static MsResults *
run_lesson (gboolean overlap, const char *options)
{
  return ms_test_lesson_run_model ("default-stream", options, model, GINT_TO_POINTER (overlap), 3,
                                   1);
}

static void
test_options (void)
{
  char err[256];
  g_assert_true (ms_lesson_check_options ("default-stream", "", err, sizeof err));
  g_assert_true (
      ms_lesson_check_options ("default-stream", "kernel-us=50,copy-kib=64", err, sizeof err));
  g_assert_false (ms_lesson_check_options ("default-stream", "copy-kib=1000000", err, sizeof err));
  g_assert_nonnull (strstr (err, "4..65536"));
  g_assert_false (ms_lesson_check_options ("default-stream", "kernel-us=1.5", err, sizeof err));
  g_assert_nonnull (strstr (err, "whole number"));
  g_assert_false (ms_lesson_check_options ("default-stream", "threads=4", err, sizeof err));
  g_assert_nonnull (strstr (err, "no option 'threads'"));
  MsSweep s;
  ms_sweep_init_default (&s);
  g_assert_cmpfloat (ms_lesson_option ("default-stream", &s, "kernel-us"), ==, 200);
}

static void
test_cells (void)
{
  MsResults *r = run_lesson (TRUE, "kernel-us=300,copy-kib=128");
  g_assert_cmpuint (r->n_cells, ==, 3);
  const char *want[]
      = { "threads=1/stream=legacy", "threads=2/stream=legacy", "threads=2/stream=per-thread" };
  for (size_t i = 0; i < r->n_cells; i++) {
    const MsCell *c = &r->cells[i];
    g_assert_cmpstr (c->variant, ==, want[i]);
    g_assert_cmpint (c->status, ==, MS_CELL_OK);
    g_assert_cmpint (c->n_reps, ==, 3);
    /* Every repetition has its timeline, so that the picture can draw
     * the one nearest the median. */
    g_assert_cmpuint (c->n_events, ==, 3 * (i == 0 ? 1 : 2));
    g_assert_cmpint (ms_cell_timeline_reps (c, NULL, 0), ==, 3);
  }
  /* The options reached the samples: one thread = 2 x 128 KiB / 25 GB/s + 300 µs. */
  g_assert_cmpfloat_with_epsilon (r->cells[0].stats.e2e.median, 2 * 131072 / 25e3 + 300, 0.5);
  g_assert_nonnull (strstr (r->experiment_settings, "kernel-us=300"));
  ms_results_free (r);
}

/* Under the default rule each cell takes 21 repetitions, so that one slow
 * repetition does not widen a median's 95% range to the slowest. */
static void
test_repetitions (void)
{
  MsResults *r = ms_test_lesson_run_model ("default-stream", "", model, GINT_TO_POINTER (TRUE),
                                           0, 0);
  for (size_t i = 0; i < r->n_cells; i++)
    g_assert_cmpint (r->cells[i].n_reps, ==, 21);
  ms_results_free (r);
}

static void
test_caption (void)
{
  char buf[2048];
  MsResults *r = run_lesson (TRUE, "");
  g_assert_true (ms_lesson_caption (MS_TOPIC_DEFAULT_STREAM, r, -1, buf, sizeof buf));
  /* The headline's multiples are the bars'. */
  g_assert_true (g_str_has_prefix (buf, "Two threads: 2.00× one thread's time on legacy, 1.10× "
                                        "per-thread ("));
  g_assert_nonnull (strstr (buf, "saved 45% of the legacy stream's time: the threads overlapped."));
  g_assert_nonnull (strstr (buf, "which every thread shares, the threads ran one after the other."));
  ms_results_free (r);
  /* Where per-thread default streams do not help, their ranges meet
   * legacy's: the caption claims no saving. */
  r = run_lesson (FALSE, "");
  g_assert_true (ms_lesson_caption (MS_TOPIC_DEFAULT_STREAM, r, -1, buf, sizeof buf));
  g_assert_null (strstr (buf, "overlapped"));
  g_assert_null (strstr (buf, "saved"));
  g_assert_nonnull (strstr (buf, "cannot tell from 3 repetitions"));
  ms_results_free (r);
}

static void
test_round_trip (void)
{
  MsResults *r = run_lesson (TRUE, "");
  ms_results_free (ms_test_lesson_reread (MS_TOPIC_DEFAULT_STREAM, r));
  ms_results_free (r);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/lesson/default-stream/options", test_options);
  g_test_add_func ("/lesson/default-stream/cells", test_cells);
  g_test_add_func ("/lesson/default-stream/repetitions", test_repetitions);
  g_test_add_func ("/lesson/default-stream/caption", test_caption);
  g_test_add_func ("/lesson/default-stream/round-trip", test_round_trip);
  return g_test_run ();
}
