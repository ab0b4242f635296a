/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-timeline-stack.h: two to four timelines stacked on one time axis
 * (ms-timeline-rows.h), zoomed on the data movement; the scroll wheel
 * zooms every row together. It asks for the height that draws every row
 * (height for width); taller than the scrolled pane it sits in, the wheel
 * scrolls the pane and Ctrl with the wheel zooms. */
#pragma once

#include <gtk/gtk.h>

#include "ms-chart-view.h"

#include "memsweep.h"
#include "ms-drawing.h"

G_BEGIN_DECLS

#define MS_TYPE_TIMELINE_STACK (ms_timeline_stack_get_type ())
G_DECLARE_FINAL_TYPE (MsTimelineStack, ms_timeline_stack, MS, TIMELINE_STACK, MsChartView)

/* Properties: "n-rows" (read-only), "show-setup" (FALSE: init and verify
 * collapsed, the window on the data movement; TRUE: the whole repetition),
 * and the text-scale / line-scale / high-contrast of MsChartView. */
void ms_timeline_stack_clear (MsTimelineStack *self);
/* Adds repetition rep of cell (copied) as the next row; FALSE when four
 * rows are shown or the cell has no such repetition. */
gboolean ms_timeline_stack_add (MsTimelineStack *self, const MsCell *cell, int rep,
                                const char *title);
int ms_timeline_stack_get_n_rows (MsTimelineStack *self);
/* The rows drawn as topic's lesson asks (ms_lesson_rows_look), until the
 * next clear. */
void ms_timeline_stack_set_lesson_look (MsTimelineStack *self, MsLessonTopic topic);
/* The time window shown, in µs on the shared axis. */
void ms_timeline_stack_get_window (MsTimelineStack *self, double *t0, double *t1);
/* Draws the rows as shown (in the window shown) into width x height: the
 * export. */
void ms_timeline_stack_draw (MsTimelineStack *self, cairo_t *cr, const MsChartStyle *style,
                             double width, double height);

G_END_DECLS
