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

static void
draw_crosshair (cairo_t *cr, const MsChartData *d, const MsChartStyle *st, const MsChartLayout *l,
                double hover_x, double fs, double lw)
{
  double x = 0;
  if (!snap_x (d, l, hover_x, &x))
    return;
  double px = ms_scale_to_pixel (&l->xs, x);
  ms_set_color (cr, &st->fg, 0.45);
  cairo_set_line_width (cr, lw);
  ms_set_dash (cr, 1, lw);
  cairo_move_to (cr, round (px) + 0.5, l->plot_y);
  cairo_line_to (cr, round (px) + 0.5, l->plot_y + l->plot_h);
  cairo_stroke (cr);
  ms_set_dash (cr, 0, lw);

  /* A read-out box with every visible series' value at this size, its
   * text smaller when the rows would not fit the plot's height. */
  char size[32];
  ms_format_size_label (x, size, sizeof size);
  GArray *colors = g_array_new (FALSE, FALSE, sizeof (guint));
  GPtrArray *rows = readout_rows (d, x, colors);
  double tw, th, maxw = 0;
  ms_draw_text (cr, size, 0, 0, fs, -1, 0, TRUE, NULL, &th);
  fs = MIN (fs, fs * (l->plot_h - fs) / ((rows->len + 1) * th * 1.05 + fs));
  ms_draw_text (cr, size, 0, 0, fs, -1, 0, TRUE, &maxw, &th);
  for (guint i = 0; i < rows->len; i++) {
    gboolean heading = g_array_index (colors, guint, i) == MS_READOUT_HEADING;
    ms_draw_text (cr, g_ptr_array_index (rows, i), 0, 0, fs, -1, 0, heading, &tw, NULL);
    maxw = MAX (maxw, tw + (heading ? 0 : fs * 1.2));
  }
  double pad = fs * 0.5, line_h = th * 1.05;
  double bw = maxw + 2 * pad, bh = line_h * (rows->len + 1) + 2 * pad;
  double bx = px + fs;
  if (bx + bw > l->plot_x + l->plot_w)
    bx = px - fs - bw;
  bx = MAX (bx, 0); /* keep the box on the canvas whatever its width */
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
    double ry = by + pad + line_h * (i + 1), tx = bx + pad;
    if (color != MS_READOUT_HEADING) {
      MsColor c;
      ms_chart_palette_color (color, st->dark, &c);
      ms_set_color (cr, &c, 1);
      cairo_rectangle (cr, bx + pad, ry + line_h * 0.3, fs * 0.7, fs * 0.7);
      cairo_fill (cr);
      tx += fs * 1.2;
    }
    ms_set_color (cr, &st->fg, 1);
    ms_draw_text (cr, g_ptr_array_index (rows, i), tx, ry, fs, 0, 0, color == MS_READOUT_HEADING,
                  NULL, NULL);
  }
  g_ptr_array_unref (rows);
  g_array_unref (colors);
}

void
ms_chart_draw_crosshair (cairo_t *cr, const MsChartData *d, const MsChartStyle *st,
                         const MsChartLayout *l, double hover_x)
{
  if (!(hover_x >= l->plot_x && hover_x <= l->plot_x + l->plot_w))
    return;
  cairo_save (cr);
  draw_crosshair (cr, d, st, l, hover_x, ms_style_font_size (st), ms_style_line_width (st));
  cairo_restore (cr);
}
