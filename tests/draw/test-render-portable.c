/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-render-portable.c: the portable lesson from a portable run of two
 * GPUs in use (the made-up fixture, tests/data/portable): its picture at
 * 1024x768 in presentation mode, light and dark, names the GPUs and the
 * file and draws each GPU's three buffers with their rates; the takeaway
 * is one line worked out from the rates the picture shows; the caption
 * names the file's GPUs; the shipped file is found by its name; with none
 * in use the one-GPU run's line comes back. */
#include <glib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ms-lesson-picture-test.h"
#include "ms-portable-file.h"
#include "ms-sweep-test.h"
#include "ms-tmp-test.h"

#define FIXTURE MS_TESTS_DATA_DIR "/portable/fixture-x2-portable.csv"

static MsResults *
pinned_sweep (void)
{
  MsSweep s;
  ms_test_sweep_init (&s, "pinned", 16, 18, 3);
  s.warmup = 0;
  return ms_test_sweep_run (&s, NULL);
}

static gboolean
drawn (const MsTestPicture *p, const char *text)
{
  for (guint i = 0; i < p->texts->len; i++)
    if (strstr (g_ptr_array_index (p->texts, i), text))
      return TRUE;
  return FALSE;
}

/* Whether the picture has an axis whose ticks start at "0" and end at a
 * round "N GB/s" of at least most. */
static gboolean
axis_from_zero (const MsTestPicture *p, double most)
{
  gboolean zero = FALSE, end = FALSE;
  for (guint i = 0; i < p->texts->len; i++) {
    const char *t = g_ptr_array_index (p->texts, i);
    int n, used = 0;
    zero = zero || strcmp (t, "0") == 0;
    if (sscanf (t, "%d GB/s%n", &n, &used) == 1 && used == (int) strlen (t) && n >= most)
      end = TRUE;
  }
  return zero && end;
}

static double
fastest (const MsPortableResults *p)
{
  double most = 0;
  for (int k = 0; k < MS_PORTABLE_COUNT; k++)
    for (int i = 0; i < p->n_devices; i++)
      most = MAX (most, p->cell[k][i].h2d_gbps);
  return most;
}

static MsPortableFile *
use_fixture (void)
{
  char err[512];
  MsPortableFile *file = ms_portable_file_read (FIXTURE, err, sizeof err);
  g_assert_nonnull (file);
  ms_lesson_portable_use (file, FIXTURE);
  return file;
}

static void
test_picture (void)
{
  g_autofree MsPortableFile *file = use_fixture ();
  MsResults *run = pinned_sweep ();
  for (int dark = 0; dark < 2; dark++) {
    MsTestPicture p;
    ms_test_picture_draw (&p, MS_TOPIC_PORTABLE, run, dark, 2);
    /* Why another host's GPUs, the GPUs (the file is the details'), the
     * case not tried, each GPU's name, every rate. */
    g_assert_true (drawn (&p, "On another host (2 × H100 80GB HBM3): copies of"));
    g_assert_true (drawn (&p, "This lesson needs two GPUs; this deck’s host has one. The bars "
                              "are not the Test GPU’s."));
    g_assert_false (drawn (&p, "fixture-x2-portable"));
    g_assert_true (drawn (&p, "GPU 1’s buffer."));
    g_assert_true (drawn (&p, "GPU 0 (H100 80GB HBM3)"));
    g_assert_true (drawn (&p, "GPU 1 (H100 80GB HBM3)"));
    g_assert_true (drawn (&p, "the portable buffer"));
    g_assert_true (drawn (&p, "GPU 0’s pinned buffer"));
    for (int k = 0; k < MS_PORTABLE_COUNT; k++)
      for (int i = 0; i < 2; i++) {
        g_autofree char *rate =
          g_strdup_printf ("%.1f GB/s", file->portable.cell[k][i].h2d_gbps);
        g_assert_true (drawn (&p, rate));
      }
    /* An axis of GB/s from 0 to a round value past the fastest bar. */
    g_assert_true (axis_from_zero (&p, fastest (&file->portable)));
    /* Not the one-GPU picture: no "not measured" rows. */
    g_assert_false (drawn (&p, "not measured"));
    ms_test_picture_clear (&p);
  }
  /* A failed copy says why in place of its bar. */
  file->portable.cell[MS_PORTABLE_FOREIGN][1].ok = FALSE;
  snprintf (file->portable.cell[MS_PORTABLE_FOREIGN][1].note,
            sizeof file->portable.cell[0][0].note, "out of memory");
  ms_lesson_portable_use (file, FIXTURE);
  MsTestPicture p;
  ms_test_picture_draw (&p, MS_TOPIC_PORTABLE, run, FALSE, 2);
  g_assert_true (drawn (&p, "failed: out of memory"));
  ms_test_picture_clear (&p);
  ms_lesson_portable_use (NULL, NULL);
  ms_results_free (run);
}

/* The line over the picture, for a run of one GPU beside the file of
 * two: whose GPUs the figures are (the run's one, the file's two), and
 * GPU 1's portable buffer against its own at the share its shown rates
 * give. */
static void
test_takeaway (void)
{
  g_autofree MsPortableFile *file = use_fixture ();
  MsResults *run = pinned_sweep ();
  char line[512], caption[1024];
  g_assert_cmpint (ms_lesson_takeaway (MS_TOPIC_PORTABLE, run, line, sizeof line), ==,
                   MS_TAKEAWAY_DECIDED);
  g_assert_cmpint (run->device.count, <=, 1);
  g_assert_cmpstr (run->device.name, ==, "Test GPU");
  /* The host it was measured on, named: not this GPU's figures. */
  g_autofree char *want = g_strdup_printf ("Measured on %d × H100: portable copied as fast as "
                                           "per-GPU pinned",
                                           file->portable.n_devices);
  g_assert_cmpstr (line, ==, want);
  g_assert_cmpint (g_utf8_strlen (line, -1), <=, 70);
  /* Not drawn faded: the file decides. */
  g_assert_false (ms_lesson_undecided (MS_TOPIC_PORTABLE, run));
  /* The portable buffer slower too: its share, from the rates. */
  file->portable.cell[MS_PORTABLE_SHARED][1].h2d_gbps = 26.9;
  ms_lesson_portable_use (file, FIXTURE);
  ms_lesson_portable_takeaway (run, NULL, line, sizeof line);
  g_assert_cmpstr (line, ==,
                   "Measured on 2 × H100: portable copied at 50% of per-GPU pinned");
  /* The caption names the file's GPUs. */
  g_assert_true (ms_lesson_caption (MS_TOPIC_PORTABLE, run, -1, caption, sizeof caption));
  g_assert_nonnull (strstr (caption, "With 2 GPUs (H100 80GB HBM3)"));
  /* None in use: the one-GPU run's line again. */
  ms_lesson_portable_use (NULL, NULL);
  g_assert_cmpint (ms_lesson_takeaway (MS_TOPIC_PORTABLE, run, line, sizeof line), ==,
                   MS_TAKEAWAY_UNDECIDED);
  g_assert_nonnull (strstr (line, "one GPU"));
  ms_results_free (run);
}

/* The shipped file: the first portable file of the folder by name,
 * compressed or not; none there, none in use. */
static void
test_shipped (void)
{
  char err[512];
  MsPortableFile *file = ms_portable_file_read (FIXTURE, err, sizeof err);
  g_assert_nonnull (file);
  const char *dir = ms_test_tmp_folder ("shipped");
  g_autofree char *b = g_build_filename (dir, "h200x2-portable.csv.gz", NULL);
  g_autofree char *a = g_build_filename (dir, "h100x2-portable.csv.gz", NULL);
  g_assert_true (ms_portable_file_write (file, b, err, sizeof err));
  g_assert_true (ms_portable_file_write (file, a, err, sizeof err));
  g_assert_true (ms_lesson_portable_use_shipped (dir, err, sizeof err));
  const char *name = NULL;
  g_assert_nonnull (ms_lesson_portable_shown (&name));
  g_assert_cmpstr (name, ==, "h100x2-portable");
  char source[256];
  g_autofree char *want = g_strdup_printf ("2 × H100 · %.10s · h100x2-portable", file->date);
  g_assert_true (ms_lesson_source (MS_TOPIC_PORTABLE, NULL, source, sizeof source));
  g_assert_cmpstr (source, ==, want);
  const char *empty = ms_test_tmp_folder ("empty");
  g_assert_false (ms_lesson_portable_use_shipped (empty, err, sizeof err));
  g_assert_nonnull (strstr (err, "no *-portable.csv"));
  g_assert_null (ms_lesson_portable_shown (&name));
  g_assert_false (ms_lesson_source (MS_TOPIC_PORTABLE, NULL, source, sizeof source));
  free (file);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/render/portable-picture", test_picture);
  g_test_add_func ("/render/portable-takeaway", test_takeaway);
  g_test_add_func ("/render/portable-shipped", test_shipped);
  int rc = g_test_run ();
  ms_test_tmp_clean ();
  return rc;
}
