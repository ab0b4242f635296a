/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-lesson-picture.h: how each lesson is shown, one record each beside
 * its picture (draw/ms-picture-NAME.c, where its line of
 * engine/ms-lesson-list.h says LOOK): its own picture drawn on any
 * cairo_t (the app's card, the command line's plot, the report), the
 * window's view that also answers it, the cells its timelines compare and
 * what its variants mean in words. The app and the command line ask the
 * record; none of them names a lesson. Cairo, Pango and GLib only. */
#pragma once

#include "memsweep.h"
#include "ms-draw.h"
#include "ms-lessons.h"
#include "ms-plots.h"

G_BEGIN_DECLS

/* Draws one lesson's picture of run into width x height. */
typedef void (*MsLessonPictureFunc) (cairo_t *cr, const MsResults *run, const MsChartStyle *style,
                                     double width, double height);

/* How a lesson's answer is shown beside its card, and the settings it
 * applies to the window's views when it shows its run. */
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
  gboolean reuse_chart; /* the reuse chart (ms-reuse-chart.c) answers it beside the card */
  gboolean rows_rate;   /* its timelines' titles quote the metric's median copy rate */
  gboolean name_slivers; /* its timelines name a bar too thin for its name (MsTimelineParts) */
} MsLessonView;

/* One cell a lesson's timelines compare (ms-lesson-rows.c). */
typedef struct {
  MsMode mode;
  char variant[MS_VARIANT_LEN];
  /* A short title in place of the mode, size and variant, or NULL: four
   * rows of seventeen lanes have room for one line of title each. */
  const char *label;
  /* What the variant means (N_), said in place of its ids, or NULL. */
  const char *words;
  /* Left off a slide, where a row the takeaway does not compare raised a
   * question only the larger view's note answers. */
  gboolean not_on_slide;
} MsLessonRow;

/* A part of a lesson's variants in words (N_): a whole part
 * ("stores=fresh"), or a key alone ("K") whose value is a number, the
 * words then holding one %s where the value goes. */
typedef struct {
  const char *part;
  const char *words;
} MsVariantWords;

/* A lesson's look: everything the drawing library, the app and the
 * command line show of it beyond the engine's record. */
typedef struct {
  MsLessonPictureFunc picture; /* its own picture, or NULL */
  MsLessonView view;
  /* The cells its timelines compare: a fixed list, or picked from the run
   * (at most max, returns how many). */
  const MsLessonRow *rows;
  int n_rows;
  int (*pick_rows) (const MsResults *run, MsLessonRow *rows, int max);
  const MsVariantWords *words; /* its variants' parts in words, ending with a NULL part */
  /* Words the details add for run, under its label (free them), or NULL. */
  char *(*title_words) (const MsResults *run);
} MsLessonLook;

/* The look of topic: its record, or an empty one (no picture, no view, no
 * rows) for a lesson without a picture file; NULL out of range. */
const MsLessonLook *ms_lesson_look (MsLessonTopic topic);
/* What part of a variant means ("stores=fresh", "K=4"), from the looks of
 * every lesson, or NULL. */
const MsVariantWords *ms_lesson_variant_words (const char *part);

/* Whether topic has a picture of its own (most sweep lessons use the
 * window's views instead). */
gboolean ms_lesson_picture_has (MsLessonTopic topic);
/* How strongly a picture is drawn under a takeaway that decides nothing
 * (MS_TAKEAWAY_UNDECIDED): still there to read, no longer an answer. At
 * 0.7 the text keeps about 4.9:1 on Adwaita's light background (0.5 left
 * 2.8:1, which a reviewer could not read from the back of a room). */
#define MS_LESSON_UNDECIDED_ALPHA 0.7
/* Whether run's takeaway for topic decides nothing (MS_TAKEAWAY_UNDECIDED).
 * A lesson this host cannot measure (MS_TAKEAWAY_NOT_HERE) draws what it
 * would show on another host, marked so, at full strength: a diagram, no
 * answer that could be mistaken for this host's. */
gboolean ms_lesson_undecided (MsLessonTopic topic, const MsResults *run);
/* A lesson's answer to draw: what draw_faded's callback reads. */
typedef struct {
  MsLessonTopic topic;
  const MsResults *run;
  const MsChartStyle *style;
  double width, height;
} MsLessonAnswerJob;
/* draw (cr, job) at the strength of the job's answer
 * (MS_LESSON_UNDECIDED_ALPHA where its takeaway decides nothing, else 1;
 * its words at full strength: ms_draw_faded); what draw returned. */
gboolean ms_lesson_draw_faded (cairo_t *cr, const MsLessonAnswerJob *job, MsFadedDraw draw);
/* Draws it, dimmed where the run's takeaway decides nothing; with no run,
 * or a run of another lesson, the picture says so. FALSE when topic has
 * no picture of its own. */
gboolean ms_lesson_picture_draw (cairo_t *cr, MsLessonTopic topic, const MsResults *run,
                                 const MsChartStyle *style, double width, double height);

/* Each lesson's look, in draw/ms-picture-NAME.c, where its line of
 * engine/ms-lesson-list.h says LOOK. */
#define MS_LOOK_DECLARE_NO_LOOK(name)
#define MS_LOOK_DECLARE_LOOK(name) extern const MsLessonLook ms_lesson_look_##name;
#define MS_LOOK_DECLARE(id, name, kind, look) MS_LOOK_DECLARE_##look (name)
MS_LESSON_LIST (MS_LOOK_DECLARE)
#undef MS_LOOK_DECLARE

/* A fixed list of rows in a look: .rows and .n_rows. */
#define MS_LESSON_ROWS(table) .rows = (table), .n_rows = G_N_ELEMENTS (table)

/* The cache-state picture's words beside a bar (its median, its ratio to
 * the reference and the verdict) and over a group (the reference and its
 * median), as drawn: the numbers the caption gives (free them). */
char *ms_picture_cache_state_row_text (const MsCacheStateRow *row);
char *ms_picture_cache_state_group_text (const MsCacheStateRow *row);

G_END_DECLS
