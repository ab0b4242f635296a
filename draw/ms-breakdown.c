/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-breakdown.c: stacked phase bars per (run, mode) at one size, in steps:
 * rows, title, time axis, bars, legend. */
#include "ms-breakdown.h"

#include "ms-plots.h"

#include <glib/gi18n.h>
#include <math.h>

typedef struct {
  GPtrArray *cells;  /* const MsCell*, one per row; NULL: a run's heading */
  GPtrArray *labels; /* char*, one per row */
  GPtrArray *notes;  /* char*, one per row: why a cell has no bar, or NULL */
  double max_total;  /* µs, the longest row */
  double label_w;
} MsBreakdownRows;

static double
cell_total_us (const MsCell *c)
{
  double total = 0;
  for (int p = 0; p < MS_PHASE_COUNT; p++)
    if (c->status == MS_CELL_OK && c->stats.phase[p].n)
      total += c->stats.phase[p].median;
  return total;
}

/* Every (run, mode) with a cell at this size, its label measured; with
 * several runs, each run's name on a row of its own before its modes. */
static void
breakdown_rows (cairo_t *cr, GPtrArray *runs, int exponent, double fs, MsBreakdownRows *rows)
{
  rows->cells = g_ptr_array_new ();
  rows->labels = g_ptr_array_new_with_free_func (g_free);
  rows->notes = g_ptr_array_new_with_free_func (g_free);
  rows->max_total = 0;
  rows->label_w = 0;
  for (guint r = 0; runs && r < runs->len; r++) {
    const MsResults *res = g_ptr_array_index (runs, r);
    gboolean heading = runs->len > 1;
    for (int m = 0; m < MS_MODE_COUNT; m++) {
      const MsCell *c = ms_results_find (res, m, exponent);
      if (!c)
        continue;
      double tw;
      if (heading) {
        g_ptr_array_add (rows->cells, NULL);
        g_ptr_array_add (rows->labels, g_strdup (res->label));
        g_ptr_array_add (rows->notes, NULL);
        heading = FALSE;
      }
      rows->max_total = MAX (rows->max_total, cell_total_us (c));
      char *label = g_strdup (ms_mode_title (m));
      ms_draw_text (cr, label, 0, 0, fs, -1, 0, FALSE, &tw, NULL);
      rows->label_w = MAX (rows->label_w, tw);
      g_ptr_array_add (rows->cells, (gpointer) c);
      g_ptr_array_add (rows->labels, label);
      g_ptr_array_add (rows->notes, ms_plot_cell_note (res, c));
    }
  }
}

/* One row's phases left to right, named where they are wide enough, and
 * the total after them; marks the phases drawn in seen. */
static void
breakdown_bar (cairo_t *cr, const MsCell *c, const MsChartStyle *st, const MsScale *xs,
               double y, double row_h, double fs, gboolean seen[MS_PHASE_COUNT])
{
  double x = xs->pixel_lo, total = 0, tw;
  for (int p = 0; p < MS_PHASE_COUNT; p++) {
    if (!c->stats.phase[p].n)
      continue;
    double v = c->stats.phase[p].median;
    double w = ms_scale_to_pixel (xs, total + v) - ms_scale_to_pixel (xs, total);
    MsColor col;
    ms_phase_color (p, st->dark, &col);
    ms_set_color (cr, &col, 1);
    cairo_rectangle (cr, x, y + row_h * 0.15, MAX (w, 0.5), row_h * 0.7);
    cairo_fill (cr);
    ms_draw_text (cr, ms_phase_name (p), 0, 0, fs * 0.85, -1, 0, FALSE, &tw, NULL);
    if (w > tw + fs * 0.5) {
      cairo_set_source_rgb (cr, 0, 0, 0);
      ms_draw_text (cr, ms_phase_name (p), x + w / 2, y + row_h / 2, fs * 0.85, 0.5, 0.5, FALSE,
                    NULL, NULL);
    }
    seen[p] = TRUE;
    x += w;
    total += v;
  }
  char t[32];
  ms_format_time_us (total, t, sizeof t);
  ms_set_color (cr, &st->fg, 0.8);
  ms_draw_text (cr, t, x + fs * 0.4, y + row_h / 2, fs * 0.9, 0, 0.5, FALSE, NULL, NULL);
}

/* The plot under the title at top: axis, labelled rows, legend. */
static void
breakdown_plot (cairo_t *cr, const MsBreakdownRows *rows, const MsChartStyle *st, double width,
                double height, double top)
{
  const double fs = ms_style_font_size (st);
  /* Room on the right for the longest total ("1.23 ms"). */
  double tw, th;
  ms_draw_text (cr, "888 ms", 0, 0, fs, -1, 0, FALSE, &tw, &th);
  double left, right = tw + fs;
  /* Every phase that any row shows, for the legend's height. */
  gboolean present[MS_PHASE_COUNT] = { FALSE };
  for (guint i = 0; i < rows->cells->len; i++) {
    const MsCell *c = g_ptr_array_index (rows->cells, i);
    for (int p = 0; p < MS_PHASE_COUNT; p++)
      present[p] = present[p] || (c && c->status == MS_CELL_OK && c->stats.phase[p].n);
  }
  double legend_h = ms_draw_phase_legend (cr, present, st, fs, 0, width - fs, FALSE) + fs * 0.5;
  double axis_h = th + fs;
  double row_h = MIN (fs * 2.6, (height - top - legend_h - axis_h) / rows->cells->len);
  /* Many rows in little height: the row text shrinks to the row. */
  double rfs = th > row_h * 0.95 ? fs * row_h * 0.9 / th : fs;
  left = rows->label_w * rfs / fs + fs * 1.5;
  double pw = MAX (10, width - left - right);
  MsScale xs;
  ms_scale_fit (&xs, MS_SCALE_LINEAR, 0, rows->max_total);
  xs.pixel_lo = left;
  xs.pixel_hi = left + pw;
  double plot_bottom = top + row_h * rows->cells->len;
  ms_draw_time_axis (cr, st, &xs, top, plot_bottom, fs * 6, width - fs * 0.3);

  gboolean seen[MS_PHASE_COUNT] = { FALSE };
  for (guint i = 0; i < rows->cells->len; i++) {
    const MsCell *c = g_ptr_array_index (rows->cells, i);
    double y = top + i * row_h;
    ms_set_color (cr, &st->fg, 0.9);
    if (!c)
      ms_draw_text (cr, g_ptr_array_index (rows->labels, i), fs, y + row_h / 2, rfs, 0, 0.5, TRUE,
                    NULL, NULL);
    else
      ms_draw_text (cr, g_ptr_array_index (rows->labels, i), left - fs * 0.5, y + row_h / 2, rfs,
                    1, 0.5, FALSE, NULL, NULL);
    if (!c)
      continue;
    if (c->status == MS_CELL_OK) {
      breakdown_bar (cr, c, st, &xs, y, row_h, rfs, seen);
    } else {
      ms_set_color (cr, &st->fg, 0.6);
      ms_draw_text_max (cr, g_ptr_array_index (rows->notes, i), left + fs * 0.3,
                        y + row_h / 2 - th * rfs / fs / 2, rfs, width - left - fs * 0.6);
    }
  }
  ms_draw_phase_legend (cr, seen, st, fs, plot_bottom + axis_h + fs * 0.2, width - fs, TRUE);
}

void
ms_breakdown_draw (cairo_t *cr, GPtrArray *runs, int exponent, const MsChartStyle *st,
                   double width, double height)
{
  const double fs = ms_style_font_size (st);
  double th;
  cairo_save (cr);
  ms_draw_background (cr, st);
  MsBreakdownRows rows;
  breakdown_rows (cr, runs, exponent, fs, &rows);

  char size[32], title[256];
  ms_format_bytes ((1ull << exponent) * sizeof (float), size, sizeof size);
  g_snprintf (title, sizeof title,
              _("Where the time goes at 2^%d (%s per vector): median per phase"), exponent, size);
  ms_set_color (cr, &st->fg, 1);
  th = ms_draw_text_wrapped (cr, title, fs, fs * 0.5, fs * 1.15, width - 2 * fs, TRUE, TRUE);
  double top = fs * 0.5 + th + fs;
  if (rows.cells->len == 0 || rows.max_total <= 0) {
    ms_set_color (cr, &st->fg, 0.6);
    ms_draw_text (cr, _("No measurements at this size"), width / 2, height / 2, fs * 1.2, 0.5, 0.5,
                  FALSE, NULL, NULL);
  } else {
    breakdown_plot (cr, &rows, st, width, height, top);
  }
  g_ptr_array_unref (rows.cells);
  g_ptr_array_unref (rows.labels);
  g_ptr_array_unref (rows.notes);
  cairo_restore (cr);
}
