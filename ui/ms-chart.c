/* ms-chart.c: the line chart. One draw routine for screen and files. */
#include "ms-chart.h"

#include <math.h>
#include <string.h>
#include <pango/pangocairo.h>

MsChartData *
ms_chart_data_new (void)
{
  MsChartData *d = g_new0 (MsChartData, 1);
  d->series = g_ptr_array_new ();
  d->refs = g_array_new (FALSE, TRUE, sizeof (MsChartRefLine));
  d->y_kind = MS_SCALE_LINEAR;
  return d;
}

void
ms_chart_data_free (MsChartData *d)
{
  if (!d)
    return;
  for (guint i = 0; i < d->series->len; i++) {
    MsChartSeries *s = g_ptr_array_index (d->series, i);
    g_free (s->label);
    g_array_unref (s->points);
    g_free (s);
  }
  g_ptr_array_unref (d->series);
  for (guint i = 0; i < d->refs->len; i++)
    g_free (g_array_index (d->refs, MsChartRefLine, i).label);
  g_array_unref (d->refs);
  g_free (d->title);
  g_free (d->x_label);
  g_free (d->y_label);
  g_free (d->unit);
  g_free (d->empty_text);
  g_free (d);
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
  MsChartPoint p = { x, y, lo, hi, failed };
  g_array_append_val (s->points, p);
}

void
ms_chart_data_add_ref (MsChartData *d, double y, const char *label)
{
  MsChartRefLine r = { y, g_strdup (label) };
  g_array_append_val (d->refs, r);
}

void
ms_chart_layout_init (MsChartLayout *l)
{
  memset (l, 0, sizeof *l);
  l->legend = g_array_new (FALSE, TRUE, sizeof (MsChartBox));
}

void
ms_chart_layout_clear (MsChartLayout *l)
{
  g_clear_pointer (&l->legend, g_array_unref);
}

/* Okabe & Ito's palette: distinguishable with the common colour vision
 * deficiencies. Yellow and black do not read on every background, so each
 * style gets a variant of those two. */
static const guint32 palette_light[] = { 0xE69F00, 0x56B4E9, 0x009E73, 0xB89E00,
                                         0x0072B2, 0xD55E00, 0xCC79A7, 0x444444 };
static const guint32 palette_dark[] = { 0xF0A818, 0x72C4F2, 0x19C496, 0xF0E442,
                                        0x4EA3E8, 0xF07B2A, 0xE39BC2, 0xDDDDDD };

guint
ms_chart_palette_size (void)
{
  return G_N_ELEMENTS (palette_light);
}

void
ms_chart_palette_color (guint index, gboolean dark, GdkRGBA *out)
{
  guint32 c = (dark ? palette_dark : palette_light)[index % G_N_ELEMENTS (palette_light)];
  out->red = ((c >> 16) & 0xff) / 255.0;
  out->green = ((c >> 8) & 0xff) / 255.0;
  out->blue = (c & 0xff) / 255.0;
  out->alpha = 1;
}

void
ms_chart_style_init_light (MsChartStyle *s)
{
  memset (s, 0, sizeof *s);
  s->fg = (GdkRGBA){ 0.13, 0.13, 0.13, 1 };
  s->bg = (GdkRGBA){ 1, 1, 1, 1 };
  s->text_scale = 1;
  s->line_scale = 1;
}

void
ms_chart_style_init_dark (MsChartStyle *s)
{
  memset (s, 0, sizeof *s);
  s->fg = (GdkRGBA){ 1, 1, 1, 1 };
  s->bg = (GdkRGBA){ 0.12, 0.12, 0.12, 1 };
  s->dark = TRUE;
  s->text_scale = 1;
  s->line_scale = 1;
}

static void
set_color (cairo_t *cr, const GdkRGBA *c, double alpha)
{
  cairo_set_source_rgba (cr, c->red, c->green, c->blue, c->alpha * alpha);
}

/* One layout per thread, reused across calls: creating a PangoLayout and a
 * font description for every label cost more than the rest of a chart. */
typedef struct {
  PangoLayout *layout;
  PangoFontDescription *font;
  double size;
  gboolean bold;
} MsTextCache;

static void
text_cache_free (gpointer data)
{
  MsTextCache *c = data;
  g_clear_object (&c->layout);
  g_clear_pointer (&c->font, pango_font_description_free);
  g_free (c);
}

static GPrivate text_cache_key = G_PRIVATE_INIT (text_cache_free);

static PangoLayout *
text_layout (cairo_t *cr, double size, gboolean bold)
{
  MsTextCache *c = g_private_get (&text_cache_key);
  if (!c) {
    c = g_new0 (MsTextCache, 1);
    c->font = pango_font_description_new ();
    pango_font_description_set_family (c->font, "Sans");
    g_private_set (&text_cache_key, c);
  }
  if (!c->layout)
    c->layout = pango_cairo_create_layout (cr);
  else
    pango_cairo_update_layout (cr, c->layout);
  if (c->size != size || c->bold != bold || !pango_layout_get_font_description (c->layout)) {
    pango_font_description_set_absolute_size (c->font, size * PANGO_SCALE);
    pango_font_description_set_weight (c->font, bold ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL);
    pango_layout_set_font_description (c->layout, c->font);
    c->size = size;
    c->bold = bold;
  }
  return c->layout;
}

/* As ms_draw_text, ellipsized to max_w user units when longer. */
static void
draw_text_max (cairo_t *cr, const char *text, double x, double y, double size, double max_w)
{
  PangoLayout *layout = text_layout (cr, size, FALSE);
  pango_layout_set_text (layout, text, -1);
  pango_layout_set_width (layout, (int) (max_w * PANGO_SCALE));
  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
  cairo_move_to (cr, x, y);
  pango_cairo_show_layout (cr, layout);
  pango_layout_set_width (layout, -1);
  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_NONE);
}

void
ms_draw_text (cairo_t *cr, const char *text, double x, double y, double size, double align_x,
              double align_y, gboolean bold, double *w_out, double *h_out)
{
  PangoLayout *layout = text_layout (cr, size, bold);
  int w, h;
  pango_layout_set_text (layout, text, -1);
  pango_layout_get_pixel_size (layout, &w, &h);
  if (w_out)
    *w_out = w;
  if (h_out)
    *h_out = h;
  if (align_x >= 0) {
    cairo_move_to (cr, x - w * align_x, y - h * align_y);
    pango_cairo_show_layout (cr, layout);
  }
}

void
ms_set_dash (cairo_t *cr, guint dash, double lw)
{
  const double dashed[] = { 6 * lw, 3 * lw };
  const double dotted[] = { 1 * lw, 2.5 * lw };
  if (dash == 1)
    cairo_set_dash (cr, dashed, 2, 0);
  else if (dash >= 2)
    cairo_set_dash (cr, dotted, 2, 0);
  else
    cairo_set_dash (cr, NULL, 0, 0);
}

static void
marker_path (cairo_t *cr, guint shape, double x, double y, double r)
{
  switch (shape % 4) {
  case 0:
    cairo_new_sub_path (cr);
    cairo_arc (cr, x, y, r, 0, 2 * G_PI);
    break;
  case 1:
    cairo_rectangle (cr, x - r * 0.9, y - r * 0.9, r * 1.8, r * 1.8);
    break;
  case 2:
    cairo_move_to (cr, x, y - r * 1.15);
    cairo_line_to (cr, x + r * 1.05, y + r * 0.75);
    cairo_line_to (cr, x - r * 1.05, y + r * 0.75);
    cairo_close_path (cr);
    break;
  default:
    cairo_move_to (cr, x, y - r * 1.2);
    cairo_line_to (cr, x + r * 1.2, y);
    cairo_line_to (cr, x, y + r * 1.2);
    cairo_line_to (cr, x - r * 1.2, y);
    cairo_close_path (cr);
    break;
  }
}

void
ms_draw_marker (cairo_t *cr, guint shape, double x, double y, double r, gboolean filled)
{
  marker_path (cr, shape, x, y, r);
  if (filled)
    cairo_fill (cr);
  else
    cairo_stroke (cr);
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
    }
  }
  for (guint i = 0; i < d->refs->len; i++) {
    double y = g_array_index (d->refs, MsChartRefLine, i).y;
    if (y > 0 && isfinite (y)) {
      *ylo = MIN (*ylo, y);
      *yhi = MAX (*yhi, y);
    }
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
  return any;
}

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

static void
draw_crosshair (cairo_t *cr, const MsChartData *d, const MsChartStyle *st, const MsChartLayout *l,
                double hover_x, double fs, double lw)
{
  double x = 0;
  if (!snap_x (d, l, hover_x, &x))
    return;
  double px = ms_scale_to_pixel (&l->xs, x);
  set_color (cr, &st->fg, 0.45);
  cairo_set_line_width (cr, lw);
  ms_set_dash (cr, 1, lw);
  cairo_move_to (cr, round (px) + 0.5, l->plot_y);
  cairo_line_to (cr, round (px) + 0.5, l->plot_y + l->plot_h);
  cairo_stroke (cr);
  ms_set_dash (cr, 0, lw);

  /* A read-out box with every visible series' value at this size. */
  char size[32];
  ms_format_size_label (x, size, sizeof size);
  GPtrArray *rows = g_ptr_array_new_with_free_func (g_free);
  GArray *colors = g_array_new (FALSE, FALSE, sizeof (guint));
  for (guint i = 0; i < d->series->len; i++) {
    const MsChartSeries *s = g_ptr_array_index (d->series, i);
    if (s->hidden)
      continue;
    for (guint k = 0; k < s->points->len; k++) {
      const MsChartPoint *p = &g_array_index (s->points, MsChartPoint, k);
      if (p->x != x)
        continue;
      char v[32];
      if (p->failed)
        g_snprintf (v, sizeof v, "no value");
      else
        ms_format_value (p->y, v, sizeof v);
      g_ptr_array_add (rows, g_strdup_printf ("%s: %s %s", s->label, v,
                                              p->failed ? "" : (d->unit ? d->unit : "")));
      g_array_append_val (colors, s->color);
    }
  }
  double tw, th, maxw = 0;
  ms_draw_text (cr, size, 0, 0, fs, -1, 0, TRUE, &maxw, &th);
  for (guint i = 0; i < rows->len; i++) {
    ms_draw_text (cr, g_ptr_array_index (rows, i), 0, 0, fs, -1, 0, FALSE, &tw, NULL);
    maxw = MAX (maxw, tw + fs * 1.2);
  }
  double pad = fs * 0.5, line_h = th * 1.05;
  double bw = maxw + 2 * pad, bh = line_h * (rows->len + 1) + 2 * pad;
  double bx = px + fs;
  if (bx + bw > l->plot_x + l->plot_w)
    bx = px - fs - bw;
  bx = MAX (bx, 0); /* keep the box on the canvas whatever its width */
  double by = l->plot_y + fs * 0.5;
  set_color (cr, &st->bg, 0.92);
  cairo_rectangle (cr, bx, by, bw, bh);
  cairo_fill_preserve (cr);
  set_color (cr, &st->fg, 0.4);
  cairo_set_line_width (cr, 1);
  cairo_stroke (cr);
  set_color (cr, &st->fg, 1);
  ms_draw_text (cr, size, bx + pad, by + pad, fs, 0, 0, TRUE, NULL, NULL);
  for (guint i = 0; i < rows->len; i++) {
    GdkRGBA c;
    double ry = by + pad + line_h * (i + 1);
    ms_chart_palette_color (g_array_index (colors, guint, i), st->dark, &c);
    set_color (cr, &c, 1);
    cairo_rectangle (cr, bx + pad, ry + line_h * 0.3, fs * 0.7, fs * 0.7);
    cairo_fill (cr);
    set_color (cr, &st->fg, 1);
    ms_draw_text (cr, g_ptr_array_index (rows, i), bx + pad + fs * 1.2, ry, fs, 0, 0, FALSE, NULL,
                  NULL);
  }
  g_ptr_array_unref (rows);
  g_array_unref (colors);
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

  const double fs = 12.0 * st->text_scale; /* text size in user units */
  const double lw = 1.6 * st->line_scale;
  double tw, th;

  cairo_save (cr);
  set_color (cr, &st->bg, 1);
  cairo_paint (cr);

  double xlo, xhi, ylo, yhi;
  gboolean any = data_range (d, &xlo, &xhi, &ylo, &yhi);

  /* Legend on the right: its width decides the plot's. Label widths are
   * measured once here and reused when the legend is drawn. */
  double legend_w = 0, legend_th = fs;
  double *label_w = g_newa (double, d->series->len + 1);
  for (guint i = 0; i < d->series->len; i++) {
    const MsChartSeries *s = g_ptr_array_index (d->series, i);
    ms_draw_text (cr, s->label, 0, 0, fs, -1, 0, FALSE, &label_w[i], &legend_th);
    legend_w = MAX (legend_w, label_w[i] + fs * 2.6);
  }
  legend_w = MIN (legend_w, width * 0.34);

  double title_h = 0;
  if (d->title) {
    ms_draw_text (cr, d->title, 0, 0, fs * 1.15, -1, 0, TRUE, NULL, &title_h);
    title_h += fs * 0.6;
  }
  ms_draw_text (cr, "000000", 0, 0, fs, -1, 0, FALSE, &tw, &th);
  double left = tw + fs * 2.6, bottom = th * 2 + fs * 1.4;
  l->plot_x = left;
  l->plot_y = fs + title_h;
  l->plot_w = MAX (10, width - left - legend_w - fs * 1.5);
  l->plot_h = MAX (10, height - l->plot_y - bottom);

  ms_scale_fit (&l->xs, MS_SCALE_LOG2, xlo, xhi);
  ms_scale_fit (&l->ys, d->y_kind, ylo, yhi);
  l->xs.pixel_lo = l->plot_x;
  l->xs.pixel_hi = l->plot_x + l->plot_w;
  l->ys.pixel_lo = l->plot_y + l->plot_h;
  l->ys.pixel_hi = l->plot_y;

  if (d->title) {
    set_color (cr, &st->fg, 1);
    ms_draw_text (cr, d->title, l->plot_x, fs * 0.5, fs * 1.15, 0, 0, TRUE, NULL, NULL);
  }

  /* Grid and ticks. */
  MsTick ticks[64];
  guint max_x_ticks = MAX (2, (guint) (l->plot_w / (fs * 5.5)));
  guint n = ms_scale_ticks (&l->xs, ticks, MIN (max_x_ticks, 64));
  MsTick yticks[64];
  guint ny = ms_scale_ticks (&l->ys, yticks, MIN ((guint) MAX (2, l->plot_h / (fs * 2.5)), 64));
  cairo_set_line_width (cr, st->high_contrast ? 1.5 : 1);
  set_color (cr, &st->fg, st->high_contrast ? 0.3 : 0.12);
  for (guint i = 0; i < n; i++) {
    double px = round (ms_scale_to_pixel (&l->xs, ticks[i].value)) + 0.5;
    cairo_move_to (cr, px, l->plot_y);
    cairo_line_to (cr, px, l->plot_y + l->plot_h);
  }
  for (guint i = 0; i < ny; i++) {
    double py = round (ms_scale_to_pixel (&l->ys, yticks[i].value)) + 0.5;
    cairo_move_to (cr, l->plot_x, py);
    cairo_line_to (cr, l->plot_x + l->plot_w, py);
  }
  cairo_stroke (cr);
  set_color (cr, &st->fg, st->high_contrast ? 1 : 0.8);
  for (guint i = 0; i < n; i++)
    ms_draw_text (cr, ticks[i].label, round (ms_scale_to_pixel (&l->xs, ticks[i].value)),
                  l->plot_y + l->plot_h + fs * 0.4, fs, 0.5, 0, FALSE, NULL, NULL);
  for (guint i = 0; i < ny; i++)
    ms_draw_text (cr, yticks[i].label, l->plot_x - fs * 0.4,
                  round (ms_scale_to_pixel (&l->ys, yticks[i].value)), fs, 1, 0.5, FALSE, NULL,
                  NULL);
  set_color (cr, &st->fg, st->high_contrast ? 1 : 0.55);
  cairo_rectangle (cr, l->plot_x + 0.5, l->plot_y + 0.5, l->plot_w - 1, l->plot_h - 1);
  cairo_stroke (cr);

  set_color (cr, &st->fg, 0.9);
  if (d->x_label)
    ms_draw_text (cr, d->x_label, l->plot_x + l->plot_w / 2, height - fs * 0.3, fs, 0.5, 1, FALSE,
                  NULL, NULL);
  if (d->y_label) {
    cairo_save (cr);
    ms_draw_text (cr, d->y_label, 0, 0, fs, -1, 0, FALSE, &tw, &th);
    cairo_translate (cr, fs * 0.3, l->plot_y + l->plot_h / 2 + tw / 2);
    cairo_rotate (cr, -G_PI / 2);
    ms_draw_text (cr, d->y_label, 0, 0, fs, 0, 0, FALSE, NULL, NULL);
    cairo_restore (cr);
  }

  /* Everything data-driven stays inside the plot. */
  cairo_save (cr);
  cairo_rectangle (cr, l->plot_x, l->plot_y, l->plot_w, l->plot_h);
  cairo_clip (cr);

  double last_label_y = -INFINITY;
  for (guint i = 0; i < d->refs->len; i++) {
    const MsChartRefLine *r = &g_array_index (d->refs, MsChartRefLine, i);
    if (!ms_scale_contains (&l->ys, r->y))
      continue;
    double py = round (ms_scale_to_pixel (&l->ys, r->y)) + 0.5;
    /* Two lines close together: the second label goes below its line. */
    gboolean below = fabs (py - last_label_y) < fs * 3.5;
    last_label_y = py;
    set_color (cr, &st->fg, 0.6);
    cairo_set_line_width (cr, lw * 0.8);
    ms_set_dash (cr, 2, lw * 1.5);
    cairo_move_to (cr, l->plot_x, py);
    cairo_line_to (cr, l->plot_x + l->plot_w, py);
    cairo_stroke (cr);
    ms_set_dash (cr, 0, lw);
    ms_draw_text (cr, r->label, l->plot_x + l->plot_w - fs * 0.4, below ? py + 2 : py - 2,
                  fs * 0.9, 1, below ? 0 : 1, FALSE, NULL, NULL);
  }

  for (guint i = 0; i < d->series->len; i++) {
    const MsChartSeries *s = g_ptr_array_index (d->series, i);
    GdkRGBA c;
    if (s->hidden)
      continue;
    ms_chart_palette_color (s->color, st->dark, &c);
    set_color (cr, &c, 1);
    /* Error bars (min..max): axis-aligned, so filled rectangles on whole
     * pixels, all of a series in one fill (far cheaper than strokes). */
    double bw = MAX (1, round (lw * 0.7)), cap = round (fs * 0.3);
    for (guint k = 0; k < s->points->len; k++) {
      const MsChartPoint *p = &g_array_index (s->points, MsChartPoint, k);
      if (p->failed || p->lo > p->hi)
        continue;
      double px = round (ms_scale_to_pixel (&l->xs, p->x));
      double y0 = round (ms_scale_to_pixel (&l->ys, p->lo));
      double y1 = round (ms_scale_to_pixel (&l->ys, p->hi));
      if (fabs (y0 - y1) < 1)
        continue;
      double y_top = MIN (y0, y1), y_bottom = MAX (y0, y1);
      cairo_rectangle (cr, px - floor (bw / 2), y_top, bw, y_bottom - y_top);
      cairo_rectangle (cr, px - cap, y_top - floor (bw / 2), 2 * cap, bw);
      cairo_rectangle (cr, px - cap, y_bottom - floor (bw / 2), 2 * cap, bw);
    }
    cairo_fill (cr);
    /* The line, broken where a size has no value. Cairo's fast
     * antialiasing is indistinguishable at these widths and a third
     * cheaper for long diagonal strokes. */
    cairo_set_antialias (cr, CAIRO_ANTIALIAS_FAST);
    cairo_set_line_width (cr, lw);
    cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
    ms_set_dash (cr, s->dash, lw);
    gboolean pen = FALSE;
    for (guint k = 0; k < s->points->len; k++) {
      const MsChartPoint *p = &g_array_index (s->points, MsChartPoint, k);
      if (p->failed || (d->y_kind != MS_SCALE_LINEAR && p->y <= 0)) {
        pen = FALSE;
        continue;
      }
      double px = ms_scale_to_pixel (&l->xs, p->x), py = ms_scale_to_pixel (&l->ys, p->y);
      if (pen)
        cairo_line_to (cr, px, py);
      else
        cairo_move_to (cr, px, py);
      pen = TRUE;
    }
    cairo_stroke (cr);
    cairo_set_antialias (cr, CAIRO_ANTIALIAS_DEFAULT);
    ms_set_dash (cr, 0, lw);
    /* Markers and crosses of a series go out in one fill and one stroke:
     * a path per point costs more than the drawing itself. */
    gboolean crosses = FALSE;
    for (guint k = 0; k < s->points->len; k++) {
      const MsChartPoint *p = &g_array_index (s->points, MsChartPoint, k);
      if (p->failed || (d->y_kind != MS_SCALE_LINEAR && p->y <= 0)) {
        crosses = crosses || p->failed;
        continue;
      }
      marker_path (cr, s->shape, ms_scale_to_pixel (&l->xs, p->x),
                   ms_scale_to_pixel (&l->ys, p->y), fs * 0.3 * sqrt (st->line_scale));
    }
    cairo_set_line_width (cr, lw * 0.8);
    /* Markers are a few pixels across: a coarser curve tolerance is
     * invisible and flattens the circles into far fewer edges. */
    cairo_set_tolerance (cr, 0.5);
    if (s->dash == 0)
      cairo_fill (cr);
    else
      cairo_stroke (cr);
    cairo_set_tolerance (cr, 0.1);
    for (guint k = 0; crosses && k < s->points->len; k++) {
      const MsChartPoint *p = &g_array_index (s->points, MsChartPoint, k);
      if (!p->failed)
        continue;
      /* A cross on the x axis: measured, but no value (see the table). */
      double px = ms_scale_to_pixel (&l->xs, p->x);
      double py = l->plot_y + l->plot_h - fs * 0.6, r = fs * 0.35;
      cairo_move_to (cr, px - r, py - r);
      cairo_line_to (cr, px + r, py + r);
      cairo_move_to (cr, px + r, py - r);
      cairo_line_to (cr, px - r, py + r);
    }
    if (crosses) {
      cairo_set_line_width (cr, lw);
      cairo_stroke (cr);
    }
  }
  cairo_restore (cr);

  if (!any && d->empty_text) {
    set_color (cr, &st->fg, 0.6);
    ms_draw_text (cr, d->empty_text, l->plot_x + l->plot_w / 2, l->plot_y + l->plot_h / 2,
                  fs * 1.2, 0.5, 0.5, FALSE, NULL, NULL);
  }

  /* Legend: click an entry to hide or show its series. */
  double ly = l->plot_y, lx = l->plot_x + l->plot_w + fs;
  for (guint i = 0; i < d->series->len; i++) {
    const MsChartSeries *s = g_ptr_array_index (d->series, i);
    GdkRGBA c;
    ms_chart_palette_color (s->color, st->dark, &c);
    double alpha = s->hidden ? 0.3 : 1;
    tw = label_w[i];
    th = legend_th;
    set_color (cr, &c, alpha);
    cairo_set_line_width (cr, lw);
    ms_set_dash (cr, s->dash, lw);
    cairo_move_to (cr, lx, ly + th / 2);
    cairo_line_to (cr, lx + fs * 1.6, ly + th / 2);
    cairo_stroke (cr);
    ms_set_dash (cr, 0, lw);
    cairo_set_line_width (cr, lw * 0.8);
    ms_draw_marker (cr, s->shape, lx + fs * 0.8, ly + th / 2, fs * 0.3, s->dash == 0);
    set_color (cr, &st->fg, alpha);
    double room = width - lx - fs * 4;
    draw_text_max (cr, s->label, lx + fs * 2, ly, fs, MAX (room, fs));
    tw = MIN (tw, room);
    if (s->hidden) {
      cairo_set_line_width (cr, 1);
      cairo_move_to (cr, lx + fs * 2, ly + th / 2);
      cairo_line_to (cr, lx + fs * 2 + tw, ly + th / 2);
      cairo_stroke (cr);
    }
    MsChartBox box = { lx, ly, fs * 2 + tw, th, i };
    g_array_append_val (l->legend, box);
    ly += th * 1.25;
  }

  cairo_restore (cr);
  ms_chart_draw_crosshair (cr, d, st, l, hover_x);
  if (!layout)
    ms_chart_layout_clear (&local);
}

void
ms_chart_draw_crosshair (cairo_t *cr, const MsChartData *d, const MsChartStyle *st,
                         const MsChartLayout *l, double hover_x)
{
  if (!(hover_x >= l->plot_x && hover_x <= l->plot_x + l->plot_w))
    return;
  cairo_save (cr);
  draw_crosshair (cr, d, st, l, hover_x, 12.0 * st->text_scale, 1.6 * st->line_scale);
  cairo_restore (cr);
}

int
ms_chart_layout_hit_legend (const MsChartLayout *l, double x, double y)
{
  for (guint i = 0; l->legend && i < l->legend->len; i++) {
    const MsChartBox *b = &g_array_index (l->legend, MsChartBox, i);
    if (x >= b->x && x <= b->x + b->w && y >= b->y && y <= b->y + b->h)
      return (int) b->series;
  }
  return -1;
}

gboolean
ms_chart_layout_in_plot (const MsChartLayout *l, double x, double y)
{
  return x >= l->plot_x && x <= l->plot_x + l->plot_w && y >= l->plot_y &&
         y <= l->plot_y + l->plot_h;
}
