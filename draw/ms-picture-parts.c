/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-picture-parts.c: what the lessons' pictures (draw/ms-picture-NAME.c)
 * share: a run's cell by variant, the text of an empty picture, the title
 * a key's sample line and a slide's bars of times. Below the pictures and the dispatch
 * (ms-lesson-picture.c), so that calls run one way. */
#include <glib.h>
#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "ms-chart.h"
#include "ms-engine.h"
#include "ms-lessons.h"
#include "ms-palette.h"
#include "ms-picture-parts.h"

void
ms_picture_empty (cairo_t *cr, const MsChartStyle *style, double width, double height,
                  const char *text)
{
  double fs = ms_style_font_size (style);
  ms_draw_background (cr, style);
  ms_set_color (cr, &style->fg, 0.7);
  double h = ms_draw_text_wrapped (cr, text, fs * 2, 0, fs * 1.1, width - fs * 4, FALSE, FALSE);
  ms_draw_text_wrapped (cr, text, fs * 2, (height - h) / 2, fs * 1.1, width - fs * 4, FALSE, TRUE);
}

static double
title_text (cairo_t *cr, const MsChartStyle *style, const char *title, double width, gboolean draw)
{
  double fs = ms_style_font_size (style);
  return ms_draw_text_wrapped (cr, title, fs * 0.5, fs * 0.3, fs * 1.1, width - fs, TRUE, draw);
}

double
ms_picture_title (cairo_t *cr, const MsChartStyle *style, const char *title, double width)
{
  ms_set_color (cr, &style->fg, 0.95);
  return title_text (cr, style, title, width, TRUE);
}

double
ms_picture_title_height (cairo_t *cr, const MsChartStyle *style, const char *title, double width)
{
  return title_text (cr, style, title, width, FALSE);
}

const MsCell *
ms_picture_cell (const MsResults *run, const char *variant)
{
  for (size_t i = 0; run && i < run->n_cells; i++)
    if (strcmp (run->cells[i].variant, variant) == 0)
      return &run->cells[i];
  return NULL;
}

double
ms_picture_median (const MsResults *run, const char *variant)
{
  const MsCell *c = ms_picture_cell (run, variant);
  return c && c->n_reps > 0 && c->stats.e2e.median > 0 ? c->stats.e2e.median : 0;
}

void
ms_picture_key_line (cairo_t *cr, const MsChartStyle *st, guint i, double x, double y, double th,
                     double fs, double lw)
{
  MsColor c;
  ms_chart_palette_color (i, st->dark, &c);
  ms_set_color (cr, &c, 1);
  ms_draw_line (cr, lw, x, y + th / 2, x + fs * 1.6, y + th / 2);
  const double at[2] = { x + fs * 0.8, y + th / 2 };
  ms_draw_markers (cr, i, ms_run_fill (0), at, 1, fs * 0.35, lw * 0.8, &st->bg);
}

void
ms_picture_chart_over_note (cairo_t *cr, const MsChartData *data, const MsChartStyle *style,
                            double width, double height, const char *note)
{
  const double fs = ms_style_font_size (style);
  ms_draw_background (cr, style);
  double note_h = ms_draw_text_wrapped (cr, note, fs * 0.5, 0, fs * 0.95, width - fs, FALSE, FALSE);
  double chart_h = round (height - note_h - fs * 0.6);
  cairo_save (cr);
  cairo_rectangle (cr, 0, 0, width, chart_h);
  cairo_clip (cr);
  ms_chart_draw (cr, data, style, width, chart_h, -1, NULL);
  cairo_restore (cr);
  ms_set_color (cr, &style->fg, 0.85);
  ms_draw_text_wrapped (cr, note, fs * 0.5, chart_h + fs * 0.3, fs * 0.95, width - fs, FALSE, TRUE);
}

void
ms_picture_share_range (MsChartData *const *panels, int n)
{
  double lo = INFINITY, hi = 0;
  for (int k = 0; k < n; k++) {
    const MsChartData *d = panels[k];
    for (guint i = 0; i < d->series->len; i++) {
      const MsChartSeries *s = g_ptr_array_index (d->series, i);
      for (guint j = 0; j < s->points->len; j++) {
        const MsChartPoint *p = &g_array_index (s->points, MsChartPoint, j);
        lo = MIN (lo, p->lo <= p->hi && p->lo > 0 ? MIN (p->lo, p->y) : p->y);
        hi = MAX (hi, p->lo <= p->hi ? MAX (p->hi, p->y) : p->y);
      }
    }
    for (guint i = 0; i < d->refs->len; i++) {
      double y = g_array_index (d->refs, MsChartRefLine, i).y;
      lo = MIN (lo, y), hi = MAX (hi, y);
    }
  }
  if (hi > 0 && isfinite (lo))
    for (int k = 0; k < n; k++)
      panels[k]->y_min = lo, panels[k]->y_max = hi;
}

/* The interval as a thin, lighter line with end caps under a bar, at
 * cy: across the bar's end at the bar's weight it read as the bar and
 * pushed the median's label past its end, where the axis says another
 * time. One cut at the scale's end ends in an arrowhead instead of a cap. */
void
ms_picture_interval (cairo_t *cr, const MsChartStyle *style, double lo, double up, gboolean cut,
                     double cy, double cap)
{
  /* Data: drawn in a picture's data layer alone too (ms_draw_data_only_begin). */
  cairo_save (cr);
  if (ms_draw_is_data_only (cr))
    cairo_reset_clip (cr);
  /* Thinner than the text's strokes: issue-order's intervals, twice as
   * long as their bars, were the loudest thing on its slide. */
  ms_set_color (cr, &style->fg, 0.6);
  cairo_set_line_width (cr, ms_style_line_width (style) * 0.6);
  cairo_move_to (cr, lo, cy);
  cairo_line_to (cr, up, cy);
  cairo_move_to (cr, lo, cy - cap);
  cairo_line_to (cr, lo, cy + cap);
  if (cut) {
    cairo_move_to (cr, up - cap * 1.5, cy - cap);
    cairo_line_to (cr, up, cy);
    cairo_line_to (cr, up - cap * 1.5, cy + cap);
  } else {
    cairo_move_to (cr, up, cy - cap);
    cairo_line_to (cr, up, cy + cap);
  }
  cairo_stroke (cr);
  cairo_restore (cr);
}

void
ms_picture_bar (cairo_t *cr, const MsColor *c, double alpha, double x0, double x1, double cy,
                double h)
{
  ms_set_color (cr, c, alpha);
  cairo_rectangle (cr, x0, cy - h / 2, MAX (x1 - x0, 1), h);
  cairo_fill (cr);
}

double
ms_picture_bar_figure (cairo_t *cr, const MsChartStyle *st, const char *text, double size,
                       gboolean bold, double x1, double cy, double right)
{
  const double gap = size * 0.3, tw = ms_draw_text_width (cr, text, size, bold);
  if (x1 + gap + tw <= right) {
    ms_set_color (cr, &st->fg, 0.95);
    ms_draw_text (cr, text, x1 + gap, cy, size, 0, 0.5, bold, NULL, NULL);
    return x1 + gap + tw;
  }
  cairo_set_source_rgb (cr, st->dark ? 0 : 1, st->dark ? 0 : 1, st->dark ? 0 : 1);
  ms_draw_text (cr, text, x1 - gap, cy, size, 1, 0.5, bold, NULL, NULL);
  return x1;
}

/* The longest time ms_picture_time_bars scales to. */
static double
time_bars_end (const MsTimeBar *bars, int n)
{
  double hi = 0, most = 0;
  for (int i = 0; i < n; i++) {
    hi = MAX (hi, MAX (bars[i].hi, bars[i].median));
    most = MAX (most, bars[i].median);
  }
  /* One wide interval (the H200's cudaLaunchHostFunc after a copy, to
   * many times its median) squashed every bar to a stub: the scale stops
   * at 2.5 times the longest bar, and an interval past it is cut. */
  return MIN (hi, most * 2.5);
}

gboolean
ms_picture_time_bars_cut (const MsTimeBar *bars, int n)
{
  double end = time_bars_end (bars, n);
  for (int i = 0; i < n; i++)
    if (bars[i].hi > end)
      return TRUE;
  return FALSE;
}

void
ms_picture_time_bars (cairo_t *cr, const MsChartStyle *style, const char *title, const char *note,
                      const MsTimeBar *bars, int n, double width, double height)
{
  const double fs = ms_style_font_size (style), vfs = ms_draw_figure_size (cr, fs * 1.1);
  ms_draw_background (cr, style);
  double th = ms_picture_title (cr, style, title, width);
  double note_h = ms_draw_note (cr, style, note, fs * 0.5, 0, width - fs, FALSE);
  double label_w = 0, hi = time_bars_end (bars, n);
  for (int i = 0; i < n; i++)
    label_w = MAX (label_w, ms_draw_text_width (cr, bars[i].name, fs * 1.1, TRUE));
  /* Names too long for the bars' left go over each bar, in full: cut
   * short, "breadth-first: each step for every stream in turn" lost the
   * words that explain it. Under each bar, fs of room for its interval. */
  double top = th + fs * 1.5, bottom = height - note_h - fs * 3;
  /* Rows too low for a name and a bar (a 320 px pane's host-func drew its
   * names on each other): the note goes. */
  if ((bottom - top) / n < fs * 2 && note_h > 0)
    note_h = 0, bottom = height - fs * 3;
  double row_h = (bottom - top) / n, bar_h = MIN (row_h * 0.55, fs * 3);
  /* Over a bar, its name takes fs * 2.6 of the row; where rows are too
   * short for that and a bar, names go left, cut to their column. */
  gboolean above = label_w > width * 0.35 && row_h - fs * 3.6 >= fs;
  if (above)
    bar_h = MIN (row_h - fs * 3.6, fs * 3);
  else
    bar_h = MIN (bar_h, row_h - fs * 2);
  /* Beside the bars, names take up to 0.42 of the width: at a back row's
   * size a slide's rows are too low for names over them (host-func's, with
   * the slow function's bars under them), and at 0.35 they were cut. */
  double x0 = above ? fs * 0.5 : fs + MIN (label_w, width * 0.42), right = width - vfs * 6.4;
  MsScale xs = { MS_SCALE_LINEAR, 0, hi, x0, right, MS_SCALE_TIME_US };
  ms_draw_time_axis (cr, style, &xs, top, bottom, fs * 6, width - fs * 0.5);
  for (int i = 0; i < n; i++) {
    double block = bar_h + fs + (above ? fs * 2.6 : 0);
    double cy = top + i * row_h + (row_h - block) / 2 + (above ? fs * 2.6 : 0) + bar_h / 2;
    MsColor c;
    ms_chart_palette_color (bars[i].colour, style->dark, &c);
    ms_set_color (cr, &style->fg, 1);
    if (above)
      ms_draw_text_max (cr, bars[i].name, fs * 0.5, cy - bar_h / 2 - fs * 1.8, fs * 1.1,
                        width - fs);
    else
      ms_draw_text_max (cr, bars[i].name, fs * 0.5, cy - fs * 0.7, fs * 1.1, x0 - fs);
    double lo = ms_scale_to_pixel (&xs, bars[i].lo);
    double up = ms_scale_to_pixel (&xs, MIN (bars[i].hi, hi));
    /* Under the bar and under its label, whichever reaches lower: a
     * figure at a back row's size is taller than a thin bar. */
    ms_picture_interval (cr, style, lo, up, bars[i].hi > hi,
                         cy + MAX (bar_h, vfs * 1.25) / 2 + fs * 0.5, fs * 0.2);
    char t[32], u[32];
    ms_caption_time (bars[i].median, t, sizeof t);
    ms_set_color (cr, &style->fg, 1);
    /* A bar too noisy to trust is its interval alone, said in words: drawn
     * as a bar, its median drew the eye to what the slide's line leaves
     * out (a 92 µs bar beside "about 53 µs"). */
    if (bars[i].noisy) {
      char m[32];
      memcpy (m, t, sizeof m);
      ms_caption_time (bars[i].lo, t, sizeof t);
      ms_caption_time (bars[i].hi, u, sizeof u);
      /* The unit once where both ends have it, so that the median fits. */
      ms_format_unit_once (t, u);
      /* TRANSLATORS: a bar too noisy to draw on a slide, in place of it:
       * its median (the chart's title says medians) and its 95% range,
       * e.g. "too noisy: 54 µs, 33 to 754 µs" (the range alone left a
       * class asking for the median). */
      g_autofree char *text = g_strdup_printf (_ ("too noisy: %s, likely %s to %s"), m, t, u);
      /* Where that does not fit (a narrow pane), shorter, then the range alone. */
      if (x0 + fs * 0.4 + ms_draw_text_width (cr, text, vfs, TRUE) > width) {
        g_free (text);
        text = g_strdup_printf (_ ("too noisy: %s, %s to %s"), m, t, u);
      }
      if (x0 + fs * 0.4 + ms_draw_text_width (cr, text, vfs, TRUE) > width) {
        g_free (text);
        /* TRANSLATORS: the same without its median, e.g. "too noisy: 28
         * to 143 µs". */
        text = g_strdup_printf (_ ("too noisy: %s to %s"), t, u);
      }
      ms_draw_text (cr, text, x0 + fs * 0.4, cy, vfs, 0, 0.5, TRUE, NULL, NULL);
      continue;
    }
    double x1 = ms_scale_to_pixel (&xs, bars[i].median);
    ms_picture_bar (cr, &c, 1, x0, x1, cy, bar_h);
    /* The median at the bar's own end, where the axis says that time. */
    ms_picture_bar_figure (cr, style, t, vfs, TRUE, x1, cy, width);
  }
  if (note_h > 0)
    ms_draw_note (cr, style, note, fs * 0.5, height - note_h - fs * 0.5, width - fs, TRUE);
}

void
ms_picture_timelines (cairo_t *cr, MsTimelineRows *rows, gboolean expand, gboolean clip,
                      const MsChartStyle *style, double y, double width, double height)
{
  MsTimeWindow win;
  ms_timeline_rows_window (rows, expand, &win);
  cairo_save (cr);
  cairo_translate (cr, 0, y);
  if (clip) {
    cairo_rectangle (cr, 0, 0, width, height);
    cairo_clip (cr);
  }
  ms_timeline_rows_draw (cr, rows, &win, style, width, height, NULL);
  cairo_restore (cr);
}
