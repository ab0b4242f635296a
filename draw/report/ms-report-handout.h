/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-report-handout.h: one lesson's run as a one-page PDF handout to print
 * for a class (ms-report-handout.c): the lesson's title and question, its
 * takeaway, its answer drawn as the Lessons page draws it, the caption and
 * the run in words. */
#pragma once

#include <cairo.h>
#include <glib.h>

#include "memsweep.h"
#include "ms-lessons.h"

G_BEGIN_DECLS

/* The page in points: A4 portrait (ms-report-handout.c says why). */
#define MS_HANDOUT_PAGE_W 595.0
#define MS_HANDOUT_PAGE_H 842.0

/* NULL when run answers topic (a run of the lesson, or the plain sweep
 * that answers a lesson of plain sweeps), so that it can have a handout;
 * else why not. The command line's topic is the run's own
 * (ms_lesson_topic_for_experiment), the app's the lesson shown. */
const char *ms_report_handout_unavailable (MsLessonTopic topic, const MsResults *run);
/* Draws topic's handout of run on cr, MS_HANDOUT_PAGE_W x
 * MS_HANDOUT_PAGE_H; source names the run's file in the footer (NULL: its
 * label). */
void ms_report_handout_draw (cairo_t *cr, MsLessonTopic topic, const MsResults *run,
                             const char *source);
/* Writes it as a one-page PDF through an atomic file. */
gboolean ms_report_write_handout (const char *path, MsLessonTopic topic, const MsResults *run,
                                  const char *source, GError **error);

G_END_DECLS
