/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-lesson-detail.h: which cells of a lesson's run answer its question,
 * stacked on one time axis. */
#pragma once

#include "ms-lessons.h"
#include "ms-drawing.h"
#include "ms-timeline-stack.h"

G_BEGIN_DECLS

/* How a lesson's answer is shown: the settings a card applies to the
 * views when it shows its run. */
typedef struct {
  /* The window's view that also answers it ("bandwidth", "time",
   * "table"), or NULL: the views beside the cards only. The charts take
   * plain sweeps only (an experiment's variants would share a size). */
  const char *view;
  const char *modes;    /* the series that view shows ("pageable,pinned") */
  MsMetric metric;      /* the charts' metric */
  gboolean log_scale;   /* the charts' y axis */
  gboolean show_setup;  /* the timelines beside the cards show init and verify */
  gboolean reuse_time;  /* the reuse chart shows time (else bandwidth) */
} MsLessonView;

const MsLessonView *ms_lesson_detail_view (MsLessonTopic topic);
/* The size the caption of topic speaks of in run (the largest with every
 * cell the caption needs), or -1. */
int ms_lesson_detail_exponent (MsLessonTopic topic, const MsResults *run);

/* Clears stack and adds the rows that answer topic from run (two to four
 * cells at the largest size that has the first of them); returns the
 * rows added. */
int ms_lesson_detail_fill_rows (MsTimelineStack *stack, MsLessonTopic topic, const MsResults *run);

G_END_DECLS
