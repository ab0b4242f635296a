/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-picture-batched.c: the batched-copies lesson's picture: the time per
 * copy against the copy's size, a panel per source (pinned, pageable) on
 * one time axis, two lines (one call per copy, one batch), one legend
 * under both. The batch line is the batch in stream order, as the
 * takeaway quotes it; how far apart the three source-access orders lie is
 * said under the legend (the caption gives each). A slide draws the
 * ratio of the two at each size instead (draw_slide_ratios). */
#include <glib/gi18n.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ms-chart.h"
#include "ms-lessons.h"
#include "ms-lesson-picture.h"
#include "ms-picture-parts.h"
#include "ms-palette.h"
#include "ms-engine.h"

/* The lines drawn: one call per copy and the batch. */
static const struct {
  const char *label;
  const char *meaning; /* the legend's words where there is room */
} lines[] = {
  { N_ ("one call per copy"), N_ ("one call per copy") },
  { N_ ("one batch"), N_ ("one batched call, in stream order (the other two orders: the details)") },
};

static const MsMode modes[] = { MS_MODE_PINNED, MS_MODE_PAGEABLE };

/* One panel per source, two lines (colour and marker as in the shared
 * legend). */
static MsChartData *
build (const MsResults *run, MsMode mode, int count)
{
  MsChartData *d = ms_chart_data_new ();
  d->title = g_strdup (ms_mode_title (mode));
  /* A log axis says so: its even steps are factors. */
  d->x_label = g_strdup_printf (_ ("%s (log scale)"), _ ("bytes per copy"));
  d->y_label = g_strdup (_ ("time per copy"));
  d->y_kind = MS_SCALE_LOG10;
  d->fit_y = TRUE;
  d->no_legend = TRUE;
  d->y_unit = MS_SCALE_TIME_US;
  d->empty_text = g_strdup (_ ("The run has no measured copies."));
  for (guint s = 0; count > 0 && s < G_N_ELEMENTS (lines); s++) {
    MsChartSeries *series = NULL;
    for (int e = 0; e <= 30; e++) {
      const MsCell *c = ms_batched_cell (run, mode, e, count, s);
      if (!c)
        continue;
      if (!series)
        series = ms_chart_data_add_series (d, _ (lines[s].label), s, s, 0);
      double per = c->stats.e2e.median / count;
      ms_chart_series_add (series, (double) ms_vector_bytes (c->elements), per,
                           c->stats.e2e.ci_low / count, c->stats.e2e.ci_high / count, FALSE);
    }
  }
  return d;
}

/* One call per copy over the batch at each size of mode, as drawn (the
 * headline's "1.6× faster" way round): the smallest and largest ratio;
 * FALSE when none. */
static gboolean
batch_ratio_range (const MsResults *run, MsMode mode, int count, double *lo, double *hi)
{
  *lo = INFINITY, *hi = -INFINITY;
  for (int e = 0; e <= 30; e++) {
    const MsCell *each = ms_batched_cell (run, mode, e, count, 0);
    const MsCell *b = each ? ms_batched_cell (run, mode, e, count, 1) : NULL;
    if (b)
      *lo = MIN (*lo, each->stats.e2e.median / b->stats.e2e.median),
      *hi = MAX (*hi, each->stats.e2e.median / b->stats.e2e.median);
  }
  return isfinite (*lo);
}

/* Each source's batch_ratio_range, "pinned 0.46–1.07×; pageable ...";
 * empty when none. */
static GString *
ratio_ranges (const MsResults *run, int count)
{
  GString *take = g_string_new (NULL);
  for (guint m = 0; m < G_N_ELEMENTS (modes) && count > 0; m++) {
    double lo, hi;
    if (!batch_ratio_range (run, modes[m], count, &lo, &hi))
      continue;
    /* TRANSLATORS: e.g. "pinned 0.93–2.17×", after "One call per copy ÷
     * one batch ...:". */
    g_autofree char *word = g_utf8_strdown (ms_mode_title (modes[m]), -1);
    if (take->len)
      g_string_append (take, "; ");
    g_string_append_printf (take, _ ("%s %.2f–%.2f×"), word, lo, hi);
  }
  return take;
}

/* The slowest and fastest of a cell's repetitions. */
static void
rep_range (const MsCell *c, double *lo, double *hi)
{
  *lo = INFINITY, *hi = 0;
  for (int r = 0; r < c->n_reps; r++)
    *lo = MIN (*lo, c->e2e_us[r]), *hi = MAX (*hi, c->e2e_us[r]);
}

/* A batch that took clearly less time at the next size up (every
 * repetition faster): said, so that the dip does not read as a mistake.
 * NULL when there is none. */
static char *
dip_note (const MsResults *run, int count)
{
  for (guint m = 0; m < G_N_ELEMENTS (modes); m++)
    for (int e = 0; e < 30; e++) {
      const MsCell *a = ms_batched_cell (run, modes[m], e, count, 1);
      const MsCell *b = a ? ms_batched_cell (run, modes[m], e + 1, count, 1) : NULL;
      if (!b || !(b->stats.e2e.median < 0.8 * a->stats.e2e.median))
        continue;
      double a_min, a_max, b_min, b_max;
      rep_range (a, &a_min, &a_max);
      rep_range (b, &b_min, &b_max);
      if (!(b_max < a_min))
        continue;
      char sa[32], sb[32], ta[32], tb[32];
      ms_format_size_label ((double) ms_vector_bytes (a->elements), sa, sizeof sa);
      ms_format_size_label ((double) ms_vector_bytes (b->elements), sb, sizeof sb);
      ms_format_time_us (a->stats.e2e.median / count, ta, sizeof ta);
      ms_format_time_us (b->stats.e2e.median / count, tb, sizeof tb);
      return g_strdup_printf (_ ("%s: batches of %s copies beat those of %s (%s against %s per "
                                 "copy) in every repetition, so no outlier; the run does not "
                                 "show why."),
                              ms_mode_title (modes[m]), sb, sa, tb, ta);
    }
  return NULL;
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
                             "both its neighbours in every repetition; the ratios there "
                             "come from that, and the run does not show why."),
                          ms_mode_title (modes[m]), t, size);
}

/* The largest spread among the batch orders' times per copy, over every
 * size and source: (slowest - fastest) / fastest; -1 where no size has
 * two orders. */
static double
orders_spread (const MsResults *run, int count)
{
  double spread = -1;
  for (guint m = 0; m < G_N_ELEMENTS (modes); m++)
    for (int e = 0; e <= 30; e++) {
      double lo = INFINITY, hi = 0;
      int n = 0;
      for (int k = 1; k <= 3; k++) { /* the three batch orders */
        const MsCell *c = ms_batched_cell (run, modes[m], e, count, k);
        if (c)
          lo = MIN (lo, c->stats.e2e.median), hi = MAX (hi, c->stats.e2e.median), n++;
      }
      if (n >= 2)
        spread = MAX (spread, (hi - lo) / lo);
    }
  return spread;
}

/* How far apart the batch orders lie, which the one batch line hides:
 * within a tenth, that they are alike; else by how much at most. NULL
 * where no size has two orders. */
static char *
orders_note (const MsResults *run, int count)
{
  double spread = orders_spread (run, count);
  if (spread < 0)
    return NULL;
  if (spread < 0.1)
    /* TRANSLATORS: under the batched picture, e.g. "... within 8% of one
     * another ...". */
    return g_strdup_printf (_ ("The three batch orders lie within %.0f%% of one another at every "
                               "size: which is drawn hardly matters."),
                            MAX (1, ceil (spread * 100)));
  /* TRANSLATORS: under the batched picture, e.g. "... up to 1.45× apart
   * ...". */
  return g_strdup_printf (_ ("The three batch orders lie up to %.2f× apart at some size: the "
                             "details give each."),
                          1 + spread);
}

/* The shared legend: a line per submission (its colour and marker, and
 * where there is room what the batch line is), in two columns where they
 * fit. */
static double
legend (cairo_t *cr, const MsChartStyle *st, double width, double y0, gboolean full,
        gboolean draw)
{
  const double fs = ms_style_font_size (st), lw = ms_style_line_width (st);
  const double key_w = fs * 2, col_w = (width - fs) / 2;
  double widest = 0, tw, th = fs;
#define TEXT(i) (full ? _ (lines[i].meaning) : _ (lines[i].label))
  for (guint i = 0; i < G_N_ELEMENTS (lines); i++) {
    ms_draw_text (cr, TEXT (i), 0, 0, fs, -1, 0, FALSE, &tw, &th);
    widest = MAX (widest, tw);
  }
  gboolean two = key_w + widest + fs < col_w;
  double y = y0;
  for (guint i = 0; i < G_N_ELEMENTS (lines); i++) {
    double x = fs * 0.5 + (two && i % 2 ? col_w : 0);
    double text_w = (two ? col_w : width - fs) - key_w - fs * 0.5;
    double h = ms_draw_text_wrapped (cr, TEXT (i), x + key_w, y, fs, text_w, FALSE, FALSE);
    if (draw) {
      ms_picture_key_line (cr, st, i, x, y, th, fs, lw);
      ms_set_color (cr, &st->fg, 1);
      ms_draw_text_wrapped (cr, TEXT (i), x + key_w, y, fs, text_w, FALSE, TRUE);
    }
    if (!two || i % 2 || i + 1 == G_N_ELEMENTS (lines))
      y += h + fs * 0.15;
  }
#undef TEXT
  return y - y0;
}

/* Under the panels: the legend, then the finding from the run (the
 * caption's figures) and any dip. Returns the height; only measured
 * unless draw. */
static double
footer (cairo_t *cr, const MsResults *run, const MsChartStyle *st, double width, double height,
        double y0, gboolean full, gboolean draw)
{
  const double fs = ms_style_font_size (st);
  int count = ms_batched_count (run);
  double y = y0 + fs * 0.3;
  y += legend (cr, st, width, y, full, draw);
  GString *take = ratio_ranges (run, count);
  if (take->len) {
    /* Said to be a range over the sizes, and the bars apart from it: read
     * after "bars: 95% intervals", the ranges read as intervals. */
    g_string_prepend (take, _ ("One call per copy ÷ one batch, lowest to highest over the sizes "
                               "(above 1: the batch is faster): "));
    /* xgettext:no-c-format */
    g_string_append (take, _ (". Bars: each time's 95% interval."));
    ms_set_color (cr, &st->fg, 0.95);
    y += fs * 0.2;
    y += ms_draw_text_wrapped (cr, take->str, fs * 0.5, y, fs, width - fs, TRUE, draw);
  }
  g_string_free (take, TRUE);
  /* How far apart the orders lie, but on a slide whose legend says what
   * the batch line is. */
  gboolean slide = full && ms_draw_is_slide (st, height);
  g_autofree char *same = count > 0 && !slide ? orders_note (run, count) : NULL;
  if (same) {
    ms_set_color (cr, &st->fg, 0.9);
    y += ms_draw_text_wrapped (cr, same, fs * 0.5, y, fs, width - fs, FALSE, draw);
  }
  /* One note, the spike first: it is what the range's far end rests on,
   * and a second note left the charts too little height in the pane. */
  g_autofree char *note = count > 0 ? spike_note (run, count) : NULL;
  if (!note && count > 0)
    note = dip_note (run, count);
  if (note) {
    ms_set_color (cr, &st->fg, 0.9);
    y += ms_draw_text_wrapped (cr, note, fs * 0.5, y, fs, width - fs, FALSE, draw);
  }
  return y - y0 + fs * 0.3;
}

/* "pinned, 16 KiB: 0.85×": where an extreme of the takeaway lies and its
 * ratio, the figure the headline quotes. */
static char *
extreme_label (const MsBatchedPair *p)
{
  char size[32];
  g_autofree char *word = g_utf8_strdown (ms_mode_title (p->mode), -1);
  ms_format_size_label ((double) ms_vector_bytes (p->each->elements), size, sizeof size);
  /* TRANSLATORS: a ring's label on the batched chart, e.g. "pinned, 16
   * KiB: 0.85×": one call per copy's time ÷ the batch's there. */
  return g_strdup_printf (_ ("%s, %s: %.2f×"), word, size, p->ratio);
}

/* Rings the batches of the two ratios the takeaway quotes, each in its
 * source's panel, so that the figures the class just read are found at
 * once among twenty-eight points. */
static void
call_out_takeaway (const MsResults *run, int count, MsChartData *panels[2])
{
  MsBatchedPair ends[2];
  if (count <= 0 || !ms_batched_extremes (run, &ends[0], &ends[1]))
    return;
  for (int i = 0; i < 2; i++) {
    g_autofree char *label = extreme_label (&ends[i]);
    ms_chart_data_add_callout (panels[ends[i].mode == modes[0] ? 0 : 1],
                               (double) ms_vector_bytes (ends[i].batch->elements),
                               ends[i].batch->stats.e2e.median / count, label);
  }
}

/* A slide: the answer over the run's sizes, one call per copy's time ÷ the
 * batch's at each size a copy, a line per source, the line at 1 and its
 * sides named, the takeaway's two ratios ringed. One size's pair as two
 * bars was read as the answer for every size, though the ratios over the
 * sizes (in a footnote) ran from slower to nearly four times as fast. */
static void
draw_slide_ratios (cairo_t *cr, const MsResults *run, const MsChartStyle *style, double width,
                   double height, int count)
{
  g_autoptr (MsChartData) d = ms_chart_data_new ();
  /* TRANSLATORS: the batched slide's chart title, e.g. "256 copies of
   * each size: one call per copy's time ÷ one batched call's". */
  d->title = g_strdup_printf (_ ("%d copies of each size: one call per copy's time ÷ one batched "
                                 "call's"),
                              count);
  d->x_label = g_strdup_printf (_ ("%s (log scale)"), _ ("bytes per copy"));
  /* TRANSLATORS: the batched slide's y axis. */
  d->y_label = g_strdup (_ ("× as fast batched"));
  d->y_kind = MS_SCALE_LOG10;
  d->fit_y = TRUE;
  d->direct_labels = TRUE;
  for (guint m = 0; m < G_N_ELEMENTS (modes); m++) {
    g_autofree char *word = g_utf8_strdown (ms_mode_title (modes[m]), -1);
    MsChartSeries *series = ms_chart_data_add_series (d, word, m, m, 0);
    for (int e = 0; e <= 30; e++) {
      const MsCell *each = ms_batched_cell (run, modes[m], e, count, 0);
      const MsCell *b = each ? ms_batched_cell (run, modes[m], e, count, 1) : NULL;
      if (b)
        ms_chart_series_add (series, (double) ms_vector_bytes (each->elements),
                             each->stats.e2e.median / b->stats.e2e.median, 1, 0, FALSE);
    }
  }
  /* The line at 1 over the lines, its sides in words: a class had to
   * work out which side meant what. */
  d->refs_over = TRUE;
  ms_chart_data_add_ref (d, 1, _ ("1×: the same time; above, the batch was faster"));
  MsBatchedPair ends[2];
  if (ms_batched_extremes (run, &ends[0], &ends[1]))
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
                         "cudaMemcpyBatchAsync (CUDA 12.8 and later), in stream order."));
  g_autofree char *spike = spike_note (run, count);
  if (spike)
    g_string_append_printf (note, " %s", spike);
  const double fs = ms_style_font_size (style);
  ms_draw_background (cr, style);
  double note_h = ms_draw_text_wrapped (cr, note->str, fs * 0.5, 0, fs * 0.95, width - fs, FALSE,
                                        FALSE);
  double chart_h = round (height - note_h - fs * 0.6);
  cairo_save (cr);
  cairo_rectangle (cr, 0, 0, width, chart_h);
  cairo_clip (cr);
  ms_chart_draw (cr, d, style, width, chart_h, -1, NULL);
  cairo_restore (cr);
  ms_set_color (cr, &style->fg, 0.85);
  ms_draw_text_wrapped (cr, note->str, fs * 0.5, chart_h + fs * 0.3, fs * 0.95, width - fs, FALSE,
                        TRUE);
}

static void
ms_picture_batched (cairo_t *cr, const MsResults *run, const MsChartStyle *style, double width,
                    double height)
{
  int count = ms_batched_count (run);
  g_autoptr (MsChartData) pinned = build (run, modes[0], count);
  g_autoptr (MsChartData) pageable = build (run, modes[1], count);
  /* With a line to draw, the run has a count (build draws none without). */
  if (pinned->series->len == 0 && pageable->series->len == 0) {
    ms_chart_draw (cr, pinned, style, width, height, -1, NULL);
    return;
  }
  /* A slide draws the ratios alone, at the full width: two half-width
   * panels of times, seven sizes each, asked a class to find what the
   * headline quotes among twenty-eight points. */
  if (ms_draw_is_slide (style, height)) {
    draw_slide_ratios (cr, run, style, width, height, count);
    return;
  }
  /* The orders explained in the legend where that leaves the panels room. */
  gboolean full = footer (cr, run, style, width, height, 0, TRUE, FALSE) < height * 0.42;
  /* One time axis for both: the same time at the same height. */
  MsChartData *panels[2] = { pinned, pageable };
  ms_picture_share_range (panels, 2);
  /* Where the panels are small, their axis titles go (the ticks say sizes
   * and times) and the panel's title says "per copy" instead. */
  if (!full)
    for (int m = 0; m < 2; m++) {
      MsChartData *d = panels[m];
      g_clear_pointer (&d->x_label, g_free);
      g_clear_pointer (&d->y_label, g_free);
      g_free (d->title);
      /* TRANSLATORS: a panel's title, e.g. "Pinned: time per copy". */
      d->title = g_strdup_printf (_ ("%s: time per copy"), ms_mode_title (modes[m]));
    }
  ms_draw_background (cr, style);
  double foot_h = footer (cr, run, style, width, height, 0, full, FALSE);
  double chart_h = round (height - foot_h);
  call_out_takeaway (run, count, panels);
  const double panel_w = width / 2;
  for (int m = 0; m < 2; m++) {
    cairo_save (cr);
    cairo_translate (cr, m * panel_w, 0);
    cairo_rectangle (cr, 0, 0, panel_w, chart_h);
    cairo_clip (cr);
    ms_chart_draw (cr, panels[m], style, panel_w, chart_h, -1, NULL);
    cairo_restore (cr);
  }
  footer (cr, run, style, width, height, chart_h, full, TRUE);
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
