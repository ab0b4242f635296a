/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-lesson-sync-async.c: the synchronous-and-asynchronous-copies
 * lesson: its options, its cells in two parts (the second under
 * CUDA_LAUNCH_BLOCKING=1), a run through the engine on a model of a GPU,
 * the caption where the material's 64 KB rule holds and where it does
 * not, and the file round trip. */
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>

#include "memsweep.h"
#include "ms-backend-test.h"
#include "ms-lesson-probe-test.h"
#include "ms-lesson-caption.h"
#include "ms-lesson-sync-async.h"
#include "ms-probe-cells.h"
#include "lessons/ms-lesson-table.h"
#include "model/ms-results.h"
#include "ms-sweep.h"

/* The largest exponent at which a pageable host-to-device call returns
 * early: 14 (64 KiB) on a GPU that keeps the rule. leaky: pinned async
 * calls return early under CUDA_LAUNCH_BLOCKING too. */
typedef struct {
  int pageable_limit;
  gboolean leaky;
} Gpu;

static MsCellStatus
model (const MsProbeArgs *a, MsProbeSample *out, void *user)
{
  const Gpu *gpu = user;
  int e = 0;
  while ((4ull << e) < a->bytes)
    e++;
  gboolean h2d = a->arg[MS_SA_ARG_DIR] == MS_SA_H2D;
  gboolean async = a->arg[MS_SA_ARG_API] == MS_SA_ASYNC;
  gboolean pinned = a->mode == MS_MODE_PINNED;
  gboolean blocking = a->arg[MS_SA_ARG_BLOCKING];
  gboolean early;
  if (blocking)
    early = gpu->leaky && async && pinned;
  else if (pinned)
    early = async;
  else
    early = h2d && e <= gpu->pageable_limit;
  double copy = 2 + a->bytes / 25e3;
  double done = (blocking ? 0 : a->arg[MS_SA_ARG_AHEAD_US]) + copy;
  out->value_us = a->arg[MS_SA_ARG_WHAT] == MS_SA_CALL ? (early ? 0.5 : done - 1) : done;
  return MS_CELL_OK;
}

static MsResults *
run_lesson (const Gpu *gpu, const char *options)
{
  return ms_test_lesson_run_model ("sync-async", options, model, (void *) gpu, 2, 0);
}

static const Gpu rule_gpu = { 14, FALSE };
static const Gpu other_gpu = { 16, TRUE };

static void
test_options (void)
{
  char err[256];
  g_assert_true (
      ms_lesson_check_options ("sync-async", "min-exp=10,max-exp=12,ahead-us=50", err, sizeof err));
  g_assert_false (ms_lesson_check_options ("sync-async", "max-exp=25", err, sizeof err));
  g_assert_nonnull (strstr (err, "0..24"));
  g_assert_false (ms_lesson_check_options ("sync-async", "ahead-us=9", err, sizeof err));
  g_assert_false (ms_lesson_check_options ("sync-async", "min-exp=8.5", err, sizeof err));
  g_assert_nonnull (strstr (err, "whole number"));
  g_assert_false (ms_lesson_check_options ("sync-async", "size=1", err, sizeof err));
  g_assert_nonnull (strstr (err, "no option 'size'"));
  MsSweep s;
  ms_sweep_init_default (&s);
  g_assert_cmpfloat (ms_lesson_option ("sync-async", &s, "min-exp"), ==, 8);
  g_assert_cmpfloat (ms_lesson_option ("sync-async", &s, "max-exp"), ==, 20);
  g_assert_cmpfloat (ms_lesson_option ("sync-async", &s, "ahead-us"), ==, 200);
}

static void
test_cells (void)
{
  char v[256];
  ms_sa_variant (v, sizeof v, MS_SA_MEMCPY, MS_SA_D2H, MS_SA_DONE, 10000, true);
  g_assert_cmpuint (strlen (v), <, MS_VARIANT_LEN);
  MsResults *r = run_lesson (&rule_gpu, "min-exp=10,max-exp=14");
  /* 2 calls x 2 memories x 2 directions x 3 sizes x call and done, in
   * each of the two parts. */
  g_assert_cmpuint (r->n_cells, ==, 2 * 2 * 2 * 3 * 2 * 2);
  for (size_t i = 0; i < r->n_cells; i++) {
    const MsCell *c = &r->cells[i];
    g_assert_cmpint (c->status, ==, MS_CELL_OK);
    g_assert_true (c->mode == MS_MODE_PAGEABLE || c->mode == MS_MODE_PINNED);
    g_assert_true (c->exponent == 10 || c->exponent == 12 || c->exponent == 14);
    for (size_t j = i + 1; j < r->n_cells; j++)
      g_assert_false (c->mode == r->cells[j].mode && c->exponent == r->cells[j].exponent
                      && strcmp (c->variant, r->cells[j].variant) == 0);
  }
  const MsCell *c = ms_sa_cell (r, MS_MODE_PINNED, 12, MS_SA_ASYNC, MS_SA_H2D, MS_SA_CALL, true);
  g_assert_nonnull (c);
  g_assert_cmpstr (c->variant, ==, "api=async/h2d/call/ahead=200/blocking=1");
  g_assert_cmpint (ms_sa_ahead_us (r), ==, 200);
  /* min-exp above max-exp: the same sizes. */
  MsResults *swapped = run_lesson (&rule_gpu, "min-exp=14,max-exp=10");
  g_assert_cmpuint (swapped->n_cells, ==, r->n_cells);
  ms_results_free (swapped);
  ms_results_free (r);
}

static void
test_caption (void)
{
  char buf[4096];
  MsResults *r = run_lesson (&rule_gpu, "");
  g_assert_true (ms_lesson_caption (MS_TOPIC_SYNC_ASYNC, r, -1, buf, sizeof buf));
  g_assert_nonnull (strstr (buf, "cudaMemcpyAsync from pageable memory to the device returned "
                                 "before the kernel ahead had finished up to 64 KiB"));
  /* The guide's 64 KiB rule is cudaMemcpy's: held against its cells. */
  g_assert_nonnull (strstr (buf, "cudaMemcpy from pageable memory to the device returned early "
                                 "up to 64 KiB and waited above, as the CUDA guide says."));
  g_assert_nonnull (strstr (buf, "returned early at every size"));
  g_assert_nonnull (strstr (buf, "every call blocked"));
  g_assert_nonnull (strstr (buf, "From the device to pageable memory it returned only once its "
                                 "copy was done, at every size."));
  /* The sizes the caption names, for the picture's ticks: the size that
   * waited too, as the caption says it ("and after it at 256 KiB"). */
  g_assert_nonnull (strstr (buf, "up to 64 KiB, and after it at 256 KiB."));
  int early, waited;
  ms_sa_pageable_sizes (r, &early, &waited);
  g_assert_cmpint (early, ==, 14);
  g_assert_cmpint (waited, ==, 16);
  ms_results_free (r);
  /* Where the rule does not hold, the caption says so, and where calls
   * still return early under CUDA_LAUNCH_BLOCKING. */
  r = run_lesson (&other_gpu, "");
  g_assert_true (ms_lesson_caption (MS_TOPIC_SYNC_ASYNC, r, -1, buf, sizeof buf));
  g_assert_nonnull (strstr (buf, "up to 256 KiB"));
  g_assert_nonnull (strstr (buf, "and after it at 1 MiB."));
  g_assert_nonnull (strstr (buf, "cudaMemcpy from pageable memory to the device returned early "
                                 "up to 256 KiB, where the CUDA guide says up to 64 KiB."));
  g_assert_null (strstr (buf, "every call blocked"));
  g_test_message ("%s", buf);
  g_assert_nonnull (strstr (buf, "14 of 56 calls still returned"));
  ms_sa_pageable_sizes (r, &early, &waited);
  g_assert_cmpint (early, ==, 16);
  g_assert_cmpint (waited, ==, 18);
  ms_results_free (r);
}

static void
test_round_trip (void)
{
  MsResults *r = run_lesson (&rule_gpu, "min-exp=12,max-exp=16");
  ms_results_free (ms_test_lesson_reread (MS_TOPIC_SYNC_ASYNC, r));
  ms_results_free (r);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/lesson/sync-async/options", test_options);
  g_test_add_func ("/lesson/sync-async/cells", test_cells);
  g_test_add_func ("/lesson/sync-async/caption", test_caption);
  g_test_add_func ("/lesson/sync-async/round-trip", test_round_trip);
  return g_test_run ();
}
