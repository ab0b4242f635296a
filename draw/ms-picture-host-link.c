/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-picture-host-link.c: the host-link lesson's picture: from the run of
 * several GPUs in use (ms_lesson_host_link_shown), at its largest size,
 * per direction two bars of GB/s in all: each GPU alone, summed, and all
 * at once, each cut into its GPUs' parts, the second with its part of the
 * first. Where no such run is shipped or open, what would make one. */
#include <glib/gi18n.h>
#include <math.h>

#include "ms-engine.h"
#include "ms-lesson-picture.h"
#include "ms-picture-parts.h"

/* What the three directions are called beside their bars. */
static const char *
direction_words (int d)
{
  return d == MS_HOST_LINK_H2D   ? _("Host to the GPUs")
         : d == MS_HOST_LINK_D2H ? _("The GPUs to the host")
                                 : _("Both ways at once");
}

/* A direction's colour: the phases' own for the copies each way. */
static void
direction_color (int d, gboolean dark, MsColor *out)
{
  if (d == MS_HOST_LINK_BOTH)
    ms_chart_palette_color (2, dark, out);
  else
    ms_phase_color (d == MS_HOST_LINK_H2D ? MS_PHASE_H2D : MS_PHASE_D2H, dark, out);
}

/* One bar from the axis's 0: the GPUs' rates in a row, each part
 * parted from the next by a gap of the background, then its words. */
static void
draw_bar (cairo_t *cr, const MsChartStyle *st, const double *gbps, int n, int d, double alpha,
          const char *words, const MsScale *xs, double y, double h)
{
  MsColor c;
  direction_color (d, st->dark, &c);
  double x = xs->pixel_lo, sum = 0, size = ms_draw_figure_size (cr, ms_style_font_size (st));
  for (int i = 0; i < n; i++) {
    sum += gbps[i];
    double end = ms_scale_to_pixel (xs, sum);
    ms_picture_bar (cr, &c, alpha, x, end - 1, y + h / 2, h);
    x = end;
  }
  /* bar_scale left the words room after the bar. */
  ms_picture_bar_figure (cr, st, words, size, FALSE, x, y + h / 2, G_MAXDOUBLE);
}

/* A direction's two bars' words: each alone summed, and all at once with
 * its part of that. */
static char *
bar_words (const MsHostLinkResults *r, int d, int s, gboolean together)
{
  double all = ms_host_link_total (r, d, s, TRUE), alone = ms_host_link_total (r, d, s, FALSE);
  if (!together)
    /* TRANSLATORS: beside the bar of each GPU alone, their rates added:
     * "each alone, summed" left a class asking what was summed. */
    return g_strdup_printf (_("one GPU at a time, added up: %.1f GB/s"), alone);
  /* TRANSLATORS: beside the bar of every GPU at once: how many, the
   * total and its part of the bar above, "2 at once: 136.3 GB/s (73% of
   * one at a time)". */
  return g_strdup_printf (_("%d at once: %.1f GB/s (%.0f%% of one at a time)"), r->n_devices,
                          all, 100 * all / alone);
}

/* The scale the bars share: 0 to past the longest bar, leaving the
 * widest words room after their bar inside width. */
static MsScale
bar_scale (cairo_t *cr, const MsChartStyle *st, const MsHostLinkResults *r, int s, double x0,
           double width)
{
  const double fs = ms_style_font_size (st);
  double max = 1e-9, room = width;
  for (int d = 0; d < MS_HOST_LINK_COUNT; d++)
    for (int k = 0; k < 2; k++) {
      double gbps = ms_host_link_total (r, d, s, k == 1), tw;
      g_autofree char *words = bar_words (r, d, s, k == 1);
      ms_draw_text (cr, words, 0, 0, ms_draw_figure_size (cr, fs), -1, 0, FALSE, &tw, NULL);
      max = MAX (max, gbps);
      /* The bar may reach no further than its words allow. */
      room = MIN (room, (width - fs * 1.5 - tw - x0) / MAX (gbps, 1e-9));
    }
  MsScale xs = { MS_SCALE_LINEAR, 0, 1, x0, width - fs, MS_SCALE_PLAIN };
  ms_scale_fit (&xs, MS_SCALE_LINEAR, 0, max);
  xs.pixel_hi = MIN (x0 + room * xs.max, width - fs * 1.5);
  return xs;
}

/* The title, the line saying whose run it is, and the note under the
 * bars, measured or drawn from y; returns the height. */
static double
draw_words (cairo_t *cr, const MsChartStyle *st, const char *text, double y, double width,
            gboolean title, gboolean draw)
{
  const double fs = ms_style_font_size (st);
  ms_set_color (cr, &st->fg, title ? 1 : MS_TEXT_FAINT_ALPHA);
  return ms_draw_text_wrapped (cr, text, fs, y, title ? fs * 1.15 : fs, width - 2 * fs, title,
                               draw);
}

/* Per direction its name, then two bars: each alone summed, all at
 * once. */
static void
draw_groups (cairo_t *cr, const MsChartStyle *st, const MsHostLinkResults *r, int s,
             const MsScale *xs, double y, double row_h)
{
  const double fs = ms_style_font_size (st), bar_h = row_h * 0.62;
  for (int d = 0; d < MS_HOST_LINK_COUNT; d++) {
    ms_set_color (cr, &st->fg, 1);
    ms_draw_text (cr, direction_words (d), fs, y + row_h / 2, fs, 0, 0.5, TRUE, NULL, NULL);
    y += row_h;
    for (int k = 0; k < 2; k++, y += row_h) {
      const double *gbps = k ? r->together[d][s] : r->alone[d][s];
      g_autofree char *words = bar_words (r, d, s, k == 1);
      draw_bar (cr, st, gbps, r->n_devices, d, k ? 1 : 0.5, words, xs, y + (row_h - bar_h) / 2,
                bar_h);
    }
  }
}

static void
draw_file (cairo_t *cr, const MsResults *run, const MsHostLinkFile *file, const MsChartStyle *st,
           double width, double height)
{
  const MsHostLinkResults *r = &file->link;
  const double fs = ms_style_font_size (st);
  MsHostLinkFigures f;
  ms_lesson_host_link_figures (file, &f);
  int s = f.shown, n = r->n_devices;
  char size[32], link[160] = "";
  MsLessonElsewhere e;
  ms_format_bytes ((uint64_t) 4 << r->exps[s], size, sizeof size);
  ms_lesson_elsewhere (MS_TOPIC_HOST_LINK, run, &e);
  /* What the run records of each GPU's link, where all share it ("the
   * host link" was never said to be PCIe), and only that. */
  const MsDeviceInfo *d = file->device;
  gboolean same = d[0].pcie_gen > 0;
  for (int i = 1; i < n; i++)
    same = same && d[i].pcie_gen == d[0].pcie_gen && d[i].pcie_width == d[0].pcie_width;
  if (same)
    g_snprintf (link, sizeof link, _ (", each on its own PCIe gen%d x%d link (its connection to the host) as the run records"),
                d[0].pcie_gen, d[0].pcie_width);
  g_autofree char *title
      = g_strdup_printf (_ ("Copies of %s between the host and %d GPUs%s: GB/s in all, each bar cut "
                            "into its GPUs’ rates"), size, n,
                         link);
  /* A shipped run was measured on another machine: the picture says so,
   * exported alone too, without the file's name a class could not read. */
  g_autofree char *whose = g_strdup_printf (e.reference ? _ ("A reference run, measured on another "
                                                             "host with %d × %s on %s")
                                                        : _ ("A run measured on a host with %d × "
                                                             "%s on %s"),
                                            e.n_devices, e.model, e.day);
  /* Beside a deck of another GPU, its per-GPU rates read as that GPU's
   * (55.5 GB/s against the H100's 50 on the slides before). */
  char deck[64] = "";
  if (e.reference && run && run->device.name[0])
    ms_lesson_gpu_model (run->device.name, deck, sizeof deck);
  if (deck[0] && strcmp (deck, e.model) != 0) {
    char *mine = g_strdup_printf (_ ("%s: its rates, not the %s’s"), whose, deck);
    g_free (whose), whose = mine;
  }
  /* Both ways at once, what the data shows: all at once moved no more
   * than one way, where one GPU alone moved nearly twice as much. */
  const double h2d = ms_host_link_total (r, MS_HOST_LINK_H2D, s, TRUE);
  const double both = ms_host_link_total (r, MS_HOST_LINK_BOTH, s, TRUE);
  g_autofree char *shared
      = both <= h2d * 1.05 ? g_strdup_printf (_ ("All %d at once moved no more both ways than one "
                                                 "way (%.1f against %.1f GB/s): something all %d "
                                                 "links share limits them, not each link."),
                                              n, both, h2d, n)
                           : g_strdup ("");
  /* The parts' own figures: "not an even split" over parts that looked
   * equal could not be checked. */
  double lo = r->together[MS_HOST_LINK_H2D][s][0], hi = lo;
  for (int i = 1; i < n; i++) {
    lo = MIN (lo, r->together[MS_HOST_LINK_H2D][s][i]);
    hi = MAX (hi, r->together[MS_HOST_LINK_H2D][s][i]);
  }
  g_autofree char *note = g_strdup_printf (
    _ ("All at once to the GPUs, each GPU got %.1f to %.1f GB/s. One GPU alone copies %.1f "
       "GB/s to it, %.1f back and "
       "%.1f both ways at once over its own link. %s"),
    lo, hi, ms_host_link_total (r, MS_HOST_LINK_H2D, s, FALSE) / n,
    ms_host_link_total (r, MS_HOST_LINK_D2H, s, FALSE) / n,
    ms_host_link_total (r, MS_HOST_LINK_BOTH, s, FALSE) / n, shared);
  /* The words, three directions of a name and two bars, the axis; the
   * note, then whose run (the slide's header says it too), then the
   * title are left out where the rows would not fit; the whole centred. */
  const int rows = 3 * MS_HOST_LINK_COUNT;
  const char *words[3] = { title, whose, note };
  double axis_h = fs * 0.5 + ms_draw_figure_size (cr, fs) * 1.3, words_h[3], row_h = 0;
  for (int i = 0; i < 3; i++)
    words_h[i] = draw_words (cr, st, words[i], 0, width, i == 0, FALSE) + fs * (i ? 0.5 : 0.2);
  int kept = 3;
  for (; kept >= 0; kept--) {
    double room = height - axis_h - fs * 0.5;
    for (int i = 0; i < kept; i++)
      room -= words_h[i];
    row_h = MIN (fs * 3, room / rows);
    /* A row as tall as its figures' text, which a slide draws larger. */
    if (row_h >= MAX (fs * 1.15, ms_draw_figure_size (cr, fs) * 1.3) || kept == 0)
      break;
  }
  double body_h = rows * row_h + axis_h;
  for (int i = 0; i < kept; i++)
    body_h += words_h[i];
  double y = MAX (0, round ((height - body_h) / 2));
  for (int i = 0; i < kept && i < 2; i++)
    y += draw_words (cr, st, words[i], y + (i ? fs * 0.2 : 0), width, i == 0, TRUE) +
         fs * (i ? 0.5 : 0.2);
  MsScale xs = bar_scale (cr, st, r, s, fs * 2, width);
  double bottom = y + rows * row_h;
  ms_draw_value_axis (cr, st, &xs, y + row_h, bottom, fs * 5, width - fs * 0.5, _("GB/s"));
  draw_groups (cr, st, r, s, &xs, y, row_h);
  if (kept == 3)
    draw_words (cr, st, note, bottom + axis_h, width, FALSE, TRUE);
}

static void
ms_picture_host_link (cairo_t *cr, const MsResults *run, const MsChartStyle *style, double width,
                      double height)
{
  const double fs = ms_style_font_size (style);
  ms_draw_background (cr, style);
  const MsHostLinkFile *file = ms_lesson_host_link_shown (run, NULL);
  MsHostLinkFigures f;
  if (file && ms_lesson_host_link_figures (file, &f)) {
    draw_file (cr, run, file, style, width, height);
    return;
  }
  /* Nothing to draw from: what makes a run (the caption's words then),
   * where the bars would be. */
  char why[1024];
  ms_lesson_caption (MS_TOPIC_HOST_LINK, run, -1, why, sizeof why);
  double h = ms_draw_note (cr, style, why, fs, 0, width - 2 * fs, FALSE);
  ms_draw_note (cr, style, why, fs, MAX (fs, round ((height - h) / 2)), width - 2 * fs, TRUE);
}

const MsLessonLook ms_lesson_look_host_link = {
  .picture = ms_picture_host_link,
};
