/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-picture-register.c: the register-against-allocate lesson's picture.
 * Its caption weighs a cost paid in every repetition (registering the
 * buffers) against one paid once per cell (allocating pinned ones), which
 * one repetition's timeline cannot show: on top, the total time of n
 * repetitions of each, two straight lines and where they cross; under it
 * the timelines of a typical repetition of each, the register bar in it.
 * Every cost the run timed is in the lines (ms-lesson-register.h). */
#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "ms-lesson-picture.h"
#include "ms-picture-parts.h"
#include "ms-lessons.h"
#include "ms-lesson-rows.h"
#include "ms-palette.h"
#include "ms-scale.h"
#include "ms-timeline-rows.h"
#include "ms-engine.h"

/* The caption's figures at the largest size that has them all. */
typedef struct {
  MsRegisterCosts c;
  char size[32], total[32];  /* a vector's, and the three host buffers' */
  double reg_gbps, pin_gbps; /* the copies' rates to the device */
  /* Projected: the key names the lines without their sums, which read
   * as three formulas a back row had to parse (the details give them). */
  gboolean slide;
} Costs;

static gboolean
find_costs (const MsResults *run, Costs *k)
{
  for (int e = MS_MAX_EXPONENT; e >= MS_MIN_EXPONENT; e--) {
    const MsCell *pin = ms_results_find_variant (run, MS_MODE_PINNED, e, "");
    if (!ms_register_costs (run, e, &k->c))
      continue;
    ms_format_bytes (ms_vector_bytes (pin->elements), k->size, sizeof k->size);
    ms_format_bytes (3 * ms_vector_bytes (pin->elements), k->total, sizeof k->total);
    const MsCell *reg = ms_results_find_variant (run, MS_MODE_REGISTERED, e, "");
    k->reg_gbps = reg ? reg->stats.h2d_gbps : 0;
    k->pin_gbps = pin->stats.h2d_gbps;
    return TRUE;
  }
  return FALSE;
}

/* From how many repetitions on allocating once costs less in all; 0 when
 * it never does. The caption's rule. */
static int
cheaper_from (const Costs *k, double *cross)
{
  return ms_register_cheaper_from (&k->c, cross);
}

/* The three lines, each as the sweep charts draw its mode's line, named
 * in the takeaway's words ("registering once", "each time"); once: the
 * alternative the run did not measure as such, dotted in the text's
 * colour (in the registered line's green, thin, it read as a second copy
 * of that line, at 3.3:1 against the background). */
static void
lines (const Costs *k, MsCostLine l[3])
{
  const MsRegisterCosts *c = &k->c;
  l[0] = (MsCostLine){ _ ("registering each time"), ms_register_anew_once (c),
                       ms_register_anew_per_rep (c), MS_MODE_REGISTERED, FALSE, FALSE };
  /* Registered once: the pinning and unpinning are paid once too. */
  l[1] = (MsCostLine){ _ ("registering once, reusing"), ms_register_reused_once (c),
                       c->reg_e2e.median, MS_MODE_REGISTERED, TRUE, TRUE };
  l[2] = (MsCostLine){ _ ("cudaMallocHost once"), ms_register_pinned_once (c), c->pin_e2e.median,
                       MS_MODE_PINNED, FALSE, FALSE };
}

/* The title and the two lines' key from y; returns the height. */
static double
draw_key (cairo_t *cr, const Costs *k, const MsChartStyle *st, double width, double y0,
          gboolean draw)
{
  const double fs = ms_style_font_size (st), key_w = fs * 2.2;
  const MsRegisterCosts *c = &k->c;
  MsCostLine l[3];
  lines (k, l);
  char reg[32], unreg[32], reg_e2e[32], once[32], reused_once[32], pin_once[32], pin_e2e[32],
      left[256];
  ms_caption_time (c->reg_us, reg, sizeof reg);
  ms_caption_time (MAX (c->unreg_us, 0), unreg, sizeof unreg);
  ms_caption_time (c->reg_e2e.median, reg_e2e, sizeof reg_e2e);
  ms_caption_time (l[0].once_us, once, sizeof once);
  ms_caption_time (l[1].once_us, reused_once, sizeof reused_once);
  ms_caption_time (l[2].once_us, pin_once, sizeof pin_once);
  ms_caption_time (c->pin_e2e.median, pin_e2e, sizeof pin_e2e);
  /* Translators: the title of the register lesson's chart of the total
   * time of n repetitions, e.g. "Time for n repetitions, three 4 MiB
   * buffers on the host (12 MiB): medians summed": how much memory, to set
   * beside the costs lesson's one buffer; the lines' dots are sums of
   * medians, not measured totals (read so without it). */
  g_autofree char *title = g_strdup_printf (
      _ ("Time for n repetitions, three %s buffers on the host (%s): medians summed"), k->size,
      k->total);
  /* Translators: the key of the registered line: allocating and freeing
   * the buffers once, then registering, unregistering and the
   * repetition's end-to-end median each time, e.g. "registered anew every
   * repetition: 200 µs + n × (618 µs register + 350 µs unregister + 264 µs)". */
  g_autofree char *reg_text = g_strdup_printf (
      _ ("registered anew every repetition: %s + n × (%s register + %s unregister + %s)"), once,
      reg, unreg, reg_e2e);
  /* Translators: the key of the line of buffers registered once and
   * reused, e.g. "registered once, reused: 1.17 ms + n × 264 µs". */
  g_autofree char *once_text
      = g_strdup_printf (_ ("registered once, reused: %s + n × %s"), reused_once, reg_e2e);
  /* Translators: the key of the pinned line: allocating and freeing once
   * per cell, then each repetition's end-to-end median, e.g. "pinned:
   * 6.44 ms to allocate and free, once + n × 258 µs". */
  g_autofree char *pin_text
      = g_strdup_printf (_ ("pinned: %s to allocate and free, once + n × %s"), pin_once, pin_e2e);
  /* Translators: under the register lesson's key, the costs the run did
   * not time, e.g. "not timed, left out: unregistering". */
  g_autofree char *left_text = ms_register_left_out (c, left, sizeof left) > 0
                                   ? g_strdup_printf (_ ("not timed, left out: %s"), left)
                                   : NULL;
  double y = y0;
  ms_set_color (cr, &st->fg, 1);
  y += ms_draw_text_wrapped (cr, title, fs, y, fs * 1.05, width - 2 * fs, TRUE, draw) + fs * 0.3;
  /* Projected, the lines are named at their ends (draw_plot): three
   * line styles matched to a key above asked for a look up and back. */
  if (k->slide) {
    /* What the lines are: a class took them for measured curves. */
    ms_set_color (cr, &st->fg, 0.85);
    /* The card's other half, the copy rate, said on the slide too: in
     * the details alone a class did not see it. */
    /* TRANSLATORS: e.g. "Copies to the device: 51.4 GB/s from registered
     * memory, 52.0 from cudaMallocHost's." */
    g_autofree char *rates = g_strdup_printf (_ ("Copies to the device: %.1f GB/s from registered "
                                                 "memory, %.1f from cudaMallocHost's."),
                                              k->reg_gbps, k->pin_gbps);
    /* What each line pays once and per repetition, in the lines' own
     * words, in three lines at most: the repetitions' ranges are the
     * details' (five lines were too dense to project). */
    g_autofree char *text = g_strdup_printf (
        "%s %s",
        _ ("cudaHostRegister pins memory that malloc allocated. Once: allocate and free the "
           "buffers (and register them, if once). Each repetition: copies and kernel (and "
           "register and unregister, if each time)."),
        k->reg_gbps > 0 ? rates : "");
    y += ms_draw_text_wrapped (cr, text, fs, y, fs, width - 2 * fs, FALSE, draw);
    ms_set_color (cr, &st->fg, 1);
    if (left_text)
      y += ms_draw_text_wrapped (cr, left_text, fs, y, fs, width - 2 * fs, FALSE, draw);
    return y - y0 + fs * 0.4;
  }
  const char *keys[] = { reg_text, once_text, pin_text };
  for (guint i = 0; i < G_N_ELEMENTS (keys); i++) {
    double th;
    ms_draw_text (cr, keys[i], 0, 0, fs, -1, 0, FALSE, NULL, &th);
    if (draw)
      ms_picture_cost_key (cr, st, &l[i], fs, y + th / 2, key_w - fs * 0.5);
    ms_set_color (cr, &st->fg, 1);
    y += ms_draw_text_wrapped (cr, keys[i], fs + key_w, y, fs, width - 2 * fs - key_w, FALSE,
                               draw);
  }
  if (left_text)
    y += ms_draw_text_wrapped (cr, left_text, fs + key_w, y, fs, width - 2 * fs - key_w, FALSE,
                               draw);
  return y - y0 + fs * 0.4;
}

/* Where allocating once has paid for itself: a slide marks where the
 * lines cross and calls it that; elsewhere the mark stands at the
 * takeaway's whole n (6.2 under "from n = 7" read as a label off its
 * mark). */
static guint
crossing (const Costs *k, MsCostMark *m)
{
  double cross = 0;
  int from = cheaper_from (k, &cross);
  if (from <= 0)
    return 0;
  if (k->slide && cross > 0 && cross <= from) {
    ms_picture_cost_cross (m, cross, from);
    return 1;
  }
  m->n = from;
  /* Translators: on the register lesson's larger view, over the mark at
   * the takeaway's whole n, e.g. "allocating once costs less than
   * registering anew from n = 8"; its short form where the plot is
   * narrower. */
  g_snprintf (m->label, sizeof m->label,
              _ ("allocating once costs less than registering anew from n = %d"), from);
  g_snprintf (m->brief, sizeof m->brief, _ ("allocating once costs less from n = %d"), from);
  return 1;
}

/* The plot of the totals against n left of x1 in y0..y1: from the
 * first repetition (at n = 0 registering each time drew under
 * registering once, against the takeaway's "once costs least"; at n = 1
 * the two are one cost), named at the lines' ends on a slide (three line
 * styles matched to a key above asked for a look up and back). */
static void
draw_plot (cairo_t *cr, const Costs *k, const MsChartStyle *st, double x1, double y0, double y1)
{
  MsCostLine l[3];
  MsCostMark m;
  lines (k, l);
  guint marks = crossing (k, &m);
  ms_picture_cost_lines (cr, st, l, 3, 1, ms_register_chart_reps (&k->c), k->slide, &m, marks,
                         _ ("repetitions (n)"), x1, y0, y1);
}

/* The chart of totals in width x height from y0. */
static void
draw_totals (cairo_t *cr, const Costs *k, const MsChartStyle *st, double width, double y0,
             double height)
{
  double key_h = draw_key (cr, k, st, width, y0, TRUE);
  draw_plot (cr, k, st, width, y0 + key_h, y0 + height);
}

static void
ms_picture_register (cairo_t *cr, const MsResults *run, const MsChartStyle *style, double width,
                     double height)
{
  const double fs = ms_style_font_size (style);
  Costs k;
  ms_draw_background (cr, style);
  MsTimelineRows rows;
  ms_timeline_rows_init (&rows);
  gboolean costs = find_costs (run, &k);
  k.slide = ms_draw_is_slide (style, height);
  gboolean timeline = ms_lesson_rows_fill (&rows, MS_TOPIC_REGISTER, run) > 0;
  if (!costs && !timeline) {
    ms_picture_empty (cr, style, width, height,
                      _ ("This run has no registered and pinned copies of the same size to "
                         "compare."));
    return;
  }
  /* The totals, the lesson's finding, take what the timelines leave them,
   * a chart's worth at least; a pane too low for both keeps the totals.
   * The timelines need lanes a line of text high to be read: rows that
   * can shrink to 2 px lanes (ms_timeline_rows_least_height) drew bars no
   * one could see at 1024 pixels projected. */
  double key_h = costs ? draw_key (cr, &k, style, width, 0, FALSE) : 0;
  double least_chart = costs ? key_h + fs * 10 : 0;
  double tl_h = 0;
  /* A slide shows the takeaway's totals alone: the timelines are the
   * larger view's. */
  if (timeline && !(costs && k.slide)) {
    double need = MAX (ms_timeline_rows_least_height (cr, &rows, style, width), fs * 14);
    double want = MAX (need, height * 0.45);
    if (!costs)
      tl_h = height;
    else if (height - want >= least_chart)
      tl_h = want;
    else if (height - need >= least_chart)
      tl_h = height - least_chart;
  }
  if (costs)
    draw_totals (cr, &k, style, width, fs * 0.5, height - tl_h - fs * 1.0);
  if (tl_h > 0)
    ms_picture_timelines (cr, &rows, FALSE, TRUE, style, height - tl_h, width, tl_h);
  ms_timeline_rows_clear (&rows);
}

static const MsLessonRow rows[] = {
  { MS_MODE_REGISTERED, "", NULL, NULL },
  { MS_MODE_PINNED, "", NULL, NULL },
};

const MsLessonLook ms_lesson_look_register = {
  .picture = ms_picture_register,
  .view = { "bandwidth", "registered,pinned", MS_METRIC_H2D_BANDWIDTH, TRUE },
  MS_LESSON_ROWS (rows),
};
