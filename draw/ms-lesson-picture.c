/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-lesson-picture.c: which probe lesson draws which picture, and what
 * the pictures share. */
#include <glib/gi18n.h>
#include <string.h>

#include "ms-lesson-picture.h"

static const MsLessonPictureFunc pictures[MS_TOPIC_COUNT] = {
  [MS_TOPIC_IMPLICIT_SYNC] = ms_picture_implicit_sync,
  [MS_TOPIC_PRIORITY] = ms_picture_priority,
  [MS_TOPIC_CONCURRENT] = ms_picture_concurrent,
  [MS_TOPIC_SYNC_ASYNC] = ms_picture_sync_async,
  [MS_TOPIC_PIN_PAYOFF] = ms_picture_pin_payoff,
  [MS_TOPIC_INTENSITY] = ms_picture_intensity,
  [MS_TOPIC_COPY_KINDS] = ms_picture_copy_kinds,
  [MS_TOPIC_BATCHED] = ms_picture_batched,
  [MS_TOPIC_NUMA] = ms_picture_numa,
  [MS_TOPIC_DEFAULT_STREAM] = ms_picture_default_stream,
  [MS_TOPIC_HOST_FUNC] = ms_picture_host_func,
  [MS_TOPIC_PORTABLE] = ms_picture_portable,
  [MS_TOPIC_REGISTER] = ms_picture_register,
  [MS_TOPIC_COSTS] = ms_picture_costs,
  [MS_TOPIC_ISSUE_ORDER] = ms_picture_issue_order,
};

gboolean
ms_lesson_picture_has (MsLessonTopic topic)
{
  return (unsigned)topic < MS_TOPIC_COUNT && pictures[topic] != NULL;
}

void
ms_picture_empty (cairo_t *cr, const MsChartStyle *style, double width, double height,
                  const char *text)
{
  double fs = ms_style_font_size (style);
  ms_draw_background (cr, style);
  ms_set_color (cr, &style->fg, 0.7);
  double h = ms_draw_text_wrapped (cr, text, fs * 2, 0, fs * 1.1, width - fs * 4, FALSE, FALSE);
  ms_draw_text_wrapped (cr, text, fs * 2, (height - h) / 2, fs * 1.1, width - fs * 4, FALSE, TRUE);
}

gboolean
ms_lesson_picture_draw (cairo_t *cr, MsLessonTopic topic, const MsResults *run,
                        const MsChartStyle *style, double width, double height)
{
  if (!ms_lesson_picture_has (topic))
    return FALSE;
  const MsLessonTopicInfo *info = ms_lesson_topic (topic);
  if (!run) {
    ms_picture_empty (cr, style, width, height,
                      _ ("No run of this lesson yet: Run measures it on this GPU, Show opens "
                         "the reference run."));
    return TRUE;
  }
  if (strcmp (run->experiment, info->experiment) != 0) {
    ms_picture_empty (cr, style, width, height, _ ("This run is not of this lesson."));
    return TRUE;
  }
  cairo_save (cr);
  pictures[topic](cr, run, style, width, height);
  cairo_restore (cr);
  return TRUE;
}

const MsCell *
ms_picture_cell (const MsResults *run, const char *variant)
{
  for (size_t i = 0; run && i < run->n_cells; i++)
    if (strcmp (run->cells[i].variant, variant) == 0)
      return &run->cells[i];
  return NULL;
}

void
ms_picture_key_line (cairo_t *cr, const MsChartStyle *st, guint i, double x, double y, double th,
                     double fs, double lw)
{
  MsColor c;
  ms_chart_palette_color (i, st->dark, &c);
  ms_set_color (cr, &c, 1);
  cairo_set_line_width (cr, lw);
  cairo_move_to (cr, x, y + th / 2);
  cairo_line_to (cr, x + fs * 1.6, y + th / 2);
  cairo_stroke (cr);
  const double at[2] = { x + fs * 0.8, y + th / 2 };
  ms_draw_markers (cr, i, ms_run_fill (0), at, 1, fs * 0.35, lw * 0.8, &st->bg);
}
