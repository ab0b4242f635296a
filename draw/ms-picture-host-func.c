/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-picture-host-func.c: the host-function lesson's picture: each
 * repetition's latency from the end of a copy or a kernel to the start of
 * the host function behind it, as dot strips per API with the median
 * marked; under them the timelines of the slow host function with the
 * kernel queued on its stream and on another stream, the host functions
 * on a lane of their own. */
#include <glib/gi18n.h>
#include <math.h>

#include "ms-lesson-picture.h"
#include "ms-timeline-rows.h"

static const struct {
  const char *variant;
  const char *label;
} strips[] = {
  { "latency/api=launch-host-func/after=copy", N_ ("cudaLaunchHostFunc after a copy") },
  { "latency/api=launch-host-func/after=kernel", N_ ("cudaLaunchHostFunc after a kernel") },
  { "latency/api=stream-callback/after=copy", N_ ("cudaStreamAddCallback after a copy") },
  { "latency/api=stream-callback/after=kernel", N_ ("cudaStreamAddCallback after a kernel") },
};

static const MsCell *
strip_cell (const MsResults *run, int i)
{
  const MsCell *c = ms_picture_cell (run, strips[i].variant);
  return c && c->n_reps > 0 && c->e2e_us ? c : NULL;
}

static void
draw_strips (cairo_t *cr, const MsResults *run, const MsChartStyle *st, double width, double y,
             double h)
{
  const double fs = ms_style_font_size (st), r = ms_style_marker_radius (st);
  double lo = 0, hi = 1, label_w = 0;
  for (guint i = 0; i < G_N_ELEMENTS (strips); i++) {
    const MsCell *c = strip_cell (run, i);
    for (int k = 0; c && k < c->n_reps; k++) {
      lo = MIN (lo, c->e2e_us[k]);
      hi = MAX (hi, c->e2e_us[k]);
    }
    double tw;
    ms_draw_text (cr, _ (strips[i].label), 0, 0, fs, -1, 0, FALSE, &tw, NULL);
    label_w = MAX (label_w, tw);
  }
  double x0 = MIN (label_w + fs * 1.5, width * 0.5), x1 = width - fs * 1.5;
  double row_h = (h - fs * 2) / G_N_ELEMENTS (strips);
  MsScale xs = { MS_SCALE_LINEAR, lo, hi * 1.05, x0, x1, MS_SCALE_TIME_US };
  ms_draw_time_axis (cr, st, &xs, y, y + row_h * G_N_ELEMENTS (strips), fs * 7, width - fs * 0.3);
  MsColor col;
  ms_phase_color (MS_PHASE_HOST_FUNC, st->dark, &col);
  for (guint i = 0; i < G_N_ELEMENTS (strips); i++) {
    const MsCell *c = strip_cell (run, i);
    double cy = y + (i + 0.5) * row_h;
    ms_set_color (cr, &st->fg, 0.85);
    ms_draw_text_max (cr, _ (strips[i].label), fs * 0.5, cy - fs * 0.65, fs, x0 - fs);
    if (!c)
      continue;
    /* Repetitions spread a little in y so that equal values stay apart. */
    ms_set_color (cr, &col, 0.75);
    for (int k = 0; k < c->n_reps; k++) {
      double dy = ((k % 5) - 2) * row_h * 0.08;
      cairo_arc (cr, ms_scale_to_pixel (&xs, c->e2e_us[k]), cy + dy, r, 0, 2 * G_PI);
      cairo_fill (cr);
    }
    double mx = round (ms_scale_to_pixel (&xs, c->stats.e2e.median)) + 0.5;
    ms_set_color (cr, &st->fg, 0.9);
    cairo_set_line_width (cr, 2 * ms_style_line_width (st));
    cairo_move_to (cr, mx, cy - row_h * 0.35);
    cairo_line_to (cr, mx, cy + row_h * 0.35);
    cairo_stroke (cr);
  }
}

static void
draw_timelines (cairo_t *cr, const MsResults *run, const MsChartStyle *st, double width, double y,
                double h)
{
  MsTimelineRows rows;
  ms_timeline_rows_init (&rows);
  const MsCell *same = ms_picture_cell (run, "slow/kernel=same-stream");
  const MsCell *other = ms_picture_cell (run, "slow/kernel=other-stream");
  if (same)
    ms_timeline_rows_add (&rows, same, 0, _ ("slow host function, then a kernel on its stream"));
  if (other)
    ms_timeline_rows_add (&rows, other, 0, _ ("slow host function, a kernel on another stream"));
  if (rows.n > 0) {
    MsTimeWindow win;
    ms_timeline_rows_window (&rows, TRUE, &win);
    cairo_save (cr);
    cairo_translate (cr, 0, y);
    ms_timeline_rows_draw (cr, &rows, &win, st, width, h, NULL);
    cairo_restore (cr);
  }
  ms_timeline_rows_clear (&rows);
}

void
ms_picture_host_func (cairo_t *cr, const MsResults *run, const MsChartStyle *style, double width,
                      double height)
{
  const double fs = ms_style_font_size (style);
  ms_draw_background (cr, style);
  ms_set_color (cr, &style->fg, 0.95);
  const char *title = _ ("From the end of the work to the host function's start (dots: "
                         "repetitions, bar: median)");
  double th
      = ms_draw_text_wrapped (cr, title, fs * 0.5, fs * 0.3, fs * 1.1, width - fs, TRUE, TRUE);
  double top = fs * 0.6 + th, strips_h = height * 0.32;
  draw_strips (cr, run, style, width, top, strips_h);
  draw_timelines (cr, run, style, width, top + strips_h + fs * 0.5,
                  height - top - strips_h - fs * 0.5);
}
