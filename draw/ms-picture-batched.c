/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-picture-batched.c: the batched-copies lesson's picture, the answer
 * over the run's sizes: one call per copy's time ÷ the batch's (in stream
 * order, the call's plain use) at each size a copy, a line per source, the
 * line at 1 and its sides named, the takeaway's lowest and highest ratio
 * ringed. One size's pair as two bars was read as the answer for every
 * size, though the ratios over the sizes (in a footnote) ran from slower
 * to nearly four times as fast; two panels of times, seven sizes each,
 * asked a class to find what the headline quotes among twenty-eight
 * points. The times, and the other two orders, are the details'. */
#include <glib/gi18n.h>
#include <math.h>

#include "ms-chart.h"
#include "ms-lessons.h"
#include "ms-lesson-picture.h"
#include "ms-picture-parts.h"
#include "ms-engine.h"

static const MsMode modes[] = { MS_MODE_PINNED, MS_MODE_PAGEABLE };

/* The slowest and fastest of a cell's repetitions. */
static void
rep_range (const MsCell *c, double *lo, double *hi)
{
  *lo = INFINITY, *hi = 0;
  for (int r = 0; r < c->n_reps; r++)
    *lo = MIN (*lo, c->e2e_us[r]), *hi = MAX (*hi, c->e2e_us[r]);
}

/* A one-call-per-copy size that took over three times both its
 * neighbours in every repetition: it sets the far end of the ratios'
 * range, so it is named, lest the batch be credited with it. NULL when
 * there is none. */
static const MsCell *
spike_cell (const MsResults *run, int count, guint *mode_out)
{
  for (guint m = 0; m < G_N_ELEMENTS (modes); m++)
    for (int e = 1; e < 30; e++) {
      const MsCell *c = ms_batched_cell (run, modes[m], e, count, 0);
      const MsCell *lo = c ? ms_batched_cell (run, modes[m], e - 1, count, 0) : NULL;
      const MsCell *hi = c ? ms_batched_cell (run, modes[m], e + 1, count, 0) : NULL;
      if (!lo || !hi || !c->e2e_us || !lo->e2e_us || !hi->e2e_us)
        continue;
      double c_min, c_max, l_min, l_max, h_min, h_max;
      rep_range (c, &c_min, &c_max);
      rep_range (lo, &l_min, &l_max);
      rep_range (hi, &h_min, &h_max);
      double m_c = c->stats.e2e.median;
      if (!(m_c > 3 * lo->stats.e2e.median && m_c > 3 * hi->stats.e2e.median && c_min > l_max
            && c_min > h_max))
        continue;
      *mode_out = m;
      return c;
    }
  return NULL;
}

static char *
spike_note (const MsResults *run, int count)
{
  guint m;
  const MsCell *c = spike_cell (run, count, &m);
  if (!c)
    return NULL;
  char size[32], t[32];
  ms_format_size_label ((double) ms_vector_bytes (c->elements), size, sizeof size);
  ms_format_time_us (c->stats.e2e.median / count, t, sizeof t);
  return g_strdup_printf (_ ("%s: one call per copy took %s a copy at %s, over three times "
                             "both its neighbours; the run does not show why."),
                          ms_mode_title (modes[m]), t, size);
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
  for (guint m = 0; m < G_N_ELEMENTS (modes); m++) {
    g_autofree char *word = g_utf8_strdown (ms_mode_title (modes[m]), -1);
    MsChartSeries *series = NULL;
    for (int e = 0; count > 0 && e <= 30; e++) {
      const MsCell *each = ms_batched_cell (run, modes[m], e, count, 0);
      const MsCell *b = each ? ms_batched_cell (run, modes[m], e, count, 1) : NULL;
      if (b && !series)
        series = ms_chart_data_add_series (d, word, m, m, 0);
      /* Its range from the two medians' 95% ranges, lest a single point
       * be read as a finding. */
      if (b)
        ms_chart_series_add (series, (double) ms_vector_bytes (each->elements),
                             each->stats.e2e.median / b->stats.e2e.median,
                             each->stats.e2e.ci_low / b->stats.e2e.ci_high,
                             each->stats.e2e.ci_high / b->stats.e2e.ci_low, FALSE);
    }
  }
  if (d->series->len == 0) {
    ms_chart_draw (cr, d, style, width, height, -1, NULL);
    return;
  }
  /* The line at 1 over the lines, its sides in words: a class had to
   * work out which side meant what. */
  d->refs_over = TRUE;
  ms_chart_data_add_ref (d, 1, _ ("1×: the same time; above, the batch was faster"));
  MsBatchedPair ends[2];
  int tally[3] = { 0, 0, 0 };
  if (ms_batched_extremes (run, &ends[0], &ends[1], tally))
    for (int i = 0; i < 2; i++) {
      /* The figure alone: its line and size are the chart's, and the
       * longer label found no place clear of the lines. */
      g_autofree char *label = g_strdup_printf ("%.2f×", ends[i].ratio);
      ms_chart_data_add_callout (d, (double) ms_vector_bytes (ends[i].each->elements),
                                 ends[i].ratio, label);
    }
  /* The calls named; the spike, where there is one, since the far end of
   * the range rests on it. */
  g_autoptr (GString) note
      = g_string_new (_ ("One call per copy: cudaMemcpyAsync; one batched call: "
                         "cudaMemcpyBatchAsync (CUDA 12.8 and later), in stream order. "
                         "Bars: 95% ranges; across 1×: unclear."));
  g_autofree char *spike = spike_note (run, count);
  if (spike)
    g_string_append_printf (note, " %s", spike);
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
