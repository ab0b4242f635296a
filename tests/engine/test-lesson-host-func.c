/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-lesson-host-func.c: the host-function lesson: its options, its
 * cells, a run through the engine on a model of a GPU, the caption where
 * a slow host function holds back the kernel behind it and where it does
 * not, and the file round trip. */
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

/* The probe's arguments, as engine/lessons/ms-lesson-host-func.c numbers them. */
enum { ARG_PART, ARG_API, ARG_AFTER, ARG_SLOW, ARG_HOST_FUNC_US, ARG_KERNEL_US, ARG_COPY_KIB };
enum { SLOW_ALONE, SLOW_NONE, SLOW_SAME, SLOW_OTHER };

/* Latency: 4 µs (+3 for the callback, +1 after a copy). holds: a GPU where
 * the host function holds back its stream only; otherwise it holds back
 * neither (a rule that does not hold). */
static MsCellStatus
model (const MsProbeArgs *a, MsProbeSample *out, void *user)
{
  gboolean holds = GPOINTER_TO_INT (user);
  double f = a->arg[ARG_HOST_FUNC_US], k = a->arg[ARG_KERNEL_US];
  if (a->arg[ARG_PART] == 0) {
    out->value_us = 4 + 3 * a->arg[ARG_API] + (a->arg[ARG_AFTER] == 0);
  } else {
    switch (a->arg[ARG_SLOW]) {
    case SLOW_ALONE:
      out->value_us = f + 10;
      break;
    case SLOW_NONE:
      out->value_us = k + 10;
      break;
    case SLOW_SAME:
      out->value_us = (holds ? f : 0) + k + 15;
      break;
    default:
      out->value_us = k + 12;
    }
  }
  if (a->instrumented) {
    out->events[0] = (MsEvent){ .phase = MS_PHASE_KERNEL, .lane = 1, .gpu_us = k };
    out->events[1]
        = (MsEvent){ .phase = MS_PHASE_HOST_FUNC, .lane = 3, .gpu_start_us = 0, .gpu_us = f };
    out->n_events = 2;
  }
  return MS_CELL_OK;
}

static MsResults *
run_lesson (gboolean holds, const char *options)
{
  return ms_test_lesson_run_model ("host-func", options, model, GINT_TO_POINTER (holds), 3, 1);
}

static void
test_options (void)
{
  char err[256];
  g_assert_true (ms_lesson_check_options ("host-func", "", err, sizeof err));
  g_assert_true (
      ms_lesson_check_options ("host-func", "host-func-us=500,kernel-us=50", err, sizeof err));
  g_assert_false (ms_lesson_check_options ("host-func", "host-func-us=5", err, sizeof err));
  g_assert_nonnull (strstr (err, "10..100000"));
  g_assert_false (ms_lesson_check_options ("host-func", "copy-kib=x", err, sizeof err));
  g_assert_false (ms_lesson_check_options ("host-func", "latency=1", err, sizeof err));
  g_assert_nonnull (strstr (err, "no option 'latency'"));
  MsSweep s;
  ms_sweep_init_default (&s);
  g_assert_cmpfloat (ms_lesson_option ("host-func", &s, "host-func-us"), ==, 1000);
}

static void
test_cells (void)
{
  MsResults *r = run_lesson (TRUE, "host-func-us=2000");
  g_assert_cmpuint (r->n_cells, ==, 8);
  g_assert_nonnull (
      ms_results_find_variant (r, MS_MODE_STREAMS, 0, "latency/api=stream-callback/after=kernel"));
  g_assert_nonnull (ms_results_find_variant (r, MS_MODE_STREAMS, 0, "slow/kernel=other-stream"));
  for (size_t i = 0; i < r->n_cells; i++) {
    const MsCell *c = &r->cells[i];
    g_assert_cmpint (c->status, ==, MS_CELL_OK);
    g_assert_cmpuint (strlen (c->variant), <, MS_VARIANT_LEN);
    g_assert_cmpuint (c->n_events, ==, 2);
    for (size_t j = i + 1; j < r->n_cells; j++)
      g_assert_cmpstr (c->variant, !=, r->cells[j].variant);
  }
  /* The option reached the slow host function. */
  const MsCell *alone = ms_results_find_variant (r, MS_MODE_STREAMS, 0, "slow/func-only");
  g_assert_cmpfloat_with_epsilon (alone->stats.e2e.median, 2010, 0.5);
  ms_results_free (r);
}

static void
test_caption (void)
{
  char buf[2048];
  MsResults *r = run_lesson (TRUE, "");
  g_assert_true (ms_lesson_caption (MS_TOPIC_HOST_FUNC, r, -1, buf, sizeof buf));
  g_assert_nonnull (
      strstr (buf, "cudaLaunchHostFunc: 5.00 µs after a copy, 4.00 µs after a kernel"));
  g_assert_nonnull (strstr (buf, "(the older call): 8.00 µs and 7.00 µs"));
  /* The medians' range first, then their 95% ranges', as the slide draws them. */
  g_assert_nonnull (strstr (buf, "started 4.00 µs to 8.00 µs after the work"));
  g_assert_nonnull (strstr (buf, "their 95% ranges, the slide's lines, within"));
  g_assert_nonnull (strstr (buf, "(1.00 times the function's time)"));
  g_assert_nonnull (strstr (buf, "another stream was not held back"));
  g_assert_null (strstr (buf, "did not hold back"));
  ms_results_free (r);
  /* A function that holds nothing back: the caption says so. */
  r = run_lesson (FALSE, "");
  g_assert_true (ms_lesson_caption (MS_TOPIC_HOST_FUNC, r, -1, buf, sizeof buf));
  g_assert_nonnull (strstr (buf, "did not hold back the kernel"));
  ms_results_free (r);
}

static void
test_round_trip (void)
{
  MsResults *r = run_lesson (TRUE, "");
  MsResults *back = ms_test_lesson_reread (MS_TOPIC_HOST_FUNC, r);
  /* The host function's phase and lane come back. */
  for (size_t i = 0; i < back->n_cells; i++) {
    gboolean found = FALSE;
    for (size_t e = 0; e < back->cells[i].n_events; e++)
      found |= back->cells[i].events[e].phase == MS_PHASE_HOST_FUNC
               && back->cells[i].events[e].lane == 3;
    g_assert_true (found);
  }
  ms_results_free (back);
  ms_results_free (r);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/lesson/host-func/options", test_options);
  g_test_add_func ("/lesson/host-func/cells", test_cells);
  g_test_add_func ("/lesson/host-func/caption", test_caption);
  g_test_add_func ("/lesson/host-func/round-trip", test_round_trip);
  return g_test_run ();
}
