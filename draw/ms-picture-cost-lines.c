/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-picture-cost-lines.c: a chart of what n uses of something cost in
 * all, a straight line for each way of doing it (once + n × a use) and a
 * mark where the lines cross: the register and pin-payoff lessons weigh a
 * cost paid once against one paid every time, which a class reads off
 * where two lines cross. */
#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "ms-lesson-picture.h"
#include "ms-picture-parts.h"
#include "ms-palette.h"
#include "ms-scale.h"

static void
set_line (cairo_t *cr, const MsChartStyle *st, const MsCostLine *l)
{
  guint color, shape, dash;
  MsColor c;
  ms_mode_look (l->mode, &color, &shape, &dash);
  ms_chart_palette_color (color, st->dark, &c);
  ms_set_color (cr, l->plain ? &st->fg : &c, 1);
  double lw = ms_style_line_width (st) * 1.5;
  cairo_set_line_width (cr, lw);
  ms_set_dash (cr, l->dotted ? 2 : dash, lw);
}

void
ms_picture_cost_key (cairo_t *cr, const MsChartStyle *st, const MsCostLine *l, double x, double y,
                     double len)
{
  set_line (cr, st, l);
  cairo_move_to (cr, x, y);
  cairo_line_to (cr, x + len, y);
  cairo_stroke (cr);
  ms_set_dash (cr, 0, 1);
}

static double
total (const MsCostLine *l, double n)
{
  return l->once_us + l->per_use_us * n;
}

/* The line, with a dot at each whole n (the run's medians summed: a
 * class could not check "cheaper" or the crossing against a line alone). */
static void
draw_line (cairo_t *cr, const MsChartStyle *st, const MsCostLine *l, const MsScale *xs,
           const MsScale *ys)
{
  set_line (cr, st, l);
  cairo_move_to (cr, ms_scale_to_pixel (xs, xs->min), ms_scale_to_pixel (ys, total (l, xs->min)));
  cairo_line_to (cr, ms_scale_to_pixel (xs, xs->max), ms_scale_to_pixel (ys, total (l, xs->max)));
  cairo_stroke (cr);
  ms_set_dash (cr, 0, 1);
  for (double n = ceil (xs->min); n <= xs->max; n++)
    cairo_arc (cr, ms_scale_to_pixel (xs, n), ms_scale_to_pixel (ys, total (l, n)),
               ms_style_line_width (st) * 2, 0, 2 * G_PI);
  cairo_fill (cr);
}

/* Under a line's name, its one-time cost + n × its cost a use, from
 * which a class can check the crossing. */
static char *
line_sum (const MsCostLine *l)
{
  char once[32], use[32];
  ms_caption_time_fine (l->once_us, once, sizeof once);
  ms_caption_time_fine (l->per_use_us, use, sizeof use);
  /* Translators: under a line's name on the register and pin-payoff
   * slides: its one-time cost + n × its cost per use, e.g. "1.41 ms once
   * + n × 260 µs" ("(n = 0)" named a point the axis did not draw). */
  return g_strdup_printf (_ ("%s once + n × %s"), once, use);
}

static double
names_width (cairo_t *cr, const MsChartStyle *st, const MsCostLine *l, guint n)
{
  const double fs = ms_style_font_size (st);
  double most = 0;
  for (guint i = 0; i < n; i++) {
    g_autofree char *sum = line_sum (&l[i]);
    most = MAX (most, ms_draw_text_width (cr, l[i].name, fs, TRUE));
    most = MAX (most, ms_draw_text_width (cr, sum, ms_draw_figure_size (cr, fs), FALSE));
  }
  return most;
}

/* Each line's name and sum right of its end, centred at its height, moved
 * apart as little as keeps them apart and inside the plot. */
static void
draw_names (cairo_t *cr, const MsChartStyle *st, const MsScale *xs, const MsScale *ys,
            const MsCostLine *l, guint n)
{
  const double fs = ms_style_font_size (st), ffs = ms_draw_figure_size (cr, fs);
  double y[MS_COST_LINES_MAX], at[MS_COST_LINES_MAX], nh, sh;
  guint order[MS_COST_LINES_MAX];
  ms_draw_text (cr, l[0].name, 0, 0, fs, -1, 0, TRUE, NULL, &nh);
  ms_draw_text (cr, "1 ms", 0, 0, ffs, -1, 0, FALSE, NULL, &sh);
  /* The sums where the plot has room for the names and sums: in a low
   * pane beside the cards they were pushed over the words above. */
  const gboolean sums = (nh + sh) * (n + 0.3) <= ys->pixel_lo - ys->pixel_hi;
  const double th = sums ? nh + sh : nh;
  for (guint i = 0; i < n; i++) {
    order[i] = i;
    y[i] = ms_scale_to_pixel (ys, total (&l[i], xs->max));
  }
  for (guint i = 0; i < n; i++)
    for (guint j = i + 1; j < n; j++)
      if (y[order[j]] < y[order[i]]) {
        guint t = order[i];
        order[i] = order[j];
        order[j] = t;
      }
  for (guint i = 0; i < n; i++)
    at[order[i]] = i == 0 ? MAX (y[order[0]], ys->pixel_hi + th / 2)
                          : MAX (y[order[i]], at[order[i - 1]] + th * 1.1);
  /* Pushed past the plot's bottom: back up from there. */
  for (int i = (int) n - 1; i >= 0; i--) {
    double least = i == (int) n - 1 ? ys->pixel_lo - th / 2 : at[order[i + 1]] - th * 1.1;
    at[order[i]] = MIN (at[order[i]], least);
  }
  ms_set_color (cr, &st->fg, 1);
  for (guint i = 0; i < n; i++) {
    g_autofree char *sum = line_sum (&l[i]);
    double x = xs->pixel_hi + fs * 0.4;
    ms_draw_text (cr, l[i].name, x, at[i] - th / 2, fs, 0, 0, TRUE, NULL, NULL);
    if (sums)
      ms_draw_text (cr, sum, x, at[i] - th / 2 + nh, ffs, 0, 0, FALSE, NULL, NULL);
  }
}

/* A dashed line down the plot at each mark and its words over it, centred
 * on it as far as the plot allows; else every mark's brief words, each
 * starting at its own line (centred, the first held off the plot's edge
 * read as one label with the next, "n = 0.99 → 1  n = 8.5 → 9"), pushed
 * apart where even those would touch, and left out where the plot has no
 * room for them. */
static void
draw_marks (cairo_t *cr, const MsChartStyle *st, const MsScale *xs, const MsScale *ys,
            const MsCostMark *m, guint n, double label_h)
{
  const double fs = ms_style_font_size (st), lw = ms_style_line_width (st), gap = fs * 0.5;
  const double left = xs->pixel_lo, right = xs->pixel_hi;
  double x[MS_COST_LINES_MAX], tx[MS_COST_LINES_MAX], tw[MS_COST_LINES_MAX];
  gboolean fits = TRUE;
  int pass;
  for (pass = 0; pass < 2; pass++) {
    gboolean touch = FALSE;
    for (guint i = 0; i < n; i++) {
      x[i] = round (ms_scale_to_pixel (xs, m[i].n)) + 0.5;
      tw[i] = ms_draw_text_width (cr, pass ? m[i].brief : m[i].label, fs, TRUE);
      double at = pass ? x[i] + lw * 2 : x[i] - tw[i] / 2;
      /* Near the plot's right end, ending at its line instead. */
      if (pass && at + tw[i] > right)
        at = x[i] - lw * 2 - tw[i];
      tx[i] = CLAMP (at, left, MAX (left, right - tw[i]));
      touch = touch || tw[i] > right - left || (i > 0 && tx[i] < tx[i - 1] + tw[i - 1] + gap);
    }
    if (!touch)
      break;
  }
  gboolean brief = pass > 0;
  for (guint i = 1; i < n; i++)
    tx[i] = MAX (tx[i], tx[i - 1] + tw[i - 1] + gap);
  for (int i = (int) n - 1; i >= 0; i--) {
    double most = i == (int) n - 1 ? right - tw[i] : tx[i + 1] - gap - tw[i];
    tx[i] = MIN (tx[i], most);
    fits = fits && tx[i] >= left;
  }
  for (guint i = 0; i < n; i++) {
    ms_set_color (cr, &st->fg, 0.8);
    ms_set_dash (cr, 1, lw);
    ms_draw_line (cr, lw, x[i], ys->pixel_hi - label_h * 0.2, x[i], ys->pixel_lo);
    ms_set_dash (cr, 0, 1);
    ms_set_color (cr, &st->fg, 1);
    if (fits)
      ms_draw_text (cr, brief ? m[i].brief : m[i].label, tx[i], ys->pixel_hi - label_h * 0.2, fs,
                    0, 1, TRUE, NULL, NULL);
  }
}

/* Ticks at whole n only (no use comes in halves), the first n named where
 * the lines begin and the last in place of a tick too near it. */
static guint
whole_ticks (const MsScale *xs, double tfs, MsTick *xt, guint max)
{
  MsTick all[16];
  guint nx = ms_axis_ticks (xs, xs->pixel_hi - xs->pixel_lo, tfs * 4, all, G_N_ELEMENTS (all));
  guint whole = 0;
  if (nx == 0 || all[0].value > xs->min) {
    xt[whole] = (MsTick){ xs->min, "", TRUE };
    g_snprintf (xt[whole++].label, sizeof xt[0].label, "%g", xs->min);
  }
  for (guint i = 0; i < nx && whole < max; i++)
    if (all[i].value == round (all[i].value) && all[i].value >= xs->min)
      xt[whole++] = all[i];
  if (whole > 0 && xt[whole - 1].value < xs->max) {
    if (ms_scale_to_pixel (xs, xs->max) - ms_scale_to_pixel (xs, xt[whole - 1].value) < tfs * 2.5
        || whole == max)
      whole--;
    xt[whole] = (MsTick){ xs->max, "", TRUE };
    g_snprintf (xt[whole++].label, sizeof xt[0].label, "%g", xs->max);
  }
  return whole;
}

void
ms_picture_cost_cross (MsCostMark *m, double n, int whole)
{
  /* A tenth, or more digits (up to three) where fewer read as a whole n: "1.0" left
   * which side of 1 the lines cross unsaid (0.99: paid back at n = 1),
   * and "8.0" beside "9 copies" read as a slip. */
  int digits = 1;
  for (double scale = 10; digits < 3 && round (n * scale) / scale == round (n); scale *= 10)
    digits++;
  m->n = n;
  /* Translators: over the mark where two lines of the register or
   * pin-payoff slide cross, e.g. "lines cross at n = 5.8 → 6", with the
   * takeaway's whole n after the arrow (teachers had to explain 8.5 on
   * the chart against 9 in the headline), and its short form where two
   * marks' words would touch. */
  g_snprintf (m->label, sizeof m->label, _ ("lines cross at n = %.*f → %d"), digits, n, whole);
  g_snprintf (m->brief, sizeof m->brief, _ ("n = %.*f → %d"), digits, n, whole);
}

void
ms_picture_cost_lines (cairo_t *cr, const MsChartStyle *st, const MsCostLine *l, guint n_lines,
                       double n_min, double n_max, gboolean named, const MsCostMark *marks,
                       guint n_marks, const char *x_label, double x1, double y0, double y1)
{
  const double fs = ms_style_font_size (st), tfs = ms_draw_figure_size (cr, fs);
  n_lines = MIN (n_lines, MS_COST_LINES_MAX);
  n_marks = MIN (n_marks, MS_COST_LINES_MAX);
  MsScale xs = { 0 }, ys = { 0 };
  double top = 0;
  for (guint i = 0; i < n_lines; i++)
    top = MAX (top, MAX (total (&l[i], n_min), total (&l[i], n_max)));
  /* Up to the last n drawn, not a rounder one past it ("n ≤ 12" on an
   * axis that ran to 12.5). */
  ms_scale_fit (&xs, MS_SCALE_LINEAR, n_min, n_max);
  xs.min = n_min, xs.max = n_max;
  ms_scale_fit (&ys, MS_SCALE_LINEAR, 0, top);
  ys.unit = MS_SCALE_TIME_US;
  MsTick yt[16], xt[16];
  double label_h, label_w = 0;
  ms_draw_text (cr, "0", 0, 0, tfs, -1, 0, FALSE, NULL, &label_h);
  /* The x ticks half a label under the axis: level with it, "1" and
   * "0 ms" crowded the corner. */
  ys.pixel_lo = y1 - label_h * 2.7;
  /* A line over the plot for the marks' words: inside it they crossed a
   * mark or a line at some widths. */
  ys.pixel_hi = y0 + label_h * (n_marks > 0 ? 1.3 : 0.5);
  guint ny = ms_axis_ticks (&ys, ys.pixel_lo - ys.pixel_hi, label_h * 1.8, yt, 6);
  for (guint i = 0; i < ny; i++)
    label_w = MAX (label_w, ms_draw_text_width (cr, yt[i].label, tfs, FALSE));
  xs.pixel_lo = fs + label_w + fs * 0.5;
  xs.pixel_hi = x1 - fs - (named ? names_width (cr, st, l, n_lines) + fs * 0.4 : 0);
  guint nx = whole_ticks (&xs, tfs, xt, G_N_ELEMENTS (xt));
  /* The grid as the charts draw theirs. */
  double grid_w = st->high_contrast ? 1.5 : 1;
  ms_set_color (cr, &st->fg, st->high_contrast ? 0.3 : 0.12);
  ms_grid_path_y (cr, &ys, yt, ny, xs.pixel_lo, xs.pixel_hi, grid_w);
  ms_grid_path_x (cr, &xs, xt, nx, ys.pixel_hi, ys.pixel_lo, grid_w);
  cairo_fill (cr);
  ms_set_color (cr, &st->fg, st->high_contrast ? 1 : 0.8);
  for (guint i = 0; i < ny; i++)
    ms_draw_text (cr, yt[i].label, xs.pixel_lo - fs * 0.4, ms_scale_to_pixel (&ys, yt[i].value),
                  tfs, 1, 0.5, FALSE, NULL, NULL);
  for (guint i = 0; i < nx; i++)
    ms_draw_text (cr, xt[i].label, ms_scale_to_pixel (&xs, xt[i].value),
                  ys.pixel_lo + label_h * 0.7, tfs, 0.5, 0, FALSE, NULL, NULL);
  ms_draw_text (cr, x_label, xs.pixel_hi, y1, fs, 1, 1, FALSE, NULL, NULL);
  /* The first line on top. */
  for (guint i = n_lines; i-- > 0;)
    draw_line (cr, st, &l[i], &xs, &ys);
  if (named)
    draw_names (cr, st, &xs, &ys, l, n_lines);
  draw_marks (cr, st, &xs, &ys, marks, n_marks, label_h);
}
