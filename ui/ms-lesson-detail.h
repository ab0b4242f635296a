/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-lesson-detail.h: which cells of a lesson's run answer its question,
 * stacked on one time axis. */
#pragma once

#include "ms-lessons.h"
#include "ms-drawing.h"
#include "ms-timeline-stack.h"

G_BEGIN_DECLS

/* How a lesson's answer is shown, from its look (draw/ms-picture-NAME.c);
 * NULL out of range. */
const MsLessonView *ms_lesson_detail_view (MsLessonTopic topic);

/* Clears stack and adds the rows that answer topic from run (two to four
 * cells at the largest size that has the first of them); returns the
 * rows added. */
int ms_lesson_detail_fill_rows (MsTimelineStack *stack, MsLessonTopic topic, const MsResults *run,
                                gboolean slide);

G_END_DECLS
