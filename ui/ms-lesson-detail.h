/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-lesson-detail.h: which cells of a lesson's run answer its question,
 * stacked on one time axis. */
#pragma once

#include "ms-lesson-caption.h"
#include "ms-timeline-stack.h"

G_BEGIN_DECLS

/* Clears stack and adds the rows that answer topic from run (two to four
 * cells at the largest size that has the first of them); returns the
 * rows added. */
int ms_lesson_detail_fill_rows (MsTimelineStack *stack, MsLessonTopic topic, const MsResults *run);

G_END_DECLS
