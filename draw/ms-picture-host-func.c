/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-picture-host-func.c: the host-function lesson's picture: each repetition's latency from the
 * end of a copy or a kernel to the start of the host function behind it, as dot strips per API
 * with the median marked; under them the timelines of the slow host function with the kernel
 * queued on its stream and on another stream, the host functions on a lane of their own. A slide
 * draws each call's median alone, as a bar from zero (draw_slide_bars). */
#include <glib/gi18n.h>
#include <math.h>

#include "ms-lesson-picture.h"
#include "ms-picture-parts.h"
#include "ms-timeline-rows.h"

static const struct {
  const char *variant;
  const char *label;
} strips[] = {
  { "latency/api=launch-host-func/after=copy", N_ ("HostFunc, copy") },
  { "latency/api=launch-host-func/after=kernel", N_ ("HostFunc, kernel") },
  { "latency/api=stream-callback/after=copy", N_ ("Callback, copy") },
  { "latency/api=stream-callback/after=kernel", N_ ("Callback, kernel") },
};

/* The height the strips need: the key's row, a row a strip (row_fs font sizes), the axis. */
static double
strips_height (const MsChartStyle *st, double row_fs)
{
  const double fs = ms_style_font_size (st);
  return fs * 1.2 + G_N_ELEMENTS (strips) * fs * row_fs + fs * 2;
}

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
  double lo = G_MAXDOUBLE, hi = 0, label_w = 0;
  for (guint i = 0; i < G_N_ELEMENTS (strips); i++) {
    const MsCell *c = strip_cell (run, i);
    for (int k = 0; c && k < c->n_reps; k++) {
      if (c->e2e_us[k] > 0) {
        lo = MIN (lo, c->e2e_us[k]);
        hi = MAX (hi, c->e2e_us[k]);
      }
    }
    label_w = MAX (label_w, ms_draw_text_width (cr, _ (strips[i].label), fs, FALSE));
  }
  /* A column of medians between the labels and the strips, under a row
   * that says what the dots and the bar are. */
  double value_w = ms_draw_text_width (cr, "0000.0 µs", fs, FALSE), head_h = fs * 1.2;
  double v1 = MIN (label_w + fs * 1.5 + value_w, width * 0.55);
  double x0 = v1 + fs, x1 = width - fs * 1.5;
  double row_h = (h - fs * 2 - head_h) / G_N_ELEMENTS (strips);
  /* A log axis: a few repetitions wait milliseconds, the medians tens of
   * µs; on a linear axis every median sat at 0. */
  if (!(hi > 0))
    lo = 1, hi = 10;
  MsScale xs;
  ms_scale_fit_tight (&xs, MS_SCALE_LOG10, lo, hi);
  xs.pixel_lo = x0;
  xs.pixel_hi = x1;
  xs.unit = MS_SCALE_TIME_US;
  /* The key says how to read a log-scale dot plot: at the rows' size and
   * full contrast, since a projector washes grey text out. */
  ms_set_color (cr, &st->fg, 1);
  ms_draw_text (cr, _ ("median"), v1, y, fs, 1, 0, FALSE, NULL, NULL);
  ms_draw_text_max (cr, _ ("dots: repetitions, bar: median; log scale"), x0, y, fs, x1 - x0);
  y += head_h;
  ms_draw_time_axis (cr, st, &xs, y, y + row_h * G_N_ELEMENTS (strips), fs * 4.5, width - fs * 0.3);
  MsColor col;
  ms_phase_color (MS_PHASE_HOST_FUNC, st->dark, &col);
  for (guint i = 0; i < G_N_ELEMENTS (strips); i++) {
    const MsCell *c = strip_cell (run, i);
    double cy = y + (i + 0.5) * row_h;
    ms_set_color (cr, &st->fg, 0.85);
    /* From fs / 2 to half a space before the medians' column: the
     * widest label fits whole (measured at its width, it was cut). */
    ms_draw_text_max (cr, _ (strips[i].label), fs * 0.5, cy - fs * 0.65, fs,
                      v1 - value_w - fs);
    if (!c)
      continue;
    char t[32];
    ms_set_color (cr, &st->fg, 0.95);
    ms_caption_time (c->stats.e2e.median, t, sizeof t);
    ms_draw_text (cr, t, v1, cy, fs, 1, 0.5, TRUE, NULL, NULL);
    /* Repetitions spread a little in y so that equal values stay apart. */
    ms_set_color (cr, &col, 0.75);
    for (int k = 0; k < c->n_reps; k++) {
      double dy = ((k % 5) - 2) * row_h * 0.08;
      if (!(c->e2e_us[k] > 0))
        continue;
      cairo_arc (cr, ms_scale_to_pixel (&xs, c->e2e_us[k]), cy + dy, r, 0, 2 * G_PI);
      cairo_fill (cr);
    }
    double mx = round (ms_scale_to_pixel (&xs, c->stats.e2e.median)) + 0.5;
    ms_set_color (cr, &st->fg, 0.9);
    ms_draw_line (cr, 2 * ms_style_line_width (st), mx, cy - row_h * 0.35, mx, cy + row_h * 0.35);
  }
}

/* The host function's span in a cell's instrumented repetition, or 0. */
static double
host_func_span (const MsCell *c)
{
  double span = 0;
  for (size_t i = 0; c && i < c->n_events; i++)
    if (c->events[i].phase == MS_PHASE_HOST_FUNC && c->events[i].gpu_us > span)
      span = c->events[i].gpu_us;
  return span;
}

/* What the timelines below show of the slow function: its time alone, its span beside the kernel
 * on its stream and, with the kernel on another stream, that nothing waits for it. A span well
 * over the others' is a busy wait whose thread was paused: said, so that the longer bar does not
 * read as the function's cost. Returns the height. */
static double
slow_note (cairo_t *cr, const MsResults *run, const MsChartStyle *st, double width, double y,
           gboolean draw)
{
  const double fs = ms_style_font_size (st);
  const MsCell *alone = ms_picture_cell (run, "slow/func-only");
  const MsCell *same = ms_picture_cell (run, "slow/kernel=same-stream");
  const MsCell *other = ms_picture_cell (run, "slow/kernel=other-stream");
  double s_alone = host_func_span (alone), s_same = host_func_span (same);
  double s_other = host_func_span (other);
  if (!alone || !other || !(s_same > 0) || !(s_other > 0) || !(alone->stats.e2e.median > 0))
    return 0;
  char ta[32], ts[32], to[32], te[32];
  ms_format_time_us (alone->stats.e2e.median, ta, sizeof ta);
  ms_format_time_us (s_same, ts, sizeof ts);
  ms_format_time_us (other->stats.e2e.median, te, sizeof te);
  ms_format_time_us (s_other, to, sizeof to);
  double usual = s_alone > 0 ? MIN (s_alone, s_same) : s_same;
  g_autofree char *text = NULL;
  if (s_other > 1.5 * usual)
    text = g_strdup_printf (
        _ ("The slow function alone: %s from the call to its end (median); before the kernel "
           "on its stream it runs %s. With the kernel on another stream nothing waits: the "
           "repetition ends after %s. There the function drawn ran %s: the system paused its "
           "thread (a busy wait ends on time otherwise)."),
        ta, ts, te, to);
  else
    text = g_strdup_printf (
        _ ("The slow function alone: %s from the call to its end (median); before the kernel "
           "on its stream it runs %s. With the kernel on another stream nothing waits: the "
           "repetition ends after %s while the function runs on (%s)."),
        ta, ts, te, to);
  ms_set_color (cr, &st->fg, 0.8);
  return ms_draw_text_wrapped (cr, text, fs * 0.5, y, fs * 0.85, width - fs, FALSE, draw)
         + fs * 0.3;
}

/* One unit for every bar's figure, the largest's: "+1048 µs" beside
 * "+7 µs" reads at once, "+1.05 ms" beside "+7.07 µs" did not. */
static void
format_in_unit (double us, double most, const char *sign, char *buf, size_t len)
{
  if (most >= 10000)
    g_snprintf (buf, len, "%s%.1f ms", sign, us / 1000);
  else if (most >= 100)
    g_snprintf (buf, len, "%s%.0f µs", sign, us);
  else
    g_snprintf (buf, len, "%s%.1f µs", sign, us);
}

/* The slow function's finding where its timelines do not fit: the function alone, then how much
 * later than alone the kernel behind it ended on its stream and on another, as bars on one linear
 * scale with their own zero, in one unit. Returns the height (0: the run lacks the cells); only
 * measured unless draw. */
static double
slow_bars (cairo_t *cr, const MsResults *run, const MsChartStyle *st, double width, double y0,
           gboolean draw)
{
  const double fs = ms_style_font_size (st);
  double func = ms_picture_median (run, "slow/func-only");
  double kernel = ms_picture_median (run, "slow/kernel-only");
  const double values[3] = { func, ms_picture_median (run, "slow/kernel=same-stream") - kernel,
                             ms_picture_median (run, "slow/kernel=other-stream") - kernel };
  const char *labels[3] = { _ ("slow host function alone"), _ ("kernel on its stream"),
                            _ ("kernel on another stream") };
  const MsPhase phases[3] = { MS_PHASE_HOST_FUNC, MS_PHASE_KERNEL, MS_PHASE_KERNEL };
  if (!(func > 0) || !(kernel > 0) || !(values[1] + kernel > 0) || !(values[2] + kernel > 0))
    return 0;
  double most = 0;
  for (int i = 0; i < 3; i++)
    most = MAX (most, values[i]);
  char texts[3][48];
  double y = y0, label_w = 0, value_w = 0, vfs = ms_draw_figure_size (cr, fs);
  /* The lesson's second finding: a heading as bold as the first's, and
   * bars in the text's own size (at fs * 0.85 it read as a footnote). */
  ms_set_color (cr, &st->fg, 0.95);
  y += fs * 0.3;
  /* Its unit said over the bars, which have no axis. */
  g_autofree char *head = g_strdup_printf (_ ("A slow host function, then how much later each "
                                              "kernel ended than when run alone (medians in %s, "
                                              "linear scale from 0):"),
                                           most >= 10000 ? "ms" : "µs");
  y += ms_draw_text_wrapped (cr, head, fs * 0.5, y, fs, width - fs, TRUE, draw);
  for (int i = 0; i < 3; i++) {
    /* TRANSLATORS: how much later a kernel ended, e.g. "+1048 µs". */
    format_in_unit (MAX (values[i], 0), most, i ? C_ ("later by", "+") : "", texts[i],
                    sizeof texts[i]);
    label_w = MAX (label_w, ms_draw_text_width (cr, labels[i], fs, FALSE));
    value_w = MAX (value_w, ms_draw_text_width (cr, texts[i], vfs, TRUE));
  }
  const double row_h = MAX (fs * 1.8, vfs * 1.4), x0 = MIN (fs + label_w, width * 0.6);
  const double bar_w = MAX (0, width - x0 - value_w - fs * 1.2);
  for (int i = 0; i < 3 && draw; i++) {
    double cy = y + (i + 0.5) * row_h;
    /* At least a sliver: a bar of 0 would look like a missing one. */
    double w = most > 0 ? MAX (2, bar_w * MAX (values[i], 0) / most) : 2;
    MsColor col;
    ms_phase_color (phases[i], st->dark, &col);
    ms_set_color (cr, &st->fg, 0.85);
    ms_draw_text_max (cr, labels[i], fs * 0.5, cy - fs * 0.6, fs, x0 - fs);
    ms_set_color (cr, &col, 1);
    cairo_rectangle (cr, x0, round (cy - row_h * 0.3), w, round (row_h * 0.6));
    cairo_fill (cr);
    ms_set_color (cr, &st->fg, 0.95);
    ms_draw_text (cr, texts[i], x0 + w + fs * 0.4, cy, vfs, 0, 0.5, TRUE, NULL, NULL);
  }
  /* The bars' zero, so that they do not read against the log axis above. */
  if (draw) {
    ms_set_color (cr, &st->fg, 0.6);
    ms_draw_line (cr, ms_style_line_width (st), round (x0) - 0.5, y, round (x0) - 0.5,
                  y + 3 * row_h);
  }
  return y + 3 * row_h + fs * 0.2 - y0;
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
    ms_timeline_rows_add_typical (&rows, same,
                                  _ ("slow host function, then a kernel on its stream"));
  if (other)
    ms_timeline_rows_add_typical (&rows, other,
                                  _ ("slow host function, a kernel on another stream"));
  if (rows.n > 0)
    ms_picture_timelines (cr, &rows, TRUE, FALSE, st, y, width, h);
  ms_timeline_rows_clear (&rows);
}

/* The slide's note: what its lines are and, where a bar is noisy, what "noisy" means (the
 * repetitions' pointer makes room for it) and how it is drawn ("drawn alone" left a class asking
 * alone from what); and that the headline quotes the rows after a kernel alone. Free it. */
static char *
slide_note (gboolean noisy, gboolean cut)
{
  /* TRANSLATORS: the host-function slide's note: what its lines are, then "; an arrow: it goes on"
   * where one is cut, then what too noisy means or where each repetition is. */
  return g_strdup_printf (_ ("Lines: each range of likely medians (95%%%s). %s"),
                          cut ? _ ("; an arrow: it goes on") : "",
                          noisy ? _ ("Too noisy: a range wider than its median, no bar. The "
                                     "headline quotes the rows after a kernel.")
                                : _ ("Each repetition: in a larger view; the headline quotes each "
                                     "call after a kernel."));
}

/* A slide: each call's median delay as a bar on a linear scale from 0, named in full, with its 95%
 * interval: the takeaway's range read off four bar ends. Dot strips on a log scale, read by a key
 * line, asked a class to learn a way of reading first; the repetitions are a larger view's. */
static void
draw_slide_bars (cairo_t *cr, const MsResults *run, const MsChartStyle *style, double width,
                 double height)
{
  static const char *const names[] = {
    N_ ("cudaLaunchHostFunc after a copy"), N_ ("cudaLaunchHostFunc after a kernel"),
    N_ ("cudaStreamAddCallback after a copy"), N_ ("cudaStreamAddCallback after a kernel"),
  };
  G_STATIC_ASSERT (G_N_ELEMENTS (names) == G_N_ELEMENTS (strips));
  MsTimeBar bars[G_N_ELEMENTS (strips)];
  int n = 0;
  gboolean any_noisy = FALSE;
  /* The bars the takeaway quotes first (after a kernel), then those after
   * a copy, those too noisy to trust last: first and bold, a noisy one was
   * read before the figure, and the calls mixed across the two kinds of
   * work ahead left a class comparing unlike rows. */
  for (int pass = 0; pass < 3; pass++)
    for (guint i = 0; i < G_N_ELEMENTS (strips); i++) {
      const MsCell *c = strip_cell (run, i);
      if (!c || !(c->stats.e2e.median > 0))
        continue;
      gboolean noisy = ms_host_func_noisy (&c->stats.e2e);
      gboolean after_kernel = g_str_has_suffix (strips[i].variant, "/after=kernel");
      if (pass != (noisy ? 2 : after_kernel ? 0 : 1))
        continue;
      bars[n++] = (MsTimeBar){
        _ (names[i]), c->stats.e2e.median, c->stats.e2e.ci_low, c->stats.e2e.ci_high, 1, noisy
      };
      any_noisy = any_noisy || noisy;
    }
  if (n == 0) {
    ms_picture_empty (cr, style, width, height,
                      _ ("The run has no host function's delay to show."));
    return;
  }
  g_autofree char *note = slide_note (any_noisy, ms_picture_time_bars_cut (bars, n));
  /* The card's second half under the first, as its line says it: what a
   * slow host function held back, on its stream and on another. */
  double slow_h = slow_bars (cr, run, style, width, 0, FALSE);
  if (slow_h > height * 0.45)
    slow_h = 0;
  ms_picture_time_bars (cr, style,
                        _ ("From the end of the work ahead to the host function's start "
                           "(medians): the GPU signals, a driver thread runs it "
                           "(cudaStreamAddCallback: the older call for it)"),
                        note, bars, n, width, height - slow_h);
  if (slow_h > 0)
    slow_bars (cr, run, style, width, height - slow_h, TRUE);
}

static void
ms_picture_host_func (cairo_t *cr, const MsResults *run, const MsChartStyle *style, double width,
                      double height)
{
  const double fs = ms_style_font_size (style);
  if (ms_draw_is_slide (style, height)) {
    draw_slide_bars (cr, run, style, width, height);
    return;
  }
  ms_draw_background (cr, style);
  const char *title = _ ("From the end of the work to the host function's start");
  double th = ms_picture_title (cr, style, title, width);
  /* Which call each row's short name is. */
  ms_set_color (cr, &style->fg, 0.75);
  th += ms_draw_text_wrapped (cr,
                              _ ("HostFunc: cudaLaunchHostFunc; Callback: "
                                 "cudaStreamAddCallback; after a copy or a kernel"),
                              fs * 0.5, fs * 0.5 + th, fs * 0.85, width - fs, FALSE, TRUE);
  double top = fs * 0.8 + th, strips_h = MAX (height * 0.32, strips_height (style, 1.6));
  /* (A slide shows the one finding its line names, as bars: draw_slide_bars; the slow function's
   * bars were a second finding under a heading of their own that the line never read.) Where a
   * larger view is too crowded for the note and timelines (lanes 5 px high, unlabelled), the
   * strips at their least height and the slow function's finding as bars; with no room for the
   * bars, the strips alone. */
  if (height - top - strips_h < fs * 16) {
    double bars_h = slow_bars (cr, run, style, width, 0, FALSE);
    if (bars_h > 0 && height - top - bars_h >= strips_height (style, 1.3)) {
      draw_strips (cr, run, style, width, top, height - top - bars_h);
      slow_bars (cr, run, style, width, height - bars_h, TRUE);
    } else {
      draw_strips (cr, run, style, width, top, height - top);
    }
    return;
  }
  draw_strips (cr, run, style, width, top, strips_h);
  double note_y = top + strips_h + fs * 0.3;
  double note_h = slow_note (cr, run, style, width, note_y, TRUE);
  draw_timelines (cr, run, style, width, note_y + note_h, height - note_y - note_h);
}

const MsLessonLook ms_lesson_look_host_func = {
  .picture = ms_picture_host_func,
};
