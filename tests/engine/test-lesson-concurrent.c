/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-lesson-concurrent.c: the concurrent-kernels lesson and what every
 * probe lesson shares: the options (checked and read), the cells, a run
 * through the engine on a model of a GPU, the caption where kernels on K
 * streams overlap and where they do not, and the file round trip. */
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

/* The probe's arguments, as engine/lessons/ms-lesson-concurrent.c numbers them. */
enum { ARG_K, ARG_STREAMS, ARG_GRID, ARG_SMEM, ARG_KERNEL_US };

/* A GPU where kernels on several streams overlap unless a grid fills the
 * GPU; serial: one where they never do. */
static MsCellStatus
model (const MsProbeArgs *a, MsProbeSample *out, void *user)
{
  gboolean serial = GPOINTER_TO_INT (user);
  int k = a->arg[ARG_K];
  double us = a->arg[ARG_KERNEL_US];
  gboolean alone = a->arg[ARG_STREAMS] == 1 || a->arg[ARG_SMEM] || a->arg[ARG_GRID] == 2;
  out->value_us = 5 * k + (alone || serial ? k * us : us);
  if (a->instrumented) {
    /* More bytes than a file row may hold: the runner leaves them out, so
     * the file still reads back. */
    out->events[0] = (MsEvent) { .phase = MS_PHASE_KERNEL, .lane = 1, .gpu_start_us = 0,
                                 .gpu_us = us, .bytes = 1ull << 30 };
    out->n_events = 1;
  }
  return MS_CELL_OK;
}

static MsResults *
run_lesson (gboolean serial, const char *options)
{
  return ms_test_lesson_run_model ("concurrent", options, model, GINT_TO_POINTER (serial), 3, 1);
}

static void
test_options (void)
{
  char err[256];
  g_assert_true (ms_lesson_check_options ("concurrent", "", err, sizeof err));
  g_assert_true (ms_lesson_check_options ("concurrent", "max-k=8,kernel-us=50", err, sizeof err));
  g_assert_false (ms_lesson_check_options ("concurrent", "max-k=65", err, sizeof err));
  g_assert_nonnull (strstr (err, "1..64"));
  g_assert_false (ms_lesson_check_options ("concurrent", "max-k=2.5", err, sizeof err));
  g_assert_nonnull (strstr (err, "whole number"));
  g_assert_false (ms_lesson_check_options ("concurrent", "colour=1", err, sizeof err));
  g_assert_nonnull (strstr (err, "no option 'colour'"));
  g_assert_false (ms_lesson_check_options ("concurrent", "max-k=", err, sizeof err));
  g_assert_false (ms_lesson_check_options ("concurrent", "max-k=4,max-k=8", err, sizeof err));
  g_assert_nonnull (strstr (err, "twice"));
  /* A sweep lesson has no options at all. */
  g_assert_false (ms_lesson_check_options ("duplex", "max-k=4", err, sizeof err));
  MsSweep s;
  ms_sweep_init_default (&s);
  g_assert_cmpfloat (ms_lesson_option ("concurrent", &s, "max-k"), ==, 16);
  g_strlcpy (s.options, "kernel-us=50,max-k=4", sizeof s.options);
  g_assert_cmpfloat (ms_lesson_option ("concurrent", &s, "max-k"), ==, 4);
  g_assert_cmpfloat (ms_lesson_option ("concurrent", &s, "kernel-us"), ==, 50);
}

static void
test_cells (void)
{
  MsResults *r = run_lesson (FALSE, "max-k=12");
  /* K = 1, 2, 4, 8 and the 12 asked for, five settings each. */
  g_assert_cmpuint (r->n_cells, ==, 25);
  g_assert_nonnull (ms_results_find_variant (r, MS_MODE_STREAMS, 0, "K=12/streams=many"));
  for (size_t i = 0; i < r->n_cells; i++) {
    const MsCell *c = &r->cells[i];
    g_assert_cmpint (c->status, ==, MS_CELL_OK);
    g_assert_cmpint (c->n_reps, ==, 3);
    /* The first repetition's instrumented sample: its time kept apart and
     * its timeline. */
    g_assert_cmpfloat (c->e2e_instr_us[0], >=, 0);
    g_assert_cmpfloat (c->e2e_instr_us[1], <, 0);
    g_assert_cmpuint (c->n_events, ==, 1);
    for (size_t j = i + 1; j < r->n_cells; j++)
      g_assert_cmpstr (c->variant, !=, r->cells[j].variant);
  }
  g_assert_cmpstr (r->experiment, ==, "concurrent");
  g_assert_nonnull (strstr (r->experiment_settings, "options max-k=12"));
  ms_results_free (r);
}

static void
test_caption (void)
{
  char buf[2048];
  MsResults *r = run_lesson (FALSE, "");
  g_assert_true (ms_lesson_caption (MS_TOPIC_CONCURRENT, r, -1, buf, sizeof buf));
  g_assert_nonnull (strstr (buf, "On 16 streams"));
  g_assert_nonnull (strstr (buf, "16 small kernels ran together"));
  /* Both ways of filling the GPU, in one sentence where they agree. */
  g_assert_true (strstr (buf, "all of an SM's shared memory")
                 || strstr (buf, "all of a multiprocessor's shared memory"));
  ms_results_free (r);
  /* Where the rule does not hold, the caption says so. */
  r = run_lesson (TRUE, "");
  g_assert_true (ms_lesson_caption (MS_TOPIC_CONCURRENT, r, -1, buf, sizeof buf));
  g_assert_null (strstr (buf, "kernels ran together"));
  g_assert_nonnull (strstr (buf, "one after another"));
  ms_results_free (r);
}

static void
test_round_trip (void)
{
  MsResults *r = run_lesson (FALSE, "max-k=4");
  ms_results_free (ms_test_lesson_reread (MS_TOPIC_CONCURRENT, r));
  ms_results_free (r);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/lesson/concurrent/options", test_options);
  g_test_add_func ("/lesson/concurrent/cells", test_cells);
  g_test_add_func ("/lesson/concurrent/caption", test_caption);
  g_test_add_func ("/lesson/concurrent/round-trip", test_round_trip);
  return g_test_run ();
}
