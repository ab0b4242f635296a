/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-lesson-picture.c: each lesson's look by its line of
 * engine/ms-lesson-list.h, the pictures drawn through it, and the words of
 * a variant found in the looks of every lesson. */
#include <glib/gi18n.h>
#include <string.h>

#include "ms-lesson-picture.h"
#include "ms-picture-parts.h"

#define ENTRY_NO_LOOK(id, name)
#define ENTRY_LOOK(id, name) [MS_TOPIC_##id] = &ms_lesson_look_##name,
#define ENTRY(id, name, kind, look) ENTRY_##look (id, name)
static const MsLessonLook *const looks[MS_TOPIC_COUNT] = { MS_LESSON_LIST (ENTRY) };

const MsLessonLook *
ms_lesson_look (MsLessonTopic topic)
{
  static const MsLessonLook plain = { 0 };
  if ((unsigned) topic >= MS_TOPIC_COUNT)
    return NULL;
  return looks[topic] ? looks[topic] : &plain;
}

static const MsVariantWords *
words_of (const MsLessonLook *look, const char *part)
{
  for (const MsVariantWords *w = look ? look->words : NULL; w && w->part; w++)
    if (g_str_equal (w->part, part))
      return w;
  return NULL;
}

const MsVariantWords *
ms_lesson_variant_words (const char *part)
{
  const MsVariantWords *found = NULL;
  const char *eq = part ? strchr (part, '=') : NULL;
  if (!eq)
    return NULL;
  /* The whole part first ("stores=fresh"), then its key ("K" of "K=4"). */
  for (int t = 0; !found && t < MS_TOPIC_COUNT; t++)
    found = words_of (looks[t], part);
  if (found)
    return found;
  g_autofree char *key = g_strndup (part, eq - part);
  for (int t = 0; !found && t < MS_TOPIC_COUNT; t++)
    found = words_of (looks[t], key);
  return found;
}

gboolean
ms_lesson_picture_has (MsLessonTopic topic)
{
  const MsLessonLook *look = ms_lesson_look (topic);
  return look && look->picture != NULL;
}

static gboolean
draw_picture (cairo_t *cr, gpointer data)
{
  const MsLessonAnswerJob *job = data;
  ms_lesson_look (job->topic)->picture (cr, job->run, job->style, job->width, job->height);
  return TRUE;
}

gboolean
ms_lesson_undecided (MsLessonTopic topic, const MsResults *run)
{
  char line[512];
  return ms_lesson_takeaway (topic, run, line, sizeof line) == MS_TAKEAWAY_UNDECIDED;
}

gboolean
ms_lesson_draw_faded (cairo_t *cr, const MsLessonAnswerJob *job, MsFadedDraw draw)
{
  double alpha = ms_lesson_undecided (job->topic, job->run) ? MS_LESSON_UNDECIDED_ALPHA : 1.0;
  return ms_draw_faded (cr, ms_draw_fade_alpha (job->style, alpha), draw, (gpointer) job);
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
  /* Where the run decides nothing, the picture's marks step back behind
   * the takeaway that says so (a chart at full strength would suggest an
   * answer), its words not (faded text fell to 2.8:1 on the light
   * background). The screen, the exports and the command line all draw
   * here. */
  MsLessonAnswerJob job = { topic, run, style, width, height };
  /* Projected, every word is at least the body size (a caption, key or
   * axis label drawn smaller is one the back of the room cannot read),
   * every figure at least 20 px to its capitals' tops. */
  MsLeastSizes least = ms_draw_slide_sizes_begin (cr, style, height);
  ms_lesson_draw_faded (cr, &job, draw_picture);
  ms_draw_slide_sizes_end (cr, least);
  return TRUE;
}
