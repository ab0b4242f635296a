/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-chart-legend.c: the chart's legend and its direct labels. The legend
 * goes right of the plot when it is narrow and short enough, else below it
 * in columns; with several runs it names each run once and lists its modes
 * under it; entries are never ellipsized (exports included). */
#include "ms-chart.h"

#include <glib/gi18n.h>
#include <math.h>

/* The legend may take this share of the width beside the plot. */
#define MS_LEGEND_BESIDE_SHARE 0.3

static const char *
series_name (const MsChartSeries *s)
{
  if (s->shown_name)
    return s->shown_name;
  return s->group && s->short_label ? s->short_label : s->label;
}

/* A line end's label: with several runs it names the run too, since the
 * mode alone would repeat on every run's line. */
static char *
direct_label_text (const MsChartSeries *s)
{
  return s->group && s->short_label ? g_strdup_printf ("%s · %s", series_name (s), s->group)
                                    : g_strdup (series_name (s));
}

MsChartSeries *
ms_chart_data_lies_on (const MsChartData *d, guint i, MsSeriesLiesOn rule)
{
  const MsChartSeries *s = g_ptr_array_index (d->series, i);
  for (guint k = 0; k < i; k++) {
    MsChartSeries *earlier = g_ptr_array_index (d->series, k);
    if (rule (earlier, s))
      return earlier;
  }
  return NULL;
}

gboolean
ms_chart_series_same_values (const MsChartSeries *a, const MsChartSeries *b, double tolerance)
{
  if (a->points->len != b->points->len || a->points->len == 0)
    return FALSE;
  for (guint k = 0; k < a->points->len; k++) {
    const MsChartPoint *p = &g_array_index (a->points, MsChartPoint, k);
    const MsChartPoint *q = &g_array_index (b->points, MsChartPoint, k);
    if (p->x != q->x || p->failed != q->failed
        || (!p->failed && fabs (p->y - q->y) > tolerance * MAX (p->y, q->y)))
      return FALSE;
  }
  return TRUE;
}

gboolean
ms_chart_data_has_notes (const MsChartData *d)
{
  for (guint i = 0; i < d->series->len; i++) {
    const MsChartSeries *s = g_ptr_array_index (d->series, i);
    for (guint k = 0; !s->hidden && k < s->points->len; k++) {
      const MsChartPoint *p = &g_array_index (s->points, MsChartPoint, k);
      if (p->failed || p->partial)
        return TRUE;
    }
  }
  return FALSE;
}

/* A run's heading comes before its first series. */
static const char *
group_heading (const MsChartData *d, guint i)
{
  const MsChartSeries *s = g_ptr_array_index (d->series, i);
  const MsChartSeries *prev = i > 0 ? g_ptr_array_index (d->series, i - 1) : NULL;
  if (!s->group || (prev && g_strcmp0 (prev->group, s->group) == 0))
    return NULL;
  return s->group;
}

/* One line of the legend: a run's heading, a series, or (in the compact
 * form) a mode or a run alone. */
typedef struct {
  const char *text;
  const MsChartSeries *series; /* NULL for a heading */
  int index;                   /* the series for a click, -1 for none */
  gboolean mode_only;          /* the mode's line and marker, filled */
  gboolean run_only;           /* the run's marker fill alone, no line */
} MsLegendItem;

/* The sample: a stretch of the series' line, then its marker over it. */
static void
legend_sample (cairo_t *cr, const MsLegendItem *it, const MsChartStyle *st, double fs, double x,
               double y, double th)
{
  const MsChartSeries *s = it->series;
  MsColor c;
  guint run = it->mode_only ? 0 : s->run;
  guint shape = it->run_only ? 0 : s->shape;
  double alpha = s->hidden && !it->mode_only && !it->run_only ? 0.3 : 1;
  ms_chart_palette_color (s->color, st->dark, &c);
  if (it->run_only)
    c = st->fg;
  ms_chart_draw_sample (cr, st, &c, alpha, !it->run_only, s->dash, shape, run, x, y + th / 2,
                        fs * 1.6, fs * 0.35);
}

void
ms_chart_draw_sample (cairo_t *cr, const MsChartStyle *st, const MsColor *c, double alpha,
                      gboolean line, guint dash, guint shape, guint run, double x, double y_mid,
                      double length, double marker_r)
{
  const double lw = ms_style_line_width (st);
  ms_set_color (cr, c, alpha);
  if (line) {
    ms_set_dash (cr, dash, lw);
    ms_draw_line (cr, lw, x, y_mid, x + length, y_mid);
    ms_set_dash (cr, 0, lw);
  }
  const double at[2] = { x + length / 2, y_mid };
  ms_draw_markers (cr, shape, ms_run_fill (run), at, 1, marker_r, lw * 0.8, &st->bg);
}

/* An item; a series' name wider than wrap_w (when not 0) wrapped to it. */
static void
legend_item_draw (cairo_t *cr, const MsLegendItem *it, const MsChartStyle *st, MsChartLayout *l,
                  double x, double y, double th, double wrap_w)
{
  const double fs = l->legend_fs;
  double tw, h = th;
  if (!it->series) {
    ms_set_color (cr, &st->fg, 1);
    ms_draw_text (cr, it->text, x, y, fs, 0, 0, TRUE, NULL, NULL);
    return;
  }
  legend_sample (cr, it, st, fs, x, y, th);
  gboolean hidden = it->index >= 0 && it->series->hidden;
  /* A hidden series is struck through and fainter, still readable. */
  ms_set_color (cr, &st->fg, hidden ? MS_TEXT_FAINT_ALPHA : 1);
  if (wrap_w > 0) {
    tw = wrap_w;
    h = ms_draw_text_wrapped (cr, it->text, x + fs * 2, y, fs, wrap_w, FALSE, TRUE);
  } else
    ms_draw_text (cr, it->text, x + fs * 2, y, fs, 0, 0, FALSE, &tw, NULL);
  if (hidden)
    ms_draw_line (cr, 1, x + fs * 2, y + th / 2, x + fs * 2 + tw, y + th / 2);
  if (it->index >= 0) {
    MsChartBox box = { x, y, fs * 2 + tw, h, (guint) it->index };
    g_array_append_val (l->legend, box);
  }
}

/* Every series under its run's heading. */
static GArray *
legend_items_grouped (const MsChartData *d)
{
  GArray *items = g_array_new (FALSE, TRUE, sizeof (MsLegendItem));
  for (guint i = 0; i < d->series->len; i++) {
    const MsChartSeries *s = g_ptr_array_index (d->series, i);
    const char *heading = group_heading (d, i);
    if (heading)
      g_array_append_val (items, ((MsLegendItem){ heading, NULL, -1 }));
    g_array_append_val (items, ((MsLegendItem){ series_name (s), s, (int) i }));
  }
  return items;
}

/* Many runs: each mode once, then each run once (its marker fill), so
 * that three runs take 14 lines and not 36. Series are switched off
 * through the Series menu then. */
static GArray *
legend_items_compact (const MsChartData *d)
{
  GArray *items = g_array_new (FALSE, TRUE, sizeof (MsLegendItem));
  for (guint i = 0; i < d->series->len; i++) {
    const MsChartSeries *s = g_ptr_array_index (d->series, i);
    gboolean seen = FALSE;
    for (guint k = 0; k < i && !seen; k++)
      seen = g_strcmp0 (series_name (g_ptr_array_index (d->series, k)), series_name (s)) == 0;
    if (!seen)
      g_array_append_val (items, ((MsLegendItem){ series_name (s), s, -1, TRUE, FALSE }));
  }
  g_array_append_val (items, ((MsLegendItem){ _("Runs"), NULL, -1 }));
  for (guint i = 0; i < d->series->len; i++)
    if (group_heading (d, i)) {
      const MsChartSeries *s = g_ptr_array_index (d->series, i);
      g_array_append_val (items, ((MsLegendItem){ s->group, s, -1, FALSE, TRUE }));
    }
  return items;
}

/* Places (and draws when draw) the items and the note from
 * (l->legend_x, l->legend_y): one per row beside the plot, in columns of
 * l->legend_col_w below it, headings on rows of their own. Returns the
 * height. */
static double
legend_walk (cairo_t *cr, const MsChartData *d, const MsChartStyle *st, MsChartLayout *l,
             gboolean draw)
{
  const double fs = l->legend_fs;
  double th, tw;
  ms_draw_text (cr, "0", 0, 0, fs, -1, 0, FALSE, NULL, &th);
  const double row_h = th * 1.25, x0 = l->legend_x;
  double x = x0, y = l->legend_y;
  gboolean row_used = FALSE;
  GArray *items = l->legend_compact ? legend_items_compact (d) : legend_items_grouped (d);
  for (guint i = 0; i < items->len; i++) {
    const MsLegendItem *it = &g_array_index (items, MsLegendItem, i);
    /* Headings, and entries wider than a column (run names), take a row. */
    ms_draw_text (cr, it->text, 0, 0, fs, -1, 0, !it->series, &tw, NULL);
    gboolean whole_row = !it->series || tw + fs * 2 > l->legend_col_w - fs * 1.2 + 0.5;
    /* A name wider than the legend wraps on rows of its own ("K streams,
     * block per SM, all shared memory (= one stream)" ran off a narrow
     * pane). */
    double wrap_w = it->series && tw + fs * 2 > l->legend_w ? l->legend_w - fs * 2 : 0;
    double wrap_h = wrap_w > 0 ? ms_draw_text_wrapped (cr, it->text, 0, 0, fs, wrap_w, FALSE, FALSE)
                               : 0;
    whole_row = whole_row || wrap_w > 0;
    gboolean new_row = whole_row || !l->legend_below ||
                       x + l->legend_col_w * 2 > x0 + l->legend_w + 1;
    if (row_used && new_row) {
      x = x0;
      y += row_h;
    } else if (row_used) {
      x += l->legend_col_w;
    }
    if (draw)
      legend_item_draw (cr, it, st, l, x, y, th, wrap_w);
    row_used = !whole_row;
    if (whole_row)
      y += MAX (row_h, wrap_h + th * 0.25);
  }
  g_array_unref (items);
  if (row_used)
    y += row_h;
  if (ms_chart_data_has_notes (d)) {
    if (draw)
      ms_set_color (cr, &st->fg, 0.8);
    y += ms_draw_text_wrapped (
        cr, _("Struck-through hollow marker: a cell cancelled or failed (hover it for why)"), x0,
        y, fs * 0.9, l->legend_w, FALSE, draw);
  }
  return y - l->legend_y;
}

/* The widest label, as the direct labels need it; 0 when they are off or
 * would not fit one above another. */
static double
direct_labels_width (cairo_t *cr, const MsChartData *d, const MsChartStyle *st, double width,
                     double height)
{
  const double fs = ms_style_font_size (st);
  double w = 0, tw, th = fs;
  guint n = 0;
  if (!d->direct_labels)
    return 0;
  for (guint i = 0; i < d->series->len; i++) {
    const MsChartSeries *s = g_ptr_array_index (d->series, i);
    if (s->hidden)
      continue;
    g_autofree char *text = direct_label_text (s);
    ms_draw_text (cr, text, 0, 0, fs, -1, 0, FALSE, &tw, &th);
    w = MAX (w, tw);
    n++;
  }
  /* Too many to stack, or a gutter that would squeeze the plot: the
   * legend alone names the lines. */
  double share = d->direct_share > 0 ? d->direct_share : 0.25;
  if (n == 0 || n * th > height * 0.6 || w + fs * 2.8 > width * share)
    return 0;
  return w + fs * 2.8;
}

/* One run, nothing hidden and every line named at its end: the legend
 * would only repeat the names, and at 1024x768 its rows cost the plot a
 * third of its height. (Hidden series and several runs keep it: it is
 * where a series comes back and where runs are told apart.) */
static gboolean
direct_labels_suffice (const MsChartData *d, const MsChartLayout *l)
{
  if (l->direct_w <= 0)
    return FALSE;
  for (guint i = 0; i < d->series->len; i++) {
    const MsChartSeries *s = g_ptr_array_index (d->series, i);
    if (s->hidden || s->group)
      return FALSE;
  }
  return TRUE;
}

/* The widest entry, and the widest run heading, at the legend's size. */
static void
legend_widths (cairo_t *cr, const MsChartData *d, double fs, double *w, double *heading_w)
{
  double tw;
  *w = *heading_w = 0;
  for (guint i = 0; i < d->series->len; i++) {
    const MsChartSeries *s = g_ptr_array_index (d->series, i);
    const char *heading = group_heading (d, i);
    if (heading)
      *heading_w = MAX (*heading_w, ms_draw_text_width (cr, heading, fs, TRUE));
    ms_draw_text (cr, series_name (s), 0, 0, fs, -1, 0, FALSE, &tw, NULL);
    *w = MAX (*w, tw + fs * 2);
  }
}

/* Lays the legend out beside the plot when narrow enough and no taller
 * than the plot can be; else below, as many columns as the width holds,
 * its text smaller (down to 70%) while it would take over a third of the
 * height, so that the plot keeps its room: at each size grouped, or
 * compact when the grouped form takes over a third of the height. */
void
ms_chart_legend_measure (cairo_t *cr, const MsChartData *d, const MsChartStyle *st,
                         double width, double height, MsChartLayout *l)
{
  const double fs = ms_style_font_size (st);
  double w, heading_w;
  l->legend_fs = fs;
  legend_widths (cr, d, fs, &w, &heading_w);
  l->direct_w = direct_labels_width (cr, d, st, width, height);
  l->legend_col_w = w + fs * 1.2;
  l->legend_w = MAX (w, heading_w);
  l->legend_below = FALSE;
  l->legend_compact = FALSE;
  l->legend_x = 0;
  l->legend_y = l->plot_y;
  if (d->series->len == 0 || d->no_legend || direct_labels_suffice (d, l)) {
    l->legend_w = l->legend_h = 0;
    return;
  }
  l->legend_h = legend_walk (cr, d, NULL, l, FALSE);
  if (l->legend_w + l->direct_w <= width * MS_LEGEND_BESIDE_SHARE &&
      l->legend_h <= height - l->plot_y - fs * 5)
    return;
  l->legend_below = TRUE;
  l->legend_x = fs;
  l->legend_w = width - 2 * fs;
  for (double shrink = 1; shrink >= 0.69; shrink -= 0.15) {
    l->legend_fs = fs * shrink;
    legend_widths (cr, d, l->legend_fs, &w, &heading_w);
    l->legend_col_w = w + l->legend_fs * 1.2;
    l->legend_compact = FALSE;
    l->legend_h = legend_walk (cr, d, NULL, l, FALSE);
    if (l->legend_h > height / 3 && heading_w > 0) {
      l->legend_compact = TRUE;
      l->legend_h = legend_walk (cr, d, NULL, l, FALSE);
    }
    if (l->legend_h <= height / 3)
      break;
  }
}

void
ms_chart_legend_draw (cairo_t *cr, const MsChartData *d, const MsChartStyle *st,
                      MsChartLayout *l)
{
  if (!d->series->len || (l->legend_w <= 0 && l->legend_h <= 0))
    return;
  legend_walk (cr, d, st, l, TRUE);
}

/* Labels at the lines' ends, in the gutter right of the plot, in the
 * series' own order (the legend's, at every size, so that pictures compare
 * line by line): one block beside the line ends, centred on them as far
 * as the plot allows, each name after a sample of its line and marker. */
void
ms_chart_direct_labels (cairo_t *cr, const MsChartData *d, const MsChartStyle *st,
                        const MsChartLayout *l)
{
  const double fs = ms_style_font_size (st);
  double th, sum = 0;
  guint n = 0;
  if (l->direct_w <= 0)
    return;
  ms_draw_text (cr, "0", 0, 0, fs, -1, 0, FALSE, NULL, &th);
  for (guint i = 0; i < d->series->len; i++) {
    const MsChartSeries *s = g_ptr_array_index (d->series, i);
    for (guint k = s->points->len; !s->hidden && k-- > 0;) {
      const MsChartPoint *p = &g_array_index (s->points, MsChartPoint, k);
      if (!ms_chart_point_shown (d, p) || p->partial)
        continue;
      sum += CLAMP (ms_scale_to_pixel (&l->ys, p->y), l->plot_y, l->plot_y + l->plot_h);
      n++;
      break;
    }
  }
  if (n == 0)
    return;
  double top = l->plot_y - th / 2, bottom = l->plot_y + l->plot_h + th / 2;
  double y = CLAMP (sum / n - n * th / 2, top, MAX (top, bottom - n * th));
  double x = l->plot_x + l->plot_w + fs * 0.6;
  for (guint i = 0; i < d->series->len; i++) {
    const MsChartSeries *s = g_ptr_array_index (d->series, i);
    if (s->hidden)
      continue;
    MsLegendItem it = { NULL, s, (int) i, FALSE, FALSE };
    legend_sample (cr, &it, st, fs, x, y, th);
    /* The name in the text colour (some series colours are too light for
     * text). */
    ms_set_color (cr, &st->fg, 1);
    g_autofree char *text = direct_label_text (s);
    ms_draw_text (cr, text, x + fs * 2, y, fs, 0, 0, FALSE, NULL, NULL);
    y += th;
  }
}
