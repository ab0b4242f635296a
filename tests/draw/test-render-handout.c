/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-render-handout.c: every lesson's handout from the shipped runs of
 * both GPUs, drawn as it is printed, with no text cut: no label laid out
 * past its width (ellipsized, as Pango measured it: a PDF's text layer
 * holds the whole words, so pdftotext cannot see a cut, PITFALLS 38), and
 * The handout draws the slide's picture: default-stream's adds no
 * timelines (its note on them) that the slide leaves out, and the portable
 * lesson's names the run of two GPUs it draws. */
#include <string.h>

#include "ms-lesson-picture.h"
#include "ms-report-handout.h"
#include "model/ms-results.h"
#include "lessons/ms-run-read.h"
#include "ms-host-link-test.h"
#include "ms-shipped-run-test.h"

typedef struct {
  GString *cut;  /* the texts cut, one a line */
  GString *said; /* every text drawn, one a line */
} Texts;

static void
record_cut (const char *text, double x, double y, double w, double h, gpointer data)
{
  g_string_append_printf (((Texts *)data)->cut, "  \"%s\" cut at %.0f px\n", text, w);
}

static void
record_text (const char *text, double x, double y, double w, double h, gpointer data)
{
  g_string_append_printf (((Texts *)data)->said, "%s\n", text);
}

/* The shipped run of topic on gpu: its own, or the default sweep for a
 * lesson a plain sweep answers; NULL when not shipped. */
/* Draws topic's handout of run and returns the texts it cut, "" for
 * none; *said gets every text drawn. */
static char *
handout_cuts (MsLessonTopic topic, const MsResults *run, char **said)
{
  Texts texts = { g_string_new (NULL), g_string_new (NULL) };
  cairo_rectangle_t page = { 0, 0, MS_HANDOUT_PAGE_W, MS_HANDOUT_PAGE_H };
  cairo_surface_t *surface = cairo_recording_surface_create (CAIRO_CONTENT_COLOR_ALPHA, &page);
  cairo_t *cr = cairo_create (surface);
  ms_draw_set_cut_recorder (record_cut, &texts);
  ms_draw_set_text_recorder (record_text, &texts);
  ms_report_handout_draw (cr, topic, run, "run.csv.gz");
  ms_draw_set_text_recorder (NULL, NULL);
  ms_draw_set_cut_recorder (NULL, NULL);
  g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
  *said = g_string_free (texts.said, FALSE);
  return g_string_free (texts.cut, FALSE);
}

static void
test_no_text_cut (void)
{
  static const char *const gpus[] = { "h100", "h200" };
  char err[256];
  g_assert_true (
      ms_lesson_portable_use_shipped (g_getenv ("MEMSWEEP_REFERENCE_DIR"), err, sizeof err));
  GString *problems = g_string_new (NULL);
  int drawn = 0;
  for (guint g = 0; g < G_N_ELEMENTS (gpus); g++)
    for (int t = 0; t < MS_TOPIC_COUNT; t++) {
      MsResults *run = ms_lesson_topic_built (t) ? ms_test_shipped_run (gpus[g], t) : NULL;
      if (!run || ms_report_handout_unavailable (t, run)) {
        g_clear_pointer (&run, ms_results_free);
        continue;
      }
      g_autofree char *said = NULL;
      g_autofree char *cut = handout_cuts (t, run, &said);
      if (cut[0])
        g_string_append_printf (problems, "%s %s:\n%s", gpus[g], ms_lesson_topic (t)->name, cut);
      /* The portable handout names the run it draws, not the sweep. */
      if (ms_lesson_multi_gpu (t) && !strstr (said, "h200x2-portable"))
        g_string_append_printf (problems, "%s portable: the run drawn is not named\n", gpus[g]);
      if (t == MS_TOPIC_DEFAULT_STREAM && strstr (said, "On the legacy stream the threads"))
        g_string_append_printf (problems, "%s default-stream: timelines the slide leaves out\n",
                                gpus[g]);
      drawn++;
      ms_results_free (run);
    }
  ms_lesson_portable_use (NULL, NULL);
  g_assert_cmpint (drawn, >=, 36);
  if (problems->len)
    g_error ("handout text cut on the page:\n%s", problems->str);
  g_string_free (problems, TRUE);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  ms_test_host_link_run ();
  g_test_add_func ("/render/handout/no-text-cut", test_no_text_cut);
  return g_test_run ();
}
