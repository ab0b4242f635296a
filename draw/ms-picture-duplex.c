/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-picture-duplex.c: the duplex lesson's picture: the comparison its
 * takeaway states, on one time scale. One bar is the two copies one after
 * the other (each measured alone, end to end, laid end to end); under it,
 * both at once (one copy each way on two streams, from issue to both
 * done). The reader sees the second bar end well before the first without
 * adding two timelines; the details' caption gives every figure. */
#include <glib/gi18n.h>
#include <string.h>

#include "ms-lesson-answer.h"
#include "ms-lesson-picture.h"
#include "ms-picture-parts.h"
#include "ms-scale.h"

static const MsLessonRow rows[] = {
  { MS_MODE_PINNED, "copy=h2d", NULL, N_ ("to the GPU alone") },
  { MS_MODE_PINNED, "copy=d2h", NULL, N_ ("back to the host alone") },
  { MS_MODE_PINNED, "copy=duplex", NULL, N_ ("both ways at once") },
};

static const MsVariantWords words[] = {
  { "copy=h2d", N_ ("copies to the GPU only") },
  { "copy=d2h", N_ ("copies back to the host only") },
  { "copy=duplex", N_ ("copies both ways at once") },
  { NULL },
};

/* The pinned cell of variant at exponent with a median, or NULL. */
static const MsCell *
duplex_cell (const MsResults *run, const char *variant, int exponent)
{
  for (size_t i = 0; i < run->n_cells; i++) {
    const MsCell *c = &run->cells[i];
    if (c->mode == MS_MODE_PINNED && c->exponent == exponent && c->status == MS_CELL_OK
        && strcmp (c->variant, variant) == 0 && c->stats.e2e.median > 0)
      return c;
  }
  return NULL;
}

/* A segment of a bar from t0 to t1 (µs) in a phase's colour, with its
 * words inside where they fit (and its time, when timed: a copy measured
 * alone), else its time alone, else nothing. */
static void
draw_segment (cairo_t *cr, const MsChartStyle *st, const MsScale *xs, MsPhase phase, double t0,
              double t1, double y, double h, const char *what, gboolean timed)
{
  const double fs = ms_draw_figure_size (cr, ms_style_font_size (st));
  MsColor fill, ink;
  ms_phase_color (phase, st->dark, &fill);
  ms_ink_on (&fill, &ink);
  double x0 = ms_scale_to_pixel (xs, t0), x1 = ms_scale_to_pixel (xs, t1);
  ms_set_color (cr, &fill, 1);
  cairo_rectangle (cr, x0, y, x1 - x0, h);
  cairo_fill (cr);
  char t[32];
  ms_caption_time (t1 - t0, t, sizeof t);
  /* TRANSLATORS: inside a duplex bar: which copy and its time, e.g.
   * "to the GPU: 335 µs". */
  g_autofree char *text
      = timed ? g_strdup_printf (C_ ("duplex bar", "%s: %s"), what, t) : g_strdup (what);
  const char *choice[] = { text, timed ? t : NULL };
  for (guint i = 0; i < G_N_ELEMENTS (choice) && choice[i]; i++) {
    double tw = ms_draw_text_width (cr, choice[i], fs, FALSE);
    if (tw + fs <= x1 - x0) {
      ms_set_color (cr, &ink, 1);
      ms_draw_text (cr, choice[i], (x0 + x1) / 2, y + h / 2, fs, 0.5, 0.5, FALSE, NULL, NULL);
      return;
    }
  }
}

/* A bar's total in bold right of its end. */
static void
draw_total (cairo_t *cr, const MsChartStyle *st, const MsScale *xs, double us, double cy)
{
  const double fs = ms_style_font_size (st);
  char t[32];
  ms_set_color (cr, &st->fg, 1);
  ms_draw_text (cr, ms_caption_time (us, t, sizeof t), ms_scale_to_pixel (xs, us) + fs * 0.5, cy,
                ms_draw_figure_size (cr, fs * 1.1), 0, 0.5, TRUE, NULL, NULL);
}

static void
ms_picture_duplex (cairo_t *cr, const MsResults *run, const MsChartStyle *style, double width,
                   double height)
{
  const double fs = ms_style_font_size (style);
  ms_draw_background (cr, style);
  int e = ms_lesson_answer_exponent (MS_TOPIC_DUPLEX, run);
  const MsCell *h2d = duplex_cell (run, "copy=h2d", e), *d2h = duplex_cell (run, "copy=d2h", e),
               *both = duplex_cell (run, "copy=duplex", e);
  if (!h2d || !d2h || !both) {
    /* The caption says which copy the run lacks. */
    char missing[1024];
    ms_lesson_caption (MS_TOPIC_DUPLEX, run, -1, missing, sizeof missing);
    ms_picture_empty (cr, style, width, height, missing);
    return;
  }
  double t_h2d = h2d->stats.e2e.median, t_d2h = d2h->stats.e2e.median;
  double t_both = both->stats.e2e.median, t_turns = t_h2d + t_d2h;
  char size[32];
  ms_format_size_label ((double)(UINT64_C (1) << e) * 4, size, sizeof size);
  /* What each bar is: "from the first call to both done" fit only the
   * lower one, the upper being two copies timed alone and added; the lower
   * one's two halves share one time (a reader took them for two). */
  g_autofree char *title = g_strdup_printf (
      _ ("A pinned %s copy each way: each timed alone, added; then both at once, one time "
         "for both, from the first call to both done"),
      size);
  double th = ms_picture_title (cr, style, title, width);
  /* TRANSLATORS: the duplex picture's two bars: the two copies run one
   * after the other, and both at once. */
  const char *names[]
      = { C_ ("duplex bar", "one after the other"), C_ ("duplex bar", "both at once") };
  /* TRANSLATORS: the duplex picture's copies: to the GPU, and back to
   * the host. */
  const char *to = C_ ("duplex bar", "to the GPU"), *back = C_ ("duplex bar", "back");
  double label_w = 0, total_w;
  /* Measured as drawn, not bold: measured bold, zh_CN's "both at once"
   * was cut by a character. */
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    label_w = MAX (label_w, ms_draw_text_width (cr, names[i], fs * 1.1, FALSE));
  char t[32];
  ms_draw_text (cr, ms_caption_time (t_turns, t, sizeof t), 0, 0,
                ms_draw_figure_size (cr, fs * 1.1), -1, 0, TRUE, &total_w, NULL);
  double x0 = fs * 1.5 + MIN (label_w, width * 0.35), right = width - total_w - fs * 1.5;
  double top = th + fs * 1.5, bottom = height - fs * 0.6 - ms_draw_figure_size (cr, fs) * 1.3;
  MsScale xs = { MS_SCALE_LINEAR, 0, MAX (t_turns, t_both), x0, right, MS_SCALE_TIME_US };
  ms_draw_time_axis (cr, style, &xs, top, bottom, fs * 6, width - fs * 0.5);
  double row_h = (bottom - top) / 2, bar_h = MIN (row_h * 0.6, fs * 4.4);
  for (guint i = 0; i < 2; i++) {
    double cy = top + (i + 0.5) * row_h, y = cy - bar_h / 2;
    ms_set_color (cr, &style->fg, 1);
    ms_draw_text_max (cr, names[i], fs * 0.5, cy - fs * 0.7, fs * 1.1, x0 - fs);
    if (i == 0) {
      draw_segment (cr, style, &xs, MS_PHASE_H2D, 0, t_h2d, y, bar_h, to, TRUE);
      draw_segment (cr, style, &xs, MS_PHASE_D2H, t_h2d, t_turns, y, bar_h, back, TRUE);
      draw_total (cr, style, &xs, t_turns, cy);
    } else {
      /* Both copies over the same span, one above the other: they ran at
       * the same time; only the total was measured end to end, so the
       * halves carry no time of their own. */
      double half = (bar_h - 2) / 2;
      draw_segment (cr, style, &xs, MS_PHASE_H2D, 0, t_both, y, half, to, FALSE);
      draw_segment (cr, style, &xs, MS_PHASE_D2H, 0, t_both, y + half + 2, half, back, FALSE);
      draw_total (cr, style, &xs, t_both, cy);
    }
  }
}

const MsLessonLook ms_lesson_look_duplex = {
  .picture = ms_picture_duplex,
  .view = { NULL, NULL, MS_METRIC_E2E_TIME, TRUE },
  MS_LESSON_ROWS (rows),
  .words = words,
};
