/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-lesson-copy-kinds.c: the copy-kinds lesson (engine/lessons/ms-lesson-copy-kinds.c):
 * its options, its cells, the caption from a model where every device
 * pointer is given and from one where registering without Mapped is
 * refused (the error carried to the caption and the card), the rates from
 * the medians, the variants through the samples file, and its picture. */
#include "lessons/ms-lesson-table.h"
#include "model/ms-results.h"
#include "ms-lesson-copy-kinds.h"
#include "ms-lesson-picture-test.h"

#define NAME "copy-kinds"

static void
test_options (void)
{
  char err[256];
  g_assert_true (ms_lesson_check_options (NAME, "exp=20", err, sizeof err));
  ms_test_option_refused (NAME, "exp=28", "outside");
  ms_test_option_refused (NAME, "exp=2e1x", "whole number");
  ms_test_option_refused (NAME, "size=20", "no option");
}

static void
test_cells (void)
{
  MsProbeCell cells[MS_PROBE_MAX_CELLS];
  int n = ms_test_lesson_cells (NAME, "exp=20", cells, MS_PROBE_MAX_CELLS);
  g_assert_cmpint (n, ==, MS_COPY_FACT_COUNT);
  ms_test_cells_unique (cells, n);
  for (int i = 0; i < n; i++) {
    g_assert_cmpint (cells[i].exponent, ==, 20);
    g_assert_cmpint (cells[i].arg[0], ==, i);
    g_assert_cmpint (cells[i].mode, ==, ms_copy_fact_info (i)->mode);
  }
  g_assert_cmpstr (cells[MS_COPY_FACT_D2D].variant, ==, "copy=d2d");
  g_assert_cmpint (cells[MS_COPY_FACT_READ_WC].mode, ==, MS_MODE_WRITE_COMBINED);
}

/* GB/s per fact: a copy of b bytes at g GB/s takes b / (g * 1e3) µs. */
static const double gbps[MS_COPY_FACT_COUNT] = { 20, 8, 1500, 50, 40, 0, 0, 0, 25, 12.5 };

static MsCellStatus
model (const MsProbeArgs *a, MsProbeSample *out, bool refuse_default)
{
  int f = a->arg[0];
  if (f == MS_COPY_FACT_MAP_REGISTER_DEFAULT && refuse_default) {
    snprintf (out->error, sizeof out->error,
              "cudaHostGetDevicePointer: invalid argument (cudaErrorInvalidValue)");
    return MS_CELL_UNSUPPORTED;
  }
  out->value_us = gbps[f] > 0 ? (double)a->bytes / (gbps[f] * 1e3) : 2;
  return MS_CELL_OK;
}

static MsCellStatus
model_all (const MsProbeArgs *a, MsProbeSample *out, void *user)
{
  (void)user;
  return model (a, out, false);
}

static MsCellStatus
model_refused (const MsProbeArgs *a, MsProbeSample *out, void *user)
{
  (void)user;
  return model (a, out, true);
}

static void
test_all_hold (void)
{
  MsResults *r = ms_test_lesson_run (NAME, "exp=20", model_all);
  g_assert_cmpfloat_with_epsilon (ms_copy_fact_rate (r, MS_COPY_FACT_H2D), 50, 1e-6);
  g_assert_cmpfloat (ms_copy_fact_rate (r, MS_COPY_FACT_MAP_MALLOC_HOST), ==, 0);
  char buf[4096] = "";
  g_assert_true (ms_lesson_caption (MS_TOPIC_COPY_KINDS, r, -1, buf, sizeof buf));
  g_test_message ("%s", buf);
  g_assert_nonnull (strstr (buf, "Copies within the GPU ran 30× as fast"));
  g_assert_nonnull (strstr (buf, "50.0 GB/s host to device from pinned memory"));
  /* Which figure it is: one large copy timed alone, with its count. */
  const MsCell *h2d = ms_copy_fact_cell (r, MS_COPY_FACT_H2D);
  g_autofree char *what =
    g_strdup_printf ("one 4 MiB cudaMemcpy, median of %d",
                     h2d->n_reps);
  g_assert_nonnull (strstr (buf, what));
  g_assert_nonnull (strstr (buf, "1500.0 GB/s device to device"));
  g_assert_nonnull (strstr (buf, "even registered without the Mapped flag"));
  g_assert_nonnull (strstr (buf, "(12.5 write-combined: 2.00× slower)"));
  ms_test_variants_round_trip (r);
  ms_test_picture_renders (MS_TOPIC_COPY_KINDS, r);
  ms_results_free (r);
}

static void
test_refused (void)
{
  MsResults *r = ms_test_lesson_run (NAME, "exp=18", model_refused);
  const MsCell *c = ms_copy_fact_cell (r, MS_COPY_FACT_MAP_REGISTER_DEFAULT);
  g_assert_nonnull (c);
  g_assert_cmpint (c->status, ==, MS_CELL_UNSUPPORTED);
  char buf[4096] = "";
  g_assert_true (ms_lesson_caption (MS_TOPIC_COPY_KINDS, r, -1, buf, sizeof buf));
  g_test_message ("%s", buf);
  g_assert_nonnull (strstr (buf, "failed (cudaHostGetDevicePointer: invalid argument "
                                 "(cudaErrorInvalidValue)) without it"));
  g_assert_nonnull (strstr (buf, "worked on memory registered with the Mapped flag"));
  ms_test_variants_round_trip (r);
  ms_test_picture_renders (MS_TOPIC_COPY_KINDS, r);
  ms_results_free (r);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/lesson/copy-kinds/options", test_options);
  g_test_add_func ("/lesson/copy-kinds/cells", test_cells);
  g_test_add_func ("/lesson/copy-kinds/all-hold", test_all_hold);
  g_test_add_func ("/lesson/copy-kinds/refused", test_refused);
  return g_test_run ();
}
