/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-render-probe-pictures.c: every probe lesson's picture
 * (draw/ms-lesson-picture.h) at 1024x768 in presentation mode, light and
 * dark, from a run of the lesson on the test backend: something drawn,
 * every label inside the canvas; and the placeholder without a run. */
#include <glib.h>
#include <string.h>

#include "lessons/ms-run-read.h"
#include "model/ms-results.h"
#include "ms-backend-test.h"
#include "ms-lesson-picture-test.h"
#include "ms-plots.h"
#include "ms-sweep-test.h"
#include "ms-host-link-test.h"


static MsResults *
run_lesson (const char *name)
{
  return ms_test_lesson_run_model (name, "", NULL, NULL, 2, 0);
}

/* A lesson that is a plain sweep of its modes (the portable one). */
static MsResults *
run_sweep (const MsLessonTopicInfo *info)
{
  MsSweep s;
  ms_test_sweep_init (&s, info->modes, 16, 18, 3);
  s.warmup = 0;
  return ms_test_sweep_run (&s, NULL);
}

/* A shipped reference run, by its samples' file name. */
static MsResults *
reference_run (const char *file)
{
  g_autofree char *path = g_build_filename (g_getenv ("MEMSWEEP_REFERENCE_DIR"), file, NULL);
  char err[512];
  MsResults *r = ms_run_read_samples (path, err, sizeof err);
  if (!r)
    g_error ("%s: %s", file, err);
  return r;
}

static void
draw_checked (MsLessonTopic t, const MsResults *run, gboolean dark)
{
  MsTestPicture p;
  ms_test_picture_draw (&p, t, run, dark, 2);
  g_assert_cmpuint (p.texts->len, >, 0);
  ms_test_picture_clear (&p);
}

static void
test_picture (gconstpointer data)
{
  MsLessonTopic t = GPOINTER_TO_INT (data);
  const MsLessonTopicInfo *info = ms_lesson_topic (t);
  MsResults *r = info->experiment[0] ? run_lesson (info->experiment) : run_sweep (info);
  g_assert_nonnull (r);
  draw_checked (t, r, FALSE);
  draw_checked (t, r, TRUE);
  draw_checked (t, NULL, FALSE);
  ms_results_free (r);
}

/* The pictures that once showed values without a finding now say one,
 * worked out from the run: its words open as here. (copy-kinds's finding
 * is its takeaway over the picture, which no longer repeats it.) */
static const struct {
  const char *lesson;
  const char *opening;
} findings[] = {
  /* batched's finding is each pair's bars apart or overlapping, counted
   * in its key. */
  { "batched", "by its 95% bars: ✓ the batch faster (bars apart), " },
  { "intensity", "buffers, end to end: at F = " },
  { "sync-async", "from pinned memory to the device: cudaMemcpyAsync returned" },
};

static void
test_findings (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (findings); i++) {
    MsLessonTopic t = MS_TOPIC_COUNT;
    for (int k = 0; k < MS_TOPIC_COUNT; k++)
      if (strcmp (ms_lesson_topic (k)->experiment, findings[i].lesson) == 0)
        t = k;
    g_assert_cmpint (t, <, MS_TOPIC_COUNT);
    MsResults *r = run_lesson (findings[i].lesson);
    MsTestPicture p;
    ms_test_picture_draw (&p, t, r, FALSE, 2);
    gboolean found = FALSE;
    for (guint k = 0; k < p.texts->len && !found; k++)
      found = strstr (g_ptr_array_index (p.texts, k), findings[i].opening) != NULL;
    if (!found)
      g_error ("%s: no text with \"%s\"", findings[i].lesson, findings[i].opening);
    ms_test_picture_clear (&p);
    ms_results_free (r);
  }
}

/* The H100 reference run's pageable copies, one call each, took about
 * nine times their neighbours at 16 KiB in every repetition, and pinned's
 * batch fell from 16 to 32 KiB: the picture says which call moved at
 * each jump, which the ratios alone cannot show, and names no mechanism. */
static void
test_batched_spike (void)
{
  MsResults *r = reference_run ("h100-lesson-batched-samples.csv.gz");
  MsTestPicture p;
  ms_test_picture_draw (&p, MS_TOPIC_BATCHED, r, FALSE, 2);
  gboolean found = FALSE;
  for (guint k = 0; k < p.texts->len && !found; k++) {
    const char *text = g_ptr_array_index (p.texts, k);
    found = strstr (text, "pinned 16 KiB→32 KiB: batched 3.59 → 1.38, one call each 3.05 → 3.41. "
                          "Larger copies in less time: this run does not show what changed.\n")
            && g_str_has_suffix (text, "pageable 8 KiB→16 KiB→32 KiB: one call each 3.15 → 28.7 "
                                       "→ 5.75, batched 2.38 → 7.59 → 5.78.")
            && !strstr (text, "why");
  }
  g_assert_true (found);
  /* And the chart's lines named by call, under it, a row a source. */
  g_assert_true (ms_test_picture_has_text (&p, "one batched call"));
  g_assert_true (ms_test_picture_has_text (&p, "one call each"));
  ms_test_picture_clear (&p);
  ms_results_free (r);
}

/* The H200 reference run's batched call's own time falls at 32 KiB: its panel draws it dotted and
 * the note names the line. Without one call each's pinned cell at the least size, where the note
 * takes that time from, the picture still draws (it read the missing cell's size and crashed). */
static void
test_batched_call_time (void)
{
  MsResults *r = reference_run ("h200-lesson-batched-samples.csv.gz");
  for (int hole = 0; hole < 2; hole++) {
    MsTestPicture p;
    ms_test_picture_draw (&p, MS_TOPIC_BATCHED, r, FALSE, 2);
    g_assert_true (ms_test_picture_has_text (&p, "time inside the batched call"));
    gboolean named = FALSE;
    for (guint k = 0; k < p.texts->len; k++)
      named = named || strstr (g_ptr_array_index (p.texts, k), "(dotted)");
    g_assert_true (named);
    ms_test_picture_clear (&p);
    MsCell *each = (MsCell *)ms_results_find_variant (r, MS_MODE_PINNED, 8, "n=256/call=each");
    g_assert_nonnull (each);
    each->status = MS_CELL_FAILED;
  }
  ms_results_free (r);
}

/* The H100 reference run's zero-copy won at every F while pinned's time
 * barely grew: the takeaway and the note under the picture say the same
 * (the arithmetic too small to matter in this run), where a class read
 * "no extra arithmetic needed" above "there the lesson's effect shows". */
static void
test_intensity_note_agrees (void)
{
  char line[512];
  MsResults *r = reference_run ("h100-lesson-intensity-samples.csv.gz");
  g_assert_cmpint (ms_lesson_takeaway (MS_TOPIC_INTENSITY, r, line, sizeof line), ==,
                   MS_TAKEAWAY_DECIDED);
  g_assert_nonnull (strstr (line, "No extra arithmetic: zero-copy beat pinned at every F"));
  MsTestPicture p;
  ms_test_picture_draw (&p, MS_TOPIC_INTENSITY, r, FALSE, 2);
  gboolean found = FALSE;
  for (guint k = 0; k < p.texts->len && !found; k++) {
    const char *text = g_ptr_array_index (p.texts, k);
    found = strstr (text, "Up to F = 1024 the arithmetic stays small beside the copies") &&
            strstr (text, "beyond this run") && !strstr (text, "effect shows");
  }
  g_assert_true (found);
  ms_test_picture_clear (&p);
  ms_results_free (r);
}

/* A lesson's cells are settings, not sizes: the sweep charts leave lesson
 * runs out and say where they are shown. */
static void
test_lessons_off_sweep_charts (void)
{
  MsResults *r = run_lesson ("concurrent");
  g_autoptr (GPtrArray) runs = g_ptr_array_new ();
  g_ptr_array_add (runs, r);
  g_autoptr (MsChartData) d = ms_plot_build (runs, MS_METRIC_E2E_TIME, TRUE, NULL);
  g_assert_cmpuint (d->series->len, ==, 0);
  g_assert_nonnull (strstr (d->empty_text, "Lessons page"));
  ms_results_free (r);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  ms_test_host_link_run ();
  g_test_add_func ("/render/lesson-runs-off-sweep-charts", test_lessons_off_sweep_charts);
  g_test_add_func ("/render/probe-picture-findings", test_findings);
  g_test_add_func ("/render/batched-spike", test_batched_spike);
  g_test_add_func ("/render/batched-call-time", test_batched_call_time);
  g_test_add_func ("/render/intensity-note-agrees", test_intensity_note_agrees);
  int n = 0;
  for (int t = 0; t < MS_TOPIC_COUNT; t++)
    if (ms_lesson_picture_has (t)) {
      g_autofree char *path = g_strdup_printf ("/render/probe-picture/%s", ms_lesson_topic (t)->name);
      g_test_add_data_func (path, GINT_TO_POINTER (t), test_picture);
      n++;
    }
  g_assert_cmpint (n, >, 0);
  return g_test_run ();
}
