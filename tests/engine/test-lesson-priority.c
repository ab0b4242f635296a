/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-lesson-priority.c: the stream-priorities lesson: its options, its
 * cells, a run through the engine on a model of a GPU, the caption where
 * priority lets short kernels in, where it makes no difference, and where
 * the device has one priority; the file round trip. */
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>

#include "memsweep.h"
#include "ms-backend-test.h"
#include "ms-lesson-probe-test.h"
#include "ms-lesson-caption.h"
#include "ms-lesson-priority.h"
#include "ms-probe-cells.h"
#include "lessons/ms-lesson-table.h"
#include "model/ms-results.h"
#include "ms-sweep.h"

typedef enum { GPU_PRIORITY, GPU_NO_DIFFERENCE, GPU_ONE_LEVEL } Gpu;

/* Waits: a block's time with priority, the long kernel's rest without. */
static MsCellStatus
model (const MsProbeArgs *a, MsProbeSample *out, void *user)
{
  Gpu gpu = GPOINTER_TO_INT (user);
  double block = a->arg[MS_PRIORITY_ARG_BLOCK_US];
  double longk = block * a->arg[MS_PRIORITY_ARG_WAVES];
  int shorts = a->arg[MS_PRIORITY_ARG_SHORTS];
  if (gpu == GPU_ONE_LEVEL) {
    g_strlcpy (out->error, "the device has one stream priority (least = greatest = 0)",
               sizeof out->error);
    return MS_CELL_UNSUPPORTED;
  }
  gboolean helped = gpu == GPU_PRIORITY && shorts == MS_PRIORITY_HIGH;
  if (a->arg[MS_PRIORITY_ARG_FIGURE] == MS_PRIORITY_WAIT)
    out->value_us = helped ? block / 2 : longk / 2;
  else
    out->value_us = longk + (shorts == MS_PRIORITY_NONE ? 0 : 30);
  if (a->instrumented) {
    out->events[0] = (MsEvent){
      .phase = MS_PHASE_KERNEL, .lane = 1, .gpu_start_us = 5, .host_start_us = 5, .gpu_us = longk
    };
    out->events[1] = (MsEvent){
      .phase = MS_PHASE_KERNEL, .lane = 2, .gpu_start_us = 200, .host_start_us = 200, .gpu_us = 10
    };
    out->n_events = 2;
  }
  return MS_CELL_OK;
}

static MsResults *
run_lesson (Gpu gpu, const char *options)
{
  return ms_test_lesson_run_model ("priority", options, model, GINT_TO_POINTER (gpu), 3, 1);
}

static void
test_options (void)
{
  char err[256];
  g_assert_true (ms_lesson_check_options ("priority", "", err, sizeof err));
  g_assert_true (ms_lesson_check_options ("priority", "waves=10,block-us=20,short-us=5,gap-us=50",
                                          err, sizeof err));
  g_assert_false (ms_lesson_check_options ("priority", "waves=201", err, sizeof err));
  g_assert_nonnull (strstr (err, "1..200"));
  g_assert_false (ms_lesson_check_options ("priority", "gap-us=1.5", err, sizeof err));
  g_assert_nonnull (strstr (err, "whole number"));
  g_assert_false (ms_lesson_check_options ("priority", "prio=1", err, sizeof err));
  g_assert_nonnull (strstr (err, "no option 'prio'"));
  MsSweep s;
  ms_sweep_init_default (&s);
  g_assert_cmpfloat (ms_lesson_option ("priority", &s, "waves"), ==, 40);
  g_assert_cmpfloat (ms_lesson_option ("priority", &s, "block-us"), ==, 50);
  g_assert_cmpfloat (ms_lesson_option ("priority", &s, "short-us"), ==, 10);
}

/* Every setting is named, and the longest settings still fit. */
static void
test_variants (void)
{
  char v[256];
  ms_priority_variant (v, sizeof v, MS_PRIORITY_NONE, MS_PRIORITY_LONG, 200, 2000, 1000, 10000);
  g_assert_cmpuint (strlen (v), <, MS_VARIANT_LEN);
  MsResults *r = run_lesson (GPU_PRIORITY, "waves=12,gap-us=70");
  g_assert_cmpuint (r->n_cells, ==, 5);
  for (size_t i = 0; i < r->n_cells; i++) {
    const MsCell *c = &r->cells[i];
    g_assert_cmpint (c->status, ==, MS_CELL_OK);
    g_assert_cmpint (c->n_reps, ==, 3);
    g_assert_nonnull (strstr (c->variant, "/W=12/blk=50/sk=10/gap=70"));
    for (size_t j = i + 1; j < r->n_cells; j++)
      g_assert_cmpstr (c->variant, !=, r->cells[j].variant);
  }
  /* The waits' cells carry a timeline, kept apart from the figures. */
  const MsCell *high = ms_priority_cell (r, MS_PRIORITY_HIGH, MS_PRIORITY_WAIT);
  g_assert_nonnull (high);
  g_assert_cmpstr (high->variant, ==, "prio=high/wait/W=12/blk=50/sk=10/gap=70");
  g_assert_cmpuint (high->n_events, ==, 2);
  g_assert_cmpfloat (high->e2e_instr_us[0], >=, 0);
  g_assert_cmpfloat (high->stats.e2e.median, ==, 25);
  g_assert_cmpfloat (ms_priority_cell (r, MS_PRIORITY_NONE, MS_PRIORITY_LONG)->stats.e2e.median, ==,
                     600);
  ms_results_free (r);
}

static void
test_caption (void)
{
  char buf[2048];
  MsResults *r = run_lesson (GPU_PRIORITY, "");
  g_assert_true (ms_lesson_caption (MS_TOPIC_PRIORITY, r, -1, buf, sizeof buf));
  g_test_message ("%s", buf);
  g_assert_nonnull (strstr (buf, "started 25.0 µs after launch"));
  g_assert_nonnull (strstr (buf, "1.00 ms on a second low-priority stream"));
  g_assert_nonnull (strstr (buf, "40-fold"));
  g_assert_null (strstr (buf, "no clear difference"));
  ms_results_free (r);
  /* Where priority does not help, the caption says so. */
  r = run_lesson (GPU_NO_DIFFERENCE, "");
  g_assert_true (ms_lesson_caption (MS_TOPIC_PRIORITY, r, -1, buf, sizeof buf));
  g_assert_nonnull (strstr (buf, "no clear difference"));
  g_assert_null (strstr (buf, "-fold"));
  ms_results_free (r);
  /* One priority level: the cells are unsupported, and the caption says
   * why instead of stating an effect. */
  r = run_lesson (GPU_ONE_LEVEL, "");
  g_assert_cmpint (r->cells[0].status, ==, MS_CELL_UNSUPPORTED);
  g_assert_false (ms_lesson_caption (MS_TOPIC_PRIORITY, r, -1, buf, sizeof buf));
  g_assert_nonnull (strstr (buf, "one stream priority"));
  ms_results_free (r);
}

static void
test_round_trip (void)
{
  MsResults *r = run_lesson (GPU_PRIORITY, "waves=20");
  ms_results_free (ms_test_lesson_reread (MS_TOPIC_PRIORITY, r));
  ms_results_free (r);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/lesson/priority/options", test_options);
  g_test_add_func ("/lesson/priority/variants", test_variants);
  g_test_add_func ("/lesson/priority/caption", test_caption);
  g_test_add_func ("/lesson/priority/round-trip", test_round_trip);
  return g_test_run ();
}
