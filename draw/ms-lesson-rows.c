/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-lesson-rows.c: the cells a lesson compares on one time axis (the
 * rows of its look, draw/ms-picture-NAME.c), each the repetition nearest
 * its median, titled. */
#include "ms-lesson-rows.h"

#include <glib/gi18n.h>
#include <string.h>

#include "ms-engine.h"
#include "ms-lesson-picture.h"

#define MS_TIMELINE_MAX_ROWS_SPEC 8

/* The rows of a lesson's look: its fixed list, or those it picks from run. */
static int
topic_rows (const MsLessonLook *look, const MsResults *run, MsLessonRow *rows)
{
  if (!look)
    return 0;
  if (look->pick_rows)
    return look->pick_rows (run, rows, MS_TIMELINE_MAX_ROWS_SPEC);
  int n = MIN (look->n_rows, MS_TIMELINE_MAX_ROWS_SPEC);
  if (n > 0)
    memcpy (rows, look->rows, n * sizeof *rows);
  return n;
}

/* The largest size with a cell of any row that has events. */
static int
rows_exponent (const MsResults *run, const MsLessonRow *rows, int n)
{
  for (int e = MS_MAX_EXPONENT; e >= MS_MIN_EXPONENT; e--)
    for (int i = 0; i < n; i++) {
      const MsCell *c = ms_results_find_variant (run, rows[i].mode, e, rows[i].variant);
      if (c && c->n_events > 0)
        return e;
    }
  return -1;
}

/* The copy rate a lesson compared by copy bandwidth quotes (its median),
 * for the row's title: a pinned h2d bar too short for its rate left the
 * takeaway's 50.1 GB/s nowhere on the slide. Then what the title's times
 * are: after the rate, "median 1.82 ms" read as the copy's time, and "all
 * steps" left a class asking what a step was. Appends
 * nothing for a time metric. */
static void
append_rate (GString *title, const MsCell *c, MsMetric metric)
{
  gboolean h2d = metric == MS_METRIC_H2D_BANDWIDTH, d2h = metric == MS_METRIC_D2H_BANDWIDTH;
  double gbps = h2d ? c->stats.h2d_gbps : d2h ? c->stats.d2h_gbps : 0;
  /* The way back's rate too, where the takeaway quotes its ratio: the
   * bars drawn are one repetition, whose times gave another ratio (5.3×
   * against the medians' 5.1×). */
  if (h2d && gbps > 0 && c->stats.d2h_gbps > 0)
    /* Translators: as the next, with both directions' rates, e.g. "· h2d
     * 50.1 GB/s, d2h 51.0 GB/s; a repetition (a and b in, c = a + b, c back)". */
    g_string_append_printf (title, C_ ("timeline row", " · %s %.1f GB/s, %s %.1f GB/s; a repetition (a and b in, c = a + b, c back)"),
                            ms_phase_name (MS_PHASE_H2D), gbps, ms_phase_name (MS_PHASE_D2H),
                            c->stats.d2h_gbps);
  else if (gbps > 0)
    /* Translators: after a lesson timeline's title, the median rate of
     * the copy the lesson compares, then what the times after it are,
     * e.g. "· h2d 50.1 GB/s; a repetition (a and b in, c = a + b, c back)". */
    g_string_append_printf (title, C_ ("timeline row", " · %s %.1f GB/s; a repetition (a and b in, c = a + b, c back)"),
                            ms_phase_name (h2d ? MS_PHASE_H2D : MS_PHASE_D2H), gbps);
}

/* The repetition nearest the median (ms_timeline_rows_typical_rep, else a
 * middle one), titled with the mode and the size of each vector; the rows
 * add its figures and which repetition it is (ms_timeline_rows_title). */
static gboolean
add_row (const MsCell *c, const MsLessonRow *spec, MsMetric metric, MsLessonRowFunc add,
         gpointer data)
{
  char size[32];
  int rep = ms_timeline_rows_typical_rep (c);
  ms_format_bytes (ms_vector_bytes (c->elements), size, sizeof size);
  /* Translators: a lesson timeline's title: the mode and the size of
   * each vector, e.g. "Pinned · 4 MiB per vector". */
  g_autofree char *what
      = g_strdup_printf (C_ ("timeline row", "%s · %s per vector"), ms_mode_title (c->mode), size);
  g_autoptr (GString) title = g_string_new (spec->label ? spec->label : what);
  if (c->variant[0] && !spec->label)
    g_string_append_printf (title, " · %s", spec->words ? _ (spec->words) : c->variant);
  append_rate (title, c, metric);
  if (rep >= 0 && add (c, rep, title->str, data))
    return TRUE;
  return add (c, c->n_reps / 2, title->str, data) || add (c, 0, title->str, data);
}

int
ms_lesson_rows_each_for (MsLessonTopic topic, const MsResults *run, gboolean slide,
                         MsLessonRowFunc add, gpointer data)
{
  MsLessonRow rows[MS_TIMELINE_MAX_ROWS_SPEC];
  if (!run)
    return 0;
  const MsLessonLook *look = ms_lesson_look (topic);
  int n = topic_rows (look, run, rows), added = 0;
  int e = rows_exponent (run, rows, n);
  for (int i = 0; i < n && e >= 0 && added < MS_TIMELINE_MAX_ROWS; i++) {
    if (slide && rows[i].not_on_slide)
      continue;
    const MsCell *c = ms_results_find_variant (run, rows[i].mode, e, rows[i].variant);
    if (c && add_row (c, &rows[i], look && look->view.rows_rate ? look->view.metric : MS_METRIC_E2E_TIME,
                      add, data))
      added++;
  }
  return added;
}

static gboolean
add_to_rows (const MsCell *cell, int rep, const char *title, gpointer rows)
{
  return ms_timeline_rows_add (rows, cell, rep, title);
}

void
ms_lesson_rows_look (MsTimelineRows *rows, MsLessonTopic topic)
{
  const MsLessonLook *look = ms_lesson_look (topic);
  rows->rates_in_titles = look && look->view.rows_rate;
  rows->name_slivers = look && look->view.name_slivers;
}

static int
fill (MsTimelineRows *rows, MsLessonTopic topic, const MsResults *run, gboolean slide)
{
  ms_timeline_rows_clear (rows);
  ms_lesson_rows_look (rows, topic);
  return ms_lesson_rows_each_for (topic, run, slide, add_to_rows, rows);
}

int
ms_lesson_rows_fill (MsTimelineRows *rows, MsLessonTopic topic, const MsResults *run)
{
  return fill (rows, topic, run, FALSE);
}

int
ms_lesson_rows_fill_slide (MsTimelineRows *rows, MsLessonTopic topic, const MsResults *run)
{
  return fill (rows, topic, run, TRUE);
}
