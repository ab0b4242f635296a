/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-picture-parts.c: what the lessons' pictures (draw/ms-picture-NAME.c)
 * share: a run's cell by variant, the text of an empty picture, the title
 * and a key's sample line. Below the pictures and the dispatch
 * (ms-lesson-picture.c), so that calls run one way. */
#include <string.h>

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

double
ms_picture_title (cairo_t *cr, const MsChartStyle *style, const char *title, double width)
{
  double fs = ms_style_font_size (style);
  ms_set_color (cr, &style->fg, 0.95);
  return ms_draw_text_wrapped (cr, title, fs * 0.5, fs * 0.3, fs * 1.1, width - fs, TRUE, TRUE);
}

const MsCell *
ms_picture_cell (const MsResults *run, const char *variant)
{
  for (size_t i = 0; run && i < run->n_cells; i++)
    if (strcmp (run->cells[i].variant, variant) == 0)
      return &run->cells[i];
  return NULL;
}

void
ms_picture_key_line (cairo_t *cr, const MsChartStyle *st, guint i, double x, double y, double th,
                     double fs, double lw)
{
  MsColor c;
  ms_chart_palette_color (i, st->dark, &c);
  ms_set_color (cr, &c, 1);
  cairo_set_line_width (cr, lw);
  cairo_move_to (cr, x, y + th / 2);
  cairo_line_to (cr, x + fs * 1.6, y + th / 2);
  cairo_stroke (cr);
  const double at[2] = { x + fs * 0.8, y + th / 2 };
  ms_draw_markers (cr, i, ms_run_fill (0), at, 1, fs * 0.35, lw * 0.8, &st->bg);
}
