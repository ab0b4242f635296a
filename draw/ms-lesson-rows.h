/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-lesson-rows.h: which cells of a lesson's run answer its question,
 * stacked on one time axis (ms-timeline-rows.h): the lessons' card in the
 * app and the render tests take the same rows. */
#pragma once

#include "ms-lessons.h"
#include "ms-timeline-rows.h"

G_BEGIN_DECLS

/* Adds one timeline row (repetition rep of cell); FALSE when it was not
 * added (no events of rep, or full). */
typedef gboolean (*MsLessonRowFunc) (const MsCell *cell, int rep, const char *title,
                                     gpointer data);

/* Hands add the rows that answer topic from run: two to four cells at the
 * largest size that has the first of them, each the repetition nearest
 * its median (ms_timeline_rows_typical_rep), titled so; on a slide, less
 * the rows the look leaves off one (MsLessonRow.not_on_slide). Returns the
 * rows added. */
int ms_lesson_rows_each_for (MsLessonTopic topic, const MsResults *run, gboolean slide,
                             MsLessonRowFunc add, gpointer data);
/* Clears rows and fills it so. */
int ms_lesson_rows_fill (MsTimelineRows *rows, MsLessonTopic topic, const MsResults *run);
/* As ms_lesson_rows_fill, less the rows the look leaves off a slide. */
int ms_lesson_rows_fill_slide (MsTimelineRows *rows, MsLessonTopic topic, const MsResults *run);

/* How rows draw what topic's look asks (MsLessonView): bars without
 * their rates where the titles quote the median's (rows_rate), bars too
 * thin for their names named over their lane (name_slivers). Set after
 * ms_timeline_rows_clear, which forgets it; the fills set it. */
void ms_lesson_rows_look (MsTimelineRows *rows, MsLessonTopic topic);

G_END_DECLS
