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

/* The three lines: what each costs once and per repetition. */
typedef struct {
  double at0, per_rep;
} Line;

static void
lines (const Costs *k, Line *anew, Line *reused, Line *pinned)
{
  const MsRegisterCosts *c = &k->c;
  *anew = (Line){ ms_register_anew_once (c), ms_register_anew_per_rep (c) };
  /* Registered once: the pinning and unpinning are paid once too. */
  *reused = (Line){ ms_register_reused_once (c), c->reg_e2e.median };
  *pinned = (Line){ ms_register_pinned_once (c), c->pin_e2e.median };
}

/* The mode's colour and dash, as the sweep charts draw its line; once:
 * the alternative the run did not measure as such, dotted in the text's
 * colour. The takeaway leads with it ("registering once costs least"): in
 * the registered line's green, thin, it read as a second copy of that
 * line, at 3.3:1 against the background. */
static void
set_mode_line (cairo_t *cr, const MsChartStyle *st, MsMode mode, gboolean once)
{
  guint color, shape, dash;
  MsColor c;
  ms_mode_look (mode, &color, &shape, &dash);
  ms_chart_palette_color (color, st->dark, &c);
  ms_set_color (cr, once ? &st->fg : &c, 1);
  double lw = ms_style_line_width (st) * 1.5;
  cairo_set_line_width (cr, lw);
  ms_set_dash (cr, once ? 2 : dash, lw);
}

static void
key_line (cairo_t *cr, const MsChartStyle *st, MsMode mode, gboolean once, double x, double y,
          double len)
{
  set_mode_line (cr, st, mode, once);
  cairo_move_to (cr, x, y);
  cairo_line_to (cr, x + len, y);
  cairo_stroke (cr);
  ms_set_dash (cr, 0, 1);
}

/* The title and the two lines' key from y; returns the height. */
static double
draw_key (cairo_t *cr, const Costs *k, const MsChartStyle *st, double width, double y0,
          gboolean draw)
{
  const double fs = ms_style_font_size (st), key_w = fs * 2.2;
  const MsRegisterCosts *c = &k->c;
  Line anew, reused, pinned;
  lines (k, &anew, &reused, &pinned);
  char reg[32], unreg[32], reg_e2e[32], once[32], reused_once[32], pin_once[32], pin_e2e[32],
      left[256];
  ms_caption_time (c->reg_us, reg, sizeof reg);
  ms_caption_time (MAX (c->unreg_us, 0), unreg, sizeof unreg);
  ms_caption_time (c->reg_e2e.median, reg_e2e, sizeof reg_e2e);
  ms_caption_time (anew.at0, once, sizeof once);
  ms_caption_time (reused.at0, reused_once, sizeof reused_once);
  ms_caption_time (pinned.at0, pin_once, sizeof pin_once);
  ms_caption_time (c->pin_e2e.median, pin_e2e, sizeof pin_e2e);
  /* Translators: the title of the register lesson's chart of the total
   * time of n repetitions, e.g. "Time for n repetitions, three 4 MiB
   * buffers on the host (12 MiB)": how much memory, to set beside the
   * costs lesson's one buffer. */
  g_autofree char *title = g_strdup_printf (
      _ ("Time for n repetitions, three %s buffers on the host (%s)"), k->size, k->total);
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
  /* Projected, the lines are named at their ends (slide_labels): three
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
  const struct {
    MsMode mode;
    gboolean once;
    const char *text;
  } keys[] = { { MS_MODE_REGISTERED, FALSE, reg_text },
               { MS_MODE_REGISTERED, TRUE, once_text },
               { MS_MODE_PINNED, FALSE, pin_text } };
  for (guint i = 0; i < G_N_ELEMENTS (keys); i++) {
    double th;
    ms_draw_text (cr, keys[i].text, 0, 0, fs, -1, 0, FALSE, NULL, &th);
    if (draw)
      key_line (cr, st, keys[i].mode, keys[i].once, fs, y + th / 2, key_w - fs * 0.5);
    ms_set_color (cr, &st->fg, 1);
    y += ms_draw_text_wrapped (cr, keys[i].text, fs + key_w, y, fs, width - 2 * fs - key_w, FALSE,
                               draw);
  }
  if (left_text)
    y += ms_draw_text_wrapped (cr, left_text, fs + key_w, y, fs, width - 2 * fs - key_w, FALSE,
                               draw);
  return y - y0 + fs * 0.4;
}

/* The line, with a dot at each whole n (the run's medians summed: a class could not check
 * "cheaper" or the crossing against a line alone). */
static void
draw_line (cairo_t *cr, const MsChartStyle *st, MsMode mode, gboolean once, const MsScale *xs,
           const MsScale *ys, double at0, double per_rep)
{
  set_mode_line (cr, st, mode, once);
  cairo_move_to (cr, ms_scale_to_pixel (xs, xs->min),
                 ms_scale_to_pixel (ys, at0 + per_rep * xs->min));
  cairo_line_to (cr, ms_scale_to_pixel (xs, xs->max),
                 ms_scale_to_pixel (ys, at0 + per_rep * xs->max));
  cairo_stroke (cr);
  ms_set_dash (cr, 0, 1);
  for (double n = ceil (xs->min); n <= xs->max; n++)
    cairo_arc (cr, ms_scale_to_pixel (xs, n), ms_scale_to_pixel (ys, at0 + per_rep * n),
               ms_style_line_width (st) * 2, 0, 2 * G_PI);
  cairo_fill (cr);
}

/* A slide's names of the three lines, in the takeaway's words
 * ("registering once", "each time"), and under each its one-time
 * cost and cost per repetition, from which a class can check the crossing. */
static const char *
slide_label (guint i)
{
  static const char *const names[]
      = { N_ ("registering each time"), N_ ("registering once, reusing"),
          N_ ("cudaMallocHost once") };
  return _ (names[i]);
}

static char *
slide_sum (const Line *l)
{
  char once[32], rep[32];
  ms_caption_time (l->at0, once, sizeof once);
  ms_caption_time (l->per_rep, rep, sizeof rep);
  /* Translators: under a line's name on the register lesson's slide: its one-time cost + n × its
   * cost per repetition, e.g. "1.41 ms once + n × 260 µs" ("(n = 0)" named a point the axis,
   * from n = 1, does not draw). */
  return g_strdup_printf (_ ("%s once + n × %s"), once, rep);
}

static double
slide_labels_width (cairo_t *cr, const MsChartStyle *st, const Line *l)
{
  const double fs = ms_style_font_size (st);
  double most = 0;
  for (guint i = 0; i < 3; i++) {
    g_autofree char *sum = slide_sum (&l[i]);
    most = MAX (most, ms_draw_text_width (cr, slide_label (i), fs, TRUE));
    most = MAX (most, ms_draw_text_width (cr, sum, ms_draw_figure_size (cr, fs), FALSE));
  }
  return most;
}

/* Each line's name and sum right of its end, centred at its height, moved
 * apart as little as keeps them apart and inside the plot. */
static void
slide_labels (cairo_t *cr, const MsChartStyle *st, const MsScale *xs, const MsScale *ys,
              const Line *l)
{
  const double fs = ms_style_font_size (st), ffs = ms_draw_figure_size (cr, fs);
  double y[3], nh, sh;
  ms_draw_text (cr, slide_label (0), 0, 0, fs, -1, 0, TRUE, NULL, &nh);
  ms_draw_text (cr, "1 ms", 0, 0, ffs, -1, 0, FALSE, NULL, &sh);
  /* The sums where the plot has room for three names and sums: in a
   * low pane beside the cards they were pushed over the words above. */
  const gboolean sums = (nh + sh) * 3.3 <= ys->pixel_lo - ys->pixel_hi;
  const double th = sums ? nh + sh : nh;
  guint order[3] = { 0, 1, 2 };
  for (guint i = 0; i < 3; i++)
    y[i] = ms_scale_to_pixel (ys, l[i].at0 + l[i].per_rep * xs->max);
  for (guint i = 0; i < 3; i++)
    for (guint j = i + 1; j < 3; j++)
      if (y[order[j]] < y[order[i]]) {
        guint t = order[i];
        order[i] = order[j];
        order[j] = t;
      }
  double at[3];
  for (guint i = 0; i < 3; i++)
    at[order[i]] = i == 0 ? MAX (y[order[0]], ys->pixel_hi + th / 2)
                          : MAX (y[order[i]], at[order[i - 1]] + th * 1.1);
  /* Pushed past the plot's bottom: back up from there. */
  for (int i = 2; i >= 0; i--) {
    double least = i == 2 ? ys->pixel_lo - th / 2 : at[order[i + 1]] - th * 1.1;
    at[order[i]] = MIN (at[order[i]], least);
  }
  ms_set_color (cr, &st->fg, 1);
  for (guint i = 0; i < 3; i++) {
    g_autofree char *sum = slide_sum (&l[i]);
    double x = xs->pixel_hi + fs * 0.4;
    ms_draw_text (cr, slide_label (i), x, at[i] - th / 2, fs, 0, 0, TRUE, NULL, NULL);
    if (sums)
      ms_draw_text (cr, sum, x, at[i] - th / 2 + nh, ffs, 0, 0, FALSE, NULL, NULL);
  }
}

/* Over the plot, at the takeaway's whole n, where allocating once has
 * paid for itself, and the takeaway's end over it. */
static void
draw_crossing (cairo_t *cr, const Costs *k, const MsChartStyle *st, const MsScale *xs,
               const MsScale *ys, int from, double cross, double label_h)
{
  const double fs = ms_style_font_size (st), lw = ms_style_line_width (st);
  /* Where allocating once has paid for itself: at the takeaway's whole
   * n, not where the lines cross (6.2 under "from n = 7" read as a
   * label off its mark); a slide marks the crossing and calls it that. */
  gboolean at_cross = k->slide && cross > 0 && cross <= from;
  double x = round (ms_scale_to_pixel (xs, at_cross ? cross : from)) + 0.5;
  ms_set_color (cr, &st->fg, 0.8);
  ms_set_dash (cr, 1, lw);
  ms_draw_line (cr, lw, x, ys->pixel_hi - label_h * 0.2, x, ys->pixel_lo);
  ms_set_dash (cr, 0, 1);
  /* Translators: on the register lesson's slide, over the mark where
   * the lines of registering every repetition and cudaMallocHost once
   * cross, e.g. "lines cross at n = 5.8" (the takeaway's n is the next
   * whole one); elsewhere, e.g. "allocating once costs less than
   * registering anew from n = 8"; their short forms where the plot is
   * narrower. */
  g_autofree char *note
      = at_cross ? g_strdup_printf (_ ("lines cross at n = %.1f"), cross)
                 : g_strdup_printf (_ ("allocating once costs less than registering anew from "
                                       "n = %d"),
                                    from);
  double tw = ms_draw_text_width (cr, note, fs, TRUE);
  if (tw > xs->pixel_hi - xs->pixel_lo) {
    g_free (note);
    note = at_cross ? g_strdup_printf (_ ("n = %.1f"), cross)
                    : g_strdup_printf (_ ("allocating once costs less from n = %d"), from);
    tw = ms_draw_text_width (cr, note, fs, TRUE);
  }
  /* Over the mark, centred on it as far as the plot allows. */
  double tx = CLAMP (x - tw / 2, xs->pixel_lo, MAX (xs->pixel_lo, xs->pixel_hi - tw));
  ms_set_color (cr, &st->fg, 1);
  ms_draw_text (cr, note, tx, ys->pixel_hi - label_h * 0.2, fs, 0, 1, TRUE, NULL, NULL);
}

/* The plot of both totals against n left of x1 in y0..y1, its labels
 * included, and where they cross. */
static void
draw_plot (cairo_t *cr, const Costs *k, const MsChartStyle *st, double x1, double y0, double y1)
{
  const double fs = ms_style_font_size (st);
  double cross = 0;
  int from = cheaper_from (k, &cross);
  double n_max = ms_register_chart_reps (&k->c);
  Line anew, reused, pinned;
  lines (k, &anew, &reused, &pinned);
  const Line l[3] = { anew, reused, pinned };
  MsScale xs = { 0 }, ys = { 0 };
  /* Up to the takeaway's n, not a rounder one past it ("n ≤ 12" on an
   * axis that ran to 12.5). */
  ms_scale_fit (&xs, MS_SCALE_LINEAR, 0, n_max);
  xs.max = n_max;
  /* From the first repetition: at n = 0 registering each time drew under
   * registering once, against the takeaway's "once costs least" (at n = 1
   * the two are one cost). */
  xs.min = 1;
  ms_scale_fit (&ys, MS_SCALE_LINEAR, 0,
                MAX (anew.at0 + anew.per_rep * xs.max, pinned.at0 + pinned.per_rep * xs.max));
  ys.unit = MS_SCALE_TIME_US;
  MsTick yt[16], xt[16];
  double label_h, label_w = 0, tfs = ms_draw_figure_size (cr, fs);
  ms_draw_text (cr, "0", 0, 0, tfs, -1, 0, FALSE, NULL, &label_h);
  /* The x ticks half a label under the axis: level with it, "1" and
   * "0 ms" crowded the corner. */
  ys.pixel_lo = y1 - label_h * 2.7;
  /* A line over the plot for where the lines cross: inside it the words
   * crossed the mark or a line at some widths. */
  ys.pixel_hi = y0 + label_h * (from > 0 ? 1.3 : 0.5);
  guint ny = ms_axis_ticks (&ys, ys.pixel_lo - ys.pixel_hi, label_h * 2.5, yt, 6);
  for (guint i = 0; i < ny; i++)
    label_w = MAX (label_w, ms_draw_text_width (cr, yt[i].label, tfs, FALSE));
  xs.pixel_lo = fs + label_w + fs * 0.5;
  xs.pixel_hi = x1 - fs - (k->slide ? slide_labels_width (cr, st, l) + fs * 0.4 : 0);
  guint nx = ms_axis_ticks (&xs, xs.pixel_hi - xs.pixel_lo, tfs * 4, xt, 12), whole = 0;
  /* Repetitions come whole: no tick at 2.5; and the first, 1, named
   * where the lines begin. */
  MsTick all[G_N_ELEMENTS (xt)];
  memcpy (all, xt, sizeof all);
  if (nx == 0 || all[0].value > xs.min)
    xt[whole++] = (MsTick){ xs.min, "1", TRUE };
  for (guint i = 0; i < nx && whole < G_N_ELEMENTS (xt); i++)
    if (all[i].value == round (all[i].value) && all[i].value >= xs.min)
      xt[whole++] = all[i];
  /* The last n drawn named, in place of a tick too near it. */
  if (whole > 0 && xt[whole - 1].value < xs.max) {
    if (ms_scale_to_pixel (&xs, xs.max) - ms_scale_to_pixel (&xs, xt[whole - 1].value) < tfs * 2.5
        || whole == G_N_ELEMENTS (xt))
      whole--;
    xt[whole] = (MsTick){ xs.max, "", TRUE };
    g_snprintf (xt[whole++].label, sizeof xt[0].label, "%g", xs.max);
  }
  nx = whole;
  /* The grid as the charts draw theirs. */
  double grid_w = st->high_contrast ? 1.5 : 1;
  ms_set_color (cr, &st->fg, st->high_contrast ? 0.3 : 0.12);
  ms_grid_path_y (cr, &ys, yt, ny, xs.pixel_lo, xs.pixel_hi, grid_w);
  ms_grid_path_x (cr, &xs, xt, nx, ys.pixel_hi, ys.pixel_lo, grid_w);
  cairo_fill (cr);
  ms_set_color (cr, &st->fg, st->high_contrast ? 1 : 0.8);
  for (guint i = 0; i < ny; i++)
    ms_draw_text (cr, yt[i].label, xs.pixel_lo - fs * 0.4, ms_scale_to_pixel (&ys, yt[i].value),
                  tfs, 1, 0.5, FALSE, NULL, NULL);
  for (guint i = 0; i < nx; i++)
    ms_draw_text (cr, xt[i].label, ms_scale_to_pixel (&xs, xt[i].value),
                  ys.pixel_lo + label_h * 0.7, tfs, 0.5, 0, FALSE, NULL, NULL);
  ms_draw_text (cr, _ ("repetitions (n)"), xs.pixel_hi, y1, fs, 1, 1, FALSE, NULL, NULL);
  draw_line (cr, st, MS_MODE_PINNED, FALSE, &xs, &ys, pinned.at0, pinned.per_rep);
  draw_line (cr, st, MS_MODE_REGISTERED, TRUE, &xs, &ys, reused.at0, reused.per_rep);
  draw_line (cr, st, MS_MODE_REGISTERED, FALSE, &xs, &ys, anew.at0, anew.per_rep);
  if (k->slide)
    slide_labels (cr, st, &xs, &ys, l);
  if (from > 0)
    draw_crossing (cr, k, st, &xs, &ys, from, cross, label_h);
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
