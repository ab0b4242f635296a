/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-reference-completeness.c: whether the shipped reference runs
 * (data/reference/) hold every lesson and every mode on both GPUs. A
 * lesson or a mode added without a GPU has none yet: this test names the
 * missing runs and the tools/gpu.sh command that makes them on a GPU
 * machine, and skips (77) with that message, so that the tests which read
 * the reference runs (the takeaways, the drawings) leave it out instead of
 * failing. What it fails on: a reference run that cannot be read or is not
 * its lesson's, and a sweep lesson that tools/gpu.sh would not run as one. */
#include <glib.h>
#include <stdio.h>
#include <string.h>

#include "lessons/ms-run-read.h"
#include "memsweep.h"
#include "model/ms-results.h"
#include "ms-lesson-caption.h"
#include "ms-lesson-record.h"
#include "ms-modes.h"
#include "ms-tmp-test.h"

static const char *const gpus[] = { "h100", "h200" };

/* Set when the shipped runs lack some: the program then exits 77. */
static gboolean shipped_incomplete;

static const char *
topic_name (MsLessonTopic t)
{
  return ms_lesson_topic (t)->name;
}

/* The command that records topic's reference run on gpu, and where its
 * files land. The sweep lessons' runs are those of the lesson checks (4 and
 * 16 MiB, 5 repetitions); a probe lesson runs with its defaults. */
static char *
lesson_command (const char *gpu, MsLessonTopic t)
{
  gboolean sweep = ms_lesson_kind (t) == MS_LESSON_KIND_SWEEP;
  const char *steps = sweep ? "lesson-checks reference pack" : "probe-lessons pack";
  return g_strdup_printf ("OUT=gpu-out REFERENCE=%s LESSONS=%s bash tools/gpu.sh %s, then copy "
                          "gpu-out/reference/%s-lesson-%s-* into data/reference/",
                          gpu, topic_name (t), steps, gpu, topic_name (t));
}

/* The modes that gpu's default reference run measured; FALSE where the
 * run is not shipped. */
static gboolean
default_run_modes (const char *dir, const char *gpu, gboolean has[MS_MODE_COUNT])
{
  memset (has, 0, MS_MODE_COUNT * sizeof *has);
  g_autofree char *path = g_strdup_printf ("%s/%s-default-samples.csv.gz", dir, gpu);
  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    return FALSE;
  char err[256] = "";
  MsResults *r = ms_run_read_samples (path, err, sizeof err);
  if (!r)
    g_error ("%s: %s", path, err);
  for (size_t i = 0; i < r->n_cells; i++)
    if ((unsigned) r->cells[i].mode < MS_MODE_COUNT)
      has[r->cells[i].mode] = TRUE;
  ms_results_free (r);
  return TRUE;
}

/* One line per missing run of gpu in dir, into missing. */
static void
find_missing_modes (const char *dir, const char *gpu, GString *missing)
{
  gboolean has[MS_MODE_COUNT];
  gboolean shipped = default_run_modes (dir, gpu, has);
  GString *modes = g_string_new (NULL);
  for (int m = 0; m < MS_MODE_COUNT; m++)
    if (!has[m])
      g_string_append_printf (modes, "%s%s", modes->len ? ", " : "", ms_mode_name ((MsMode) m));
  if (modes->len)
    g_string_append_printf (missing,
                            "%s: the default sweep %s (%s-default-*, which the plain lessons and "
                            "the drawings read) lacks mode %s: OUT=gpu-out REFERENCE=%s bash "
                            "tools/gpu.sh reference pack, then copy "
                            "gpu-out/reference/%s-default-* into data/reference/\n",
                            gpu, shipped ? "run" : "run is not shipped", gpu, modes->str, gpu,
                            gpu);
  g_string_free (modes, TRUE);
}

static void
find_missing_lessons (const char *dir, const char *gpu, GString *missing)
{
  for (int t = 0; t < MS_TOPIC_COUNT; t++) {
    if (ms_lesson_kind ((MsLessonTopic) t) == MS_LESSON_KIND_PLAIN)
      continue; /* a plain sweep of its modes: the default run */
    g_autofree char *path = g_strdup_printf ("%s/%s-lesson-%s-samples.csv.gz", dir, gpu,
                                             topic_name ((MsLessonTopic) t));
    if (g_file_test (path, G_FILE_TEST_EXISTS)) {
      char err[256] = "";
      MsResults *r = ms_run_read_samples (path, err, sizeof err);
      if (!r)
        g_error ("%s: %s", path, err);
      g_assert_true (ms_lesson_topic_matches ((MsLessonTopic) t, r));
      ms_results_free (r);
      continue;
    }
    g_autofree char *command = lesson_command (gpu, (MsLessonTopic) t);
    g_string_append_printf (missing, "%s: lesson %s has no reference run: %s\n", gpu,
                            topic_name ((MsLessonTopic) t), command);
  }
}

/* Every missing reference run of dir, one line each with its command. */
static char *
missing_runs (const char *dir)
{
  GString *missing = g_string_new (NULL);
  for (size_t g = 0; g < G_N_ELEMENTS (gpus); g++) {
    find_missing_modes (dir, gpus[g], missing);
    find_missing_lessons (dir, gpus[g], missing);
  }
  return g_string_free (missing, FALSE);
}

/* The shipped runs: complete, or the missing ones named and skipped. */
static void
test_shipped (void)
{
  g_autofree char *missing = missing_runs (MS_REFERENCE_DIR);
  if (!*missing)
    return;
  /* Printed whole: meson's log keeps it, and the skip's reason is one line. */
  g_printerr ("Reference runs missing; on a GPU machine (HACKING.md, \"The gpu suite\"):\n%s",
              missing);
  g_test_skip ("reference runs missing (listed above), to be made on a GPU machine");
  shipped_incomplete = TRUE;
}

/* The report itself, on a folder that holds one lesson's runs: every other
 * lesson and every mode are named, each with its command. */
static void
test_names_what_is_missing (void)
{
  const char *dir = ms_test_tmp_folder ("reference");
  static const char *const parts[] = { "samples.csv.gz", "summary.csv.gz", "meta.json" };
  for (size_t g = 0; g < G_N_ELEMENTS (gpus); g++)
    for (size_t p = 0; p < G_N_ELEMENTS (parts); p++) {
      g_autofree char *name = g_strdup_printf ("%s-lesson-duplex-%s", gpus[g], parts[p]);
      g_autofree char *from = g_build_filename (MS_REFERENCE_DIR, name, NULL);
      g_autofree char *to = g_build_filename (dir, name, NULL);
      g_autofree char *text = NULL;
      gsize len;
      g_assert_true (g_file_get_contents (from, &text, &len, NULL));
      g_assert_true (g_file_set_contents (to, text, (gssize) len, NULL));
    }
  g_autofree char *missing = missing_runs (dir);
  /* "has" after the name: a lesson named duplex-... would match "lesson duplex". */
  g_assert_null (strstr (missing, "lesson duplex has"));
  g_assert_nonnull (strstr (missing, "h200: lesson reuse has no reference run: OUT=gpu-out "
                                     "REFERENCE=h200 LESSONS=reuse bash tools/gpu.sh "
                                     "lesson-checks reference pack"));
  g_assert_nonnull (strstr (missing, "h100: lesson batched has no reference run: OUT=gpu-out "
                                     "REFERENCE=h100 LESSONS=batched bash tools/gpu.sh "
                                     "probe-lessons pack"));
  g_assert_null (strstr (missing, "lesson pinned-pageable"));
  for (int m = 0; m < MS_MODE_COUNT; m++)
    g_assert_nonnull (strstr (missing, ms_mode_name ((MsMode) m)));
  g_assert_nonnull (strstr (missing, "REFERENCE=h200 bash tools/gpu.sh reference pack"));
}

/* tools/gpu.sh runs a lesson as a sweep lesson (4 and 16 MiB, its checks)
 * only when SWEEP_LESSONS names it; else it would run with a probe's
 * defaults and never become a reference run of its kind. The script reads
 * them from the lesson list (the SWEEP lines), each lesson's C name with
 * '-' for '_': which must then be a sweep lesson's name. */
static void
test_gpu_script_knows_sweep_lessons (void)
{
  g_autofree char *script = NULL;
  g_assert_true (g_file_get_contents (MS_GPU_SCRIPT, &script, NULL, NULL));
  const char *line = strstr (script, "\nSWEEP_LESSONS=$(sed ");
  g_assert_nonnull (line);
  g_assert_nonnull (strstr (line, "ms-lesson-list.h"));
#define C_NAME(ID, name, KIND, LOOK) #name,
  static const char *const c_names[] = { MS_LESSON_LIST (C_NAME) };
#undef C_NAME
  g_assert_cmpint (G_N_ELEMENTS (c_names), ==, MS_TOPIC_COUNT);
  for (int t = 0; t < MS_TOPIC_COUNT; t++) {
    g_autofree char *dashed = g_strdelimit (g_strdup (c_names[t]), "_", '-');
    if (ms_lesson_kind ((MsLessonTopic) t) == MS_LESSON_KIND_SWEEP)
      g_assert_cmpstr (dashed, ==, topic_name ((MsLessonTopic) t));
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/reference/names-what-is-missing", test_names_what_is_missing);
  g_test_add_func ("/reference/gpu-script-sweep-lessons", test_gpu_script_knows_sweep_lessons);
  g_test_add_func ("/reference/shipped", test_shipped);
  int rc = g_test_run ();
  /* g_test_run says 77 only when every case skipped. */
  return rc == 0 && shipped_incomplete ? 77 : rc;
}
