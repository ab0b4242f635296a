/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-picture-batched.c: the batched-copies lesson's picture: one call per
 * copy's time ÷ the batch's (in stream order, the call's plain use) at
 * each size, a line per source, each point's verdict in its marker, the
 * takeaway's smallest size labelled. One size's pair as two bars was read
 * as the answer for every size; the times, and the other two orders, are
 * the details'. */
#include <glib/gi18n.h>
#include <math.h>

#include "ms-chart.h"
#include "ms-lessons.h"
#include "ms-lesson-picture.h"
#include "ms-picture-parts.h"
#include "ms-engine.h"

static const MsMode modes[] = { MS_MODE_PINNED, MS_MODE_PAGEABLE };

/* A one-call-per-copy size that took over three times both its
 * neighbours, into *spike, and its note: it sets the far end of the
 * ratios' range, so it is named, lest the batch be credited with it.
 * NULL when there is none. */
static char *
spike_note (const MsResults *run, int count, const MsCell **spike)
{
  for (guint m = 0; m < G_N_ELEMENTS (modes); m++)
    for (int e = 1; e < 30; e++) {
      const MsCell *c = ms_batched_cell (run, modes[m], e, count, 0);
      const MsCell *lo = c ? ms_batched_cell (run, modes[m], e - 1, count, 0) : NULL;
      const MsCell *hi = c ? ms_batched_cell (run, modes[m], e + 1, count, 0) : NULL;
      if (!lo || !hi || c->stats.e2e.median < 3 * MAX (lo->stats.e2e.median, hi->stats.e2e.median))
        continue;
      char size[32];
      ms_format_size_label ((double) ms_vector_bytes (c->elements), size, sizeof size);
      *spike = c;
      /* No time: the slide draws none, only ratios. */
      return g_strdup_printf (_ ("%s %s: one call per copy took over 3× as long as at both "
                                 "neighbours; the run does not show why."),
                              ms_mode_title (modes[m]), size);
    }
  return NULL;
}

/* Where a source's ratio steps by over twice from one size to the next,
 * and one side alone moved (the other by under a quarter): which side, as
 * teachers asked of pinned's zigzag. NULL when no such step, or when it
 * is the spike's, which has its own note. */
static char *
step_note (const MsResults *run, int count, const MsCell *spike)
{
  for (guint m = 0; m < G_N_ELEMENTS (modes); m++)
    for (int e = 1; e < 30; e++) {
      const MsCell *e0 = ms_batched_cell (run, modes[m], e - 1, count, 0);
      const MsCell *e1 = ms_batched_cell (run, modes[m], e, count, 0);
      const MsCell *b0 = e0 ? ms_batched_cell (run, modes[m], e - 1, count, 1) : NULL;
      const MsCell *b1 = e1 ? ms_batched_cell (run, modes[m], e, count, 1) : NULL;
      if (!b0 || !b1 || e0 == spike || e1 == spike)
        continue;
      double de = log (e1->stats.e2e.median / e0->stats.e2e.median);
      double db = log (b1->stats.e2e.median / b0->stats.e2e.median);
      if (fabs (db - de) < log (2) || MIN (fabs (de), fabs (db)) > log (1.25))
        continue;
      gboolean batch = fabs (db) > fabs (de);
      char a[32], b[32];
      ms_format_size_label ((double) ms_vector_bytes (e0->elements), a, sizeof a);
      ms_format_size_label ((double) ms_vector_bytes (e1->elements), b, sizeof b);
      return g_strdup_printf (batch ? _ ("%s %s → %s: the step is the batched call's, not one "
                                         "call per copy's; the run does not show why.")
                                    : _ ("%s %s → %s: the step is one call per copy's, not the "
                                         "batched call's; the run does not show why."),
                              ms_mode_title (modes[m]), a, b);
    }
  return NULL;
}

/* Pinned's points a little left of their size, pageable's a little
 * right (in octaves), so that the two sources' bars at one size never
 * overlap and a ring on one hides no end of the other's. */
static const double nudge[] = { -0.15, 0.15 };

static void
add_series (MsChartData *d, const MsResults *run, int count)
{
  for (guint m = 0; m < G_N_ELEMENTS (modes); m++) {
    g_autofree char *word = g_utf8_strdown (ms_mode_title (modes[m]), -1);
    MsChartSeries *series = NULL;
    for (int e = 0; count > 0 && e <= 30; e++) {
      MsBatchedPair p = { modes[m], ms_batched_cell (run, modes[m], e, count, 0), NULL, 0 };
      p.batch = p.each ? ms_batched_cell (run, modes[m], e, count, 1) : NULL;
      if (!p.batch)
        continue;
      if (!series) {
        series = ms_chart_data_add_series (d, word, m, m, 0);
        series->x_nudge = nudge[m];
      }
      p.ratio = p.each->stats.e2e.median / p.batch->stats.e2e.median;
      /* Its range from the two medians' 95% ranges, lest a single point
       * be read as a finding; its verdict in its marker, lest the class
       * rebuild it from the bars. */
      ms_chart_series_add (series, (double) ms_vector_bytes (p.each->elements), p.ratio,
                           p.each->stats.e2e.ci_low / p.batch->stats.e2e.ci_high,
                           p.each->stats.e2e.ci_high / p.batch->stats.e2e.ci_low, FALSE);
      MsChartPoint *last = &g_array_index (series->points, MsChartPoint, series->points->len - 1);
      int verdict = ms_batched_verdict (&p);
      last->muted = verdict == 0;
      last->crossed = verdict < 0;
    }
  }
}

static void
ms_picture_batched (cairo_t *cr, const MsResults *run, const MsChartStyle *style, double width,
                    double height)
{
  int count = ms_batched_count (run);
  g_autoptr (MsChartData) d = ms_chart_data_new ();
  d->empty_text = g_strdup (_ ("The run has no measured copies."));
  /* TRANSLATORS: the batched chart's title, e.g. "256 copies of
   * each size: one call per copy's time ÷ one batched call's". */
  d->title = g_strdup_printf (_ ("%d copies of each size: one call per copy's time ÷ one batched "
                                 "call's"),
                              count);
  d->x_label = g_strdup_printf (_ ("%s (log scale)"), _ ("bytes per copy"));
  /* TRANSLATORS: the batched chart's y axis. */
  d->y_label = g_strdup (_ ("× as fast batched"));
  d->y_kind = MS_SCALE_LOG10;
  d->fit_y = TRUE;
  d->direct_labels = TRUE;
  add_series (d, run, count);
  if (d->series->len == 0) {
    ms_chart_draw (cr, d, style, width, height, -1, NULL);
    return;
  }
  /* The line at 1 over the lines, its sides in words (the note's: its
   * label's box hid the ends of the bars under it). */
  d->refs_over = TRUE;
  ms_chart_data_add_ref (d, 1, NULL);
  MsBatchedPair small[2];
  int tally[3] = { 0, 0, 0 };
  int n = ms_batched_smallest (run, small, tally);
  for (int i = 0; i < n; i++) {
    /* The takeaway's figures, at the smallest size, not the far ends
     * of the range: the far end was one slow cell. */
    g_autofree char *label = g_strdup_printf ("%.2f×", small[i].ratio);
    /* Labelled without a ring: a ring's edge hid the ends of the bars
     * it crossed. */
    ms_chart_data_add_callout (d,
                               (double) ms_vector_bytes (small[i].each->elements)
                                   * exp2 (nudge[small[i].mode == modes[1]]),
                               small[i].ratio, label);
    g_array_index (d->callouts, MsChartCallout, d->callouts->len - 1).remark = TRUE;
  }
  /* The calls named, the markers' key, and the steps the run cannot
   * explain: the spike, and where one side alone jumps. */
  g_autoptr (GString) note
      = g_string_new (_ ("One call per copy: cudaMemcpyAsync; batched: one cudaMemcpyBatchAsync, "
                         "in stream order. Dotted: 1×, the same time. Bars: 95% ranges (some "
                         "inside their marker). Filled: the batch was faster; hollow: bar across "
                         "1×, cannot tell; crossed: slower."));
  const MsCell *spike = NULL;
  g_autofree char *spike_text = spike_note (run, count, &spike);
  g_autofree char *step = step_note (run, count, spike);
  if (spike_text)
    g_string_append_printf (note, " %s", spike_text);
  if (step)
    g_string_append_printf (note, " %s", step);
  ms_picture_chart_over_note (cr, d, style, width, height, note->str);
}

static const MsVariantWords words[] = {
  { "call=each", N_ ("one API call per copy") },
  { "call=batch", N_ ("the copies in one batched call") },
  /* TRANSLATORS: %s is a number from a variant ("n=256"). */
  { "n", N_ ("%s copies") },
  { NULL },
};

const MsLessonLook ms_lesson_look_batched = {
  .picture = ms_picture_batched,
  .words = words,
};
