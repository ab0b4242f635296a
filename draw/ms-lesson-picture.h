/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-lesson-picture.h: the lessons' pictures (the probe lessons' and a few
 * others', as engine/ms-lesson-list.h says), one file each
 * (draw/ms-picture-NAME.c), drawn on any cairo_t: the app's card, the
 * command line's plot, the report. Cairo, Pango and GLib only. */
#pragma once

#include "memsweep.h"
#include "ms-draw.h"
#include "ms-lessons.h"

G_BEGIN_DECLS

/* Draws one lesson's picture of run into width x height. */
typedef void (*MsLessonPictureFunc) (cairo_t *cr, const MsResults *run, const MsChartStyle *style,
                                     double width, double height);

/* Whether topic has a picture of its own (most sweep lessons use the
 * window's views instead). */
gboolean ms_lesson_picture_has (MsLessonTopic topic);
/* Draws it; with no run, or a run of another lesson, the picture says so.
 * FALSE when topic has no picture of its own. */
gboolean ms_lesson_picture_draw (cairo_t *cr, MsLessonTopic topic, const MsResults *run,
                                 const MsChartStyle *style, double width, double height);

/* Each lesson's picture, draw/ms-picture-NAME.c, where its line of
 * engine/ms-lesson-list.h says PICTURE. */
#define MS_PICTURE_DECLARE_NO_PICTURE(name)
#define MS_PICTURE_DECLARE_PICTURE(name)                                                     \
  void ms_picture_##name (cairo_t *cr, const MsResults *run, const MsChartStyle *style,      \
                          double width, double height);
#define MS_PICTURE_DECLARE(id, name, kind, picture) MS_PICTURE_DECLARE_##picture (name)
MS_LESSON_LIST (MS_PICTURE_DECLARE)
#undef MS_PICTURE_DECLARE

/* The cache-state picture's words beside a bar (its median, its ratio to
 * the reference and the verdict) and over a group (the reference and its
 * median), as drawn: the numbers the caption gives (free them). */
char *ms_picture_cache_state_row_text (const MsCacheStateRow *row);
char *ms_picture_cache_state_group_text (const MsCacheStateRow *row);

G_END_DECLS
