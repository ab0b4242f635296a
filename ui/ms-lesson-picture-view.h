/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-lesson-picture-view.h: a probe lesson's picture (draw/ms-lesson-picture.h)
 * as a widget: the streams chapter's heat maps, distributions and charts on
 * the Lessons page. */
#pragma once

#include <gtk/gtk.h>

#include "ms-chart-view.h"

G_BEGIN_DECLS

#define MS_TYPE_LESSON_PICTURE_VIEW (ms_lesson_picture_view_get_type ())
G_DECLARE_FINAL_TYPE (MsLessonPictureView, ms_lesson_picture_view, MS, LESSON_PICTURE_VIEW,
                      MsChartView)

/* Properties: "topic" (a lesson topic's name, ms_lesson_topic_from_name;
 * NULL: none), "run" (MsRun, or NULL), and the text-scale / line-scale /
 * high-contrast of MsChartView. */

G_END_DECLS
