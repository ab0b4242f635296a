/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-chart.c: the line chart. One draw routine for screen and files, in
 * steps: layout, title, axes, reference lines, series, legend. */
#include "ms-chart.h"
#include "ms-palette.h"

#include <glib/gi18n.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

MsChartData *
ms_chart_data_new (void)
{
  MsChartData *d = g_new0 (MsChartData, 1);
  d->series = g_ptr_array_new ();
  d->refs = g_array_new (FALSE, TRUE, sizeof (MsChartRefLine));
  d->callouts = g_array_new (FALSE, TRUE, sizeof (MsChartCallout));
  d->y_kind = MS_SCALE_LINEAR;
  return d;
}

static void
series_free (MsChartSeries *s)
{
  for (guint k = 0; k < s->points->len; k++)
    g_free (g_array_index (s->points, MsChartPoint, k).note);
  g_free (s->label);
  g_free (s->short_label);
  g_free (s->shown_name);
  g_free (s->group);
  g_array_unref (s->points);
  g_free (s);
}

void
ms_chart_data_free (MsChartData *d)
{
  if (!d)
    return;
  for (guint i = 0; i < d->series->len; i++)
    series_free (g_ptr_array_index (d->series, i));
  g_ptr_array_unref (d->series);
  for (guint i = 0; i < d->refs->len; i++)
    g_free (g_array_index (d->refs, MsChartRefLine, i).label);
  g_array_unref (d->refs);
  for (guint i = 0; i < d->callouts->len; i++)
    g_free (g_array_index (d->callouts, MsChartCallout, i).label);
  g_array_unref (d->callouts);
  g_free (d->title);
  g_free (d->x_label);
  g_free (d->y_label);
  g_free (d->unit);
  g_free (d->caption);
  g_free (d->foot_note);
  g_free (d->empty_text);
  g_free (d);
}

void
ms_chart_data_remove_series (MsChartData *d, guint i)
{
  series_free (g_ptr_array_steal_index (d->series, i));
}

MsChartSeries *
ms_chart_data_add_series (MsChartData *d, const char *label, guint color, guint shape, guint dash)
{
  MsChartSeries *s = g_new0 (MsChartSeries, 1);
  s->label = g_strdup (label);
  s->color = color;
  s->shape = shape;
  s->dash = dash;
  s->points = g_array_new (FALSE, TRUE, sizeof (MsChartPoint));
  g_ptr_array_add (d->series, s);
  return s;
}

void
ms_chart_series_add (MsChartSeries *s, double x, double y, double lo, double hi, gboolean failed)
{
  MsChartPoint p = { x, y, lo, hi, failed, FALSE, NULL };
  g_array_append_val (s->points, p);
}

static int
cmp_double (gconstpointer a, gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

void
ms_chart_series_sort (MsChartSeries *s)
{
  /* x is a point's first member. */
  if (s)
    g_array_sort (s->points, cmp_double);
}

void
ms_chart_series_note_last (MsChartSeries *s, gboolean partial, const char *note)
{
  g_return_if_fail (s->points->len > 0);
  MsChartPoint *p = &g_array_index (s->points, MsChartPoint, s->points->len - 1);
  p->partial = partial;
  g_free (p->note);
  p->note = g_strdup (note);
}

void
ms_chart_data_add_ref (MsChartData *d, double y, const char *label)
{
  MsChartRefLine r = { y, g_strdup (label), 0 };
  g_array_append_val (d->refs, r);
}

void
ms_chart_layout_init (MsChartLayout *l)
{
  memset (l, 0, sizeof *l);
  l->legend = g_array_new (FALSE, TRUE, sizeof (MsChartBox));
  l->notes = g_array_new (FALSE, TRUE, sizeof (MsChartBox));
  l->labels = g_array_new (FALSE, TRUE, sizeof (MsChartBox));
}

void
ms_chart_layout_clear (MsChartLayout *l)
{
  g_clear_pointer (&l->legend, g_array_unref);
  g_clear_pointer (&l->notes, g_array_unref);
  g_clear_pointer (&l->labels, g_array_unref);
}

static gboolean
data_range (const MsChartData *d, double *xlo, double *xhi, double *ylo, double *yhi)
{
  gboolean any = FALSE;
  *xlo = *ylo = INFINITY;
  *xhi = *yhi = -INFINITY;
  for (guint i = 0; i < d->series->len; i++) {
    const MsChartSeries *s = g_ptr_array_index (d->series, i);
    for (guint k = 0; k < s->points->len; k++) {
      const MsChartPoint *p = &g_array_index (s->points, MsChartPoint, k);
      *xlo = MIN (*xlo, p->x);
      *xhi = MAX (*xhi, p->x);
      any = TRUE;
      if (s->hidden || p->failed || !isfinite (p->y))
        continue;
      if (d->y_kind != MS_SCALE_LINEAR && p->y <= 0)
        continue;
      *ylo = MIN (*ylo, p->lo <= p->hi ? MIN (p->lo, p->y) : p->y);
      *yhi = MAX (*yhi, p->lo <= p->hi ? MAX (p->hi, p->y) : p->y);
      if (p->state_lo > 0 && p->state_hi > 0) {
        *ylo = MIN (*ylo, MIN (p->state_lo, p->state_hi));
        *yhi = MAX (*yhi, MAX (p->state_lo, p->state_hi));
      }
    }
  }
  for (guint i = 0; i < d->refs->len; i++) {
    double y = g_array_index (d->refs, MsChartRefLine, i).y;
    if (y > 0 && isfinite (y)) {
      *ylo = MIN (*ylo, y);
      *yhi = MAX (*yhi, y);
    }
  }
  if (d->y_min > 0 && d->y_max >= d->y_min) {
    *ylo = MIN (*ylo, d->y_min);
    *yhi = MAX (*yhi, d->y_max);
  }
  if (d->y_fixed && d->y_max > d->y_min) {
    *ylo = d->y_min;
    *yhi = d->y_max;
  }
  if (!isfinite (*ylo)) {
    *ylo = d->y_kind == MS_SCALE_LINEAR ? 0 : 1;
    *yhi = d->y_kind == MS_SCALE_LINEAR ? 1 : 10;
  }
  if (!any) {
    /* Nothing yet: show the default sweep's sizes, 4 KiB to 4 MiB. */
    *xlo = 4096;
    *xhi = 4 << 20;
  }
  /* A sweep under way shows its planned sizes from the start, so that
   * points do not move as the range grows. */
  if (d->x_min > 0 && d->x_max >= d->x_min) {
    *xlo = any ? MIN (*xlo, d->x_min) : d->x_min;
    *xhi = any ? MAX (*xhi, d->x_max) : d->x_max;
  }
  return any;
}

/* The foot note's first n notes (its lines), joined again. */
static char *
foot_note_first (const MsChartData *d, guint n)
{
  g_auto (GStrv) notes = g_strsplit (d->foot_note, "\n", -1);
  if (n < g_strv_length (notes)) {
    g_free (notes[n]);
    notes[n] = NULL;
  }
  return g_strjoinv ("\n", notes);
}

/* The note under the x axis across the chart, one note a line ('\n'
 * between them, the most important first), in the body text's size (a
 * note's, ms_draw_note) where it fits, else a tenth smaller rather than
 * none: as many notes as fit in 7% of the height, in order; none in a
 * small pane, where the plot needs the room more. Sets l->foot_h,
 * l->foot_notes and l->foot_fs. */
static void
foot_note_fit (cairo_t *cr, const MsChartData *d, const MsChartStyle *st, double width,
               double height, MsChartLayout *l)
{
  const double fs = ms_style_font_size (st);
  l->foot_h = 0;
  l->foot_notes = 0;
  l->foot_fs = fs;
  if (!d->foot_note || !d->foot_note[0])
    return;
  g_auto (GStrv) notes = g_strsplit (d->foot_note, "\n", -1);
  for (int smaller = 0; smaller < 2; smaller++)
    for (guint n = g_strv_length (notes); n > 0; n--) {
      g_autofree char *text = foot_note_first (d, n);
      double size = smaller ? fs * 0.9 : fs;
      double h = ms_draw_text_wrapped (cr, text, 0, 0, size, width - 2 * fs, FALSE, FALSE)
                 + fs * 0.2;
      /* h < 0: no font could be loaded (fontconfig under a descriptor
       * limit), whose metrics would make the plot a million pixels tall. */
      if (h >= 0 && h <= height * 0.07) {
        l->foot_h = h;
        l->foot_notes = n;
        l->foot_fs = size;
        return;
      }
    }
}

/* Where the plot goes: the title (wrapped) on top, the legend beside or
 * below (ms_chart_legend_measure), the direct labels' gutter on the right,
 * the widest y tick label and the axis titles on the left and bottom.
 * Returns whether there is any data. */
/* A log axis's 1-2-5 ticks lie almost evenly, so they may sit closer than
 * linear ones: a short projected panel then still reads 2 and 5 µs, not
 * only the decades. */
static guint
y_ticks (const MsScale *ys, double plot_h, double fs, MsTick *ticks)
{
  return ms_axis_ticks (ys, plot_h, ys->kind == MS_SCALE_LOG10 ? fs * 1.8 : fs * 2.5, ticks, 64);
}

/* The x axis title wrapped at words to max_w, each line centred on xc from y (a wrapped title
 * drawn from the left jumped to the edge as a pane narrowed); its height. Only measures where
 * not draw. */
static double
x_title_lines (cairo_t *cr, const char *text, double xc, double y, double fs, double max_w,
               gboolean draw)
{
  g_auto (GStrv) words = g_strsplit (text, " ", -1);
  g_autoptr (GString) line = g_string_new (NULL);
  double h = 0, th = 0;
  for (guint i = 0; words[i]; i++) {
    g_autofree char *longer
        = line->len ? g_strdup_printf ("%s %s", line->str, words[i]) : g_strdup (words[i]);
    if (line->len && ms_draw_text_width (cr, longer, fs, FALSE) > max_w) {
      ms_draw_text (cr, line->str, xc, y + h, fs, draw ? 0.5 : -1, 0, FALSE, NULL, &th);
      h += th;
      g_string_assign (line, words[i]);
    } else {
      g_string_assign (line, longer);
    }
  }
  ms_draw_text (cr, line->str, xc, y + h, fs, draw ? 0.5 : -1, 0, FALSE, NULL, &th);
  return h + th;
}

static gboolean
chart_layout (cairo_t *cr, const MsChartData *d, const MsChartStyle *st, double width,
              double height, MsChartLayout *l, double *title_h)
{
  const double fs = ms_style_font_size (st);
  double xlo, xhi, ylo, yhi, th;
  gboolean any = data_range (d, &xlo, &xhi, &ylo, &yhi);

  l->marker_r = ms_style_marker_radius (st);
  l->tick_fs = ms_draw_figure_size (cr, fs);
  *title_h = 0;
  if (d->title)
    *title_h = ms_draw_text_wrapped (cr, d->title, 0, 0, fs * 1.15, width - 2 * fs, TRUE, FALSE)
               + fs * 0.4;
  ms_draw_text (cr, "0", 0, 0, l->tick_fs, -1, 0, FALSE, NULL, &th);
  l->plot_y = round (fs * 0.5 + *title_h + th * 0.5);
  ms_chart_legend_measure (cr, d, st, width, height, l);

  /* The y ticks decide the left margin: fitted first on a provisional
   * height (the ticks depend on the height only through their count). */
  /* An x title wider than the picture wraps: in a 320 px pane intensity's ran off it. */
  l->x_title_h = !d->x_label ? 0
                 : ms_draw_text_width (cr, d->x_label, fs, FALSE) <= width - fs
                     ? th * 1.1
                     : x_title_lines (cr, d->x_label, width / 2, 0, fs, width - fs, FALSE)
                           + th * 0.1;
  double axis_titles_h = l->x_title_h;
  foot_note_fit (cr, d, st, width, height, l);
  double bottom = th * 1.2 + fs * 0.4 + axis_titles_h + fs * 0.3 + l->foot_h
                  + (l->legend_below ? l->legend_h + fs * 0.5 : 0);
  /* Never taller than the picture, whatever the text measured. */
  double plot_h = CLAMP (floor (height - l->plot_y - bottom), 10, MAX (10, height));
  if (d->fit_y) {
    const double r = ms_style_marker_radius (st);
    ms_scale_fit_tight (&l->ys, d->y_kind, ylo, yhi);
    ms_scale_keep_clear (&l->ys, ylo, yhi, plot_h, MAX (r, th * 0.5) + 2, r + 2);
  } else {
    ms_scale_fit (&l->ys, d->y_kind, ylo, yhi);
  }
  l->ys.unit = d->y_unit;
  MsTick yticks[64];
  guint ny = y_ticks (&l->ys, plot_h, l->tick_fs, yticks);
  double widest = 0;
  for (guint i = 0; i < ny; i++)
    widest = MAX (widest, ms_draw_text_width (cr, yticks[i].label, l->tick_fs, FALSE));
  double left = widest + fs * 0.4 + (d->y_label ? th * 1.2 : fs * 0.5);
  /* On whole pixels: the grid, the frame and the clip are then boxes that
   * Cairo fills directly instead of through coverage spans and masks. */
  l->plot_x = round (left);
  double right = l->direct_w + (l->legend_below ? 0 : l->legend_w + fs) + fs * 1.2;
  l->plot_w = MAX (10, floor (width - l->plot_x - right));
  l->plot_h = plot_h;
  if (!l->legend_below)
    l->legend_x = l->plot_x + l->plot_w + l->direct_w + fs;
  else
    l->legend_y = height - l->legend_h - fs * 0.3;

  ms_scale_fit (&l->xs, MS_SCALE_LOG2, xlo, xhi);
  /* A marker nudged aside keeps the others' margin: its caps went under
   * the frame at the last size. */
  double nudge = 0;
  for (guint i = 0; i < d->series->len; i++)
    nudge = MAX (nudge, fabs (((const MsChartSeries *)g_ptr_array_index (d->series, i))->x_nudge));
  l->xs.min /= exp2 (nudge);
  l->xs.max *= exp2 (nudge);
  l->xs.unit = d->x_unit;
  l->xs.pixel_lo = l->plot_x;
  l->xs.pixel_hi = l->plot_x + l->plot_w;
  l->ys.pixel_lo = l->plot_y + l->plot_h;
  l->ys.pixel_hi = l->plot_y;
  return any;
}

/* Where a size tick's label goes: centred under it, inside the canvas
 * (as chart_axes draws it). */
static void
x_label_span (cairo_t *cr, const MsChartLayout *l, const MsTick *t, double fs, double width,
              double *left, double *right)
{
  double tw = ms_draw_text_width (cr, t->label, fs, FALSE);
  *left = CLAMP (round (ms_scale_to_pixel (&l->xs, t->value)) - tw / 2, 1, width - tw - 1);
  *right = *left + tw;
}

/* How far right the last size label may go to clear its neighbour's: to
 * start at its tick, inside the canvas. The gap between labels is
 * LABEL_GAP font sizes. */
#define LABEL_GAP 0.7
static double
last_label_limit (const MsChartLayout *l, const MsTick *t, double tw, double width)
{
  return MIN (round (ms_scale_to_pixel (&l->xs, t->value)), width - tw - 1);
}

static gboolean
is_mark (const MsChartData *d, double value)
{
  for (guint k = 0; k < G_N_ELEMENTS (d->x_marks); k++)
    if (d->x_marks[k] > 0 && fabs (value - d->x_marks[k]) < d->x_marks[k] * 1e-9)
      return TRUE;
  return FALSE;
}

/* The tick of the size mark among the n ticks, in place of those whose
 * labels it would cover; none when it would cover the last one's or
 * another mark's. Returns the new count. */
static guint
keep_mark (cairo_t *cr, const MsChartData *d, const MsChartLayout *l, double fs, double width,
           double mark, MsTick *ticks, guint n)
{
  if (!(mark > 0) || !ms_scale_contains (&l->xs, mark) || n == 0)
    return n;
  for (guint i = 0; i < n; i++)
    if (fabs (ticks[i].value - mark) < mark * 1e-9)
      return n;
  MsTick m = { .value = mark, .major = TRUE };
  ms_format_size_label (mark, m.label, sizeof m.label);
  double ml, mr, tl, tr, gap = fs * LABEL_GAP;
  x_label_span (cr, l, &m, fs, width, &ml, &mr);
  gboolean covers[64] = { FALSE };
  for (guint i = 0; i < n; i++) {
    x_label_span (cr, l, &ticks[i], fs, width, &tl, &tr);
    covers[i] = tl < mr + gap && ml < tr + gap;
    /* The last label slides right for it (chart_axes). */
    if (covers[i] && i == n - 1 && ticks[i].value > mark
        && mr + gap <= last_label_limit (l, &ticks[i], tr - tl, width))
      covers[i] = FALSE;
    if (covers[i] && (i == n - 1 || is_mark (d, ticks[i].value)))
      return n;
  }
  guint k = 0;
  gboolean placed = FALSE;
  MsTick kept[64];
  for (guint i = 0; i < n; i++) {
    if (!placed && ticks[i].value > mark)
      kept[k++] = m, placed = TRUE;
    if (!covers[i])
      kept[k++] = ticks[i];
  }
  if (!placed)
    kept[k++] = m;
  memcpy (ticks, kept, k * sizeof *ticks);
  return k;
}

/* The sizes the points stand at, each a labelled tick, where their labels
 * fit side by side (LABEL_GAP apart) and some point's size is among the
 * n ticks' gaps: points on unlabelled sizes, between ticks every 16, were
 * sizes a class had to guess (pin-payoff's 256 KiB, sync-async's 4 KiB).
 * A size off the powers of two (a marker nudged aside) is no tick.
 * Returns the new count, else 0. */
static guint
point_ticks (cairo_t *cr, const MsChartData *d, const MsChartLayout *l, double fs, double width,
             MsTick *ticks, guint n)
{
  double xs[64];
  guint m = 0, unlabelled = 0;
  for (guint i = 0; i < d->series->len; i++) {
    const MsChartSeries *s = g_ptr_array_index (d->series, i);
    for (guint k = 0; k < s->points->len && !s->hidden; k++) {
      double x = g_array_index (s->points, MsChartPoint, k).x;
      gboolean skip = !ms_scale_contains (&l->xs, x) || fabs (log2 (x) - round (log2 (x))) > 1e-9;
      for (guint j = 0; j < m && !skip; j++)
        skip = xs[j] == x;
      if (skip)
        continue;
      if (m == G_N_ELEMENTS (xs))
        return 0;
      xs[m++] = x;
      gboolean ticked = FALSE;
      for (guint j = 0; j < n && !ticked; j++)
        ticked = fabs (ticks[j].value - x) < x * 1e-9;
      unlabelled += !ticked;
    }
  }
  if (unlabelled == 0 || m < 2)
    return 0;
  qsort (xs, m, sizeof *xs, cmp_double);
  MsTick t[64];
  double prev_right = -INFINITY, left, right;
  for (guint j = 0; j < m; j++) {
    t[j] = (MsTick){ .value = xs[j], .major = TRUE };
    ms_scale_size_label (&l->xs, xs[j], t[j].label, sizeof t[j].label);
    x_label_span (cr, l, &t[j], fs, width, &left, &right);
    /* Counts of two digits stand apart at half the gap sizes' words need. */
    if (left < prev_right + fs * (l->xs.unit == MS_SCALE_COUNT ? LABEL_GAP / 2 : LABEL_GAP))
      return 0;
    prev_right = right;
  }
  memcpy (ticks, t, m * sizeof *t);
  return m;
}

/* Size ticks: as many as their labels fit side by side, the last one
 * always (ms_scale_ticks counts from it), and the marks where they fit;
 * or every point's size where those fit (point_ticks). */
static guint
chart_x_ticks (cairo_t *cr, const MsChartData *d, const MsChartStyle *st, const MsChartLayout *l,
               double width, MsTick *ticks)
{
  const double fs = l->tick_fs;
  /* A count's labels are as wide as its largest, not a size's. */
  char top[16] = "512 KiB";
  if (l->xs.unit == MS_SCALE_COUNT)
    ms_scale_size_label (&l->xs, l->xs.max, top, sizeof top);
  double widest = ms_draw_text_width (cr, top, fs, FALSE);
  guint n = ms_axis_ticks (&l->xs, l->plot_w, widest + fs, ticks, 63);
  if (l->xs.unit != MS_SCALE_PLAIN && l->xs.unit != MS_SCALE_COUNT)
    return n;
  guint points = point_ticks (cr, d, l, fs, width, ticks, n);
  if (points > 0)
    return points;
  if (l->xs.unit == MS_SCALE_COUNT)
    return n;
  for (guint k = 0; k < G_N_ELEMENTS (d->x_marks); k++)
    n = keep_mark (cr, d, l, fs, width, d->x_marks[k], ticks, n);
  return n;
}

/* The background, the grid and the plot's frame. One path for the grid's
 * both directions: crossings are not painted twice. */
static void
chart_backdrop (cairo_t *cr, const MsChartStyle *st, const MsChartLayout *l, const MsTick *xt,
                guint nx, const MsTick *yt, guint ny)
{
  double grid_w = st->high_contrast ? 1.5 : 1, frame[16];
  double *grid = g_new (double, 4 * (nx + ny + 1));
  ms_grid_boxes (&l->xs, xt, nx, l->plot_y, l->plot_y + l->plot_h, grid_w, TRUE, grid);
  ms_grid_boxes (&l->ys, yt, ny, l->plot_x, l->plot_x + l->plot_w, grid_w, FALSE, grid + 4 * nx);
  ms_frame_boxes (l->plot_x, l->plot_y, l->plot_w, l->plot_h, grid_w, frame);
  ms_draw_background (cr, st);
  ms_set_color (cr, &st->fg, st->high_contrast ? MS_GRID_ALPHA_HIGH_CONTRAST : MS_GRID_ALPHA);
  ms_boxes_path (cr, grid, nx + ny);
  cairo_fill (cr);
  ms_set_color (cr, &st->fg, st->high_contrast ? 1 : 0.55);
  ms_boxes_path (cr, frame, 4);
  cairo_fill (cr);
  g_free (grid);
}

/* Tick labels, the size labels under their ticks but none past the
 * canvas, and the axis titles. */
static void
chart_axes (cairo_t *cr, const MsChartData *d, const MsChartStyle *st, const MsChartLayout *l,
            double width, const MsTick *ticks, guint n, const MsTick *yticks, guint ny)
{
  const double fs = ms_style_font_size (st), tfs = l->tick_fs;
  double tw, prev_right = -INFINITY, first_left = INFINITY;
  ms_set_color (cr, &st->fg, st->high_contrast ? 1 : 0.8);
  for (guint i = 0; i < n; i++) {
    double px = round (ms_scale_to_pixel (&l->xs, ticks[i].value));
    ms_draw_text (cr, ticks[i].label, 0, 0, tfs, -1, 0, FALSE, &tw, NULL);
    double x = CLAMP (px - tw / 2, 1, width - tw - 1);
    first_left = MIN (first_left, x);
    /* A marked size just before the last label: that one slides right. */
    if (i == n - 1 && x < prev_right + fs * LABEL_GAP)
      x = MAX (x, MIN (prev_right + fs * LABEL_GAP, last_label_limit (l, &ticks[i], tw, width)));
    prev_right = x + tw;
    ms_draw_text (cr, ticks[i].label, x, l->plot_y + l->plot_h + fs * 0.4, tfs, 0, 0, FALSE,
                  NULL, NULL);
  }
  double th;
  ms_draw_text (cr, "0", 0, 0, tfs, -1, 0, FALSE, NULL, &th);
  for (guint i = 0; i < ny; i++) {
    /* A label on the bottom edge sits on it only where a size's label
     * lies under the corner: centred, it reached into that one. Elsewhere
     * it is centred on its value, as every other is (sat on the edge, a
     * "-2.5" read as a value a third of a step higher). */
    double py = round (ms_scale_to_pixel (&l->ys, yticks[i].value));
    gboolean corner_taken = first_left < l->plot_x - fs * 0.4;
    double align = corner_taken && py > l->plot_y + l->plot_h - th / 2 ? 1 : 0.5;
    ms_draw_text (cr, yticks[i].label, l->plot_x - fs * 0.4, py, tfs, 1, align, FALSE, NULL,
                  NULL);
  }

  ms_set_color (cr, &st->fg, 0.9);
  if (d->x_label) {
    /* Under the plot's middle, but inside the canvas: in a narrow panel it ran off the right. */
    double xw = ms_draw_text_width (cr, d->x_label, fs, FALSE);
    double xc = CLAMP (l->plot_x + l->plot_w / 2, xw / 2, MAX (xw / 2, width - xw / 2));
    double xy = l->plot_y + l->plot_h + fs * 0.4 + th * 1.2;
    if (xw <= width - fs)
      ms_draw_text (cr, d->x_label, xc, xy, fs, 0.5, 0, FALSE, NULL, NULL);
    else
      x_title_lines (cr, d->x_label, width / 2, xy, fs, width - fs, TRUE);
  }
  g_autofree char *foot = l->foot_notes > 0 ? foot_note_first (d, l->foot_notes) : NULL;
  if (foot) {
    double y = l->plot_y + l->plot_h + fs * 0.4 + th * 1.2 + l->x_title_h + fs * 0.2;
    /* Full strength: a grey note under the chart washed out on a
     * projector; its size and place already say it is a note. */
    ms_set_color (cr, &st->fg, 1);
    ms_draw_text_wrapped (cr, foot, fs, y, l->foot_fs, width - 2 * fs, FALSE, TRUE);
  }
  if (d->y_label) {
    /* A log axis says so where it fits: its even steps are factors, and
     * read as differences they exaggerate small ratios. */
    /* TRANSLATORS: a log axis's title, e.g. "time per copy (log scale)". */
    g_autofree char *log_label
        = d->y_kind == MS_SCALE_LOG10 ? g_strdup_printf (_ ("%s (log scale)"), d->y_label) : NULL;
    const char *label = d->y_label;
    ms_draw_text (cr, log_label ? log_label : label, 0, 0, fs, -1, 0, FALSE, &tw, NULL);
    if (log_label && tw <= l->plot_h)
      label = log_label;
    else
      ms_draw_text (cr, label, 0, 0, fs, -1, 0, FALSE, &tw, NULL);
    cairo_save (cr);
    cairo_translate (cr, fs * 0.2, l->plot_y + l->plot_h / 2 + MIN (tw, l->plot_h) / 2);
    cairo_rotate (cr, -G_PI / 2);
    if (tw <= l->plot_h)
      ms_draw_text (cr, label, 0, 0, fs, 0, 0, FALSE, NULL, NULL);
    else
      ms_draw_text_max (cr, label, 0, 0, fs, l->plot_h);
    cairo_restore (cr);
  }
}

/* Dotted horizontal lines, under the series (over them, stronger, with
 * refs_over); their labels come later. */
static void
chart_ref_lines (cairo_t *cr, const MsChartData *d, const MsChartStyle *st, const MsChartLayout *l)
{
  const double lw = ms_style_line_width (st);
  ms_set_color (cr, &st->fg, d->refs_over ? 0.9 : 0.6);
  cairo_set_line_width (cr, lw * (d->refs_over ? 1.1 : 0.8));
  ms_set_dash (cr, 2, lw * 1.5);
  for (guint i = 0; i < d->refs->len; i++) {
    double y = g_array_index (d->refs, MsChartRefLine, i).y;
    if (!ms_scale_contains (&l->ys, y))
      continue;
    double py = round (ms_scale_to_pixel (&l->ys, y)) + 0.5;
    cairo_move_to (cr, l->plot_x, py);
    cairo_line_to (cr, l->plot_x + l->plot_w, py);
  }
  cairo_stroke (cr);
  ms_set_dash (cr, 0, lw);
}

/* A reference label's box: its text measured (wrapped at words when
 * longer than the plot is wide) at size fs. */
typedef struct {
  double fs, pad, max_w, w, h;
  gboolean wrap;
} MsRefText;

static void
ref_text_measure (cairo_t *cr, const char *label, double fs, double share, const MsChartLayout *l,
                  MsRefText *t)
{
  double tw, th;
  t->fs = fs;
  t->pad = fs * 0.25;
  ms_draw_text (cr, label, 0, 0, fs, -1, 0, FALSE, &tw, &th);
  t->max_w = MAX (fs, l->plot_w * share - fs * 0.8 - 2 * t->pad);
  t->wrap = tw > t->max_w;
  if (t->wrap)
    tw = t->max_w, th = ms_draw_text_wrapped (cr, label, 0, 0, fs, t->max_w, FALSE, FALSE);
  t->w = tw + 2 * t->pad;
  t->h = th + 2 * t->pad;
}

/* The best spot for a label of line py: by the line at the right end, the
 * left end or between (above or below it), else a row or more away from
 * it; wherever it covers the least of the series (ms_chart_data_cover)
 * and no label placed before, then the nearest the line and its right
 * end; the rows go as far as the plot does. Returns the data it covers
 * there. */
static double
ref_label_spot (const MsChartData *d, const MsChartLayout *l, double py, const MsRefText *t,
                GArray *placed, MsChartRect *best, double *best_score_out)
{
  const double fs = t->fs, lo = l->plot_y + 1, hi = l->plot_y + l->plot_h - t->h - 1;
  const double x_lo = l->plot_x + fs * 0.4;
  const double x_hi = MAX (x_lo, l->plot_x + l->plot_w - fs * 0.4 - t->w);
  /* Rows as far as the plot goes, and no further than a label still
   * reads as its line's. */
  const guint n_x = 9, n_rows = MIN ((guint)ceil (l->plot_h / MAX (t->h, 1)) + 1, 64);
  /* Clear of its line by more than the dotted line's half width: 2 px
   * from its middle, the box's edge lay on the line, and the label read
   * as sitting on it ("together: one kernel's time"). */
  const double gap = fs * 0.25;
  double best_score = G_MAXDOUBLE, best_cover = 0;
  for (guint row = 0; row < n_rows; row++)
    for (int side = 0; side < 2; side++)
      for (guint i = 0; i < n_x; i++) {
        /* Right end first: it reads as the line's name. */
        double x = x_hi - (x_hi - x_lo) * i / (n_x - 1);
        double y = side ? py + gap + row * t->h : py - gap - t->h - row * t->h;
        MsChartRect cand = { x, CLAMP (y, lo, MAX (lo, hi)), t->w, t->h };
        double score = ms_chart_data_cover (d, l, 1.5, cand.x, cand.y, cand.w, cand.h) * 1000;
        /* Pushed onto its own line by the plot's edge: as bad as another
         * line's (below). */
        if (py > cand.y - gap + 0.5 && py < cand.y + cand.h + gap - 0.5)
          score += 2000;
        double cover = score / 1000;
        for (guint j = 0; j < placed->len; j++)
          if (ms_chart_rects_overlap (&cand, &g_array_index (placed, MsChartRect, j)))
            score += 1e6;
        /* Across another reference line a label reads as that line's
         * (the best pinned figure sat on the link's line, 10 px above
         * its own). */
        for (guint j = 0; j < d->refs->len; j++) {
          double y2 = g_array_index (d->refs, MsChartRefLine, j).y;
          if (!ms_scale_contains (&l->ys, y2))
            continue;
          double p2 = ms_scale_to_pixel (&l->ys, y2);
          if (fabs (p2 - py) > 1 && p2 > cand.y - 2 && p2 < cand.y + cand.h + 2)
            score += 2000;
        }
        score += fabs (cand.y + (side ? 0 : cand.h) - py) + (x_hi - x) * 0.05;
        if (score < best_score)
          best_score = score, *best = cand, best_cover = cover;
      }
  *best_score_out = best_score;
  return best_cover;
}

/* A label that had to move away from its line gets a leader to it: two
 * close lines with labels a decade off could not be told apart. With
 * at > 0 (a pixel x on the line) the leader ends there in a dot, drawn
 * even when the label sits by its line: the figure was measured at one
 * size. */
static void
ref_leader (cairo_t *cr, const MsChartStyle *st, const MsChartRect *box, double py, double at)
{
  const double lw = ms_style_line_width (st);
  double gap = lw * 3;
  gboolean by_line = py >= box->y - gap && py <= box->y + box->h + gap;
  if (by_line && !(at > 0))
    return;
  /* From the box's edge nearest the line; to the point where there is
   * one (a slanted leader), else straight down or up from its left part:
   * from its right end, at the plot's right edge, it ran down the last
   * size's gridline (sync-async's 4 MiB) and the label read as detached. */
  double x = at > 0 ? CLAMP (at, box->x, box->x + box->w) : box->x + MIN (box->w / 2, lw * 12);
  double end = at > 0 ? at : x;
  double y = py < box->y + box->h / 2 ? box->y : box->y + box->h;
  ms_set_color (cr, &st->fg, 0.6);
  ms_draw_line (cr, lw * 0.8, x, y, end, py);
  /* A dot where the figure was measured; elsewhere the leader just meets
   * its line (a dot beside the last point read as one more). */
  if (!(at > 0))
    return;
  cairo_arc (cr, end, py, lw * 2, 0, 2 * G_PI);
  cairo_fill (cr);
}

/* The reference lines' labels over the series, each on a background where
 * no series passes (ms_chart_data_cover): by its line where it can, else
 * nearby, smaller or narrower when that is what frees it; never over a
 * label placed before; all inside the plot. The boxes with a background
 * go to l->notes; every box to l->labels. */
static void
chart_ref_labels (cairo_t *cr, const MsChartData *d, const MsChartStyle *st, MsChartLayout *l)
{
  /* A line's label often holds its figure ("the kernel ahead, 200 µs"):
   * on a slide, a back row's size. */
  const double fs = ms_draw_figure_size (cr, ms_style_font_size (st) * 0.9);
  GArray *placed = g_array_new (FALSE, FALSE, sizeof (MsChartRect));
  g_array_set_size (l->notes, 0);
  g_array_set_size (l->labels, 0);
  for (guint i = 0; i < d->refs->len; i++) {
    const MsChartRefLine *r = &g_array_index (d->refs, MsChartRefLine, i);
    /* A line without a label: its axis says what it is. */
    if (!r->label || !ms_scale_contains (&l->ys, r->y))
      continue;
    double py = round (ms_scale_to_pixel (&l->ys, r->y)) + 0.5;
    /* Full size, smaller, then wrapped narrower: the one by its line that
     * covers no data, a smaller size costing as much as a row further
     * away; failing all, the first, drawn without its background so that
     * the data shows through. */
    static const double tries[][2] = { { 1, 1 }, { 0.8, 1 }, { 0.8, 0.5 }, { 0.8, 0.34 } };
    MsRefText t = { 0 };
    MsChartRect box = { 0 };
    gboolean clear = FALSE;
    double best = G_MAXDOUBLE;
    for (guint k = 0; k < G_N_ELEMENTS (tries); k++) {
      MsRefText try_t;
      MsChartRect try_box;
      double score;
      ref_text_measure (cr, r->label, fs * tries[k][0], tries[k][1], l, &try_t);
      gboolean try_clear = ref_label_spot (d, l, py, &try_t, placed, &try_box, &score) == 0;
      score += k * fs * 1.5;
      if (k == 0 || (try_clear && score < best))
        t = try_t, box = try_box, clear = try_clear, best = try_clear ? score : G_MAXDOUBLE;
    }
    g_array_append_val (placed, box);
    /* A label on its background hides what it covers. */
    if (clear)
      ms_chart_check_label (cr, d, l, r->label, &box);
    MsChartBox label_box = { box.x, box.y, box.w, box.h, i };
    g_array_append_val (l->labels, label_box);
    if (clear)
      g_array_append_val (l->notes, label_box);
    double at = r->x > 0 && ms_scale_contains (&l->xs, r->x) ? ms_scale_to_pixel (&l->xs, r->x) : 0;
    ref_leader (cr, st, &box, py, at);
    if (clear) {
      ms_set_color (cr, &st->bg, 0.88);
      cairo_rectangle (cr, box.x, box.y, box.w, box.h);
      cairo_fill (cr);
    }
    ms_set_color (cr, &st->fg, 0.85);
    if (t.wrap)
      ms_draw_text_wrapped (cr, r->label, box.x + t.pad, box.y + t.pad, t.fs, t.max_w, FALSE, TRUE);
    else
      ms_draw_text (cr, r->label, box.x + t.pad, box.y + t.pad, t.fs, 0, 0, FALSE, NULL, NULL);
  }
  g_array_unref (placed);
}

/* Whether a point is drawn in the faint pass: its series or it muted. */
static gboolean
point_faint (const MsChartSeries *s, const MsChartPoint *p)
{
  return s->muted || p->muted;
}

/* A point's place in pixels, worked out once for its bar, line and marker
 * (a logarithm each). */
typedef struct {
  double x, y, lo, hi;
} MsChartPixel;

static MsChartPixel *
series_pixels (const MsChartSeries *s, const MsChartLayout *l)
{
  MsChartPixel *pix = g_new (MsChartPixel, MAX (s->points->len, 1));
  for (guint k = 0; k < s->points->len; k++) {
    const MsChartPoint *p = &g_array_index (s->points, MsChartPoint, k);
    pix[k].x = ms_scale_to_pixel (&l->xs, p->x * exp2 (s->x_nudge));
    pix[k].y = ms_scale_to_pixel (&l->ys, p->y);
    gboolean bar = !p->failed && p->lo <= p->hi;
    pix[k].lo = bar ? ms_scale_to_pixel (&l->ys, p->lo) : 0;
    pix[k].hi = bar ? ms_scale_to_pixel (&l->ys, p->hi) : 0;
  }
  return pix;
}

/* A two-state point's states: a wide tick at each, and a thin line
 * between them through the median, so that the point reads as a pair. */
static void
series_state_ticks (cairo_t *cr, const MsChartSeries *s, const MsChartPixel *pix,
                    const MsChartLayout *l, double bw, double cap, gboolean faint)
{
  for (guint k = 0; k < s->points->len; k++) {
    const MsChartPoint *p = &g_array_index (s->points, MsChartPoint, k);
    if (p->failed || !(p->state_lo > 0 && p->state_hi > 0) || point_faint (s, p) != faint)
      continue;
    double px = round (pix[k].x);
    double y0 = round (ms_scale_to_pixel (&l->ys, p->state_lo));
    double y1 = round (ms_scale_to_pixel (&l->ys, p->state_hi));
    double w = 3.5 * cap, h = MAX (3, round (2.5 * bw));
    cairo_rectangle (cr, px - w, y0 - floor (h / 2), 2 * w, h);
    cairo_rectangle (cr, px - w, y1 - floor (h / 2), 2 * w, h);
    cairo_rectangle (cr, px - floor (bw / 2), MIN (y0, y1), bw, fabs (y1 - y0));
  }
  cairo_fill (cr);
}

/* Error bars (min..max) are axis-aligned: filled rectangles on whole
 * pixels, all of a series in one fill (far cheaper than strokes). */
static void
series_error_bars (cairo_t *cr, const MsChartSeries *s, const MsChartPixel *pix,
                   const MsChartLayout *l, const MsChartStyle *st, gboolean faint)
{
  const double fs = ms_style_font_size (st), lw = ms_style_line_width (st);
  const double r = ms_style_marker_radius (st);
  double bw = MAX (1, round (lw * 0.7)), cap = round (fs * 0.3);
  for (guint k = 0; k < s->points->len; k++) {
    const MsChartPoint *p = &g_array_index (s->points, MsChartPoint, k);
    if (p->failed || p->lo > p->hi || point_faint (s, p) != faint)
      continue;
    double px = round (pix[k].x), y0 = round (pix[k].lo), y1 = round (pix[k].hi);
    if (fabs (y0 - y1) < 1)
      continue;
    double y_top = MIN (y0, y1), y_bottom = MAX (y0, y1);
    /* Wider than the marker where it would hide an end. */
    gboolean hid = MIN (pix[k].y - y_top, y_bottom - pix[k].y) < r;
    double c = s->caps_out && (y_bottom - y_top < 2 * r || hid) ? round (r * 1.8) : cap;
    cairo_rectangle (cr, px - floor (bw / 2), y_top, bw, y_bottom - y_top);
    cairo_rectangle (cr, px - c, y_top - floor (bw / 2), 2 * c, bw);
    cairo_rectangle (cr, px - c, y_bottom - floor (bw / 2), 2 * c, bw);
  }
  cairo_fill (cr);
  series_state_ticks (cr, s, pix, l, bw, cap, faint);
}

/* A measured value on the line: not failed, not from a cell cut short. */
static gboolean
point_on_line (const MsChartData *d, const MsChartPoint *p)
{
  return ms_chart_point_shown (d, p) && !p->partial;
}

/* The line, broken where a size has no value: one stroke, whose fast
 * antialiasing is indistinguishable at these widths. The faint pass draws
 * the stretches that end at a faint point, the other the rest. */
static void
series_line (cairo_t *cr, const MsChartData *d, const MsChartSeries *s, const MsChartPixel *pix,
             const MsChartStyle *st, gboolean faint)
{
  const double lw = ms_style_line_width (st);
  int prev = -1;
  gboolean pen_at_prev = FALSE;
  cairo_set_antialias (cr, CAIRO_ANTIALIAS_FAST);
  cairo_set_line_width (cr, lw);
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
  ms_set_dash (cr, s->dash, lw);
  for (guint k = 0; k < s->points->len; k++) {
    const MsChartPoint *p = &g_array_index (s->points, MsChartPoint, k);
    /* A gap starts a new sub-path. */
    if (!point_on_line (d, p)) {
      prev = -1;
      continue;
    }
    const MsChartPoint *q = prev >= 0 ? &g_array_index (s->points, MsChartPoint, prev) : NULL;
    if (q && (point_faint (s, p) || point_faint (s, q)) == faint) {
      if (!pen_at_prev)
        cairo_move_to (cr, pix[prev].x, pix[prev].y);
      cairo_line_to (cr, pix[k].x, pix[k].y);
      pen_at_prev = TRUE;
    } else {
      pen_at_prev = FALSE;
    }
    prev = (int)k;
  }
  cairo_stroke (cr);
  cairo_set_antialias (cr, CAIRO_ANTIALIAS_DEFAULT);
  ms_set_dash (cr, 0, lw);
}

/* Markers go out in one path per series and fill step (ms_draw_markers):
 * a path per point costs more than the drawing itself. Failed cells (on
 * the x axis) and cells cut short (at their value) get a hollow marker
 * struck through, explained in the legend and the read-out. */
static void
series_markers (cairo_t *cr, const MsChartData *d, const MsChartSeries *s, const MsChartPixel *pix,
                const MsChartStyle *st, const MsChartLayout *l, gboolean faint)
{
  const double fs = ms_style_font_size (st), lw = ms_style_line_width (st);
  const double r = ms_style_marker_radius (st);
  double *xy = g_new (double, 2 * MAX (s->points->len, 1));
  guint n = 0;
  gboolean notes = FALSE;
  /* Markers are a few pixels across: a coarser curve tolerance is
   * invisible and flattens the circles into far fewer edges. */
  cairo_set_tolerance (cr, 0.5);
  for (guint k = 0; k < s->points->len; k++) {
    const MsChartPoint *p = &g_array_index (s->points, MsChartPoint, k);
    if (point_faint (s, p) != faint)
      continue;
    if (!point_on_line (d, p)) {
      notes = TRUE;
      continue;
    }
    xy[2 * n] = pix[k].x;
    xy[2 * n + 1] = pix[k].y;
    n++;
  }
  /* A point muted alone (a figure that is noise by definition) hollow as
   * well as faint: on a dark background, under a faded answer, faint
   * alone did not set it apart from its line. */
  MsMarkerFill fill = faint && !s->muted ? MS_FILL_HOLLOW : ms_run_fill (s->run);
  ms_draw_markers (cr, s->shape, fill, xy, n, r, lw * 0.8, &st->bg);
  g_free (xy);
  for (guint k = 0; k < s->points->len; k++) {
    const MsChartPoint *p = &g_array_index (s->points, MsChartPoint, k);
    if (p->crossed && point_faint (s, p) == faint && point_on_line (d, p)) {
      for (int sign = -1; sign <= 1; sign += 2) {
        cairo_move_to (cr, pix[k].x - r * 1.5, pix[k].y - sign * r * 1.5);
        cairo_line_to (cr, pix[k].x + r * 1.5, pix[k].y + sign * r * 1.5);
      }
    }
  }
  cairo_set_line_width (cr, lw * 0.8);
  cairo_stroke (cr);
  if (!notes) {
    cairo_set_tolerance (cr, 0.1);
    return;
  }
  for (guint k = 0; k < s->points->len; k++) {
    const MsChartPoint *p = &g_array_index (s->points, MsChartPoint, k);
    if (point_on_line (d, p) || point_faint (s, p) != faint)
      continue;
    double px = pix[k].x;
    double py = ms_chart_point_shown (d, p) ? pix[k].y : l->plot_y + l->plot_h - fs * 0.7;
    ms_marker_path (cr, s->shape, px, py, r * 1.3);
    cairo_move_to (cr, px - r * 1.3, py + r * 1.3);
    cairo_line_to (cr, px + r * 1.3, py - r * 1.3);
  }
  cairo_set_line_width (cr, lw * 0.7);
  cairo_stroke (cr);
  cairo_set_tolerance (cr, 0.1);
}

/* Whether anything of s is drawn in the faint pass. */
static gboolean
series_has_faint (const MsChartSeries *s)
{
  for (guint k = 0; !s->muted && k < s->points->len; k++)
    if (g_array_index (s->points, MsChartPoint, k).muted)
      return TRUE;
  return s->muted;
}

/* The muted series and points first, faint and behind, then the others. */
static void
chart_series (cairo_t *cr, const MsChartData *d, const MsChartStyle *st, const MsChartLayout *l)
{
  for (int faint = 1; faint >= 0; faint--)
    for (guint i = 0; i < d->series->len; i++) {
      const MsChartSeries *s = g_ptr_array_index (d->series, i);
      MsColor c;
      if (s->hidden || (faint ? !series_has_faint (s) : s->muted))
        continue;
      if (faint)
        cairo_push_group (cr);
      ms_chart_palette_color (s->color, st->dark, &c);
      ms_set_color (cr, &c, 1);
      MsChartPixel *pix = series_pixels (s, l);
      series_error_bars (cr, s, pix, l, st, faint);
      series_line (cr, d, s, pix, st, faint);
      if (!s->no_markers)
        series_markers (cr, d, s, pix, st, l, faint);
      g_free (pix);
      if (faint) {
        cairo_pop_group_to_source (cr);
        /* A point muted alone (noise by definition) as faint in dark as in
         * light: at the dark muted series' strength, issue-order's K = 1
         * still read as a finding; hollow, it stays visible. */
        cairo_paint_with_alpha (cr, s->muted ? MS_CHART_MUTED_ALPHA (st) : MS_CHART_MUTED_POINT_ALPHA);
      }
    }
}

void
ms_chart_measure (cairo_t *cr, const MsChartData *d, const MsChartStyle *st, double width,
                  double height, MsChartLayout *layout)
{
  double title_h;
  g_array_set_size (layout->legend, 0);
  cairo_save (cr);
  chart_layout (cr, d, st, width, height, layout, &title_h);
  cairo_restore (cr);
}

void
ms_chart_draw (cairo_t *cr, const MsChartData *d, const MsChartStyle *st, double width,
               double height, double hover_x, MsChartLayout *layout)
{
  MsChartLayout local;
  MsChartLayout *l = layout ? layout : &local;
  if (!layout)
    ms_chart_layout_init (&local);
  g_array_set_size (l->legend, 0);
  const double fs = ms_style_font_size (st);
  double title_h;

  cairo_save (cr);
  /* Laid out first (measuring only), so that the background and the grid
   * go out together; nothing drawn after them overlaps the grid. */
  gboolean any = chart_layout (cr, d, st, width, height, l, &title_h);
  MsTick xticks[64], yticks[64];
  guint nx = chart_x_ticks (cr, d, st, l, width, xticks);
  guint ny = y_ticks (&l->ys, l->plot_h, l->tick_fs, yticks);
  chart_backdrop (cr, st, l, xticks, nx, yticks, ny);
  if (d->title) {
    ms_set_color (cr, &st->fg, 1);
    ms_draw_text_wrapped (cr, d->title, fs, fs * 0.5, fs * 1.15, width - 2 * fs, TRUE, TRUE);
  }
  chart_axes (cr, d, st, l, width, xticks, nx, yticks, ny);

  /* Everything data-driven stays inside the plot. The data layer alone
   * (ms_draw_data_only_begin) lifts the clip that hides the rest. */
  gboolean data_only = ms_draw_is_data_only (cr);
  cairo_save (cr);
  if (data_only)
    cairo_reset_clip (cr);
  cairo_rectangle (cr, l->plot_x, l->plot_y, l->plot_w, l->plot_h);
  cairo_clip (cr);
  if (!d->refs_over)
    chart_ref_lines (cr, d, st, l);
  chart_series (cr, d, st, l);
  if (d->refs_over)
    chart_ref_lines (cr, d, st, l);
  if (!data_only)
    chart_ref_labels (cr, d, st, l);
  cairo_restore (cr);
  /* Unclipped: a ring round a point on the plot's edge was cut in half. */
  ms_chart_callouts_draw (cr, d, st, l);

  if (!any && d->empty_text) {
    ms_set_color (cr, &st->fg, MS_TEXT_FAINT_ALPHA);
    ms_draw_text_wrapped (cr, d->empty_text, l->plot_x + fs, l->plot_y + l->plot_h / 2 - fs,
                          fs * 1.2, l->plot_w - 2 * fs, FALSE, TRUE);
  }
  if (d->direct_labels)
    ms_chart_direct_labels (cr, d, st, l);
  ms_chart_legend_draw (cr, d, st, l);
  cairo_restore (cr);
  ms_chart_draw_crosshair (cr, d, st, l, hover_x);
  if (!layout)
    ms_chart_layout_clear (&local);
}

int
ms_chart_layout_hit_legend (const MsChartLayout *l, double x, double y)
{
  for (guint i = 0; l->legend && i < l->legend->len; i++) {
    const MsChartBox *b = &g_array_index (l->legend, MsChartBox, i);
    if (x >= b->x && x <= b->x + b->w && y >= b->y && y <= b->y + b->h)
      return (int)b->series;
  }
  return -1;
}

gboolean
ms_chart_layout_in_plot (const MsChartLayout *l, double x, double y)
{
  return x >= l->plot_x && x <= l->plot_x + l->plot_w && y >= l->plot_y
         && y <= l->plot_y + l->plot_h;
}
