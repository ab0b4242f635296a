/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-lessons-page.h: the Lessons page: a card per lesson (its question, a
 * Run button, the caption computed from the run shown) and the view that
 * answers it: the reuse chart or timelines on one time axis. */
#pragma once

#include <gtk/gtk.h>

#include "ms-page.h"

#include "ms-lessons.h"
#include "ms-reuse-view.h"
#include "ms-timeline-stack.h"

G_BEGIN_DECLS

#define MS_TYPE_LESSONS_PAGE (ms_lessons_page_get_type ())
G_DECLARE_FINAL_TYPE (MsLessonsPage, ms_lessons_page, MS, LESSONS_PAGE, MsPage)

/* Properties: "can-run" (a GPU is there: Run measures the lesson; without
 * one Run opens the lesson's reference run), "shown-topic" (read-only: the
 * name of the lesson shown beside the cards, or NULL), "shown-run"
 * (read-only: the MsRun that lesson is shown with, or NULL), "busy" (read-only: a
 * card is running or reading), "list-shown" (the cards are on the page; else
 * the lesson shown takes it, and All Lessons, F9 or Alt+Left bring them
 * back) and "presentation" (the window's presentation mode: showing a
 * lesson folds the cards away).
 *
 * The session (MsPage) runs a card's lesson or opens its reference run
 * (ms_session_run_lesson, ms_session_open_lesson_run) and adds the run to
 * itself; the card follows it. Without a session a card only says when no
 * reference run is installed.
 *
 * Signals:
 * - "show-view" (string view, string modes, int metric, boolean log-scale,
 *   int exponent): the answer is in one of the window's views ("table",
 *   "bandwidth", "time"): show it with only these modes' series (comma-
 *   separated), this MsMetric and y scale, and the cell of the last mode at
 *   2^exponent elements (-1: none) in the timeline. Emitted by Show for the
 *   costs, and by the "Open in the ... View" button for a plain sweep;
 * - "lesson-finished" (string name, string error or NULL): a card's Run
 *   (or opening of its reference run) ended, with a run or with error. */
/* As clicking a card's Run button (Stop while it runs). */
void ms_lessons_page_activate (MsLessonsPage *self, MsLessonTopic topic);
/* As clicking a card's Show button. */
void ms_lessons_page_show (MsLessonsPage *self, MsLessonTopic topic);
/* Opens a file of `memsweep portable` on two GPUs or more (PREFIX-portable.csv):
 * the portable lesson's slide draws from it from now on, and is shown
 * (its run opened first where none is). FALSE with why. */
gboolean ms_lessons_page_open_portable (MsLessonsPage *self, const char *path, GError **error);
/* PgDn (direction 1) and PgUp (-1): as the Show button of the lesson after
 * or before the one shown (the first or last when none is); FALSE past
 * either end. */
gboolean ms_lessons_page_step (MsLessonsPage *self, int direction);
/* Folds open Details (Escape does, presenting, before it leaves); FALSE if none. */
gboolean ms_lessons_page_fold_details (MsLessonsPage *self);
/* The "list-shown" property. */
void ms_lessons_page_set_list_shown (MsLessonsPage *self, gboolean shown);
gboolean ms_lessons_page_get_list_shown (MsLessonsPage *self);
/* Shows the lesson called name ("duplex"), and with run starts its Run
 * too; FALSE when no lesson has that name. */
gboolean ms_lessons_page_show_name (MsLessonsPage *self, const char *name, gboolean run);
/* As the "Open in the ... View" button: emits "show-view" for the lesson
 * shown; FALSE when it has no window view for its run. */
gboolean ms_lessons_page_open_view (MsLessonsPage *self);
/* The caption a card shows now. */
const char *ms_lessons_page_get_caption (MsLessonsPage *self, MsLessonTopic topic);
/* The "shown-run" property: the run of the lesson shown, or NULL. */
MsRun *ms_lessons_page_get_shown_run (MsLessonsPage *self);
/* The run a card captions, or NULL. */
const MsResults *ms_lessons_page_get_run (MsLessonsPage *self, MsLessonTopic topic);
gboolean ms_lessons_page_is_busy (MsLessonsPage *self);

G_END_DECLS
