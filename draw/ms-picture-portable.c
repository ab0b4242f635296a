/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-picture-portable.c: the portable pinned memory lesson's picture: the
 * three buffers `memsweep portable` compares (one pinned per GPU, one
 * portable for all, one pinned by the first GPU and used by another),
 * each with what this run measured of it: a one-GPU run measures the
 * first, its pinned copies, and says why the other two need a second GPU.
 * Under it the timeline of one of those pinned copies. Where a portable
 * run of two GPUs or more is in use (ms_lesson_portable_use: opened or
 * shipped), its bars instead: per GPU, each buffer's copies to the GPU. */
#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "ms-lesson-picture.h"
#include "ms-lesson-rows.h"
#include "ms-engine.h"
#include "ms-picture-parts.h"
#include "ms-timeline-rows.h"

/* The run's pinned cell at its largest size with a rate to the device. */
static const MsCell *
pinned_cell (const MsResults *run)
{
  for (int e = MS_MAX_EXPONENT; e >= MS_MIN_EXPONENT; e--) {
    const MsCell *c = ms_results_find_variant (run, MS_MODE_PINNED, e, "");
    if (c && c->stats.h2d_gbps > 0)
      return c;
  }
  return NULL;
}

/* One buffer's row: its name on the left, then a bar of the rate it
 * reached to the device, or why it was not measured. Returns the row's
 * height. */
static double
draw_case (cairo_t *cr, const MsChartStyle *st, const char *name, double gbps, double scale_max,
           const char *why, double y, double width, gboolean draw)
{
  const double fs = ms_style_font_size (st), label_w = width * 0.42;
  ms_set_color (cr, &st->fg, 1);
  double h = ms_draw_text_wrapped (cr, name, fs, y, fs, label_w - fs, TRUE, draw);
  double x0 = label_w + fs * 0.5, bar_w = width - x0 - fs;
  if (gbps > 0) {
    MsColor c;
    ms_phase_color (MS_PHASE_H2D, st->dark, &c);
    ms_set_color (cr, &c, 1);
    g_autofree char *value = g_strdup_printf (_("%.1f GB/s to the GPU"), gbps);
    const double vfs = ms_draw_figure_size (cr, fs);
    double tw = ms_draw_text_width (cr, value, vfs, FALSE);
    double w = MAX (2, (bar_w - tw - fs) * gbps / scale_max), bh = fs * 1.3;
    if (!draw)
      return MAX (h, bh);
    cairo_rectangle (cr, x0, y, w, bh);
    cairo_fill (cr);
    ms_set_color (cr, &st->fg, 1);
    ms_draw_text (cr, value, x0 + w + fs * 0.4, y + bh / 2, vfs, 0, 0.5, FALSE, NULL, NULL);
    return MAX (h, bh);
  }
  /* Not measured: the reason in a dashed frame where the bar would be. */
  ms_set_color (cr, &st->fg, 0.75);
  double wh = ms_draw_text_wrapped (cr, why, x0 + fs * 0.4, y + fs * 0.15, fs * 0.9,
                                    bar_w - fs * 0.8, FALSE, draw);
  double fh = MAX (wh + fs * 0.3, fs * 1.3);
  if (!draw)
    return MAX (h, fh);
  ms_set_color (cr, &st->fg, 0.45);
  ms_set_dash (cr, 1, ms_style_line_width (st));
  cairo_set_line_width (cr, 1);
  cairo_rectangle (cr, x0 + 0.5, y + 0.5, bar_w - 1, fh);
  cairo_stroke (cr);
  ms_set_dash (cr, 0, 1);
  return MAX (h, fh);
}

/* The three buffers and, with note, the note under them from y0; returns
 * the height used. Only measured unless draw. */
static double
draw_cases (cairo_t *cr, const MsResults *run, const MsChartStyle *st, double width, double y0,
            gboolean note, gboolean draw)
{
  const double fs = ms_style_font_size (st);
  const MsCell *pin = pinned_cell (run);
  char size[32] = "";
  if (pin)
    ms_format_bytes (ms_vector_bytes (pin->elements), size, sizeof size);
  /* The run's GPU, not the machine showing the picture. */
  const char *gpu = run->device.name[0] ? run->device.name : _("GPU");
  g_autofree char *title =
    pin ? g_strdup_printf (_("Portable pinned memory on the %s: %s copies"), gpu, size)
        : g_strdup_printf (_("Portable pinned memory on the %s"), gpu);
  ms_set_color (cr, &st->fg, 1);
  double y = y0 + fs * 0.5;
  y += ms_draw_text_wrapped (cr, title, fs, y, fs * 1.15, width - 2 * fs, TRUE, draw) + fs * 0.6;
  g_autofree char *why =
    run->device.count >= 2
      ? g_strdup_printf (_("not measured: the run used one of %d GPUs"), run->device.count)
      : g_strdup (_("not measured: one GPU, no second CUDA context"));
  double gbps = pin ? pin->stats.h2d_gbps : 0;
  y += draw_case (cr, st, ms_portable_case_name (MS_PORTABLE_PER_DEVICE), gbps, gbps, NULL, y,
                  width, draw) + fs * 0.7;
  y += draw_case (cr, st, ms_portable_case_name (MS_PORTABLE_SHARED), 0, gbps, why, y, width,
                  draw) + fs * 0.7;
  y += draw_case (cr, st, ms_portable_case_name (MS_PORTABLE_FOREIGN), 0, gbps, why, y, width,
                  draw) + fs * 0.5;
  ms_set_color (cr, &st->fg, 0.75);
  if (note)
    y += ms_draw_text_wrapped (cr,
                             _("With one CUDA context a portable buffer is the same pinned "
                               "memory as the first row's. With unified addressing CUDA treats "
                               "memory from cudaHostAlloc as pinned for every GPU; memsweep "
                               "portable on two or more GPUs measures the other two rows."),
                             fs, y, fs * 0.9, width - 2 * fs, FALSE, draw);
  return y - y0 + fs * 0.8;
}

/* One GPU's buffer: its label, its bar of GB/s to the GPU on xs (from
 * 0), or why it has none. */
static void
draw_file_bar (cairo_t *cr, const MsChartStyle *st, const char *label, int kind,
               const MsPortableCell *c, const MsScale *xs, double y, double row_h)
{
  const double fs = ms_style_font_size (st), x0 = xs->pixel_lo, bar_h = row_h * 0.62;
  ms_set_color (cr, &st->fg, 1);
  ms_draw_text_max (cr, label, fs * 2, y + (row_h - fs * 1.25) / 2, fs, x0 - fs * 3);
  if (!c->ok || !(c->h2d_gbps > 0)) {
    g_autofree char *why = g_strdup_printf (_("failed: %s"), c->note);
    ms_set_color (cr, &st->fg, MS_TEXT_FAINT_ALPHA);
    ms_draw_text_max (cr, why, x0, y + (row_h - fs * 1.25) / 2, fs, xs->pixel_hi - x0);
    return;
  }
  g_autofree char *value = g_strdup_printf (_("%.1f GB/s"), c->h2d_gbps);
  double w = MAX (2, ms_scale_to_pixel (xs, c->h2d_gbps) - x0);
  MsColor color;
  ms_chart_palette_color (kind, st->dark, &color);
  ms_set_color (cr, &color, 1);
  cairo_rectangle (cr, x0, y + (row_h - bar_h) / 2, w, bar_h);
  cairo_fill (cr);
  /* On the background's colour: the axis's last grid line, just past
   * the fastest bar, ran through its figure. */
  double tw, th, vfs = ms_draw_figure_size (cr, fs);
  ms_draw_text (cr, value, 0, 0, vfs, -1, 0, FALSE, &tw, &th);
  ms_set_color (cr, &st->bg, 1);
  cairo_rectangle (cr, x0 + w + fs * 0.2, y + (row_h - th) / 2, tw + fs * 0.4, th);
  cairo_fill (cr);
  ms_set_color (cr, &st->fg, 1);
  ms_draw_text (cr, value, x0 + w + fs * 0.4, y + row_h / 2, vfs, 0, 0.5, FALSE, NULL, NULL);
}

/* The slowest and fastest copy of any buffer to any GPU (INFINITY and 0
 * when none). */
static void
rate_range (const MsPortableResults *p, double *lo, double *hi)
{
  *lo = INFINITY, *hi = 0;
  for (int k = 0; k < MS_PORTABLE_COUNT; k++)
    for (int i = 0; i < p->n_devices; i++)
      if (p->cell[k][i].ok && p->cell[k][i].h2d_gbps > 0)
        *lo = MIN (*lo, p->cell[k][i].h2d_gbps), *hi = MAX (*hi, p->cell[k][i].h2d_gbps);
}

/* The scale the bars share: GB/s from 0 to a round value past the
 * fastest, from x0 to where the fastest one's figure still fits. */
static MsScale
file_scale (const MsPortableResults *p, const MsChartStyle *st, cairo_t *cr, double x0,
            double width)
{
  const double fs = ms_style_font_size (st);
  double lo, max, tw;
  rate_range (p, &lo, &max);
  g_autofree char *value = g_strdup_printf (_("%.1f GB/s"), max);
  ms_draw_text (cr, value, 0, 0, ms_draw_figure_size (cr, fs), -1, 0, FALSE, &tw, NULL);
  MsScale xs = { MS_SCALE_LINEAR, 0, 1, x0, width - fs, MS_SCALE_PLAIN };
  ms_scale_fit (&xs, MS_SCALE_LINEAR, 0, MAX (max, 1e-9));
  /* The fastest bar's figure after its end, inside the picture. */
  double room = width - fs * 0.5 - tw - fs * 0.4 - x0;
  xs.pixel_hi = x0 + room * xs.max / MAX (max, 1e-9);
  xs.pixel_hi = MIN (xs.pixel_hi, width - fs * 1.5);
  return xs;
}

/* What each bar's colour is, one swatch and a few words each, in a row
 * (wrapped where narrow): tied to the rows' names alone, the colours went
 * unexplained. Returns its height; only measured unless draw. */
static double
draw_key (cairo_t *cr, const MsChartStyle *st, int first, double y, double width, gboolean draw)
{
  const double fs = ms_style_font_size (st), sw = fs * 0.9, line_h = fs * 1.5;
  g_autofree char *foreign = g_strdup_printf (_ ("pinned by GPU %d, read by another"), first);
  const char *words[MS_PORTABLE_COUNT]
      = { _ ("pinned by the GPU copying"), _ ("portable: pinned for every GPU"), foreign };
  double x = fs, h = line_h;
  for (int k = 0; k < MS_PORTABLE_COUNT; k++) {
    double tw = ms_draw_text_width (cr, words[k], fs, FALSE);
    if (x > fs && x + sw + fs * 0.4 + tw > width - fs)
      x = fs, y += line_h, h += line_h;
    if (draw) {
      MsColor c;
      ms_chart_palette_color (k, st->dark, &c);
      ms_picture_bar (cr, &c, 1, x, x + sw, y + line_h / 2, sw);
      ms_set_color (cr, &st->fg, 1);
      ms_draw_text (cr, words[k], x + sw + fs * 0.4, y + line_h / 2, fs, 0, 0.5, FALSE, NULL,
                    NULL);
    }
    x += sw + fs * 1.6 + tw;
  }
  return h;
}

/* GPU i's heading over its bars, its model named: the slide's header and
 * the line under the title say whose host it is ("another host" on each
 * heading left a class asking "another than what?"). */
static char *
gpu_heading (const MsPortableFile *file, int i, int device)
{
  char gpu[256];
  ms_portable_file_gpu_name (file, i, gpu, sizeof gpu);
  return g_strdup_printf (_("GPU %d (%s)"), device, gpu);
}

/* The portable run in use: a title saying what is compared, a line saying
 * whose run it is and why (the lesson needs two GPUs), then per GPU its
 * three buffers' copies to the device on one axis of GB/s from 0. */
static void
draw_file (cairo_t *cr, const MsPortableFile *file, const MsResults *run, const MsChartStyle *st,
           double width, double height)
{
  const MsPortableResults *p = &file->portable;
  const double fs = ms_style_font_size (st);
  char size[32], gpu0[256];
  ms_format_bytes (p->bytes, size, sizeof size);
  ms_portable_file_gpu_name (file, 0, gpu0, sizeof gpu0);
  /* Whose GPUs these are in the title, bold: in a grey paragraph under
   * it, a class read the bars as this deck's GPU's. */
  g_autofree char *title = g_strdup_printf (
      _ ("On another host (%d × %s): copies of %s to one GPU at a time, GB/s by the buffer "
         "copied from"),
      p->n_devices, gpu0, size);
  const char *deck = run && run->device.name[0] ? run->device.name : NULL;
  if (deck && g_str_has_prefix (deck, "NVIDIA "))
    deck += strlen ("NVIDIA ");
  /* Why another host (the deck's run had too few GPUs), and on another
   * GPU's deck that the rates are not its GPU's. */
  const char *why = run && run->device.count == 1
                        ? _ ("This lesson needs two GPUs; this deck’s host has one.")
                        : _ ("This lesson needs two GPUs; this deck’s run used one.");
  g_autofree char *not_deck
      = deck && gpu0[0] && !strstr (deck, gpu0)
            /* TRANSLATORS: on another GPU's deck, e.g. "The bars are not
             * the H100 80GB HBM3's." */
            ? g_strdup_printf (_ ("The bars are not the %s’s."), deck)
            : NULL;
  /* TRANSLATORS: e.g. "GPU 0 was not tried with GPU 1's buffer." */
  g_autofree char *one_way
      = p->n_devices == 2 ? g_strdup_printf (_("GPU %d was not tried with GPU %d’s buffer."),
                                             p->devices[0], p->devices[1])
                          : g_strdup ("");
  /* What the flag is, named (a class read "the flag" as unexplained),
   * and where every buffer copied within 5 % of every other, why: what
   * CUDA does, not a property of the deck's GPU, which no bar shows. */
  double lo, hi;
  rate_range (p, &lo, &hi);
  gboolean all_alike = hi > 0 && hi <= lo * 1.05;
  g_autofree char *whence = not_deck ? g_strjoin (" ", why, not_deck, NULL) : g_strdup (why);
  g_autofree char *source = g_strjoin (
      " ", whence,
      all_alike ? _ ("cudaHostAllocPortable pins a buffer for every GPU, but with unified "
                     "addressing (one address space for the CPU and GPUs) every pinned buffer "
                     "is pinned for every GPU already.")
                : _ ("cudaHostAllocPortable pins a buffer for every GPU, not only the one that "
                     "allocated it."),
      one_way, NULL);
  /* The title, then a GPU's name line and its three bars, each a row as
   * high as fit up to a few lines' height, and the axis; the whole
   * centred. */
  double axis_h = fs * 1.8;
  double head_h = fs * 1.5 +
                  ms_draw_text_wrapped (cr, title, fs, 0, fs * 1.15, width - 2 * fs, TRUE, FALSE) +
                  ms_draw_text_wrapped (cr, source, fs, 0, fs, width - 2 * fs, FALSE, FALSE) +
                  draw_key (cr, st, p->devices[0], 0, width, FALSE);
  /* GPU 0 has no row for its own buffer as another GPU's: that pair is
   * its first bar, and a placeholder row for it read as a claim. */
  int rows = MAX (p->n_devices * (MS_PORTABLE_COUNT + 1) - 1, 0);
  double row_h = MIN (fs * 3, (height - head_h - axis_h - fs) / MAX (rows, 1));
  double y = MAX (fs * 0.5, round ((height - head_h - axis_h - rows * row_h) / 2));
  ms_set_color (cr, &st->fg, 1);
  y += ms_draw_text_wrapped (cr, title, fs, y, fs * 1.15, width - 2 * fs, TRUE, TRUE);
  /* Near full strength: it says whose GPUs these are and why the bars
   * match, which faint text left unread. */
  ms_set_color (cr, &st->fg, 0.9);
  y += ms_draw_text_wrapped (cr, source, fs, y + fs * 0.2, fs, width - 2 * fs, FALSE, TRUE) +
       fs * 0.4;
  y += draw_key (cr, st, p->devices[0], y, width, TRUE) + fs * 0.4;
  /* Bars from 0 on an axis with its ticks: lengths without one could not
   * say whether equal bars started at zero. */
  MsScale xs = file_scale (p, st, cr, round (width * 0.36 + fs), width);
  if (p->n_devices > 0 && xs.max > 0)
    ms_draw_value_axis (cr, st, &xs, y + row_h, y + rows * row_h, fs * 5, width - fs * 0.5,
                        _("GB/s"));
  g_autofree char *first = g_strdup_printf (_("GPU %d’s pinned buffer"), p->devices[0]);
  const char *labels[MS_PORTABLE_COUNT] = { _("its own pinned buffer"), _("the portable buffer"),
                                            first };
  for (int i = 0; i < p->n_devices; i++) {
    g_autofree char *head = gpu_heading (file, i, p->devices[i]);
    ms_set_color (cr, &st->fg, 1);
    ms_draw_text (cr, head, fs, y + row_h - fs * 0.3, fs, 0, 1, TRUE, NULL, NULL);
    y += row_h;
    for (int k = 0; k < MS_PORTABLE_COUNT; k++) {
      if (i == 0 && k == MS_PORTABLE_FOREIGN)
        continue;
      draw_file_bar (cr, st, labels[k], k, &p->cell[k][i], &xs, y, row_h);
      y += row_h;
    }
  }
}

static void
ms_picture_portable (cairo_t *cr, const MsResults *run, const MsChartStyle *style, double width,
                     double height)
{
  const double fs = ms_style_font_size (style);
  ms_draw_background (cr, style);
  const MsPortableFile *file = ms_lesson_portable_shown (NULL);
  if (file) {
    draw_file (cr, file, run, style, width, height);
    return;
  }
  MsTimelineRows rows;
  ms_timeline_rows_init (&rows);
  gboolean timeline = ms_lesson_rows_fill (&rows, MS_TOPIC_PORTABLE, run) > 0;
  /* Measured first, then the cases and a timeline
   * of the height its two lanes need, centred: a tall canvas left most
   * of itself blank between the lanes and the legend. */
  /* The note under the cases goes where they would not fit with it
   * (larger text in a short picture): it ran off the bottom. */
  gboolean note = draw_cases (cr, run, style, width, 0, TRUE, FALSE) <= height;
  double cases_h = draw_cases (cr, run, style, width, 0, note, FALSE);
  double tl_h = timeline ? MIN (height - cases_h, fs * 18) : 0;
  /* A timeline needs its title, two lanes a line high, its axis and its
   * key: with less room (large text, a short pane) its lanes were
   * crushed to a few pixels, so it is left out and the cases centred. */
  if (tl_h < fs * 11)
    timeline = FALSE, tl_h = 0;
  double y0 = MAX (0, round ((height - cases_h - tl_h) / 2));
  double top = draw_cases (cr, run, style, width, y0, note, TRUE);
  if (timeline)
    ms_picture_timelines (cr, &rows, FALSE, TRUE, style, y0 + top, width, tl_h);
  ms_timeline_rows_clear (&rows);
}

static const MsLessonRow rows[] = {
  { MS_MODE_PINNED, "", NULL, NULL },
};

const MsLessonLook ms_lesson_look_portable = {
  .picture = ms_picture_portable,
  .view = { "bandwidth", "pinned", MS_METRIC_H2D_BANDWIDTH, TRUE },
  MS_LESSON_ROWS (rows),
};
