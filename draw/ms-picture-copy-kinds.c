/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-picture-copy-kinds.c: the copy-kinds lesson's picture: a card of
 * facts, one row each: a tick where it held, a cross where it did not (the
 * CUDA error beside it), a dash where the run lacks it, and the measured
 * rate of the copies and reads. */
#include <glib/gi18n.h>

#include "ms-lesson-copy-kinds.h"
#include "ms-lesson-picture.h"

static void
draw_mark (cairo_t *cr, const MsChartStyle *style, int status, double x, double y, double r)
{
  static const MsColor ok_light = { 0.10, 0.55, 0.25, 1 }, ok_dark = { 0.45, 0.85, 0.50, 1 };
  static const MsColor bad_light = { 0.80, 0.15, 0.15, 1 }, bad_dark = { 1.0, 0.45, 0.45, 1 };
  cairo_save (cr);
  cairo_set_line_width (cr, r * 0.35);
  cairo_set_line_cap (cr, CAIRO_LINE_CAP_ROUND);
  if (status == MS_CELL_OK) {
    ms_set_color (cr, style->dark ? &ok_dark : &ok_light, 1);
    cairo_move_to (cr, x - r, y);
    cairo_line_to (cr, x - r * 0.3, y + r * 0.7);
    cairo_line_to (cr, x + r, y - r * 0.8);
  } else if (status >= 0) {
    ms_set_color (cr, style->dark ? &bad_dark : &bad_light, 1);
    cairo_move_to (cr, x - r * 0.8, y - r * 0.8);
    cairo_line_to (cr, x + r * 0.8, y + r * 0.8);
    cairo_move_to (cr, x + r * 0.8, y - r * 0.8);
    cairo_line_to (cr, x - r * 0.8, y + r * 0.8);
  } else {
    ms_set_color (cr, &style->fg, 0.5);
    cairo_move_to (cr, x - r * 0.7, y);
    cairo_line_to (cr, x + r * 0.7, y);
  }
  cairo_stroke (cr);
  cairo_restore (cr);
}

void
ms_picture_copy_kinds (cairo_t *cr, const MsResults *run, const MsChartStyle *style, double width,
                       double height)
{
  double fs = ms_style_font_size (style), pad = fs * 1.5;
  ms_draw_background (cr, style);
  ms_set_color (cr, &style->fg, 1);
  ms_draw_text_max (cr, _ ("Copy kinds and mapped memory: what held on this system"), pad, pad,
                    fs * 1.2, width - 2 * pad);
  double top = pad + fs * 3.2;
  double row = MIN (fs * 2.6, (height - top - pad) / MS_COPY_FACT_COUNT);
  double label_x = pad + fs * 2.5, rate_x = width * 0.55, rate_w = width - rate_x - pad;
  for (int f = 0; f < MS_COPY_FACT_COUNT; f++) {
    const MsCopyFactInfo *info = ms_copy_fact_info (f);
    const MsCell *c = ms_copy_fact_cell (run, f);
    double y = top + row * f, mid = y + fs * 0.7;
    int status = c ? (int)c->status : -1;
    draw_mark (cr, style, status, pad + fs * 0.8, mid, fs * 0.6);
    ms_set_color (cr, &style->fg, 1);
    ms_draw_text_max (cr, _ (info->label), label_x, y, fs, rate_x - label_x - fs);
    g_autofree char *value = NULL;
    double rate = ms_copy_fact_rate (run, f);
    if (!c)
      value = g_strdup (_ ("not in this run"));
    else if (c->status != MS_CELL_OK)
      value = g_strdup (c->message[0] ? c->message : _ ("failed"));
    else if (rate > 0)
      value = g_strdup_printf (_ ("%.1f GB/s"), rate);
    else
      value = g_strdup (_ ("works"));
    ms_set_color (cr, &style->fg, c && c->status == MS_CELL_OK ? 1 : 0.75);
    ms_draw_text_max (cr, value, rate_x, y, fs, rate_w);
  }
}
