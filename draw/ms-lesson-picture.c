/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-lesson-picture.c: which lesson draws which picture (its line of
 * engine/ms-lesson-list.h). */
#include <glib/gi18n.h>
#include <string.h>

#include "ms-lesson-picture.h"
#include "ms-picture-parts.h"

#define ENTRY_NO_PICTURE(id, name)
#define ENTRY_PICTURE(id, name) [MS_TOPIC_##id] = ms_picture_##name,
#define ENTRY(id, name, kind, picture) ENTRY_##picture (id, name)
static const MsLessonPictureFunc pictures[MS_TOPIC_COUNT] = { MS_LESSON_LIST (ENTRY) };

gboolean
ms_lesson_picture_has (MsLessonTopic topic)
{
  return (unsigned)topic < MS_TOPIC_COUNT && pictures[topic] != NULL;
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
