/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-picture-intensity.c: the intensity lesson's picture: zero-copy ÷
 * pinned end to end against F, the multiply-adds per element (each waiting
 * for the last), with the line at 1 where the two take the same time:
 * below it zero-copy takes less time. */
#include <glib/gi18n.h>
#include <math.h>
#include <stdio.h>

#include "ms-chart.h"
#include "ms-lesson-picture.h"
#include "ms-picture-parts.h"

static double
median_of (const MsResults *run, const char *mode, int f)
{
  char v[MS_VARIANT_LEN];
  snprintf (v, sizeof v, "mode=%s/F=%d", mode, f);
  return ms_picture_median (run, v);
}

static MsChartData *
build (const MsResults *run, gboolean slide)
{
  MsChartData *d = ms_chart_data_new ();
  /* A slide gives the buffers' size too: the ratio alone left a class
   * asking how much data each F moved. */
  char size[32] = "";
  for (int f = 1; f <= 1024 && !size[0]; f++) {
    char v[MS_VARIANT_LEN];
    snprintf (v, sizeof v, "mode=pinned/F=%d", f);
    const MsCell *c = ms_picture_cell (run, v);
    if (c && c->n_reps > 0)
      ms_format_size_label ((double) ms_vector_bytes (c->elements), size, sizeof size);
  }
  d->title = slide && size[0]
                 /* TRANSLATORS: the intensity slide's title, e.g. "Zero-copy
                  * ÷ pinned time, 16 MiB per vector, each element read
                  * once" (the reuse slide's "loses from R = 2" read as a
                  * contradiction beside it). */
                 ? g_strdup_printf (_ ("Zero-copy ÷ pinned time, %s per vector, each element "
                                       "read once"),
                                    size)
                 : g_strdup (_ ("Zero-copy ÷ pinned, end to end, against arithmetic per element"));
  /* A log axis says so: its even steps are factors. */
  /* TRANSLATORS: the intensity chart's x axis: F multiply-adds per
   * element, each waiting for the one before. */
  d->x_label = g_strdup_printf (_ ("%s (log scale)"), _ ("F: chained multiply-adds (FMAs) per element"));
  d->y_label = g_strdup (_ ("zero-copy ÷ pinned"));
  d->y_kind = MS_SCALE_LOG10;
  d->fit_y = TRUE;
  d->x_unit = MS_SCALE_COUNT;
  /* One line, named by the axis: no legend. */
  d->no_legend = TRUE;
  d->empty_text = g_strdup (_ ("The run has no F with both a zero-copy and a pinned cell."));
  MsChartSeries *s = NULL;
  for (int f = 1; f <= 1024; f++) {
    double zc = median_of (run, "zero-copy", f), pinned = median_of (run, "pinned", f);
    if (!(zc > 0 && pinned > 0))
      continue;
    if (!s)
      s = ms_chart_data_add_series (d, _ ("zero-copy ÷ pinned"), 0, 0, 0);
    ms_chart_series_add (s, f, zc / pinned, 1, 0, FALSE);
  }
  /* On a slide, the first and last F ringed with their figures: the
   * headline's "1 to 1024" (the lowest and highest ratio ringed an F a
   * class could find no reason for). */
  guint last = s ? s->points->len - 1 : 0;
  for (guint k = 0; slide && s && k < 2 && last > 0; k++) {
    const MsChartPoint *p = &g_array_index (s->points, MsChartPoint, k ? last : 0);
    g_autofree char *label = g_strdup_printf ("F = %g: %.2f×", p->x, p->y);
    ms_chart_data_add_callout (d, p->x, p->y, label);
  }
  /* "zero-copy wins" under the line read as upside down to a class:
   * the line is a ratio of times, so say time. A slide names the two
   * sides itself (slide_sides). */
  if (s)
    ms_chart_data_add_ref (d, 1, slide ? NULL : _ ("1: same time; below it, zero-copy takes less"));
  return d;
}

/* Where the arithmetic would take as long as the copies, the lesson's
 * effect, when the run's F never got there (pinned's time less than
 * doubled): along the straight line pinned's time follows in F (each
 * multiply-add waits for the last), to two figures, e.g. "about 7000";
 * NULL where pinned's time did not grow. */
static char *
where_effect_shows (double p_lo, double p_hi, int lo, int hi)
{
  if (!(p_hi > p_lo) || p_hi >= 2 * p_lo || hi <= lo)
    return NULL;
  double per_f = (p_hi - p_lo) / (hi - lo), copies = p_lo - per_f * lo;
  double f = copies / per_f;
  double step = pow (10, floor (log10 (f)) - 1);
  return g_strdup_printf ("%.0f", round (f / step) * step);
}

/* Why zero-copy can win with no arithmetic at all, under a slide where it
 * took less time at every F: the link glossed ("hidden here means
 * zero-copy beat pinned" was read as the link hiding the arithmetic); its
 * rate over a, b and c at the least F where that beat what pinned copies
 * (c) reach one way, which is both ways at once; and that each element is
 * read once (a class took "zero-copy always beats copies" away, which the
 * reuse slide contradicts). */
static char *
why_won (const MsResults *run, const MsCell *c, int lo)
{
  double moved = 3.0 * (double) ms_vector_bytes (c->elements);
  double rate = moved / median_of (run, "zero-copy", lo) * 1e-3;
  char total[32];
  ms_format_size_label (moved, total, sizeof total);
  /* TRANSLATORS: under the intensity slide, e.g. ": at F = 1 its 48 MiB
   * moved at 69 GB/s, more than pinned's 51 GB/s one way". */
  g_autofree char *both_ways
      = rate > c->stats.h2d_gbps
            ? g_strdup_printf (_ (": at F = %d its %s moved at %.0f GB/s, more than pinned's "
                                  "%.0f GB/s one way"),
                               lo, total, rate, c->stats.h2d_gbps)
            : g_strdup ("");
  /* TRANSLATORS: e.g. "Pinned copies a and b in, …, as it computes: at F =
   * 1 its 48 MiB moved at 69 GB/s, more than pinned's 51 GB/s one way. Each
   * element is read once; read more often, zero-copy lost on slide 2." */
  return g_strdup_printf (
      _ ("Pinned copies a and b in, computes, then copies c out, in turn; zero-copy's kernel "
         "reads and writes over the link (the CPU–GPU connection, PCIe) as it computes%s. Each "
         "element is read once; read more often, zero-copy lost on slide %d."),
      both_ways, ms_lesson_deck_number (MS_TOPIC_REUSE));
}

/* The absolute times behind the ratios, at the least and the most
 * arithmetic, and the buffer's size: the ratio alone hid them; and where
 * the run's F stayed too small for the arithmetic to take as long as the
 * copies, at about which F it would (a teacher found the slide showing no
 * effect, and not saying where one would be). Returns the height; only
 * measured unless draw. */
static double
times_note (cairo_t *cr, const MsResults *run, const MsChartStyle *st, double width, double y,
            gboolean slide, gboolean draw)
{
  const double fs = ms_style_font_size (st);
  int lo = 0, hi = 0;
  for (int f = 1; f <= 1024; f++)
    if (median_of (run, "zero-copy", f) > 0 && median_of (run, "pinned", f) > 0) {
      if (!lo)
        lo = f;
      hi = f;
    }
  char v[MS_VARIANT_LEN];
  snprintf (v, sizeof v, "mode=pinned/F=%d", lo);
  const MsCell *c = ms_picture_cell (run, v);
  if (!lo || !c)
    return 0;
  char size[32], p0[32], p1[32], z0[32], z1[32];
  ms_format_size_label ((double) ms_vector_bytes (c->elements), size, sizeof size);
  ms_caption_time (median_of (run, "pinned", lo), p0, sizeof p0);
  ms_caption_time (median_of (run, "pinned", hi), p1, sizeof p1);
  ms_caption_time (median_of (run, "zero-copy", lo), z0, sizeof z0);
  ms_caption_time (median_of (run, "zero-copy", hi), z1, sizeof z1);
  g_autofree char *times = g_strdup_printf (
      _ ("%s buffers, end to end: at F = %d pinned took %s and zero-copy %s; at F = %d, %s and "
         "%s."),
      size, lo, p0, z0, hi, p1, z1);
  g_autofree char *at
      = where_effect_shows (median_of (run, "pinned", lo), median_of (run, "pinned", hi), lo, hi);
  /* TRANSLATORS: after the times at the least and most F, e.g. "... Up
   * to F = 1024 the arithmetic stays small beside the copies: it would
   * take as long as them only near F = 7000 (a straight line through
   * pinned's times), beyond this run." Said as the takeaway says it
   * ("... before arithmetic mattered"), which a class read as
   * contradicted by "there the lesson's effect shows". */
  /* A slide keeps what a class needs beside its takeaway: why zero-copy
   * won, and where the arithmetic would match the copies, said to lie
   * past the chart's F; the times are the details'. */
  /* Where zero-copy won at every F, why it can: pinned's three steps
   * follow one another; zero-copy's kernel uses the link as it works. */
  gboolean won = TRUE;
  for (int f = lo; f <= hi; f++) {
    double zc = median_of (run, "zero-copy", f), pinned = median_of (run, "pinned", f);
    if (zc > 0 && pinned > 0 && zc >= pinned)
      won = FALSE;
  }
  if (slide && !at && !won)
    return 0;
  g_autofree char *why = why_won (run, c, lo);
  /* TRANSLATORS: under the intensity slide, e.g. "Even at F = 1024 the
   * arithmetic took less time than the copies; it would take as long
   * near F = 7100, beyond this run." */
  g_autofree char *slide_at
      = at ? g_strdup_printf (_ ("Even at F = %d the arithmetic took less time than the copies; "
                                 "it would take as long near F = %s, beyond this run."),
                              hi, at)
           : NULL;
  /* Both where both hold (with the first alone, a class asked where the
   * arithmetic would count at all); over five lines (a narrower pane),
   * the second alone. */
  const double wrap = width - fs, line = ms_draw_text_wrapped (cr, "F", 0, 0, fs * 0.95, wrap,
                                                               FALSE, FALSE);
  g_autofree char *both = g_strstrip (g_strjoin (" ", won ? why : "", at ? slide_at : "", NULL));
  if (at && won && ms_draw_text_wrapped (cr, both, 0, 0, fs * 0.95, wrap, FALSE, FALSE) > line * 5.5)
    g_strlcpy (both, slide_at, strlen (both) + 1);
  g_autofree char *text
      = slide ? g_strdup (both)
      : at ? g_strdup_printf (_ ("%s Up to F = %d the arithmetic stays small beside the copies: "
                                 "it would take as long as them only near F = %s (a straight "
                                 "line through pinned's times), beyond this run."),
                              times, hi, at)
           : g_strdup (times);
  ms_set_color (cr, &st->fg, 0.85);
  return ms_draw_text_wrapped (cr, text, fs * 0.5, y, fs * 0.95, width - fs, FALSE, draw) +
         fs * 0.3;
}

/* Projected, the line at 1 at full strength and each side of it named
 * in words beside it: the grey note by a dotted line was read last, and
 * a class had to work out that lower means zero-copy wins. */
static void
slide_sides (cairo_t *cr, const MsChartStyle *st, const MsChartLayout *l)
{
  if (!ms_scale_contains (&l->ys, 1))
    return;
  const double fs = ms_style_font_size (st), lw = ms_style_line_width (st);
  /* At the plot's left: at its right the label of the ring at the most F,
   * placed by the chart without knowing of these, met them in a pane. */
  double y = round (ms_scale_to_pixel (&l->ys, 1)) + 0.5, x = l->plot_x + fs * 0.5;
  ms_set_color (cr, &st->fg, 1);
  ms_draw_line (cr, lw * 1.5, l->plot_x, y, l->plot_x + l->plot_w, y);
  /* TRANSLATORS: on the intensity slide, over the line where zero-copy
   * and pinned take the same time. */
  ms_draw_text (cr, _ ("↑ pinned faster"), x, y - fs * 0.3, fs, 0, 1, TRUE, NULL, NULL);
  /* TRANSLATORS: on the intensity slide, under that line. */
  ms_draw_text (cr, _ ("↓ zero-copy faster"), x, y + fs * 0.3, fs, 0, 0, TRUE, NULL, NULL);
}

static void
ms_picture_intensity (cairo_t *cr, const MsResults *run, const MsChartStyle *style, double width,
                      double height)
{
  gboolean slide = ms_draw_is_slide (style, height);
  g_autoptr (MsChartData) data = build (run, slide);
  if (data->series->len == 0) {
    ms_picture_empty (cr, style, width, height, data->empty_text);
    return;
  }
  ms_draw_background (cr, style);
  double chart_h = round (height - times_note (cr, run, style, width, 0, slide, FALSE));
  cairo_save (cr);
  cairo_rectangle (cr, 0, 0, width, chart_h);
  cairo_clip (cr);
  MsChartLayout layout;
  ms_chart_layout_init (&layout);
  ms_chart_draw (cr, data, style, width, chart_h, -1, &layout);
  if (slide)
    slide_sides (cr, style, &layout);
  ms_chart_layout_clear (&layout);
  cairo_restore (cr);
  times_note (cr, run, style, width, chart_h, slide, TRUE);
}

static const MsVariantWords words[] = {
  /* TRANSLATORS: %s is a number from a variant ("F=64"). */
  { "F", N_ ("%s operations per element (arithmetic intensity)") },
  { NULL },
};

const MsLessonLook ms_lesson_look_intensity = {
  .picture = ms_picture_intensity,
  .words = words,
};
