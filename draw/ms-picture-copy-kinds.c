/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-picture-copy-kinds.c: the copy-kinds lesson's picture: the rate of
 * each kind of copy and of the zero-copy reads as bars on a linear axis
 * (a log axis drew the 21-fold gap as a step of two), under the takeaway
 * that gives the finding from the rates; under them, where there is room,
 * whether cudaHostGetDevicePointer gave a device pointer for each kind of
 * pinned memory (a tick or a cross). */
#include <glib/gi18n.h>
#include <math.h>

#include "ms-lessons.h"
#include "ms-lesson-picture.h"
#include "ms-picture-parts.h"
#include "ms-palette.h"

/* The bars, fastest kind first; short labels, the long ones would be cut. */
static const struct {
  MsCopyFact fact;
  const char *label;
} bars[] = {
  { MS_COPY_FACT_D2D, N_ ("device → device") },
  { MS_COPY_FACT_H2D, N_ ("host → device") },
  { MS_COPY_FACT_D2H, N_ ("device → host") },
  { MS_COPY_FACT_H2H_PINNED, N_ ("host → host, pinned") },
  { MS_COPY_FACT_H2H_PAGEABLE, N_ ("host → host, pageable") },
  /* Who reads named: "write-combined read" read as the CPU reading it,
   * which the chapter warns is slow. Short, a lesson pane's label column
   * holds about 19 characters: the line under the bars spells WC out. */
  { MS_COPY_FACT_READ_MAPPED, N_ ("GPU reads mapped") },
  { MS_COPY_FACT_READ_WC, N_ ("GPU reads WC mapped") },
};

/* The device-pointer facts, labelled by what differs between them. */
static const struct {
  MsCopyFact fact;
  const char *label;
} maps[] = {
  { MS_COPY_FACT_MAP_MALLOC_HOST, N_ ("cudaMallocHost") },
  { MS_COPY_FACT_MAP_REGISTER_MAPPED, N_ ("registered with the flag cudaHostRegisterMapped") },
  { MS_COPY_FACT_MAP_REGISTER_DEFAULT, N_ ("registered without it") },
};

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

/* The device-pointer facts as marked items flowing over lines from y in
 * x..right; returns the height used. Only measures when draw is FALSE. */
static double
draw_map_facts (cairo_t *cr, const MsResults *run, const MsChartStyle *style, double x,
                double y, double right, double fs, gboolean draw)
{
  /* What the rows a class asks about are: the GPU's reads, and why
   * pinning gains a copy within host memory nothing (pinned came out
   * no faster than pageable), and why it is slower than the link: one
   * thread's memcpy (bench/plain-copy-rate.cu on an H200's host, 64 MiB,
   * three processes: memcpy 5.96-6.53 GB/s, cudaMemcpy host to host
   * 6.11-8.54, docs/measurements/2026-11-30-h200-host-to-host). That
   * figure stays off the slide: on the H100's deck another host's figure
   * beside this host's 6.8-6.9 GB/s was read as a contradiction; without
   * the comparison, a teacher's class asked why a copy within host memory
   * is slower than one over the link. */
  if (draw)
    ms_set_color (cr, &style->fg, 0.9);
  const double y0 = y;
  y += ms_draw_text_wrapped (cr,
                             _ ("GPU reads: a kernel reading pinned host memory over the link "
                                "(zero-copy), plain or write-combined (WC). Host → host: the CPU "
                                "copies, about as fast as one thread's memcpy, slower than the copy "
                                "engine over the link; pinning does not speed it up. Device → "
                                "device counts each byte once, though read and written."),
                             x, y, fs, right - x, FALSE, draw) +
       fs * 0.3;
  /* Each kind's pointer drawn as a mark beside the words the headline
   * uses ("3 kinds", "mapped"): "mappable" alone left a class asking what
   * mapping is. */
  g_autofree char *lead = g_strdup_printf (_ ("%u kinds of pinned memory; mapped: the GPU got a "
                                               "pointer to read it directly"),
                                            (guint) G_N_ELEMENTS (maps));
  double tw, th, cx = x, line = fs * 1.3;
  ms_draw_text (cr, lead, 0, 0, fs, -1, 0, FALSE, &tw, &th);
  line = MAX (line, th);
  if (draw)
    ms_set_color (cr, &style->fg, 0.8);
  /* Over two lines in a narrow pane. */
  double lead_h = ms_draw_text_wrapped (cr, lead, x, y, fs, right - x, FALSE, draw);
  /* The items start under the lead, not beside it: the first beside it
   * and the rest below read as a layout slip. */
  double cy = y + MAX (line, lead_h);
  for (guint i = 0; i < G_N_ELEMENTS (maps); i++) {
    const MsCell *c = ms_copy_fact_cell (run, maps[i].fact);
    g_autofree char *text = NULL;
    /* Without the flag it works only because unified addressing maps
     * every page-locked buffer: the item that surprises says why. */
    if (maps[i].fact == MS_COPY_FACT_MAP_REGISTER_DEFAULT && c && c->status == MS_CELL_OK &&
        run->device.unified_addressing)
      text = g_strdup_printf (_ ("%s (mapped anyway: CPU and GPU share one address space)"),
                              _ (maps[i].label));
    else
      text = g_strdup (_ (maps[i].label));
    ms_draw_text (cr, text, 0, 0, fs, -1, 0, FALSE, &tw, NULL);
    double item_w = fs * 1.4 + tw;
    if (cx > x && cx + item_w > right) {
      cx = x;
      cy += line;
    }
    if (draw) {
      draw_mark (cr, style, c ? (int) c->status : -1, cx + fs * 0.5, cy + th * 0.5, fs * 0.45);
      ms_set_color (cr, &style->fg, 1);
      ms_draw_text_max (cr, text, cx + fs * 1.3, cy, fs, right - cx - fs * 1.3);
    }
    cx += item_w + fs * 1.2;
  }
  return cy + line - y0;
}

/* A kind's bar, with the same figure as the caption's beside it or
 * inside its end. One colour for all: the mode's colours, with no key,
 * read as a code a class could not break; the row's name says the kind. */
static void
draw_bar (cairo_t *cr, const MsChartStyle *style, const MsScale *xs, double rate, double cy,
          double bar_h, double fs, double right)
{
  MsColor col;
  ms_chart_palette_color (0, style->dark, &col);
  double x1 = ms_scale_to_pixel (xs, rate);
  ms_picture_bar (cr, &col, 0.85, xs->pixel_lo, x1, cy, bar_h);
  g_autofree char *text = g_strdup_printf (_ ("%.1f GB/s"), rate);
  ms_picture_bar_figure (cr, style, text, ms_draw_figure_size (cr, fs), FALSE, x1, cy, right);
}

/* A row's name, right-aligned to the bars at x; one wider than the label
 * column (a 320 px pane's "GPU reads WC mapped" ran off the left edge) at
 * a smaller size, down to four fifths, then cut. */
static void
draw_row_name (cairo_t *cr, const char *name, double x, double cy, double fs, double column)
{
  double w = ms_draw_text_width (cr, name, fs, FALSE);
  double f = w > column ? MAX (fs * 0.8, fs * column / w) : fs, h;
  ms_draw_text (cr, name, 0, 0, f, -1, 0, FALSE, &w, &h);
  if (w <= column + 0.5)
    ms_draw_text (cr, name, x, cy, f, 1, 0.5, FALSE, NULL, NULL);
  else
    ms_draw_text_max (cr, name, x - column, cy - h / 2, f, column);
}

static void
ms_picture_copy_kinds (cairo_t *cr, const MsResults *run, const MsChartStyle *style, double width,
                       double height)
{
  /* On a large canvas at normal text size the text grows with it. */
  double fs = MAX (ms_style_font_size (style), MIN (width / 80, height / 45)), pad = fs * 0.6;
  ms_draw_background (cr, style);
  double rate[G_N_ELEMENTS (bars)], hi = 0, label_w = 0;
  guint n = 0;
  for (guint i = 0; i < G_N_ELEMENTS (bars); i++) {
    rate[i] = ms_copy_fact_rate (run, bars[i].fact);
    if (!(rate[i] > 0))
      continue;
    n++;
    hi = MAX (hi, rate[i]);
    label_w = MAX (label_w, ms_draw_text_width (cr, _ (bars[i].label), fs, FALSE));
  }
  if (n == 0) {
    ms_picture_empty (cr, style, width, height, _ ("This run has no copy rates."));
    return;
  }
  /* What the bars are, with the size and the unit the axis's ticks count
   * in: the finding is the takeaway over the picture, and the same words
   * twice read as a mistake. */
  const MsCell *h2d = ms_copy_fact_cell (run, MS_COPY_FACT_H2D);
  char size[32] = "?";
  if (h2d)
    ms_format_size_label ((double) ms_vector_bytes (h2d->elements), size, sizeof size);
  /* TRANSLATORS: the copy-kinds picture's title, e.g. "What each way of
   * moving 64 MiB reached, in GB/s" (its rows are not all copies). */
  g_autofree char *title
      = g_strdup_printf (_ ("What each way of moving %s reached, in GB/s"), size);
  double title_h = ms_draw_text_wrapped (cr, title, 0, 0, fs * 1.1, width - 2 * pad, TRUE, FALSE);
  double top = pad + title_h + fs * 0.3, axis_h = fs * 0.8 + ms_draw_figure_size (cr, fs) * 1.3;
  /* The device-pointer facts below the bars while the bars keep rows of
   * one and a half lines; a small pane shows the rates alone. */
  double facts_fs = fs * 0.9;
  double facts_h = draw_map_facts (cr, run, style, pad, 0, width - pad, facts_fs, FALSE);
  double bottom = height - pad - axis_h - facts_h - fs * 0.4;
  gboolean facts = (bottom - top) / n >= fs * 1.5;
  if (!facts)
    bottom = height - pad - axis_h;
  double column = MIN (label_w, width * 0.4);
  double x0 = pad + column + fs * 0.6, right = width - pad;
  /* From 0, so that a bar's length is its rate: the lesson is how many
   * times faster one kind is than another. The slow bars keep their
   * labels beside them. */
  MsScale xs = { MS_SCALE_LINEAR, 0, hi * 1.05, x0, right, MS_SCALE_PLAIN };
  ms_scale_fit (&xs, MS_SCALE_LINEAR, 0, hi);
  /* Rows of at most three lines: on a tall canvas the bars stay bars. */
  double row_h = MIN ((bottom - top) / n, fs * 3), bar_h = MIN (row_h * 0.62, fs * 1.8);
  /* A tall canvas centres the whole, title and all. */
  double drawn = row_h * n + axis_h + (facts ? facts_h + fs * 0.4 : 0);
  double shift = MAX (0, round ((height - pad - top - drawn) / 2));
  ms_set_color (cr, &style->fg, 1);
  ms_draw_text_wrapped (cr, title, pad, pad * 0.5 + shift, fs * 1.1, width - 2 * pad, TRUE, TRUE);
  top += shift;
  bottom = top + row_h * n;
  /* Few ticks: the bars carry their rates. */
  ms_draw_value_axis (cr, style, &xs, top, bottom, fs * 5, right, _ ("GB/s"));
  guint row = 0;
  for (guint i = 0; i < G_N_ELEMENTS (bars); i++) {
    if (!(rate[i] > 0))
      continue;
    double cy = top + (row + 0.5) * row_h;
    ms_set_color (cr, &style->fg, 0.9);
    draw_row_name (cr, _ (bars[i].label), x0 - fs * 0.6, cy, fs, column);
    draw_bar (cr, style, &xs, rate[i], cy, bar_h, fs, right);
    row++;
  }
  if (facts)
    draw_map_facts (cr, run, style, pad, bottom + axis_h + fs * 0.4, width - pad, facts_fs, TRUE);
}

static const MsVariantWords words[] = {
  { "read=zero-copy", N_ ("the GPU reads host memory directly, without a copy") },
  { "wc=yes", N_ ("write-combined host memory") },
  { "wc=no", N_ ("ordinary (cached) pinned host memory") },
  { "copy=d2d", N_ ("a copy within the GPU's memory") },
  { "copy=h2h", N_ ("a copy within host memory") },
  { "mem=pinned", N_ ("page-locked (pinned) host memory") },
  { "mem=pageable", N_ ("ordinary (pageable) host memory") },
  { NULL },
};

const MsLessonLook ms_lesson_look_copy_kinds = {
  .picture = ms_picture_copy_kinds,
  .words = words,
};
