/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-lesson-intensity.c: the intensity lesson (engine/lessons/ms-lesson-intensity.c):
 * its options, its cells, its caption from a model where zero-copy wins
 * once the arithmetic hides the link and from one where it never does,
 * the variants through the samples file, and its picture. */
#include "lessons/ms-lesson-table.h"
#include "model/ms-results.h"
#include "ms-lesson-picture-test.h"
#include "ms-sweep-test.h"

#define NAME "intensity"

static void
test_options (void)
{
  char err[256];
  g_assert_true (ms_lesson_check_options (NAME, "exp=20,max-fma=64", err, sizeof err));
  ms_test_option_refused (NAME, "fma=4", "no option");
  ms_test_option_refused (NAME, "max-fma=2048", "outside");
  ms_test_option_refused (NAME, "exp=9", "outside");
  ms_test_option_refused (NAME, "max-fma=4.5", "whole number");
}

static void
test_cells (void)
{
  MsProbeCell cells[MS_PROBE_MAX_CELLS];
  int n = ms_test_lesson_cells (NAME, "", cells, MS_PROBE_MAX_CELLS);
  g_assert_cmpint (n, ==, 12); /* F = 1, 4, 16, 64, 256, 1024, two modes */
  ms_test_cells_unique (cells, n);
  g_assert_cmpstr (cells[0].variant, ==, "mode=zero-copy/F=1");
  g_assert_cmpint (cells[0].mode, ==, MS_MODE_ZERO_COPY);
  g_assert_cmpint (cells[0].exponent, ==, 22);
  g_assert_cmpstr (cells[5].variant, ==, "mode=pinned/F=16");
  g_assert_cmpint (cells[5].mode, ==, MS_MODE_PINNED);
  g_assert_cmpint (cells[5].arg[0], ==, 16);
  g_assert_cmpint (cells[5].arg[1], ==, 0);
  /* max-fma ends the list even off the powers of four. */
  n = ms_test_lesson_cells (NAME, "max-fma=100,exp=18", cells, MS_PROBE_MAX_CELLS);
  g_assert_cmpint (n, ==, 10);
  g_assert_cmpstr (cells[n - 1].variant, ==, "mode=pinned/F=100");
  g_assert_cmpint (cells[n - 1].exponent, ==, 18);
}

/* Pinned: copies (3 units) then the kernel; zero-copy: the link and the
 * arithmetic overlap, one unit of link slower than the copies. */
static MsCellStatus
model_wins (const MsProbeArgs *a, MsProbeSample *out, void *user)
{
  (void)user;
  double link = 3000, kernel = 10.0 * a->arg[0];
  out->value_us = a->mode == MS_MODE_ZERO_COPY ? MAX (1.3 * link, kernel) : link + kernel;
  return MS_CELL_OK;
}

/* Zero-copy twice as slow at every F. */
static MsCellStatus
model_never (const MsProbeArgs *a, MsProbeSample *out, void *user)
{
  (void)user;
  double t = 3000 + 10.0 * a->arg[0];
  out->value_us = a->mode == MS_MODE_ZERO_COPY ? 2 * t : t;
  return MS_CELL_OK;
}

/* Zero-copy faster at F = 1, slower at F = 4, faster again after. */
static MsCellStatus
model_mixed (const MsProbeArgs *a, MsProbeSample *out, void *user)
{
  (void)user;
  double t = 3000 + 10.0 * a->arg[0];
  double zc = a->arg[0] == 4 ? 1.5 : 0.8;
  out->value_us = a->mode == MS_MODE_ZERO_COPY ? zc * t : t;
  return MS_CELL_OK;
}

/* Faster at F = 1 is not "faster at every F" when a larger F loses. */
static void
test_caption_mixed (void)
{
  MsResults *r = ms_test_lesson_run (NAME, "max-fma=64", model_mixed);
  char buf[2048] = "";
  g_assert_true (ms_lesson_caption (MS_TOPIC_INTENSITY, r, -1, buf, sizeof buf));
  g_test_message ("%s", buf);
  g_assert_null (strstr (buf, "at every F measured"));
  g_assert_nonnull (strstr (buf, "first won at F = 1, though not at every larger F"));
  ms_results_free (r);
}

static MsCellStatus
model_always (const MsProbeArgs *a, MsProbeSample *out, void *user)
{
  (void)user;
  double t = 3000 + 10.0 * a->arg[0];
  out->value_us = a->mode == MS_MODE_ZERO_COPY ? 0.5 * t : t;
  return MS_CELL_OK;
}

static void
test_caption_always (void)
{
  MsResults *r = ms_test_lesson_run (NAME, "max-fma=16", model_always);
  char buf[2048] = "";
  g_assert_true (ms_lesson_caption (MS_TOPIC_INTENSITY, r, -1, buf, sizeof buf));
  g_assert_nonnull (strstr (buf, "No extra arithmetic was needed for zero-copy to win: it was "
                                 "faster than pinned at every F measured"));
  ms_results_free (r);
}

static void
test_caption_wins (void)
{
  MsResults *r = ms_test_lesson_run (NAME, "", model_wins);
  g_assert_cmpuint (r->n_cells, ==, 12);
  char buf[2048] = "";
  g_assert_true (ms_lesson_caption (MS_TOPIC_INTENSITY, r, -1, buf, sizeof buf));
  g_test_message ("%s", buf);
  g_assert_nonnull (strstr (buf, "F = 1: 1.30"));
  /* F = 256: max (3900, 2560) / 5560 < 1, F = 64: 3900 / 3640 > 1. */
  g_assert_nonnull (strstr (buf, "first won at F = 256, and at every larger F"));
  ms_test_variants_round_trip (r);
  ms_test_picture_renders (MS_TOPIC_INTENSITY, r);
  ms_results_free (r);
}

static void
test_caption_never (void)
{
  MsResults *r = ms_test_lesson_run (NAME, "max-fma=64", model_never);
  char buf[2048] = "";
  g_assert_true (ms_lesson_caption (MS_TOPIC_INTENSITY, r, -1, buf, sizeof buf));
  g_test_message ("%s", buf);
  g_assert_nonnull (strstr (buf, "never won"));
  g_assert_nonnull (strstr (buf, "F = 64: 2.00"));
  ms_test_picture_renders (MS_TOPIC_INTENSITY, r);
  ms_results_free (r);
}

static void
test_caption_missing (void)
{
  MsResults *r = ms_test_results_new (NAME);
  char buf[512] = "";
  g_assert_false (ms_lesson_caption (MS_TOPIC_INTENSITY, r, -1, buf, sizeof buf));
  ms_test_picture_renders (MS_TOPIC_INTENSITY, r);
  ms_results_free (r);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/lesson/intensity/options", test_options);
  g_test_add_func ("/lesson/intensity/cells", test_cells);
  g_test_add_func ("/lesson/intensity/caption-wins", test_caption_wins);
  g_test_add_func ("/lesson/intensity/caption-never", test_caption_never);
  g_test_add_func ("/lesson/intensity/caption-missing", test_caption_missing);
  g_test_add_func ("/lesson/intensity/caption-mixed", test_caption_mixed);
  g_test_add_func ("/lesson/intensity/caption-always", test_caption_always);
  return g_test_run ();
}
