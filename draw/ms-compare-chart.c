/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-compare-chart.c: the difference chart (ms-compare-chart.h): the line
 * chart of ms-chart.c, then the band and the verdict rings over its plot,
 * placed with the layout the chart returns. */
#include <glib/gi18n.h>
#include <math.h>

#include "ms-compare-chart.h"
#include "ms-engine.h"
#include "ms-palette.h"

void
ms_verdict_color (MsVerdict verdict, const MsChartStyle *st, MsColor *out)
{
  /* Neutral: orange and green rings read as Pageable's and Streams'
   * lines; a decided verdict's side of 1 says which way it went. Grey
   * rather than black: at 1024 pixels projected, eleven lines and
   * full-strength rings hid one another. */
  *out = st->fg;
  out->alpha = verdict == MS_VERDICT_FASTER || verdict == MS_VERDICT_SLOWER ? 0.75 : 0.4;
}

static MsChartSeries *
series_for (MsChartData *d, MsChartSeries **by_mode, MsMode mode)
{
  if (!by_mode[mode]) {
    guint color, shape, dash;
    ms_mode_look (mode, &color, &shape, &dash);
    by_mode[mode] = ms_chart_data_add_series (d, ms_mode_title (mode), color, shape, dash);
  }
  return by_mode[mode];
}

MsChartData *
ms_compare_chart_data (const MsComparison *cmp, const char *title)
{
  MsChartData *d = ms_chart_data_new ();
  d->title = g_strdup (title);
  d->x_label = g_strdup (_ ("Bytes per vector"));
  /* Short, so that a low chart (1024x768 projected) does not cut it; the
   * line at 1 says which side is faster. */
  d->y_label = g_strdup (_ ("B / A time"));
  /* Log, fitted to the data: twice as fast and twice as slow lie as far
   * from 1, and one cell at 3 no longer squeezes the rest into a band. */
  d->y_kind = MS_SCALE_LOG10;
  d->fit_y = TRUE;
  d->empty_text = g_strdup (_ ("No cell in common"));
  MsChartSeries *by_mode[MS_MODE_COUNT] = { NULL };
  /* Variant cells share their mode's colour but not its line. */
  for (size_t i = 0; i < cmp->n_cells; i++) {
    const MsCompareCell *c = &cmp->cells[i];
    if (!c->in_a || !c->in_b || c->variant[0] || !isfinite (c->ratio))
      continue;
    /* No error bars: a ratio's range from two wide intervals (managed
     * memory's small cells) would set the axis for every other point. */
    ms_chart_series_add (series_for (d, by_mode, c->mode), 4.0 * exp2 (c->exponent), c->ratio, 1, 0,
                         FALSE);
  }
  char label[96];
  g_snprintf (label, sizeof label, _ ("same ±%g%%; below: B faster"), cmp->threshold * 100);
  ms_chart_data_add_ref (d, 1, label);
  return d;
}

static void
draw_band (cairo_t *cr, const MsComparison *cmp, const MsChartStyle *st, const MsChartLayout *l)
{
  double lo, hi;
  ms_verdict_band (cmp->threshold, &lo, &hi);
  double y0 = ms_scale_to_pixel (&l->ys, hi);
  double y1 = ms_scale_to_pixel (&l->ys, MAX (lo, l->ys.min));
  ms_set_color (cr, &st->fg, 0.08);
  cairo_rectangle (cr, l->plot_x, MIN (y0, y1), l->plot_w, fabs (y1 - y0));
  cairo_fill (cr);
}

/* Rings for the decided verdicts alone: with eleven modes near 1 at
 * every size, a ring round each ambiguous point piled them into a grey
 * band that hid the lines (the table gives every verdict). */
static gboolean
ringed (const MsCompareCell *c)
{
  return c->in_a && c->in_b && !c->variant[0] && isfinite (c->ratio)
         && (c->verdict == MS_VERDICT_FASTER || c->verdict == MS_VERDICT_SLOWER);
}

static void
draw_rings (cairo_t *cr, const MsComparison *cmp, const MsChartStyle *st, const MsChartLayout *l)
{
  double r = ms_style_marker_radius (st) * 1.7, lw = ms_style_line_width (st);
  for (size_t i = 0; i < cmp->n_cells; i++) {
    const MsCompareCell *c = &cmp->cells[i];
    if (!ringed (c))
      continue;
    double x = ms_scale_to_pixel (&l->xs, 4.0 * exp2 (c->exponent));
    double y = ms_scale_to_pixel (&l->ys, c->ratio);
    MsColor color;
    ms_verdict_color (c->verdict, st, &color);
    ms_set_color (cr, &color, 1);
    cairo_set_line_width (cr, lw);
    cairo_new_sub_path (cr);
    cairo_arc (cr, x, y, r, 0, 2 * G_PI);
    cairo_stroke (cr);
  }
}

/* The key's words for the rings (a decided verdict; its side of 1 says
 * which way), or, short, the ring alone, the page's text saying the
 * rest. */
static const char *
key_name (gboolean brief)
{
  return brief ? _ ("ring: B faster or slower")
               : _ ("ring: B clearly faster (below 1) or slower (above 1); none: the same or "
                    "ambiguous");
}

/* The corner of the plot where the key covers the least data
 * (ms_chart_data_cover): top left, top right, bottom left or right.
 * Returns the data covered there. */
static double
key_spot (const MsChartData *d, const MsChartLayout *l, double fs, double key_w, double key_h,
          double *x, double *y)
{
  const double left = l->plot_x + fs * 0.6, right = l->plot_x + l->plot_w - fs * 0.6 - key_w;
  const double top = l->plot_y + fs * 0.3, bottom = l->plot_y + l->plot_h - fs * 0.3 - key_h;
  const double spots[4][2] = { { left, top }, { right, top }, { left, bottom }, { right, bottom } };
  double best = G_MAXDOUBLE;
  for (guint k = 0; k < G_N_ELEMENTS (spots); k++) {
    double cover = ms_chart_data_cover (d, l, fs * 0.3, spots[k][0], spots[k][1], key_w, key_h);
    if (cover < best)
      best = cover, *x = spots[k][0], *y = spots[k][1];
  }
  return best;
}

/* The key to the rings in a corner, drawn only where a ring is; where
 * the long key would cover a point in every corner (a short plot at 1024
 * pixels), the short one. */
static void
draw_key (cairo_t *cr, const MsComparison *cmp, const MsChartData *d, const MsChartStyle *st,
          const MsChartLayout *l)
{
  gboolean any_ring = FALSE;
  for (size_t i = 0; i < cmp->n_cells && !any_ring; i++)
    any_ring = ringed (&cmp->cells[i]);
  if (!any_ring)
    return;
  const double fs = ms_style_font_size (st) * 0.9;
  const char *name = key_name (FALSE);
  double w = 0, th = fs, x = 0, y = 0;
  ms_draw_text (cr, name, 0, 0, fs, -1, 0, FALSE, &w, &th);
  double key_w = fs * 1.1 + w + fs * 0.6, key_h = th + fs * 0.2;
  /* The short key where the long one covers data, or is wider than the
   * plot (it ran off the chart's right edge at 1024 pixels). */
  if (key_w > l->plot_w - fs * 1.2 || key_spot (d, l, fs, key_w, key_h, &x, &y) > 0) {
    name = key_name (TRUE);
    ms_draw_text (cr, name, 0, 0, fs, -1, 0, FALSE, &w, &th);
    key_w = fs * 1.1 + w + fs * 0.6;
    key_spot (d, l, fs, key_w, key_h, &x, &y);
  }
  ms_set_color (cr, &st->bg, 0.85);
  cairo_rectangle (cr, x - fs * 0.2, y - fs * 0.1, key_w, key_h);
  cairo_fill (cr);
  MsColor color;
  ms_verdict_color (MS_VERDICT_FASTER, st, &color);
  ms_set_color (cr, &color, 1);
  cairo_set_line_width (cr, ms_style_line_width (st) * 1.5);
  cairo_new_sub_path (cr);
  cairo_arc (cr, x + fs * 0.4, y + fs * 0.6, fs * 0.4, 0, 2 * G_PI);
  cairo_stroke (cr);
  ms_set_color (cr, &st->fg, 0.85);
  ms_draw_text (cr, name, x + fs * 1.1, y, fs, 0, 0, FALSE, NULL, NULL);
}

void
ms_compare_chart_draw (cairo_t *cr, const MsComparison *cmp, const MsChartData *data,
                       const MsChartStyle *style, double width, double height,
                       MsChartLayout *layout)
{
  MsChartLayout local;
  MsChartLayout *l = layout ? layout : &local;
  if (!layout)
    ms_chart_layout_init (&local);
  /* A low chart (under the page's pickers and summary at 1024x768, eleven
   * modes in its legend) keeps its plot: the title's two lines go first,
   * since the pickers over the chart name runs A and B, then the axis
   * title's line (the size ticks say what x is). A copy of the data's
   * fields, nothing owned. */
  MsChartData shown = *data;
  double fs = ms_style_font_size (style);
  if (height < fs * 30)
    shown.title = NULL;
  if (height < fs * 24)
    shown.x_label = NULL;
  ms_chart_draw (cr, &shown, style, width, height, -1, l);
  cairo_save (cr);
  cairo_rectangle (cr, l->plot_x, l->plot_y, l->plot_w, l->plot_h);
  cairo_clip (cr);
  draw_band (cr, cmp, style, l);
  draw_rings (cr, cmp, style, l);
  cairo_restore (cr);
  draw_key (cr, cmp, data, style, l);
  if (!layout)
    ms_chart_layout_clear (&local);
}
