/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-picture-priority.c: the stream-priorities lesson's picture. Above,
 * each run's median wait of the short kernels with and without priority
 * as dots on a log time axis, the median of the runs as a bar and a
 * number; below, the timelines of the instrumented runs with and without
 * priority: the long kernel on its lane, every short kernel on the next,
 * the launches on the host's. */
#include <glib/gi18n.h>
#include <math.h>

#include "ms-lesson-picture.h"
#include "ms-picture-parts.h"
#include "ms-lessons.h"
#include "ms-timeline-rows.h"

typedef struct {
  const MsCell *cell;
  const char *label;
} Strip;

static void
strips_range (const Strip *s, int n, double *lo, double *hi)
{
  *lo = INFINITY;
  *hi = 0;
  for (int i = 0; i < n; i++)
    for (int r = 0; s[i].cell && r < s[i].cell->n_reps; r++) {
      double v = s[i].cell->e2e_us[r];
      if (v > 0) {
        *lo = MIN (*lo, v);
        *hi = MAX (*hi, v);
      }
    }
}

/* The dot strips in the box x, y, w, h, grown where its title leaves the
 * rows less than a line each (in a narrow pane the title's four lines left
 * the two rows' names on each other). Returns the box's height. */
static double
draw_strips (cairo_t *cr, const Strip *s, int n, const MsChartStyle *style, double x, double y,
             double w, double h, gboolean small)
{
  double fs = ms_style_font_size (style), r = ms_style_marker_radius (style);
  double label_w = 0, value_w, lo, hi;
  for (int i = 0; i < n; i++)
    label_w = MAX (label_w, ms_draw_text_width (cr, s[i].label, fs, FALSE));
  /* The medians in a column of their own: the log axis alone made them
   * guesses. */
  const double vfs = ms_draw_figure_size (cr, fs);
  ms_draw_text (cr, "000.0 µs", 0, 0, vfs, -1, 0, TRUE, &value_w, NULL);
  double value_x = x + label_w + fs + value_w;
  label_w += value_w + fs;
  ms_set_color (cr, &style->fg, 1);
  /* Wrapped: a narrow card cut it. Small, the title is one line: three
   * left the strips' rows too low for their names. */
  const char *title
      = small ? _ ("Wait from launch to start: a dot per repetition, bar: their median (log "
                    "scale)")
              /* Which stream is high priority, said: a class could not
               * tell from "with priority" which one got it. Two short
               * sentences: one of four clauses read as a run-on. */
              : _ ("How long short kernels (stream 1) wait from launch to start beside a long "
                   "one (stream 0), log scale. With priority, stream 1 is high. Dots: "
                   "repetitions; bar, number: median.");
  double title_h = ms_draw_text_wrapped (cr, title, x, y, fs, w - fs, TRUE, TRUE);
  h = MAX (h, title_h + fs * 3.3 + n * fs * 1.4);
  strips_range (s, n, &lo, &hi);
  if (!(hi > 0))
    return h;
  MsScale xs = { .unit = MS_SCALE_TIME_US };
  ms_scale_fit (&xs, MS_SCALE_LOG10, lo, hi);
  double px = x + label_w + fs, pw = w - label_w - fs * 2;
  double top = y + title_h + fs * 0.8, row = (h - title_h - fs * 3.3) / n;
  xs.pixel_lo = px;
  xs.pixel_hi = px + pw;
  /* The axis's labels under the last row's median, whose figure may be
   * taller than its row (a figure's size in a short pane). */
  ms_draw_value_axis (cr, style, &xs, top, top + row * n + MAX (0, (vfs * 1.2 - row) / 2),
                      fs * 5, x + w, NULL);
  for (int i = 0; i < n; i++) {
    double cy = top + row * (i + 0.5);
    ms_set_color (cr, &style->fg, 0.9);
    ms_draw_text (cr, s[i].label, x, cy, fs, 0, 0.5, FALSE, NULL, NULL);
    if (!s[i].cell || s[i].cell->n_reps == 0)
      continue;
    /* One grey for every row's dots: the rows are named, and two colours
     * that no key named were asked about. */
    ms_set_color (cr, &style->fg, 0.4);
    for (int k = 0; k < s[i].cell->n_reps; k++) {
      double v = s[i].cell->e2e_us[k];
      if (v > 0) {
        /* A small vertical jitter from the index keeps equal values apart. */
        double jy = ((k * 7) % 5 - 2) * r * 0.5;
        cairo_arc (cr, ms_scale_to_pixel (&xs, v), cy + jy, r, 0, 2 * G_PI);
        cairo_fill (cr);
      }
    }
    double m = s[i].cell->stats.e2e.median;
    if (m > 0) {
      char t[32];
      ms_priority_wait_words (m, t, sizeof t);
      ms_set_color (cr, &style->fg, 0.95);
      /* A figure's size where the rows hold it (a slide's), else theirs. */
      ms_draw_text (cr, t, value_x, cy, MAX (fs, MIN (vfs, row / 1.35)), 1, 0.5, TRUE, NULL, NULL);
      /* Blue (not a kernel's gold), thick, past the dots: a black tick was lost in them. */
      MsColor c;
      ms_chart_palette_color (MS_MODE_PINNED, style->dark, &c);
      ms_set_color (cr, &c, 1);
      double mx = ms_scale_to_pixel (&xs, m);
      ms_draw_line (cr, ms_style_line_width (style) * 3, mx, cy - row * 0.5, mx, cy + row * 0.5);
    }
  }
  return h;
}

static void
ms_picture_priority (cairo_t *cr, const MsResults *run, const MsChartStyle *style, double width,
                     double height)
{
  double fs = ms_style_font_size (style);
  const MsCell *high = ms_priority_cell (run, MS_PRIORITY_HIGH, MS_PRIORITY_WAIT);
  const MsCell *low = ms_priority_cell (run, MS_PRIORITY_LOW, MS_PRIORITY_WAIT);
  if (high && high->status == MS_CELL_UNSUPPORTED) {
    g_autofree char *text
        = g_strdup_printf (_ ("Stream priorities cannot be measured here: %s"), high->message);
    ms_picture_empty (cr, style, width, height, text);
    return;
  }
  if ((!high || high->n_reps == 0) && (!low || low->n_reps == 0)) {
    ms_picture_empty (cr, style, width, height,
                      _ ("The run has no waits of short kernels to show."));
    return;
  }
  ms_draw_background (cr, style);
  Strip strips[] = { { high, _ ("with priority") }, { low, _ ("without") } };
  gboolean small = height < fs * 22;
  /* Small (a lesson pane at 1600x1000 with the cards shown): the strips
   * alone, the finding; the timelines below them shrank to lanes a pixel
   * high. A projected Lessons page has room for both, with the rows'
   * titles short. */
  double top_h = small ? height : MIN (height * 0.36, fs * 10);
  top_h = draw_strips (cr, strips, G_N_ELEMENTS (strips), style, fs, fs * 0.5, width - fs * 2,
                       top_h, small);
  /* Both instrumented runs on one axis: with priority the short kernels
   * start beside the long one, without they wait for it. */
  MsTimelineRows rows;
  ms_timeline_rows_init (&rows);
  /* The lesson's figure is the short kernels' wait, not a time end to end. */
  rows.figure_name = _ ("wait");
  rows.time_words = ms_priority_wait_words;
  if (high && !small)
    ms_timeline_rows_add_typical (&rows, high, _ ("With priority"));
  if (low && !small)
    ms_timeline_rows_add_typical (&rows, low, _ ("Without priority"));
  /* The timelines paint their own background: only below the strips. */
  if (rows.n > 0)
    ms_picture_timelines (cr, &rows, TRUE, TRUE, style, top_h, width, height - top_h);
  ms_timeline_rows_clear (&rows);
}

const MsLessonLook ms_lesson_look_priority = {
  .picture = ms_picture_priority,
};
