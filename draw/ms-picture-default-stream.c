/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-picture-default-stream.c: the default-stream lesson's picture: the
 * three times (one thread alone, two threads on the legacy and on the
 * per-thread default stream) as bars against one and two single-thread
 * times, and under them the two-thread timelines from the instrumented
 * repetitions, one lane per thread's stream. */
#include <glib/gi18n.h>
#include <math.h>

#include "ms-lesson-picture.h"
#include "ms-picture-parts.h"
#include "ms-timeline-rows.h"

static const struct {
  const char *variant;
  const char *label;
} bars[] = {
  { "threads=1/stream=legacy", N_ ("one thread") },
  { "threads=2/stream=legacy", N_ ("two, legacy") },
  { "threads=2/stream=per-thread", N_ ("two, per-thread") },
};

/* The height the bars need: a row on top for the yardsticks' names, a
 * row a bar, and the axis's labels. */
static double
bars_height (const MsChartStyle *st)
{
  const double fs = ms_style_font_size (st);
  return fs * 1.2 + G_N_ELEMENTS (bars) * fs * 1.7 + fs * 2;
}

/* text on a patch of the background, centred on cy, from x (xalign 0)
 * or to it (1): on a bar's tint or across a yardstick alone, white text
 * on a dark theme's grey read at 3.8:1. */
static void
patched_text (cairo_t *cr, const MsChartStyle *st, const char *text, double x, double cy,
              double size, double xalign)
{
  const double fs = ms_style_font_size (st);
  double tw, th;
  ms_draw_text (cr, text, 0, 0, size, -1, 0, FALSE, &tw, &th);
  ms_set_color (cr, &st->bg, 1);
  cairo_rectangle (cr, x - xalign * (tw + fs * 0.3), cy - th / 2, tw + fs * 0.3, th);
  cairo_fill (cr);
  ms_set_color (cr, &st->fg, 0.95);
  ms_draw_text (cr, text, x + fs * (0.15 - 0.3 * xalign), cy, size, xalign, 0.5, FALSE, NULL,
                NULL);
}

/* Bar i's time and its multiple of one thread's, right of the bar or of
 * its range, whichever reaches further (a label hid the range's end),
 * else, where that crosses a yardstick ("796 µs, 1.92×" on the 2× line
 * read as sitting on it), right of the 2× one; draw_bars leaves room. */
static void
bar_label (cairo_t *cr, const MsChartStyle *st, const MsResults *run, const MsScale *xs, guint i,
           double cy)
{
  const double fs = ms_style_font_size (st), one = ms_picture_median (run, bars[0].variant);
  const double m = ms_picture_median (run, bars[i].variant);
  const double hi = ms_picture_cell (run, bars[i].variant)->stats.e2e.ci_high;
  /* A figure: on a slide, a back row's size. */
  const double vfs = ms_draw_figure_size (cr, fs * 0.9);
  char t[32];
  ms_caption_time (m, t, sizeof t);
  g_autofree char *brief = g_strdup_printf (_ ("%s, %.2f×"), t, m / one);
  double x = ms_scale_to_pixel (xs, MAX (m, hi)) + fs * 0.15;
  double right = x + ms_draw_text_width (cr, brief, vfs, FALSE) + fs * 0.4;
  for (int k = 1; k <= 2; k++)
    if (ms_scale_to_pixel (xs, k * one) >= x - fs * 0.1 && ms_scale_to_pixel (xs, k * one) <= right)
      x = MAX (x, ms_scale_to_pixel (xs, 2 * one) + fs * 0.3);
  patched_text (cr, st, brief, x, cy, vfs, 0);
}

/* Where the two-thread ranges meet, the stretch they share (the slower
 * one's fastest to the faster one's slowest), marked from one range line
 * to the other, as wide as it is, and named with its ends: the H200's
 * 3.64 µs of overlap, the headline's "cannot tell", was 4 px that no
 * reader found, and widened to be seen it claimed eight times as much. */
static void
mark_overlap (cairo_t *cr, const MsChartStyle *st, const MsResults *run, const MsScale *xs,
              double y, double row_h)
{
  const MsCell *legacy = ms_picture_cell (run, bars[1].variant);
  const MsCell *per = ms_picture_cell (run, bars[2].variant);
  if (!legacy || !per)
    return;
  double lo = MAX (legacy->stats.e2e.ci_low, per->stats.e2e.ci_low);
  double hi = MIN (legacy->stats.e2e.ci_high, per->stats.e2e.ci_high);
  if (!(hi >= lo) || hi > xs->max)
    return;
  const double fs = ms_style_font_size (st), vfs = ms_draw_figure_size (cr, fs * 0.9);
  double a = ms_scale_to_pixel (xs, lo), b = ms_scale_to_pixel (xs, hi);
  double w = MAX (b - a, ms_style_line_width (st) * 2), x = (a + b - w) / 2;
  double top = y + row_h * 1.5, bottom = y + row_h * 2.5;
  ms_set_color (cr, &st->fg, 0.75);
  cairo_rectangle (cr, x, top - fs * 0.3, w, bottom - top + fs * 0.6);
  cairo_fill (cr);
  /* Between the rows, left of the mark, else right of it, else past a
   * yardstick: on the one-thread line, a reader took it for that line's. */
  char t_lo[32], t_hi[32];
  /* TRANSLATORS: beside the default-stream picture's mark where the
   * two-thread ranges meet, e.g. "ranges overlap: 763–767 µs". */
  g_autofree char *name
      = g_strdup_printf (_ ("ranges overlap: %s–%s"), ms_caption_time (lo, t_lo, sizeof t_lo),
                         ms_caption_time (hi, t_hi, sizeof t_hi));
  double tw = ms_draw_text_width (cr, name, vfs, FALSE) + fs * 0.3;
  double one = ms_picture_median (run, bars[0].variant);
  double p1 = ms_scale_to_pixel (xs, one), p2 = ms_scale_to_pixel (xs, 2 * one);
  double from[] = { x - fs * 0.15 - tw, x + w + fs * 0.15, p2 + fs * 0.3, p1 - fs * 0.3 - tw };
  double at = from[0];
  for (guint i = G_N_ELEMENTS (from); i-- > 0;)
    if ((p1 < from[i] || p1 > from[i] + tw) && (p2 < from[i] || p2 > from[i] + tw)
        && from[i] >= xs->pixel_lo && from[i] + tw <= xs->pixel_hi + fs)
      at = from[i];
  patched_text (cr, st, name, at, y + row_h * 2, vfs, 0);
}

/* c's copy in, kernel and copy back. */
static char *
phase_times (const MsCell *c)
{
  static const MsPhase phases[] = { MS_PHASE_H2D, MS_PHASE_KERNEL, MS_PHASE_D2H };
  char t[3][32];
  for (int i = 0; c && i < 3; i++)
    ms_caption_time (c->stats.phase[phases[i]].median, t[i], sizeof t[i]);
  /* TRANSLATORS: a copy in, a kernel and a copy back's times. */
  return c ? g_strdup_printf (_ ("%s, %s, %s"), t[0], t[1], t[2]) : g_strdup ("–");
}

/* A median's range from lo to up (pixels) at cy, in one opaque colour:
 * ms_picture_interval's translucent grey made its cap over the bar's end
 * and the one past it two greys, read as two marks. */
static void
draw_range (cairo_t *cr, const MsChartStyle *st, double lo, double up, double cy, double cap)
{
  ms_set_color (cr, &st->fg, 1);
  cairo_set_line_width (cr, ms_style_line_width (st) * 0.6);
  cairo_move_to (cr, lo, cy);
  cairo_line_to (cr, up, cy);
  for (int e = 0; e < 2; e++) {
    cairo_move_to (cr, e ? up : lo, cy - cap);
    cairo_line_to (cr, e ? up : lo, cy + cap);
  }
  cairo_stroke (cr);
}

/* The bars from y, height h; the x axis up to the longest or two
 * single-thread times, in the unit the timelines use. */
static void
draw_bars (cairo_t *cr, const MsResults *run, const MsChartStyle *st, double width, double y,
           double h)
{
  const double fs = ms_style_font_size (st), vfs = ms_draw_figure_size (cr, fs * 0.9);
  /* The axis to 2.2 single-thread times, the longest bar and, with room
   * for a value label right of them, the furthest range and the 2×
   * yardstick: inside a bar or over a range, a label hid what it named. */
  double one = ms_picture_median (run, bars[0].variant), max = 2.2 * one, far = 2 * one;
  double label_w = 0, value_w = ms_draw_text_width (cr, "0000 µs, 0.00×", vfs, FALSE);
  for (guint i = 0; i < G_N_ELEMENTS (bars); i++) {
    double m = ms_picture_median (run, bars[i].variant);
    max = MAX (max, 1.1 * m);
    far = m > 0 ? MAX (far, ms_picture_cell (run, bars[i].variant)->stats.e2e.ci_high) : far;
    label_w = MAX (label_w, ms_draw_text_width (cr, _ (bars[i].label), fs, FALSE));
  }
  double x0 = MIN (label_w + fs, width * 0.45), x1 = width - fs * 1.5;
  /* A row on top names the yardsticks where they stand. */
  double ref_h = vfs * 1.3;
  double row_h = (h - fs * 2 - ref_h) / G_N_ELEMENTS (bars);
  double room = MIN ((value_w + fs * 0.8) / MAX (x1 - x0, 1), 0.45);
  max = MAX (max, far / (1 - room));
  MsScale xs = { MS_SCALE_LINEAR, 0, max, x0, x1, MS_SCALE_TIME_US };
  y += ref_h;
  ms_draw_time_axis (cr, st, &xs, y, y + row_h * G_N_ELEMENTS (bars), fs * 4.5, width - fs * 0.3);
  /* One and two single-thread times, the yardsticks: under the bars, so
   * that no line runs through a bar's numbers. */
  for (int k = 1; k <= 2 && one > 0; k++) {
    double px = round (ms_scale_to_pixel (&xs, k * one)) + 0.5;
    ms_set_color (cr, &st->fg, 0.6);
    cairo_set_dash (cr, (double[]){ 4, 3 }, 2, 0);
    ms_draw_line (cr, ms_style_line_width (st), px, y - fs * 0.2, px,
                  y + row_h * G_N_ELEMENTS (bars));
    cairo_set_dash (cr, NULL, 0, 0);
    g_autofree char *name
        = k == 1 ? g_strdup (_ ("one thread's time")) : g_strdup_printf (_ ("%d× one thread"), k);
    ms_set_color (cr, &st->fg, 0.8);
    double tw = ms_draw_text_width (cr, name, vfs, FALSE);
    /* The first left of its line, the second right of it: they stay apart
     * however close the lines. */
    double tx = k == 1 ? px - fs * 0.3 - tw : MIN (px + fs * 0.3, width - fs * 0.3 - tw);
    ms_draw_text (cr, name, tx, y - ref_h, vfs, 0, 0, FALSE, NULL, NULL);
  }
  for (guint i = 0; i < G_N_ELEMENTS (bars); i++) {
    double m = ms_picture_median (run, bars[i].variant), by = y + i * row_h;
    ms_set_color (cr, &st->fg, 0.85);
    ms_draw_text_max (cr, _ (bars[i].label), fs * 0.5, by + (row_h - fs * 1.3) / 2, fs, x0 - fs);
    if (!(m > 0))
      continue;
    /* Neutral: the phases' colours below mean copies and kernels. */
    ms_set_color (cr, &st->fg, i == 0 ? 0.3 : 0.45);
    cairo_rectangle (cr, x0, by + row_h * 0.2, ms_scale_to_pixel (&xs, m) - x0, row_h * 0.6);
    cairo_fill (cr);
    /* Its median's range across it, as the title keys it: in the gap
     * under its bar, it read as the next bar's. */
    const MsStat *e2e = &ms_picture_cell (run, bars[i].variant)->stats.e2e;
    if (e2e->ci_high > e2e->ci_low)
      draw_range (cr, st, ms_scale_to_pixel (&xs, e2e->ci_low),
                  ms_scale_to_pixel (&xs, e2e->ci_high), by + row_h / 2, row_h * 0.2);
    bar_label (cr, st, run, &xs, i, by + row_h / 2);
  }
  mark_overlap (cr, st, run, &xs, y, row_h);
}

static void
draw_timelines (cairo_t *cr, const MsResults *run, const MsChartStyle *st, double width, double y,
                double h)
{
  MsTimelineRows rows;
  ms_timeline_rows_init (&rows);
  /* The lanes are the threads and say so ("thread 1", "thread 2"; the
   * timeline names a run of several threads' lanes for them), whatever
   * stream they shared. */
  const char *titles[] = { N_ ("legacy default stream, shared by both threads"),
                           N_ ("per-thread default streams, one per thread") };
  for (int i = 1; i <= 2; i++) {
    const MsCell *c = ms_picture_cell (run, bars[i].variant);
    if (c)
      ms_timeline_rows_add_typical (&rows, c, _ (titles[i - 1]));
  }
  if (rows.n > 0)
    ms_picture_timelines (cr, &rows, TRUE, FALSE, st, y, width, h);
  ms_timeline_rows_clear (&rows);
}

static void
ms_picture_default_stream (cairo_t *cr, const MsResults *run, const MsChartStyle *style,
                           double width, double height)
{
  const double fs = ms_style_font_size (style);
  ms_draw_background (cr, style);
  if (!(ms_picture_median (run, bars[0].variant) > 0)) {
    ms_picture_empty (cr, style, width, height,
                      _ ("The run has no time of one thread alone to compare with."));
    return;
  }
  /* What each thread does, with one thread's times (the run saves no
   * copy size). The two per-thread threads' steps, first start to last
   * end, were on it once: they overlap, so they summed past their bar and
   * readers added them. Then "legacy" in plain words, and what a bar and
   * its line are, one thing each: at 8 or fewer repetitions the 95% range
   * of a median is the fastest to the slowest. */
  const MsCell *one = ms_picture_cell (run, bars[0].variant), *per = ms_picture_cell (run, bars[2].variant);
  g_autofree char *alone = phase_times (one);
  int n = per ? per->stats.e2e.n : one->stats.e2e.n;
  gboolean whole = per && per->stats.e2e.ci_low == per->stats.e2e.min
                   && per->stats.e2e.ci_high == per->stats.e2e.max;
  /* Not the card's question again: it stands over the picture. */
  g_autofree char *title = g_strdup_printf (
      _ ("Each thread copies in, runs a kernel, copies back: alone %s. Legacy: one default "
         "stream both threads share; per-thread: one each. Bar: the median of %d repetitions; "
         "line: %s"),
      alone, n,
      /* xgettext: no-c-format */
      whole ? _ ("its fastest to its slowest") : _ ("its 95% range"));
  double th = ms_picture_title (cr, style, title, width);
  double top = fs * 0.6 + th, bars_h = MAX (height * 0.3, bars_height (style));
  /* On a slide (projected, and the handout and `plot` that print it) and
   * where the timelines would be crowded (lanes 6 px high, unnamed), the
   * bars, the finding, take the whole picture: the handout added
   * timelines that the slide a class saw left out. */
  if (ms_draw_is_slide (style, height) || height - top - bars_h < fs * 20) {
    draw_bars (cr, run, style, width, top, height - top);
    return;
  }
  draw_bars (cr, run, style, width, top, bars_h);
  /* The legacy stream runs one thing at a time, but a thread's events
   * went into it before the other thread's work did: its bar spans that
   * wait, drawn pale (ms_timeline_one_stream), which the legend may have
   * no room to name here. */
  const char *note = _ ("On the legacy stream the threads' work ran one piece at a time: a bar's "
                        "pale part is its wait for the work before it, often the other thread's.");
  double y = top + bars_h + fs * 0.3;
  y += ms_draw_note (cr, style, note, fs * 0.5, y, width - fs, TRUE) + fs * 0.3;
  draw_timelines (cr, run, style, width, y, height - y);
}

static const MsVariantWords words[] = {
  { "stream=legacy", N_ ("the legacy default stream, shared by all threads") },
  { "stream=per-thread", N_ ("a default stream per host thread") },
  /* TRANSLATORS: %s is a number from a variant ("threads=2"). */
  { "threads", N_ ("%s host threads") },
  { NULL },
};

const MsLessonLook ms_lesson_look_default_stream = {
  .picture = ms_picture_default_stream,
  .words = words,
};
