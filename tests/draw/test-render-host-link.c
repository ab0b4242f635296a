/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-render-host-link.c: the host-link lesson from a run of four GPUs in
 * use (the fixture converted from the 4x H200 log, tests/data/host-link):
 * its picture at 1024x768 in presentation mode, light and dark, names the
 * GPUs, date and file and draws every direction's two totals as the file
 * gives them, on an axis from 0; the takeaway and the caption come from
 * the file's figures (changed, they change); where the GPUs kept up the
 * other wording; with no run of several GPUs the lesson says what makes
 * one; the shipped run of two GPUs, and one of four shipped beside it
 * the one shown. Under LC_ALL=zh_CN.UTF-8 (its second test) the same,
 * translated. */
#include <glib.h>
#include <libintl.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ms-host-link-file.h"
#include "ms-i18n.h"
#include "ms-lesson-picture-test.h"
#include "ms-sweep-test.h"
#include "ms-tmp-test.h"

#define FIXTURE MS_TEST_HOST_LINK_RUN

static gboolean zh;

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

static MsHostLinkFile *
use_fixture (void)
{
  char err[512];
  MsHostLinkFile *file = ms_host_link_file_read (FIXTURE, err, sizeof err);
  g_assert_nonnull (file);
  ms_lesson_host_link_use (file, FIXTURE);
  return file;
}

/* The largest size's slot, which the picture and the takeaway show. */
static int
largest (const MsHostLinkResults *r)
{
  int s = 0;
  for (int i = 1; i < r->n_sizes; i++)
    s = r->exps[i] > r->exps[s] ? i : s;
  return s;
}

static void
test_picture (void)
{
  g_autofree MsHostLinkFile *file = use_fixture ();
  const MsHostLinkResults *r = &file->link;
  MsResults *run = pinned_sweep ();
  int s = largest (r);
  for (int dark = 0; dark < 2; dark++) {
    MsTestPicture p;
    ms_test_picture_draw (&p, MS_TOPIC_HOST_LINK, run, dark, 2);
    /* Whose run: the GPUs and the date. */
    g_autofree char *whose = g_strdup_printf (ms_gettext ("A run measured on a host with %d × "
                                                          "%s on %s"),
                                              4, "H200", "2026-11-27");
    g_assert_true (drawn (&p, whose));
    /* Every total as the file gives it, in the words beside its bar. */
    for (int d = 0; d < MS_HOST_LINK_COUNT; d++)
      for (int k = 0; k < 2; k++) {
        g_autofree char *rate = g_strdup_printf (ms_gettext ("%.1f GB/s"),
                                                 ms_host_link_total (r, d, s, k == 1));
        g_assert_true (drawn (&p, rate));
      }
    g_assert_true (drawn (&p, "0"));
    g_assert_true (drawn (&p, zh ? "主机到 GPU" : "Host to the GPUs"));
    ms_test_picture_clear (&p);
  }
  ms_lesson_host_link_use (NULL, NULL);
  ms_results_free (run);
}

/* The lowest and highest share, in per cent, of the three directions. */
static void
shares (const MsHostLinkResults *r, int s, double *lo, double *hi)
{
  *lo = 100, *hi = 0;
  for (int d = 0; d < MS_HOST_LINK_COUNT; d++) {
    double q = 100 * ms_host_link_total (r, d, s, TRUE) / ms_host_link_total (r, d, s, FALSE);
    *lo = MIN (*lo, q), *hi = MAX (*hi, q);
  }
}

/* The line over the picture: the file's figures at its largest size. */
static void
test_takeaway (void)
{
  g_autofree MsHostLinkFile *file = use_fixture ();
  const MsHostLinkResults *r = &file->link;
  MsResults *run = pinned_sweep ();
  char line[512];
  g_assert_cmpint (ms_lesson_takeaway (MS_TOPIC_HOST_LINK, run, line, sizeof line), ==,
                   MS_TAKEAWAY_DECIDED);
  int s = largest (r);
  /* The answer first, then the shares the bars of all at once give. */
  double lo, hi;
  shares (r, s, &lo, &hi);
  g_autofree char *want = g_strdup_printf (
    ms_gettext ("No: %d × %s%s at once got %.0f–%.0f%% of one at a time"), 4, "H200", "", lo, hi);
  g_assert_cmpstr (line, ==, want);
  g_assert_cmpint (g_utf8_strlen (line, -1), <=, 70);
  /* Every GPU at once as fast as alone: the other line. */
  for (int d = 0; d < MS_HOST_LINK_COUNT; d++)
    for (int t = 0; t < r->n_sizes; t++)
      for (int i = 0; i < r->n_devices; i++)
        file->link.together[d][t][i] = r->alone[d][t][i];
  ms_lesson_host_link_use (file, FIXTURE);
  ms_lesson_takeaway (MS_TOPIC_HOST_LINK, run, line, sizeof line);
  g_autofree char *kept = g_strdup_printf (
    ms_gettext ("%d × %s at once: each GPU copied as fast as alone"), 4, "H200");
  g_assert_cmpstr (line, ==, kept);
  ms_lesson_host_link_use (NULL, NULL);
  ms_results_free (run);
}

/* The caption: the file's ranges over its sizes, and its wording where
 * the host side kept up. */
static void
test_caption (void)
{
  g_autofree MsHostLinkFile *file = use_fixture ();
  MsResults *run = pinned_sweep ();
  char caption[2048];
  g_assert_true (ms_lesson_caption (MS_TOPIC_HOST_LINK, run, -1, caption, sizeof caption));
  g_test_message ("%s", caption);
  MsHostLinkFigures f;
  g_assert_true (ms_lesson_host_link_figures (file, &f));
  /* From the log: all at once to the GPUs 154.3 to 159.0 GB/s in all,
   * 0.70 to 0.72 of alone; back 127.6 to 166.5. */
  g_assert_cmpfloat (fabs (f.total[MS_HOST_LINK_H2D].lo - 154.2), <, 0.15);
  g_assert_cmpfloat (fabs (f.total[MS_HOST_LINK_D2H].lo - 127.6), <, 0.15);
  g_autofree char *h2d = g_strdup_printf (ms_gettext ("%.0f to %.0f GB/s"),
                                          f.total[MS_HOST_LINK_H2D].lo,
                                          f.total[MS_HOST_LINK_H2D].hi);
  g_assert_nonnull (strstr (caption, h2d));
  g_autofree char *ratio = g_strdup_printf (ms_gettext ("%.2f to %.2f"),
                                            f.ratio[MS_HOST_LINK_H2D].lo,
                                            f.ratio[MS_HOST_LINK_H2D].hi);
  g_assert_nonnull (strstr (caption, ratio));
  if (!zh) {
    g_assert_nonnull (strstr (caption, "4 × H200 (2026-11-27)"));
    g_assert_nonnull (strstr (caption, "154 to 159 GB/s in all, 0.70 to 0.72 of each alone"));
    g_assert_nonnull (strstr (caption, "not each card's own link"));
  }
  /* Other figures, another caption: 10 GB/s more for GPU 0 at once. */
  for (int t = 0; t < file->link.n_sizes; t++)
    file->link.together[MS_HOST_LINK_H2D][t][0] += 10;
  ms_lesson_host_link_use (file, FIXTURE);
  char again[2048];
  g_assert_true (ms_lesson_caption (MS_TOPIC_HOST_LINK, run, -1, again, sizeof again));
  g_assert_cmpstr (again, !=, caption);
  ms_lesson_host_link_use (NULL, NULL);
  ms_results_free (run);
}

/* The shipped run shown (data/reference): the one of four H200s, where
 * the host side saturated one way (beside it ships one of two, where one
 * way kept up and both ways did not). The slide says how many GPUs, that
 * it is a reference run measured on another host, and its line comes from
 * its figures. */
static void
test_shipped (void)
{
  ms_lesson_host_link_use (NULL, NULL);
  MsResults *run = pinned_sweep ();
  const char *name;
  const MsHostLinkFile *file = ms_lesson_host_link_shown (run, &name);
  g_assert_nonnull (file);
  const MsHostLinkResults *r = &file->link;
  MsLessonElsewhere e;
  g_assert_true (ms_lesson_elsewhere (MS_TOPIC_HOST_LINK, run, &e));
  g_assert_true (e.reference);
  g_assert_cmpint (e.n_devices, ==, r->n_devices);
  char line[512], caption[2048];
  g_assert_cmpint (ms_lesson_takeaway (MS_TOPIC_HOST_LINK, run, line, sizeof line), ==,
                   MS_TAKEAWAY_DECIDED);
  g_assert_true (ms_lesson_caption (MS_TOPIC_HOST_LINK, run, -1, caption, sizeof caption));
  g_test_message ("%s: %s\n%s", name, line, caption);
  g_assert_cmpint (g_utf8_strlen (line, -1), <=, 75);
  if (r->n_devices == 2 && !zh) {
    int s = largest (r);
    g_autofree char *want = g_strdup_printf (
      "2 × H200 at once: as fast as alone one way; both ways %.0f GB/s, not %.0f",
      ms_host_link_total (r, MS_HOST_LINK_BOTH, s, TRUE),
      ms_host_link_total (r, MS_HOST_LINK_BOTH, s, FALSE));
    g_assert_cmpstr (line, ==, want);
    g_assert_nonnull (strstr (caption, "A reference run, measured on another host with 2 × H200"));
    g_assert_nonnull (strstr (caption, "The 2 GPUs at once"));
    g_assert_nonnull (strstr (caption, "Both ways at once it did not"));
  }
  if (r->n_devices == 4 && !zh) {
    int s = largest (r);
    /* A reference run: the answer, its GPUs tagged as another host's,
     * its per-GPU rate left to the picture's note, which says whose it
     * is. */
    double lo, hi;
    shares (r, s, &lo, &hi);
    g_autofree char *want = g_strdup_printf (
      "No: 4 × H200 (another host) at once got %.0f–%.0f%% of one at a time", lo, hi);
    g_assert_cmpstr (line, ==, want);
    g_assert_nonnull (strstr (caption, "A reference run, measured on another host with 4 × H200"));
    g_assert_nonnull (strstr (caption, "The 4 GPUs at once"));
  }
  MsTestPicture p;
  ms_test_picture_draw (&p, MS_TOPIC_HOST_LINK, run, FALSE, 2);
  g_autofree char *gpus = g_strdup_printf (ms_gettext ("A reference run, measured on another "
                                                       "host with %d × %s on %s"),
                                           e.n_devices, e.model, e.day);
  g_assert_true (drawn (&p, gpus));
  ms_test_picture_clear (&p);
  ms_results_free (run);
}

/* A run of four GPUs shipped beside the one of two is the one shown, with
 * no change to the code: a folder of both (the fixture written as
 * h200x4-host-link.csv.gz), read in a process of its own, as the shipped
 * runs are read once. */
static void
test_four_shipped (void)
{
  if (g_test_subprocess ()) {
    g_setenv ("MEMSWEEP_REFERENCE_DIR", g_getenv ("MS_TEST_FOUR_DIR"), TRUE);
    MsResults *run = pinned_sweep ();
    const char *name = NULL;
    const MsHostLinkFile *file = ms_lesson_host_link_shown (run, &name);
    g_assert_nonnull (file);
    g_assert_cmpstr (name, ==, "h200x4-host-link");
    g_assert_cmpint (file->link.n_devices, ==, 4);
    MsLessonElsewhere e;
    g_assert_true (ms_lesson_elsewhere (MS_TOPIC_HOST_LINK, run, &e));
    g_assert_true (e.reference);
    g_assert_cmpint (e.n_devices, ==, 4);
    ms_results_free (run);
    return;
  }
  char err[512];
  g_autofree MsHostLinkFile *four = ms_host_link_file_read (FIXTURE, err, sizeof err);
  g_assert_nonnull (four);
  const char *dir = ms_test_tmp_folder ("four");
  g_autofree char *path = g_build_filename (dir, "h200x4-host-link.csv.gz", NULL);
  g_assert_true (ms_host_link_file_write (four, path, err, sizeof err));
  const char *ref = g_getenv ("MEMSWEEP_REFERENCE_DIR");
  g_assert_nonnull (ref);
  g_autofree char *two = g_build_filename (ref, "h200x2-host-link.csv.gz", NULL);
  g_autofree MsHostLinkFile *shipped = ms_host_link_file_read (two, err, sizeof err);
  g_assert_nonnull (shipped);
  g_autofree char *copy = g_build_filename (dir, "h200x2-host-link.csv.gz", NULL);
  g_assert_true (ms_host_link_file_write (shipped, copy, err, sizeof err));
  g_setenv ("MS_TEST_FOUR_DIR", dir, TRUE);
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

/* No run of several GPUs given, and none shipped (an empty folder): the
 * lesson says what makes one, and its picture too. */
static void
test_missing (void)
{
  MsHostLinkFile one = { .link = { .n_devices = 1 } };
  ms_lesson_host_link_use (&one, "one-host-link.csv");
  g_assert_null (ms_lesson_host_link_shown (NULL, NULL));
  MsResults *run = pinned_sweep ();
  char line[512], caption[1024], source[256];
  g_assert_cmpint (ms_lesson_takeaway (MS_TOPIC_HOST_LINK, run, line, sizeof line), ==,
                   MS_TAKEAWAY_MISSING);
  g_assert_false (ms_lesson_caption (MS_TOPIC_HOST_LINK, run, -1, caption, sizeof caption));
  g_assert_nonnull (strstr (caption, "memsweep host-link --out PREFIX"));
  g_assert_false (ms_lesson_source (MS_TOPIC_HOST_LINK, run, source, sizeof source));
  MsTestPicture p;
  ms_test_picture_draw (&p, MS_TOPIC_HOST_LINK, run, FALSE, 2);
  g_assert_true (drawn (&p, "memsweep"));
  ms_test_picture_clear (&p);
  ms_lesson_host_link_use (NULL, NULL);
  ms_results_free (run);
}

int
main (int argc, char **argv)
{
  setlocale (LC_ALL, "");
  ms_i18n_bind ();
  textdomain (GETTEXT_PACKAGE);
  zh = g_str_has_prefix (setlocale (LC_MESSAGES, NULL), "zh_CN");
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/render-host-link/picture", test_picture);
  g_test_add_func ("/render-host-link/takeaway", test_takeaway);
  g_test_add_func ("/render-host-link/caption", test_caption);
  g_test_add_func ("/render-host-link/shipped", test_shipped);
  g_test_add_func ("/render-host-link/four-shipped", test_four_shipped);
  g_test_add_func ("/render-host-link/missing", test_missing);
  return g_test_run ();
}
