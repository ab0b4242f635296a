/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-report-handout.c: one lesson's run on one printed page: the lesson's
 * title and question, the takeaway in large type, its answer drawn by the
 * Lessons page's own code (ms-lesson-answer.h), the caption and the run in
 * words, and a footer naming memsweep and the run's file. */
#include "ms-report-handout.h"

#include <math.h>
#include <glib/gi18n.h>

#include "ms-export.h"
#include "ms-lesson-answer.h"
#include "ms-lesson-picture.h"
#include "ms-report-views.h"

/* A4 portrait: a handout is read at a desk and filed with the class's
 * notes, which are portrait; the question, takeaway and caption read as
 * one column of a comfortable line length, and the picture still gets the
 * whole width of the page. */
#define PAGE_W MS_HANDOUT_PAGE_W
#define PAGE_H MS_HANDOUT_PAGE_H
#define MARGIN 48.0
#define TEXT_W (PAGE_W - 2 * MARGIN)
/* Where the footer's line starts: everything else stays above it. */
#define FOOT_Y (PAGE_H - MARGIN * 0.75)
#define GAP 12.0
/* The answer is laid out at a screen's size (about the Lessons page's
 * pane, 770 px wide) and printed at this scale, so that it places its
 * labels as on screen and its text comes out at about 8 pt. */
#define ANSWER_SCALE 0.65
#define ANSWER_TEXT_SCALE 1.45
/* The answer is never taller than about a square of the page's width (a
 * taller one only stretches its axes), and long text shrinks before the
 * answer gets shorter than ANSWER_MIN_H. */
#define ANSWER_MAX_H (TEXT_W * 0.9)
#define ANSWER_MIN_H 200.0
/* No text on the page is printed smaller than this. */
#define SMALLEST_PT 8.0
/* The text's sizes step down to this share of their own, no further. */
#define SMALLEST_TEXT 0.7

typedef struct {
  cairo_t *cr;
  MsLessonTopic topic;
  const MsResults *run;
  char *title, *question, *takeaway, *caption, *about, *footer;
  double text; /* the text's scale, 1 down to SMALLEST_TEXT */
} Handout;

static void
handout_clear (Handout *h)
{
  g_free (h->title);
  g_free (h->question);
  g_free (h->takeaway);
  g_free (h->caption);
  g_free (h->about);
  g_free (h->footer);
}

const char *
ms_report_handout_unavailable (MsLessonTopic topic, const MsResults *run)
{
  if (!run || (unsigned) topic >= MS_TOPIC_COUNT)
    return _ ("it is not a lesson’s run (it has no experiment of a lesson)");
  if (!ms_lesson_topic_matches (topic, run))
    return _ ("it is not a run of this lesson");
  return NULL;
}

/* The caption and takeaway as the lesson's card computes them (a lesson
 * measured on several GPUs speaks of this run's GPU alone here). */
static void
lesson_words (Handout *h)
{
  char buf[MS_LESSON_CAPTION_MAX];
  if (ms_lesson_multi_gpu (h->topic))
    ms_lesson_portable_caption (h->run, NULL, buf, sizeof buf);
  else
    ms_lesson_caption (h->topic, h->run, -1, buf, sizeof buf);
  h->caption = g_strdup (buf);
  if (ms_lesson_multi_gpu (h->topic))
    ms_lesson_portable_takeaway (h->run, NULL, buf, sizeof buf);
  else
    ms_lesson_takeaway (h->topic, h->run, buf, sizeof buf);
  h->takeaway = g_strdup (buf);
}

static void
handout_init (Handout *h, cairo_t *cr, MsLessonTopic topic, const MsResults *run,
              const char *source)
{
  *h = (Handout){ .cr = cr, .topic = topic, .run = run, .text = 1.0 };
  const MsLessonTopicInfo *info = ms_lesson_topic (h->topic);
  /* The title says what of the run's settings matters, as the page's. */
  const MsLessonLook *look = ms_lesson_look (h->topic);
  g_autofree char *words = look->title_words ? look->title_words (run) : NULL;
  h->title
      = words ? g_strdup_printf ("%s · %s", _ (info->title), words) : g_strdup (_ (info->title));
  h->question = g_strdup (_ (info->question));
  lesson_words (h);
  /* A lesson that draws another host's run of several GPUs (portable,
   * host-link), as the slide does: the handout names that run, not the
   * sweep it was opened with. */
  char portable[512];
  if (ms_lesson_source (topic, run, portable, sizeof portable)) {
    /* TRANSLATORS: the portable lesson's handout, under its caption: the
     * GPUs and the file of the run it draws ("2 × H200 · h200x2-portable"). */
    h->about = g_strdup_printf (_ ("The run drawn: %s."), portable);
    /* TRANSLATORS: the portable lesson's handout footer: memsweep's
     * version, the lesson's name, the GPUs and the file of the run. */
    h->footer = g_strdup_printf (_ ("memsweep %s · lesson %s · %s"), MS_VERSION, info->name,
                                 portable);
    return;
  }
  h->about = ms_report_lesson_caption (NULL, run);
  /* TRANSLATORS: the handout's footer: memsweep's version, the lesson's
   * name, the GPU, the file of the run it shows. */
  h->footer = g_strdup_printf (_ ("memsweep %s · lesson %s · %s · %s"), MS_VERSION, info->name,
                               run->device.name[0] ? run->device.name : _ ("unknown GPU"),
                               source ? source : run->label);
}

/* Wrapped text at y across the text's width, at size scaled as the page's
 * text is; only measured unless draw. Returns its height. */
static double
text_block (Handout *h, const char *text, double y, double size, gboolean bold, gboolean draw)
{
  return ms_draw_text_wrapped (h->cr, text, MARGIN, y, MAX (size * h->text, SMALLEST_PT), TEXT_W,
                               bold, draw);
}

/* The takeaway's text sits right of a bar that marks it as the answer. */
#define TAKEAWAY_INDENT 12.0

static double
takeaway_block (Handout *h, double y, gboolean draw)
{
  double height = ms_draw_text_wrapped (h->cr, h->takeaway, MARGIN + TAKEAWAY_INDENT, y,
                                        16 * h->text, TEXT_W - TAKEAWAY_INDENT, TRUE, draw);
  if (draw) {
    cairo_set_source_rgb (h->cr, 0.21, 0.52, 0.89);
    cairo_rectangle (h->cr, MARGIN, y, 4, height);
    cairo_fill (h->cr);
  }
  return height;
}

/* The text over the answer (title, question, takeaway) and under it
 * (caption, the run in words), at the text's scale. */
static double
text_above (Handout *h, double y, gboolean draw)
{
  double top = y;
  cairo_set_source_rgb (h->cr, 0.1, 0.1, 0.1);
  y += text_block (h, h->title, y, 20, TRUE, draw) + 4;
  cairo_set_source_rgb (h->cr, 0.25, 0.25, 0.25);
  y += text_block (h, h->question, y, 12, FALSE, draw) + GAP;
  cairo_set_source_rgb (h->cr, 0.1, 0.1, 0.1);
  y += takeaway_block (h, y, draw);
  return y - top;
}

static double
text_below (Handout *h, double y, gboolean draw)
{
  double top = y;
  cairo_set_source_rgb (h->cr, 0.1, 0.1, 0.1);
  y += text_block (h, h->caption, y, 10, FALSE, draw) + 6;
  cairo_set_source_rgb (h->cr, 0.3, 0.3, 0.3);
  y += text_block (h, h->about, y, 8.5, FALSE, draw);
  return y - top;
}

/* The answer's height: what the text leaves, at most ANSWER_MAX_H; the
 * text shrinks, step by step, while that is less than ANSWER_MIN_H. */
static double
fit (Handout *h)
{
  double room;
  for (h->text = 1.0;; h->text -= 0.1) {
    room = FOOT_Y - GAP - MARGIN - text_above (h, 0, FALSE) - text_below (h, 0, FALSE) - 2 * GAP;
    if (room >= ANSWER_MIN_H || h->text - 0.1 < SMALLEST_TEXT - 0.01)
      break;
  }
  return CLAMP (room, 0, ANSWER_MAX_H);
}

/* How far down picture (room's size) has marks: the last row of a coarse
 * copy on the page's white with anything on it but a rule across the
 * whole width (a frame's edge marks no content). */
static double
drawn_height (cairo_surface_t *picture, const cairo_rectangle_t *room)
{
  const double coarse = 0.25;
  int w = (int) ceil (room->width * coarse), hgt = (int) ceil (room->height * coarse);
  cairo_surface_t *image = cairo_image_surface_create (CAIRO_FORMAT_RGB24, w, hgt);
  cairo_t *cr = cairo_create (image);
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  cairo_scale (cr, coarse, coarse);
  cairo_set_source_surface (cr, picture, 0, 0);
  cairo_paint (cr);
  cairo_destroy (cr);
  cairo_surface_flush (image);
  const guint32 *px = (const guint32 *) cairo_image_surface_get_data (image);
  int stride = cairo_image_surface_get_stride (image) / 4, last = 0;
  for (int y = hgt - 1; y >= 0 && !last; y--) {
    int marked = 0;
    for (int x = 0; x < w; x++)
      marked += (px[y * stride + x] & 0xffffff) != 0xffffff;
    if (marked > 0 && marked < w - 2)
      last = y + 1;
  }
  cairo_surface_destroy (image);
  return MIN (room->height, (last + 1) / coarse);
}

/* The answer scaled into width x height at (x, y); FALSE when the lesson
 * has none to draw for this run (the page then says so in a line). Sets
 * used to the height its marks and words take from y: a timeline's
 * picture ends well above the room it is given, and the caption follows
 * it, not the room (a third of the page stood blank). */
static gboolean
answer (Handout *h, double x, double y, double height, double *used)
{
  MsChartStyle style;
  ms_chart_style_init_light (&style);
  /* The slide's picture, whatever the page's height gives it, its text
   * larger than on screen: printed at ANSWER_SCALE, a label shrunk to fit
   * its bar stays at 8 pt or more. */
  style.slide = TRUE;
  style.paper = TRUE;
  style.text_scale = ANSWER_TEXT_SCALE;
  cairo_rectangle_t room = { 0, 0, TEXT_W / ANSWER_SCALE, height / ANSWER_SCALE };
  cairo_surface_t *picture = cairo_recording_surface_create (CAIRO_CONTENT_COLOR_ALPHA, &room);
  cairo_t *pcr = cairo_create (picture);
  gboolean drawn = ms_lesson_answer_draw (pcr, h->topic, h->run, &style, room.width, room.height);
  cairo_destroy (pcr);
  *used = drawn ? MIN (height, drawn_height (picture, &room) * ANSWER_SCALE) : 0;
  if (drawn) {
    cairo_save (h->cr);
    cairo_translate (h->cr, x, y);
    cairo_scale (h->cr, ANSWER_SCALE, ANSWER_SCALE);
    cairo_set_source_surface (h->cr, picture, 0, 0);
    cairo_paint (h->cr);
    cairo_restore (h->cr);
  }
  cairo_surface_destroy (picture);
  return drawn;
}

static void
footer (Handout *h)
{
  cairo_set_source_rgb (h->cr, 0.4, 0.4, 0.4);
  ms_draw_text_max (h->cr, h->footer, MARGIN, FOOT_Y, 8, TEXT_W);
}

void
ms_report_handout_draw (cairo_t *cr, MsLessonTopic topic, const MsResults *run, const char *source)
{
  g_return_if_fail (ms_report_handout_unavailable (topic, run) == NULL);
  Handout h;
  handout_init (&h, cr, topic, run, source);
  cairo_save (cr);
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  double answer_h = fit (&h), used;
  double y = MARGIN + text_above (&h, MARGIN, TRUE) + GAP;
  if (answer_h > 0 && answer (&h, MARGIN, y, answer_h, &used)) {
    y += used + GAP;
  } else {
    cairo_set_source_rgb (cr, 0.3, 0.3, 0.3);
    y += text_block (&h,
                     _ ("This run has nothing of this lesson to draw: the caption below "
                        "gives its answer."),
                     y, 10, FALSE, TRUE)
         + GAP;
  }
  /* Text that would still reach the footer at its smallest is cut there. */
  cairo_rectangle (cr, 0, 0, PAGE_W, FOOT_Y - GAP / 2);
  cairo_clip (cr);
  text_below (&h, y, TRUE);
  cairo_reset_clip (cr);
  footer (&h);
  cairo_restore (cr);
  handout_clear (&h);
}

typedef struct {
  MsLessonTopic topic;
  const MsResults *run;
  const char *source;
} Job;

static void
draw_page (cairo_t *cr, double width, double height, gpointer data)
{
  const Job *job = data;
  ms_report_handout_draw (cr, job->topic, job->run, job->source);
  cairo_show_page (cr);
}

gboolean
ms_report_write_handout (const char *path, MsLessonTopic topic, const MsResults *run,
                         const char *source, GError **error)
{
  g_return_val_if_fail (ms_report_handout_unavailable (topic, run) == NULL, FALSE);
  Job job = { topic, run, source };
  MsExportOptions options = { .format = "pdf", .title = _ (ms_lesson_topic (topic)->title) };
  return ms_export_drawing_full (path, PAGE_W, PAGE_H, draw_page, &job, &options, error);
}
