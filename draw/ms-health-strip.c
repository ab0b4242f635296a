/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-health-strip.c: the health strip (see ms-health-strip.h), drawn in
 * named steps: the sentence, the boxes per size, the envelope line. */
#include <glib/gi18n.h>
#include <math.h>

#include "ms-health-strip.h"
#include "ms-engine.h"

/* Per box: fine (the link at its maximum, no throttling), a warning, or
 * nothing known. Okabe-Ito green and orange, as the phase colours. */
typedef enum { BOX_FINE, BOX_WARN, BOX_UNKNOWN } BoxState;

static void
box_color (BoxState state, const MsChartStyle *style, MsColor *out)
{
  static const MsColor fine[2] = { { 0.0, 0.62, 0.45, 1 }, { 0.10, 0.77, 0.59, 1 } };
  static const MsColor warn[2] = { { 0.90, 0.62, 0.0, 1 }, { 0.94, 0.66, 0.09, 1 } };
  if (state == BOX_UNKNOWN) {
    *out = style->fg;
    out->alpha = 0.4;
  } else {
    *out = (state == BOX_FINE ? fine : warn)[style->dark ? 1 : 0];
  }
}

double
ms_health_strip_height (const MsChartStyle *style)
{
  /* The sentence and the envelope line (1.5 lines each), boxes of three
   * lines at 0.9 of the text size, paddings. */
  return ceil (ms_style_font_size (style) * (3.0 + 3 * 1.3 * 0.9) + 22);
}

static BoxState
point_state (const MsHealthPoint *p)
{
  if (p->below || p->throttled)
    return BOX_WARN;
  return p->gen > 0 || p->state_known ? BOX_FINE : BOX_UNKNOWN;
}

/* The third line of a box: what moved, or nothing. */
static const char *
point_note (const MsHealthPoint *p)
{
  if (p->throttled)
    return _ ("throttled");
  if (p->clock_moved)
    return _ ("clock moved");
  return p->state_known ? _ ("steady") : "";
}

static void
draw_boxes (cairo_t *cr, const MsHealthPoint *points, int n, const MsChartStyle *style, double x,
            double y, double width, double height)
{
  double fs = ms_style_font_size (style) * 0.9, gap = 4, lw = ms_style_line_width (style);
  double box_w = (width - gap * (n - 1)) / n;
  for (int i = 0; i < n; i++) {
    const MsHealthPoint *p = &points[i];
    double bx = x + i * (box_w + gap);
    MsColor color;
    char size[32], link[32];
    box_color (point_state (p), style, &color);
    cairo_rectangle (cr, bx + lw / 2, y + lw / 2, box_w - lw, height - lw);
    ms_set_color (cr, &color, 0.18);
    cairo_fill_preserve (cr);
    ms_set_color (cr, &color, 1);
    cairo_set_line_width (cr, lw);
    cairo_stroke (cr);
    ms_format_size_label ((double) ms_exponent_bytes (p->exponent), size, sizeof size);
    ms_health_format_link (p->gen, p->width, link, sizeof link);
    ms_set_color (cr, &style->fg, 1);
    double tx = bx + 3, tw = box_w - 6, line = fs * 1.3;
    ms_draw_text_max (cr, size, tx, y + 2, fs, tw);
    ms_draw_text_max (cr, p->gen > 0 ? link : _ ("link ?"), tx, y + 2 + line, fs, tw);
    ms_draw_text_max (cr, point_note (p), tx, y + 2 + 2 * line, fs, tw);
  }
}

void
ms_health_strip_draw (cairo_t *cr, const MsResults *run, const char *envelope_line,
                      const MsChartStyle *style, double width, double height)
{
  MsHealthPoint points[MS_MAX_EXPONENT + 1];
  MsHealth h;
  char sentence[1024];
  double fs = ms_style_font_size (style), pad = 6, line = fs * 1.5;
  cairo_save (cr);
  cairo_rectangle (cr, 0, 0, width, height);
  cairo_clip (cr);

  /* The sentence, marked when the app warns. */
  ms_health_compute (run, &h);
  ms_health_describe (run, sentence, sizeof sentence);
  MsColor mark;
  box_color (ms_health_warns (&h) ? BOX_WARN : BOX_FINE, style, &mark);
  if (ms_health_warns (&h)) {
    ms_set_color (cr, &mark, 1);
    cairo_rectangle (cr, pad, pad, 4, fs * 1.2);
    cairo_fill (cr);
  }
  ms_set_color (cr, &style->fg, 1);
  ms_draw_text_max (cr, sentence, pad + 8, pad, fs, width - 2 * pad - 8);

  /* The boxes, one per size, between the sentence and the envelope line. */
  int n = ms_health_points (run, points, G_N_ELEMENTS (points));
  double box_y = pad + line, box_h = height - box_y - line - pad;
  if (n > 0 && box_h > fs * 2)
    draw_boxes (cr, points, n, style, pad, box_y, width - 2 * pad, box_h);
  else if (n == 0) {
    ms_set_color (cr, &style->fg, 0.7);
    /* A summary's GPU cells without their samples: "no GPU cells" was false of them (the
     * engine counts them; a sweep stopped before its first GPU cell has none). */
    ms_draw_text_max (cr,
                      h.n_gpu_cells_unread > 0
                          ? _ ("No samples in this run (a summary): the link's state while it ran "
                               "is not known.")
                          : _ ("No GPU cells in this run: nothing crossed the link."),
                      pad, box_y, fs, width - 2 * pad);
  }

  /* The envelope's verdict in one line. */
  if (envelope_line && envelope_line[0]) {
    ms_set_color (cr, &style->fg, 1);
    ms_draw_text_max (cr, envelope_line, pad, height - line - pad / 2, fs, width - 2 * pad);
  }
  cairo_restore (cr);
}
