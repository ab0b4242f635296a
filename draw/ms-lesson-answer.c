/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-lesson-answer.c: a lesson's answer without widgets, in the order the
 * Lessons page picks it (ui/ms-lessons-page.c, show_detail): the reuse
 * chart, else the lesson's own picture, else its timelines. */
#include "ms-lesson-answer.h"

#include "ms-lesson-picture.h"
#include "ms-lesson-rows.h"
#include "ms-reuse-chart.h"
#include "ms-timeline-rows.h"

int
ms_lesson_answer_exponent (MsLessonTopic topic, const MsResults *run)
{
  char buf[MS_LESSON_CAPTION_MAX];
  for (int e = MS_MAX_EXPONENT; run && e >= MS_MIN_EXPONENT; e--)
    if (ms_lesson_caption (topic, run, e, buf, sizeof buf))
      return e;
  return -1;
}

/* The size the reuse chart shows: the caption's, else the chart's own
 * choice; -1 without one. */
static int
reuse_exponent (MsLessonTopic topic, const MsResults *run)
{
  int exponent = ms_lesson_answer_exponent (topic, run);
  return exponent >= 0 ? exponent : ms_reuse_default_exponent (run);
}

static gboolean
draw_reuse (cairo_t *cr, MsLessonTopic topic, const MsResults *run, const MsChartStyle *style,
            double width, double height)
{
  const MsLessonLook *look = ms_lesson_look (topic);
  int exponent = reuse_exponent (topic, run);
  if (exponent < 0)
    return FALSE;
  MsChartData *data = ms_reuse_chart_build (
      run, exponent, look->view.reuse_time ? MS_REUSE_TIME : MS_REUSE_BANDWIDTH);
  ms_reuse_chart_draw (cr, data, style, width, height, NULL);
  ms_chart_data_free (data);
  return TRUE;
}

/* The cells it compares, opened as the page opens them (setup shown where
 * the look says so). */
static gboolean
draw_timelines (cairo_t *cr, MsLessonTopic topic, const MsResults *run, const MsChartStyle *style,
                double width, double height)
{
  MsTimelineRows rows;
  ms_timeline_rows_init (&rows);
  gboolean slide = ms_draw_is_slide (style, height);
  if ((slide ? ms_lesson_rows_fill_slide (&rows, topic, run)
             : ms_lesson_rows_fill (&rows, topic, run))
      == 0)
    return FALSE;
  MsTimeWindow win;
  ms_timeline_rows_window (&rows, ms_lesson_look (topic)->view.show_setup, &win);
  ms_timeline_rows_draw (cr, &rows, &win, style, width, height, NULL);
  ms_timeline_rows_clear (&rows);
  return TRUE;
}

/* The answer beside the cards of a lesson without a picture of its own. */
static gboolean
draw_chart_or_timelines (cairo_t *cr, gpointer data)
{
  const MsLessonAnswerJob *j = data;
  return ms_lesson_look (j->topic)->view.reuse_chart
             ? draw_reuse (cr, j->topic, j->run, j->style, j->width, j->height)
             : draw_timelines (cr, j->topic, j->run, j->style, j->width, j->height);
}

gboolean
ms_lesson_answer_has (MsLessonTopic topic, const MsResults *run)
{
  const MsLessonLook *look = ms_lesson_look (topic);
  if (!look || !run)
    return FALSE;
  if (!look->view.reuse_chart && look->picture)
    return ms_lesson_picture_has (topic);
  if (look->view.reuse_chart)
    return reuse_exponent (topic, run) >= 0;
  MsTimelineRows rows;
  ms_timeline_rows_init (&rows);
  int n = ms_lesson_rows_fill (&rows, topic, run);
  ms_timeline_rows_clear (&rows);
  return n > 0;
}

gboolean
ms_lesson_answer_draw (cairo_t *cr, MsLessonTopic topic, const MsResults *run,
                       const MsChartStyle *style, double width, double height)
{
  const MsLessonLook *look = ms_lesson_look (topic);
  if (!look || !run)
    return FALSE;
  /* The picture fades itself under an undecided takeaway. */
  if (!look->view.reuse_chart && look->picture)
    return ms_lesson_picture_draw (cr, topic, run, style, width, height);
  MsLessonAnswerJob job = { topic, run, style, width, height };
  return ms_lesson_draw_faded (cr, &job, draw_chart_or_timelines);
}
