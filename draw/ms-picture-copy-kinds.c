/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-picture-copy-kinds.c: the copy-kinds lesson's picture: a card of
 * facts, one row each: a tick where it held, a cross where it did not (the
 * CUDA error beside it), a dash where the run lacks it, and the measured
 * rate and size of the copies and reads; grouped under the question each
 * group answers, the finding from the rates under them. */
#include <glib/gi18n.h>
#include <math.h>

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

/* The card's three questions, each over the facts from its first on. */
static const struct {
  int first;
  const char *question;
} groups[] = {
  { MS_COPY_FACT_H2H_PINNED, N_ ("Does cudaMemcpy do each kind of copy, and how fast?") },
  { MS_COPY_FACT_MAP_MALLOC_HOST,
    N_ ("Does cudaHostGetDevicePointer give a device pointer to host memory?") },
  { MS_COPY_FACT_READ_MAPPED, N_ ("Can a kernel read host memory itself (zero-copy)?") },
};

/* A fact's value: its rate and size, its error, or what the run lacks. */
static char *
fact_value (const MsResults *run, int f, const MsCell *c)
{
  double rate = ms_copy_fact_rate (run, f);
  if (!c)
    return g_strdup (_ ("not in this run"));
  if (c->status != MS_CELL_OK)
    return g_strdup (c->message[0] ? c->message : _ ("failed"));
  if (rate > 0) {
    char size[32];
    ms_format_size_label ((double)c->elements * sizeof (float), size, sizeof size);
    return g_strdup_printf (_ ("%.1f GB/s over %s"), rate, size);
  }
  /* With unified addressing every page-locked buffer is mapped, the flag
   * or not: the row that surprises says why. */
  if (f == MS_COPY_FACT_MAP_REGISTER_DEFAULT && run->device.unified_addressing)
    return g_strdup (_ ("works: unified addressing maps it"));
  return g_strdup (_ ("works"));
}

/* The finding in one line, from the rates: device to device against the
 * host-to-device copy, and the zero-copy read against it; NULL without. */
static char *
takeaway (const MsResults *run)
{
  double h2d = ms_copy_fact_rate (run, MS_COPY_FACT_H2D);
  double d2d = ms_copy_fact_rate (run, MS_COPY_FACT_D2D);
  double zc = ms_copy_fact_rate (run, MS_COPY_FACT_READ_MAPPED);
  if (!(h2d > 0) || !(d2d > 0) || !(zc > 0))
    return NULL;
  return g_strdup_printf (_ ("A copy within the device ran %.0f× faster than one from pinned "
                             "host memory; a kernel reading host memory itself reached %.0f%% of "
                             "that copy's rate."),
                          d2d / h2d, 100 * zc / h2d);
}

void
ms_picture_copy_kinds (cairo_t *cr, const MsResults *run, const MsChartStyle *style, double width,
                       double height)
{
  /* A card of text: on a large canvas at normal text size it grows to
   * use the room rather than sit small in the middle. */
  double fs = MAX (ms_style_font_size (style), MIN (width / 80, height / 45)), pad = fs;
  ms_draw_background (cr, style);
  const char *title = _ ("Copy kinds and mapped memory: what worked on this system");
  double title_h = ms_draw_text_wrapped (cr, title, pad, 0, fs * 1.2, width - 2 * pad, TRUE, FALSE);
  g_autofree char *take = takeaway (run);
  double take_h = take ? ms_draw_text_wrapped (cr, take, pad, 0, fs, width - 2 * pad, TRUE, FALSE)
                       : 0;
  /* The rows share what is left, up to three lines each; on a tall
   * canvas the whole card is centred. */
  int n_lines = MS_COPY_FACT_COUNT + (int)G_N_ELEMENTS (groups);
  double fixed = pad * 1.2 + title_h + fs * 1.0 + take_h;
  double row = MIN (fs * 3, (height - fixed) / n_lines);
  double y0 = MAX (0, round ((height - fixed - row * n_lines) / 2));
  ms_set_color (cr, &style->fg, 1);
  ms_draw_text_wrapped (cr, title, pad, y0 + pad * 0.6, fs * 1.2, width - 2 * pad, TRUE, TRUE);
  double top = y0 + pad * 0.6 + title_h + fs * 0.6;
  double label_x = pad + fs * 2.5, label_w = 0, tw;
  for (int f = 0; f < MS_COPY_FACT_COUNT; f++) {
    ms_draw_text (cr, _ (ms_copy_fact_info (f)->label), 0, 0, fs, -1, 0, FALSE, &tw, NULL);
    label_w = MAX (label_w, tw);
  }
  /* The values close to their labels, not at a fixed share of the width. */
  double rate_x = MIN (label_x + label_w + fs * 2, width * 0.6), rate_w = width - rate_x - pad;
  double y = top;
  guint g = 0;
  for (int f = 0; f < MS_COPY_FACT_COUNT; f++) {
    if (g < G_N_ELEMENTS (groups) && groups[g].first == f) {
      ms_set_color (cr, &style->fg, 0.75);
      ms_draw_text_max (cr, _ (groups[g].question), pad, y + (row - fs * 1.3) / 2, fs * 0.95,
                        width - 2 * pad);
      y += row, g++;
    }
    const MsCopyFactInfo *info = ms_copy_fact_info (f);
    const MsCell *c = ms_copy_fact_cell (run, f);
    double ty = y + (row - fs * 1.3) / 2;
    int status = c ? (int)c->status : -1;
    draw_mark (cr, style, status, pad + fs * 1.3, ty + fs * 0.7, fs * 0.6);
    ms_set_color (cr, &style->fg, 1);
    ms_draw_text_max (cr, _ (info->label), label_x, ty, fs, rate_x - label_x - fs);
    g_autofree char *value = fact_value (run, f, c);
    ms_set_color (cr, &style->fg, c && c->status == MS_CELL_OK ? 1 : 0.75);
    ms_draw_text_max (cr, value, rate_x, ty, fs, rate_w);
    y += row;
  }
  if (take) {
    ms_set_color (cr, &style->fg, 0.95);
    ms_draw_text_wrapped (cr, take, pad, y + fs * 0.4, fs, width - 2 * pad, TRUE, TRUE);
  }
}
