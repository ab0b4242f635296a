/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-chart-readout.c: the crosshair and its read-out: every visible
 * series' value at the size under the pointer, with one precision rule
 * (ms_format_value, times in their own unit), why a cell has no value, and
 * the runs' names as headings when comparing. */
#include "ms-chart.h"

#include <glib/gi18n.h>
#include <math.h>

/* The x of the series point nearest to px, over every series. */
static gboolean
snap_x (const MsChartData *d, const MsChartLayout *l, double px, double *x_out)
{
  double best = INFINITY;
  for (guint i = 0; i < d->series->len; i++) {
    const MsChartSeries *s = g_ptr_array_index (d->series, i);
    if (s->hidden)
      continue;
    for (guint k = 0; k < s->points->len; k++) {
      double x = g_array_index (s->points, MsChartPoint, k).x;
      double dist = fabs (ms_scale_to_pixel (&l->xs, x) - px);
      if (dist < best) {
        best = dist;
        *x_out = x;
      }
    }
  }
  return isfinite (best);
}

/* A value as the read-out shows it: three significant digits, times in
 * the unit that suits each one. */
static void
format_reading (const MsChartData *d, double y, char *buf, gsize len)
{
  if (d->y_unit == MS_SCALE_TIME_US) {
    ms_format_time_us (y, buf, len);
    return;
  }
  char v[32];
  ms_format_value (y, v, sizeof v);
  g_snprintf (buf, len, "%s%s%s", v, d->unit ? " " : "", d->unit ? d->unit : "");
}

#define MS_READOUT_HEADING G_MAXUINT

/* The read-out's rows at size x: every visible series' value (or why it
 * has none), under its run's name when several runs are shown. colors
 * gets each row's palette index, MS_READOUT_HEADING for a run's name. */
static GPtrArray *
readout_rows (const MsChartData *d, double x, GArray *colors)
{
  GPtrArray *rows = g_ptr_array_new_with_free_func (g_free);
  const char *group = NULL;
  for (guint i = 0; i < d->series->len; i++) {
    const MsChartSeries *s = g_ptr_array_index (d->series, i);
    if (s->hidden)
      continue;
    const char *name = s->group && s->short_label ? s->short_label : s->label;
    for (guint k = 0; k < s->points->len; k++) {
      const MsChartPoint *p = &g_array_index (s->points, MsChartPoint, k);
      if (p->x != x)
        continue;
      if (s->group && g_strcmp0 (s->group, group) != 0) {
        const guint heading = MS_READOUT_HEADING;
        group = s->group;
        g_ptr_array_add (rows, g_strdup (group));
        g_array_append_val (colors, heading);
      }
      char v[48];
      format_reading (d, p->y, v, sizeof v);
      if (p->failed)
        g_ptr_array_add (rows, g_strdup_printf ("%s: %s", name, p->note ? p->note : _("no value")));
      else if (p->partial && p->note)
        g_ptr_array_add (rows, g_strdup_printf ("%s: %s (%s)", name, v, p->note));
      else
        g_ptr_array_add (rows, g_strdup_printf ("%s: %s", name, v));
      g_array_append_val (colors, s->color);
    }
  }
  return rows;
}

/* The read-out box beside the crosshair at px: the size, then the rows in
 * as many columns as the plot's height needs, the text down to 55% when
 * the columns would not fit left of the plot's right edge. */
static void
readout_box (cairo_t *cr, const MsChartStyle *st, const MsChartLayout *l, double px,
             const char *size, GPtrArray *rows, GArray *colors, double fs0)
{
  double tw, th, maxw, fs = fs0, line_h, pad;
  guint per_col, cols;
  for (double shrink = 1;; shrink -= 0.15) {
    fs = fs0 * shrink;
    ms_draw_text (cr, size, 0, 0, fs, -1, 0, TRUE, &maxw, &th);
    for (guint i = 0; i < rows->len; i++) {
      gboolean heading = g_array_index (colors, guint, i) == MS_READOUT_HEADING;
      ms_draw_text (cr, g_ptr_array_index (rows, i), 0, 0, fs, -1, 0, heading, &tw, NULL);
      maxw = MAX (maxw, tw + (heading ? 0 : fs * 1.2));
    }
    pad = fs * 0.5;
    line_h = th * 1.05;
    per_col = MAX (1, (guint) ((l->plot_h - fs - 2 * pad) / line_h) - 1);
    cols = MAX (1, (rows->len + per_col - 1) / per_col);
    if (cols * (maxw + pad) + pad <= l->plot_x + l->plot_w || shrink < 0.6)
      break;
  }
  per_col = (rows->len + cols - 1) / MAX (cols, 1);
  double bw = cols * (maxw + pad) + pad, bh = line_h * (MIN (rows->len, per_col) + 1) + 2 * pad;
  double bx = px + fs;
  if (bx + bw > l->plot_x + l->plot_w)
    bx = px - fs - bw;
  /* Beside the crosshair when there is room, else as far right as fits. */
  bx = CLAMP (bx, 0, MAX (0, l->plot_x + l->plot_w - bw));
  double by = l->plot_y + fs * 0.5;
  ms_set_color (cr, &st->bg, 0.92);
  cairo_rectangle (cr, bx, by, bw, bh);
  cairo_fill_preserve (cr);
  ms_set_color (cr, &st->fg, 0.4);
  cairo_set_line_width (cr, 1);
  cairo_stroke (cr);
  ms_set_color (cr, &st->fg, 1);
  ms_draw_text (cr, size, bx + pad, by + pad, fs, 0, 0, TRUE, NULL, NULL);
  for (guint i = 0; i < rows->len; i++) {
    guint color = g_array_index (colors, guint, i);
    double ry = by + pad + line_h * (i % per_col + 1), tx = bx + pad + (i / per_col) * (maxw + pad);
    if (color != MS_READOUT_HEADING) {
      MsColor c;
      ms_chart_palette_color (color, st->dark, &c);
      ms_set_color (cr, &c, 1);
      cairo_rectangle (cr, tx, ry + line_h * 0.3, fs * 0.7, fs * 0.7);
      cairo_fill (cr);
      tx += fs * 1.2;
    }
    ms_set_color (cr, &st->fg, 1);
    ms_draw_text (cr, g_ptr_array_index (rows, i), tx, ry, fs, 0, 0, color == MS_READOUT_HEADING,
                  NULL, NULL);
  }
}

void
ms_chart_draw_crosshair (cairo_t *cr, const MsChartData *d, const MsChartStyle *st,
                         const MsChartLayout *l, double hover_x)
{
  const double fs = ms_style_font_size (st), lw = ms_style_line_width (st);
  double x = 0;
  if (!(hover_x >= l->plot_x && hover_x <= l->plot_x + l->plot_w) || !snap_x (d, l, hover_x, &x))
    return;
  cairo_save (cr);
  double px = ms_scale_to_pixel (&l->xs, x);
  ms_set_color (cr, &st->fg, 0.45);
  ms_set_dash (cr, 1, lw);
  ms_draw_line (cr, lw, round (px) + 0.5, l->plot_y, round (px) + 0.5, l->plot_y + l->plot_h);
  ms_set_dash (cr, 0, lw);

  char size[32];
  if (d->x_unit == MS_SCALE_COUNT)
    g_snprintf (size, sizeof size, "%s %.0f", d->x_label ? d->x_label : "", x);
  else
    ms_format_size_label (x, size, sizeof size);
  GArray *colors = g_array_new (FALSE, FALSE, sizeof (guint));
  GPtrArray *rows = readout_rows (d, x, colors);
  readout_box (cr, st, l, px, size, rows, colors, fs);
  g_ptr_array_unref (rows);
  g_array_unref (colors);
  cairo_restore (cr);
}
