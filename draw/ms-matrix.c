/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-matrix.c: the heat map with numbers (ms-matrix.h). */
#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "ms-engine.h"
#include "ms-matrix.h"

/* ColorBrewer's YlGnBu, light to dark: sequential, and readable by people
 * with any common colour vision deficiency. */
static const double ramp[][3] = {
  { 255, 255, 217 }, { 199, 233, 180 }, { 65, 182, 196 }, { 34, 94, 168 }, { 8, 29, 88 },
};
#define N_RAMP G_N_ELEMENTS (ramp)

void
ms_matrix_color (double value, double vmin, double vmax, gboolean dark, MsColor *out)
{
  double t = vmax > vmin ? (value - vmin) / (vmax - vmin) : 1;
  /* The same end for the same value on light and dark styles: a reader
   * who learnt "dark blue is high" must not have to learn it again. */
  (void) dark;
  t = CLAMP (t, 0, 1);
  double pos = t * (N_RAMP - 1);
  guint k = MIN ((guint) pos, N_RAMP - 2);
  double f = pos - k;
  out->red = (ramp[k][0] + f * (ramp[k + 1][0] - ramp[k][0])) / 255;
  out->green = (ramp[k][1] + f * (ramp[k + 1][1] - ramp[k][1])) / 255;
  out->blue = (ramp[k][2] + f * (ramp[k + 1][2] - ramp[k][2])) / 255;
  out->alpha = 1;
}

void
ms_matrix_data_from_peer (MsMatrixData *data, const MsPeerResults *peer, int method,
                          gboolean bidirectional)
{
  memset (data, 0, sizeof *data);
  int n = MIN (peer->n_devices, MS_MATRIX_MAX);
  data->n_rows = data->n_cols = n;
  data->square = TRUE;
  g_snprintf (data->row_title, sizeof data->row_title, "%s", _("source"));
  g_snprintf (data->col_title, sizeof data->col_title, "%s", _("destination"));
  const char *name = method < MS_PEER_METHOD_COUNT ? ms_peer_method_name (method)
                                                   : _("reference loop");
  g_snprintf (data->title, sizeof data->title, "%s, %s", name,
              bidirectional ? _("both ways at once") : _("one way"));
  for (int i = 0; i < n; i++) {
    g_snprintf (data->row_label[i], sizeof data->row_label[i], _("GPU %d"), peer->devices[i]);
    g_snprintf (data->col_label[i], sizeof data->col_label[i], _("GPU %d"), peer->devices[i]);
    for (int j = 0; j < n; j++) {
      double v = -1;
      if (i != j && method == MS_PEER_METHOD_COUNT)
        v = bidirectional ? -1 : peer->reference_gbps[i][j];
      else if (i != j && method >= 0 && method < MS_PEER_METHOD_COUNT)
        v = bidirectional ? peer->cell[method][i][j].bi_gbps : peer->cell[method][i][j].uni_gbps;
      data->value[i][j] = v > 0 && isfinite (v) ? v : -1;
    }
  }
}

static gboolean
is_diagonal (const MsMatrixData *d, int i, int j)
{
  return d->square && i == j;
}

static double
max_value (const MsMatrixData *d)
{
  double vmax = 0;
  for (int i = 0; i < d->n_rows; i++)
    for (int j = 0; j < d->n_cols; j++)
      if (!is_diagonal (d, i, j))
        vmax = MAX (vmax, d->value[i][j]);
  return vmax;
}

static void
hatch (cairo_t *cr, const MsChartStyle *style, double x, double y, double w, double h)
{
  cairo_save (cr);
  cairo_rectangle (cr, x, y, w, h);
  cairo_clip (cr);
  ms_set_color (cr, &style->fg, 0.06);
  cairo_paint (cr);
  ms_set_color (cr, &style->fg, 0.25);
  cairo_set_line_width (cr, 1);
  for (double s = -h; s < w; s += 8) {
    cairo_move_to (cr, x + s, y + h);
    cairo_line_to (cr, x + s + h, y);
  }
  cairo_stroke (cr);
  cairo_restore (cr);
}

double
ms_text_in_box (cairo_t *cr, const char *text, double cx, double cy, double box_w, double box_h,
                double size, gboolean bold)
{
  double w, h;
  ms_draw_text (cr, text, 0, 0, size, -1, 0, bold, &w, &h);
  /* Pango rounds to whole pixels: shrink again until it really fits. */
  for (int k = 0; k < 8 && (w > box_w - 6 || h > box_h - 2); k++) {
    double fit = MIN ((box_w - 6) / MAX (w, 1), (box_h - 2) / MAX (h, 1));
    size *= MIN (fit, 0.97);
    ms_draw_text (cr, text, 0, 0, size, -1, 0, bold, &w, &h);
  }
  ms_draw_text (cr, text, cx, cy, size, 0.5, 0.5, bold, NULL, NULL);
  return w;
}

static void
draw_cell (cairo_t *cr, const MsMatrixData *d, const MsChartStyle *style, MsMatrixLayout *lay,
           int i, int j)
{
  double x = lay->x0 + j * lay->cell_w, y = lay->y0 + i * lay->cell_h;
  double cx = x + lay->cell_w / 2, cy = y + lay->cell_h / 2, lw = ms_style_line_width (style);
  char text[32];
  if (is_diagonal (d, i, j)) {
    cairo_save (cr);
    ms_set_dash (cr, 1, lw);
    cairo_set_line_width (cr, lw);
    ms_set_color (cr, &style->fg, 0.45);
    cairo_rectangle (cr, x + 3.5, y + 3.5, lay->cell_w - 7, lay->cell_h - 7);
    cairo_stroke (cr);
    cairo_restore (cr);
    return;
  }
  double v = d->value[i][j];
  gboolean muted = v > 0 && d->muted[i][j];
  if (muted || v <= 0) {
    hatch (cr, style, x + 1, y + 1, lay->cell_w - 2, lay->cell_h - 2);
    ms_set_color (cr, &style->fg, muted ? 1 : 0.8);
    lay->text_w[i][j] = ms_text_in_box (cr, muted ? d->cell_text[i][j] : _("n/a"), cx, cy,
                                        lay->cell_w, lay->cell_h, lay->font_size, muted);
    return;
  }
  MsColor c;
  ms_matrix_color (v, lay->vmin, lay->vmax, style->dark, &c);
  ms_set_color (cr, &c, 1);
  cairo_rectangle (cr, x + 1, y + 1, lay->cell_w - 2, lay->cell_h - 2);
  cairo_fill (cr);
  /* Dark text on light cells and the other way round. */
  double luma = 0.2126 * c.red + 0.7152 * c.green + 0.0722 * c.blue;
  cairo_set_source_rgb (cr, luma > 0.5 ? 0 : 1, luma > 0.5 ? 0 : 1, luma > 0.5 ? 0 : 1);
  if (d->cell_text[i][j][0])
    g_snprintf (text, sizeof text, "%s", d->cell_text[i][j]);
  else
    g_snprintf (text, sizeof text, v >= 100 ? "%.0f" : "%.1f", v);
  lay->text_w[i][j] =
    ms_text_in_box (cr, text, cx, cy, lay->cell_w, lay->cell_h, lay->font_size, TRUE);
}

void
ms_matrix_legend_label (const MsMatrixLayout *layout, double value, char *out, gsize size)
{
  gboolean tenths = layout->vmax - layout->vmin < 10;
  /* A step that rounds to zero is 0, never "-0" (a subtraction's rest). */
  if (fabs (value) < (tenths ? 0.05 : 0.5))
    value = 0;
  g_snprintf (out, size, tenths ? "%.1f" : "%.0f", value);
}

static void
draw_legend (cairo_t *cr, const MsMatrixData *d, const MsChartStyle *style,
             const MsMatrixLayout *lay, double fs)
{
  double x = lay->legend_x, y = lay->legend_y, w = lay->legend_w, h = lay->legend_h;
  for (int k = 0; k < (int) h; k++) {
    MsColor c;
    ms_matrix_color (lay->vmax - (lay->vmax - lay->vmin) * k / h, lay->vmin, lay->vmax,
                     style->dark, &c);
    ms_set_color (cr, &c, 1);
    cairo_rectangle (cr, x, y + k, w, 1);
    cairo_fill (cr);
  }
  ms_set_color (cr, &style->fg, 0.9);
  /* As many steps as labels fit along the bar: large text gets fewer. The
   * ticks go left of the bar and the labels right of it, a gap away: a tick
   * just before a number read as its minus sign. */
  int steps = CLAMP ((int) (h / (fs * 1.2)), 1, 4);
  for (int k = 0; k <= steps; k++) {
    char label[32];
    ms_matrix_legend_label (lay, lay->vmax - (lay->vmax - lay->vmin) * k / steps, label,
                            sizeof label);
    ms_draw_text (cr, label, x + w + MAX (4, fs * 0.4), y + h * k / steps, fs * 0.85, 0, 0.5,
                  FALSE, NULL, NULL);
    cairo_rectangle (cr, x - 4, y + h * k / steps - 0.5, 4, 1);
    cairo_fill (cr);
  }
  /* Above the top label, which is centred on the bar's top edge. */
  double label_h;
  ms_draw_text (cr, "0", 0, 0, fs * 0.85, -1, 0, FALSE, NULL, &label_h);
  ms_draw_text (cr, d->unit[0] ? d->unit : _("GB/s"), x, y - label_h / 2 - 2, fs * 0.85, 0, 1,
                TRUE, NULL, NULL);
  double sy = y + h + fs;
  hatch (cr, style, x, sy, w, w);
  ms_set_color (cr, &style->fg, 0.9);
  /* One word for a hatched cell, the key's and the cells' alike. */
  gboolean missing = FALSE;
  for (int i = 0; i < d->n_rows; i++)
    for (int j = 0; j < d->n_cols; j++)
      missing |= d->value[i][j] <= 0 && !is_diagonal (d, i, j);
  g_autofree char *hatched
    = !d->muted_label[0] ? g_strdup (_("n/a"))
      : missing          ? g_strdup_printf (C_("matrix key", "%s, n/a"), d->muted_label)
                         : g_strdup (d->muted_label);
  ms_draw_text (cr, hatched, x + w + 4, sy + w / 2, fs * 0.85, 0, 0.5, FALSE, NULL, NULL);
  if (d->square) {
    cairo_save (cr);
    ms_set_dash (cr, 1, 1);
    cairo_set_line_width (cr, 1);
    ms_set_color (cr, &style->fg, 0.45);
    cairo_rectangle (cr, x + 0.5, sy + 2 * w + 0.5, w - 1, w - 1);
    cairo_stroke (cr);
    cairo_restore (cr);
    ms_set_color (cr, &style->fg, 0.9);
    ms_draw_text (cr, _("same GPU"), x + w + 4, sy + 2.5 * w, fs * 0.85, 0, 0.5, FALSE, NULL,
                  NULL);
  }
}

static char *
axes_text (const MsMatrixData *d)
{
  return g_strdup_printf (_("rows: %s, columns: %s"), d->row_title, d->col_title);
}

/* A column label in one line, or where it is wider than max_w in two,
 * broken at the space that leaves the wider line narrowest: read at the
 * size of the other labels rather than shrunk out of reading. Returns the
 * number of lines. */
static int
col_label_lines (cairo_t *cr, const char *label, double fs, double max_w, char lines[2][48])
{
  double w, best = INFINITY;
  g_snprintf (lines[0], 48, "%s", label);
  ms_draw_text (cr, label, 0, 0, fs, -1, 0, TRUE, &w, NULL);
  if (w <= max_w)
    return 1;
  for (const char *sp = strchr (label, ' '); sp; sp = strchr (sp + 1, ' ')) {
    char a[48], b[48];
    g_snprintf (a, MIN (sizeof a, (gsize) (sp - label) + 1), "%s", label);
    g_snprintf (b, sizeof b, "%s", sp + 1);
    double wa = ms_draw_text_width (cr, a, fs, TRUE), wb = ms_draw_text_width (cr, b, fs, TRUE);
    if (MAX (wa, wb) < best) {
      best = MAX (wa, wb);
      memcpy (lines[0], a, sizeof a);
      memcpy (lines[1], b, sizeof b);
    }
  }
  return isfinite (best) ? 2 : 1;
}

/* Cells as large as fit (at most 150 x 70), labels left and above, the
 * legend to the right. The title and the line under it wrap; the row
 * labels shrink to a row's height so that they never touch. */
static void
lay_out (cairo_t *cr, const MsMatrixData *d, double fs, double width, double height,
         MsMatrixLayout *lay)
{
  double margin = fs, legend_space = 5 * fs + 24, h;
  g_autofree char *axes = axes_text (d);
  lay->wrap_w = width - 2 * margin;
  double title_h = ms_draw_text_wrapped (cr, d->title, 0, 0, fs * 1.15, lay->wrap_w, TRUE, FALSE);
  lay->axes_y = margin + title_h + fs * 0.3;
  double axes_h = ms_draw_text_wrapped (cr, axes, 0, 0, fs * 0.9, lay->wrap_w, FALSE, FALSE);
  double top = 0;
  /* Twice: the column labels' lines depend on the cells' width, which
   * depends on the row labels' size, which depends on the cells' height. */
  double label_w = 0;
  for (int pass = 0; pass < 2; pass++) {
    lay->cell_h = CLAMP ((height - top - margin) / d->n_rows, 8, 70);
    ms_draw_text (cr, "Ag", 0, 0, fs, -1, 0, TRUE, NULL, &h);
    lay->row_font_size = MAX (fs * MIN (1, lay->cell_h / h), 6);
    label_w = 0;
    for (int i = 0; i < d->n_rows; i++)
      label_w = MAX (label_w, ms_draw_text_width (cr, d->row_label[i], lay->row_font_size, TRUE));
    if (pass == 0) {
      double avail_w = width - 2 * margin - label_w - fs - legend_space;
      lay->cell_w = CLAMP (avail_w / d->n_cols, 8, 150);
      lay->col_font_size = fs * 0.9;
      ms_draw_text (cr, "Ag", 0, 0, lay->col_font_size, -1, 0, TRUE, NULL, &h);
      /* The lines the column labels need: one or two. */
      int n = 1;
      for (int j = 0; j < d->n_cols; j++) {
        char lines[2][48];
        n = MAX (n, col_label_lines (cr, d->col_label[j], lay->col_font_size, lay->cell_w - 4,
                                     lines));
      }
      lay->col_labels_h = h * n;
      top = lay->axes_y + axes_h + lay->col_labels_h + fs * 0.6;
    }
  }
  lay->x0 = margin + label_w + fs;
  lay->y0 = top;
  /* Up to 60 % of a cell's height: Pango's line box is about 1.2 times the
   * size, which leaves a few pixels above and below. */
  lay->font_size = MIN (fs * 1.1, lay->cell_h * 0.6);
  lay->legend_w = 14;
  lay->legend_x = lay->x0 + d->n_cols * lay->cell_w + 2 * fs;
  lay->legend_y = round (top + fs);
  lay->legend_x = round (lay->legend_x);
  lay->legend_h = MAX (40, MIN (d->n_rows * lay->cell_h - 5 * fs, 260));
  lay->vmin = d->scale_max > d->scale_min ? d->scale_min : 0;
  lay->vmax = d->scale_max > d->scale_min ? d->scale_max : max_value (d);
}

static void
draw_labels (cairo_t *cr, const MsMatrixData *d, const MsChartStyle *style,
             const MsMatrixLayout *lay, double fs)
{
  double left = lay->x0 - fs;
  ms_set_color (cr, &style->fg, 1);
  g_autofree char *axes = axes_text (d);
  ms_draw_text_wrapped (cr, d->title, fs, fs, fs * 1.15, lay->wrap_w, TRUE, TRUE);
  ms_set_color (cr, &style->fg, 0.7);
  ms_draw_text_wrapped (cr, axes, fs, lay->axes_y, fs * 0.9, lay->wrap_w, FALSE, TRUE);
  ms_set_color (cr, &style->fg, 1);
  for (int j = 0; j < d->n_cols; j++) {
    char lines[2][48];
    double cx = lay->x0 + (j + 0.5) * lay->cell_w, fc = lay->col_font_size, h;
    int n = col_label_lines (cr, d->col_label[j], fc, lay->cell_w - 4, lines);
    ms_draw_text (cr, "Ag", 0, 0, fc, -1, 0, TRUE, NULL, &h);
    for (int k = 0; k < n; k++) {
      double y = lay->y0 - 4 - (n - 1 - k) * h;
      double w = ms_draw_text_width (cr, lines[k], fc, TRUE);
      /* Still wider than the cell (one long word): shrunk to fit. */
      if (w > lay->cell_w - 4)
        ms_text_in_box (cr, lines[k], cx, y - h / 2, lay->cell_w, h, fc, TRUE);
      else
        ms_draw_text (cr, lines[k], cx, y, fc, 0.5, 1, TRUE, NULL, NULL);
    }
  }
  for (int i = 0; i < d->n_rows; i++)
    ms_draw_text (cr, d->row_label[i], left, lay->y0 + (i + 0.5) * lay->cell_h,
                  lay->row_font_size, 1, 0.5, TRUE, NULL, NULL);
}

void
ms_matrix_draw (cairo_t *cr, const MsMatrixData *d, const MsChartStyle *style, double width,
                double height, MsMatrixLayout *layout)
{
  MsMatrixLayout local;
  MsMatrixLayout *lay = layout ? layout : &local;
  memset (lay, 0, sizeof *lay);
  double fs = ms_style_font_size (style);
  ms_draw_background (cr, style);
  if (!d || d->n_rows <= 0 || d->n_cols <= 0) {
    ms_set_color (cr, &style->fg, MS_TEXT_FAINT_ALPHA);
    ms_draw_text (cr, _("No matrix yet: run the peer matrix or open a *-peer.csv file"),
                  width / 2, height / 2, fs, 0.5, 0.5, FALSE, NULL, NULL);
    return;
  }
  lay_out (cr, d, fs, width, height, lay);
  draw_labels (cr, d, style, lay, fs);
  for (int i = 0; i < d->n_rows; i++)
    for (int j = 0; j < d->n_cols; j++)
      draw_cell (cr, d, style, lay, i, j);
  draw_legend (cr, d, style, lay, fs);
}

gboolean
ms_matrix_hit (const MsMatrixLayout *lay, const MsMatrixData *d, double x, double y, int *row,
               int *col)
{
  if (!d || lay->cell_w <= 0 || lay->cell_h <= 0 || x < lay->x0 || y < lay->y0)
    return FALSE;
  int j = (int) ((x - lay->x0) / lay->cell_w), i = (int) ((y - lay->y0) / lay->cell_h);
  if (i >= d->n_rows || j >= d->n_cols)
    return FALSE;
  *row = i;
  *col = j;
  return TRUE;
}

void
ms_matrix_data_from_runs (MsMatrixData *data, GPtrArray *runs, MsMode mode, int direction)
{
  memset (data, 0, sizeof *data);
  static const char *const names[] = { N_("host to device"), N_("device to host"),
                                       N_("end to end") };
  direction = CLAMP (direction, 0, 2);
  g_snprintf (data->title, sizeof data->title, "%s, %s", ms_mode_name (mode),
              _(names[direction]));
  g_snprintf (data->row_title, sizeof data->row_title, "%s", _("GPU"));
  g_snprintf (data->col_title, sizeof data->col_title, "%s", _("size per vector"));
  gboolean has[MS_MAX_EXPONENT + 1] = { FALSE };
  for (guint r = 0; runs && r < runs->len; r++) {
    const MsResults *res = g_ptr_array_index (runs, r);
    for (size_t c = 0; c < res->n_cells; c++)
      if (res->cells[c].mode == mode && res->cells[c].exponent <= MS_MAX_EXPONENT)
        has[res->cells[c].exponent] = TRUE;
  }
  int col_of[MS_MAX_EXPONENT + 1];
  for (int e = 0; e <= MS_MAX_EXPONENT; e++) {
    col_of[e] = has[e] && data->n_cols < MS_MATRIX_MAX ? data->n_cols++ : -1;
    if (col_of[e] >= 0)
      ms_format_bytes (ms_exponent_bytes (e), data->col_label[col_of[e]],
                       sizeof data->col_label[0]);
  }
  for (guint r = 0; runs && r < runs->len && data->n_rows < MS_MATRIX_MAX; r++) {
    const MsResults *res = g_ptr_array_index (runs, r);
    int i = data->n_rows++;
    g_snprintf (data->row_label[i], sizeof data->row_label[i], _("GPU %d"), res->device.index);
    for (int j = 0; j < data->n_cols; j++)
      data->value[i][j] = -1;
    for (size_t c = 0; c < res->n_cells; c++) {
      const MsCell *cell = &res->cells[c];
      if (cell->mode != mode || cell->exponent > MS_MAX_EXPONENT || col_of[cell->exponent] < 0 ||
          cell->status != MS_CELL_OK)
        continue;
      double v = direction == 0 ? cell->stats.h2d_gbps
               : direction == 1 ? cell->stats.d2h_gbps : cell->stats.e2e_gbps;
      data->value[i][col_of[cell->exponent]] = v > 0 ? v : -1;
    }
  }
  /* What the GPUs moved together, as ms_multi_aggregate adds it up. */
  if (data->n_rows > 1 && data->n_rows < MS_MATRIX_MAX) {
    int sum = data->n_rows++;
    g_snprintf (data->row_label[sum], sizeof data->row_label[sum], "%s", _("sum"));
    for (int j = 0; j < data->n_cols; j++) {
      data->value[sum][j] = 0;
      for (int i = 0; i < sum; i++)
        data->value[sum][j] += MAX (data->value[i][j], 0);
      if (data->value[sum][j] <= 0)
        data->value[sum][j] = -1;
    }
  }
}
