/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-lesson-answer.h: a lesson's answer as the Lessons page shows it
 * beside the card, drawn on any cairo_t without widgets: its own picture,
 * the reuse chart, or the timelines of the cells it compares (the handout
 * prints it). Cairo, Pango and GLib only. */
#pragma once

#include "memsweep.h"
#include "ms-draw.h"
#include "ms-lessons.h"

G_BEGIN_DECLS

/* The size topic's caption speaks of in run: the largest with every cell
 * the caption needs, or -1. */
int ms_lesson_answer_exponent (MsLessonTopic topic, const MsResults *run);
/* Whether topic has an answer of its own to draw for run (its picture,
 * the reuse chart at a size, timelines of cells with events), found
 * without drawing it. */
gboolean ms_lesson_answer_has (MsLessonTopic topic, const MsResults *run);
/* Draws topic's answer from run into width x height, dimmed where the
 * takeaway decides nothing, as the page does. FALSE, drawing nothing,
 * when the lesson has no answer of its own to draw for run (no picture,
 * no reuse chart, no cells with events to compare). */
gboolean ms_lesson_answer_draw (cairo_t *cr, MsLessonTopic topic, const MsResults *run,
                                const MsChartStyle *style, double width, double height);

G_END_DECLS
