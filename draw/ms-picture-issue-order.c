/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-picture-issue-order.c: the issue-order lesson's picture: how much longer depth-first took
 * than breadth-first against the number of streams, on one hardware queue without timers (the line
 * the takeaway quotes, its point ringed: no difference on Hopper) and with a timer around every
 * step, and on the default queues. The timelines of K = 16, drawn from repetitions with a timer
 * around every step, go under it only where their lanes can be read and the quoted orders differ;
 * they show how the orders interleave, and their lengths are not the finding. A slide draws the
 * takeaway's pair without timers as two bars of time with their verdict (draw_slide_pair). */
#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "ms-chart.h"
#include "ms-engine.h"
#include "ms-lesson-picture.h"
#include "ms-lesson-rows.h"
#include "ms-picture-parts.h"
#include "ms-run-describe.h"
#include "ms-timeline-rows.h"

/* The series the chart draws: the plain (untimed) cells of each queue
 * setting, and one queue with a timer around every step, drawn last. */
static const struct {
  gboolean single, timed;
  const char *label;
} lines[] = {
  { FALSE, FALSE, N_ ("default queues") },
  { TRUE, FALSE, N_ ("one queue, no timers") },
  { TRUE, TRUE, N_ ("one queue, a timer on every step") },
};

/* The cell of the queue setting, order and K at exponent e, plain or with a timer around every
 * step, or NULL; its variant named as the lesson names it. */
static const MsCell *
timed_cell (const MsResults *run, int e, gboolean single, gboolean timed, MsIssueOrder order,
            int k)
{
  char variant[MS_VARIANT_LEN];
  ms_lesson_streams_variant (variant, sizeof variant, single, order, k);
  if (timed)
    g_strlcat (variant, "/timers=per-step", sizeof variant);
  const MsCell *c = ms_results_find_variant (run, MS_MODE_STREAMS, e, variant);
  return c && c->n_reps > 0 && c->stats.e2e.median > 0 ? c : NULL;
}

/* The largest size with both orders somewhere: the caption's. */
static int
chart_exponent (const MsResults *run)
{
  for (int e = MS_MAX_EXPONENT; e >= MS_MIN_EXPONENT; e--)
    for (guint q = 0; q < 2; q++)
      for (int k = 1; k <= MS_MAX_STREAMS; k++)
        if (timed_cell (run, e, q, FALSE, MS_ORDER_DEPTH_FIRST, k)
            && timed_cell (run, e, q, FALSE, MS_ORDER_BREADTH_FIRST, k))
          return e;
  return -1;
}

/* The y range from the medians, symmetric about 0 and at least ±10 %: intervals of ±200 % squashed
 * every median onto the 0 line. Returns whether a bar is cut at the range's edge. */
static gboolean
fit_medians (MsChartData *d)
{
  double most = 0;
  gboolean cut = FALSE;
  for (guint i = 0; i < d->series->len; i++) {
    const MsChartSeries *s = g_ptr_array_index (d->series, i);
    for (guint k = 0; k < s->points->len; k++) {
      const MsChartPoint *p = &g_array_index (s->points, MsChartPoint, k);
      if (!p->failed)
        most = MAX (most, fabs (p->y));
    }
  }
  double lim = MAX (10, ceil (most * 1.6 / 5) * 5);
  for (guint i = 0; i < d->series->len; i++) {
    const MsChartSeries *s = g_ptr_array_index (d->series, i);
    for (guint k = 0; k < s->points->len; k++) {
      const MsChartPoint *p = &g_array_index (s->points, MsChartPoint, k);
      cut = cut || (!p->failed && p->lo <= p->hi && (p->lo < -lim || p->hi > lim));
    }
  }
  d->y_min = -lim;
  d->y_max = lim;
  d->y_fixed = TRUE;
  return cut;
}

/* The largest per cent at K = 1 over the lines, by size; NAN: none. */
static double
one_stream_share (const MsChartData *d)
{
  double one = NAN;
  for (guint i = 0; i < d->series->len; i++) {
    const MsChartSeries *s = g_ptr_array_index (d->series, i);
    for (guint k = 0; k < s->points->len; k++) {
      const MsChartPoint *p = &g_array_index (s->points, MsChartPoint, k);
      if (p->x == 1 && !p->failed && !(fabs (p->y) <= fabs (one)))
        one = p->y;
    }
  }
  return one;
}

static gboolean
crosses_zero (const MsChartPoint *p)
{
  return p->lo <= p->hi && p->lo <= 0 && p->hi >= 0;
}

/* The point the takeaway quotes on the last series (drawn on top): the most streams whose bar
 * stays off 0, as the takeaway picks them, else the most streams. */
static const MsChartPoint *
takeaway_point (const MsChartSeries *s)
{
  const MsChartPoint *last = NULL;
  for (guint k = s->points->len; k-- > 0;) {
    const MsChartPoint *p = &g_array_index (s->points, MsChartPoint, k);
    if (p->failed || p->x < 2)
      continue;
    if (!crosses_zero (p))
      return p;
    last = last ? last : p;
  }
  return last;
}

/* Rings the point the takeaway quotes, on the untimed line of series index quoted, with its figure
 * both ways, the chart's per cent and the line's ratio. (It rang the timed line while the takeaway
 * quoted the timers.) */
static void
call_out_takeaway (MsChartData *d, guint quoted)
{
  if (quoted >= d->series->len)
    return;
  const MsChartSeries *s = g_ptr_array_index (d->series, quoted);
  const MsChartPoint *p = takeaway_point (s);
  if (p) {
    /* Where its interval takes in 0, said by the ring: a ringed point otherwise drew the eye to a
     * difference the run could not tell. A per cent that rounds to nothing is "0%", never "-0%". */
    g_autofree char *share
        = round (p->y) == 0 ? g_strdup ("0%") : g_strdup_printf ("%+.0f%%", p->y);
    g_autofree char *label
        = crosses_zero (p)
              /* TRANSLATORS: a ring's label on the issue-order chart, on two lines: the per cent
               * and the ratio of the same point, e.g. "−4% (0.96×):\nits bar crosses 0". Two lines
               * fit between the tall bars of its neighbours. */
              ? g_strdup_printf (_ ("%s (%.2f×):\nits bar crosses 0"), share, 1 + p->y / 100)
              /* TRANSLATORS: the same without the remark, e.g. "+25% (1.25×)". */
              : g_strdup_printf (_ ("%s (%.2f×)"), share, 1 + p->y / 100);
    ms_chart_data_add_callout (d, p->x, p->y, label);
  }
}

/* The chart of a larger view, and of a slide too small for its pair of
 * bars (draw_slide_pair), which keeps the one queue's lines. */
static MsChartData *
build (const MsResults *run, gboolean slide)
{
  MsChartData *d = ms_chart_data_new ();
  int e = chart_exponent (run);
  guint quoted = G_MAXUINT; /* the takeaway's: one queue untimed, else the default's */
  char size[32] = "";
  if (e >= 0)
    ms_format_size_label ((double) ms_exponent_bytes (e), size, sizeof size);
  /* TRANSLATORS: the issue-order picture's title, e.g. "... at 16 MiB per vector ...". */
  d->title = g_strdup_printf (_ ("How much longer depth-first took than breadth-first at %s "
                                 "per vector (above 0: breadth-first is faster)"),
                              size);
  d->x_label = g_strdup (_ ("streams (K)"));
  /* Where no difference lies, said on the axis: a label by the 0 line
   * was the smallest text on any slide (14 px projected). */
  d->y_label = g_strdup (_ ("per cent longer (0: no difference)"));
  d->y_kind = MS_SCALE_LINEAR;
  d->x_unit = MS_SCALE_COUNT;
  d->direct_labels = TRUE;
  d->direct_share = 0.3;
  d->empty_text = g_strdup (_ ("The run has no streams cells measured in both issue orders."));
  /* Timed last, on top. */
  for (guint q = slide ? 1 : 0; q < G_N_ELEMENTS (lines); q++) {
    MsChartSeries *s = NULL;
    for (int k = 1; k <= MS_MAX_STREAMS; k++) {
      const MsCell *depth = e >= 0 ? timed_cell (run, e, lines[q].single, lines[q].timed,
                                                 MS_ORDER_DEPTH_FIRST, k)
                                   : NULL;
      const MsCell *breadth = e >= 0 ? timed_cell (run, e, lines[q].single, lines[q].timed,
                                                   MS_ORDER_BREADTH_FIRST, k)
                                     : NULL;
      if (!depth || !breadth)
        continue;
      if (!s) {
        s = ms_chart_data_add_series (d, _ (lines[q].label), q, q, lines[q].timed);
        if (!lines[q].timed && (lines[q].single || quoted == G_MAXUINT))
          quoted = d->series->len - 1;
      }
      /* The ratio's 95% interval by the rule compare uses, so that a few
       * per cent read as the noise they are where the bars reach 0. */
      MsInterval b_iv = ms_compare_cell_interval (breadth, &run->run_to_run);
      MsInterval d_iv = ms_compare_cell_interval (depth, &run->run_to_run);
      MsJudgement j = ms_verdict_judgement (&b_iv, &d_iv, 0, TRUE);
      ms_chart_series_add (s, k, (j.ratio - 1) * 100, (j.lo - 1) * 100, (j.hi - 1) * 100,
                           !isfinite (j.ratio));
      /* One stream has one order: its figure is noise by definition, and
       * its long bar drew the eye first. Faint, as the note says. */
      if (k == 1)
        g_array_index (s->points, MsChartPoint, s->points->len - 1).muted = TRUE;
    }
  }
  if (d->series->len > 0) {
    ms_chart_data_add_ref (d, 0, NULL);
    gboolean cut = fit_medians (d);
    double one = one_stream_share (d);
    /* The bars are what flattens the medians: said, so that a long bar reads as the noise it is
     * and not as a result; in one note, which a slide has room for, with K = 1 (its +14 % stood
     * unexplained where a second note was left out). */
    gboolean k1 = isfinite (one) && fabs (one) >= 1;
    /* xgettext:no-c-format */
    d->foot_note = g_strconcat (cut ? _ ("Bars: 95% intervals, cut at the chart's edge; one that "
                                         "reaches 0 is noise.")
                                    /* xgettext:no-c-format */
                                    : _ ("Bars: 95% intervals; one that reaches 0 is noise."),
                                k1 ? _ (" So is K = 1 (one stream: one order).") : "", NULL);
    call_out_takeaway (d, quoted);
  }
  return d;
}

/* The slide's bars: the same work in one stream (NULL where the run has none), then the pairs of
 * orders' cells (depth-first first), the takeaway's queue setting and, on one queue, kernels alone
 * there and on the usual queues where the run has both (else the usual queues' copies, then kernels
 * alone on one queue or its timed pair); of each pair, its queue setting in words,
 * whether they lie apart and, where they do not, whether they are the same by the lessons' rule
 * (ms_issue_order_same) or too noisy to tell. */
typedef struct {
  const MsCell *one, *cell[6];
  int n;       /* bars of orders: 2, 4 or 6 */
  bool single; /* the first pair on one queue */
  bool kernels; /* a pair of kernels alone on one queue, not the timed one */
  bool usual_kernels; /* and on the usual queues, in the copies' place there */
  const MsCell *usual_copies[2]; /* the copies' pair there, not drawn then; NULL where none */
  const char *by[3];
  bool apart[3], same[3];
} OrderPair;

/* Where the pair's parts go on the slide. */
typedef struct {
  MsScale xs;
  double fs, label_x, bracket_x, row_h, bar_h, head_h;
  double time_h; /* a bar's time beside it, which its whisker goes under */
  /* A bar's name at a figure's size and its queue setting under it smaller: the name was the
   * smaller once, and a teacher read the two upside-down in weight. */
  double name_fs, by_fs;
  gboolean full; /* room for the words against one stream, ranges and steps */
  double under;  /* under each bar: its whisker and, where it fits, its range in numbers */
} PairLayout;

/* A bar's name on the slide: one stream (-1), depth-first (even) or breadth-first. */
static const char *
order_name (int i)
{
  return i < 0 ? _ ("one stream") : i % 2 == 0 ? _ ("depth-first") : _ ("breadth-first");
}

static const MsCell *
bar_cell (const OrderPair *pair, int i)
{
  return i < 0 ? pair->one : pair->cell[i];
}

static double
median (const OrderPair *pair, int i)
{
  return bar_cell (pair, i)->stats.e2e.median;
}

/* A bar's 95% range in numbers: the whiskers, a few pixels long, decide the verdict and could not
 * be read from the back. */
static const char *
range_text (const MsCell *c, char *buf, gsize len)
{
  const MsStat *e2e = &c->stats.e2e;
  char lo[32], hi[32];
  g_snprintf (buf, len, _ ("%s to %s"), ms_caption_time (e2e->ci_low, lo, sizeof lo),
              ms_caption_time (e2e->ci_high, hi, sizeof hi));
  return buf;
}

/* The words under a bar's name: what one stream is, or which pair. */
static const char *
name_words (const OrderPair *pair, int i)
{
  return i < 0 ? _ ("nothing to overlap") : pair->by[i / 2];
}

/* A pair of orders' bars, where the run has both, with its verdict's facts. */
static void
add_pair (OrderPair *pair, const MsCell *depth, const MsCell *breadth, const char *by)
{
  int p = pair->n / 2;
  if (!depth || !breadth)
    return;
  pair->cell[pair->n++] = depth;
  pair->cell[pair->n++] = breadth;
  pair->by[p] = by;
  pair->apart[p] = ms_issue_order_apart (depth, breadth);
  pair->same[p] = !pair->apart[p] && ms_issue_order_same (depth, breadth);
}

/* The verdict beside the pair: which order took longer and how many times as long where they lie
 * apart, "same" where the rule finds them so, else "cannot tell": H100's untimed bars, stamped
 * "same" with intervals from 0.85 to 1.9 ms, claimed more than the run showed. */
static char *
pair_verdict (const OrderPair *pair, int p)
{
  if (pair->same[p])
    /* TRANSLATORS: beside a pair of bars whose intervals are narrow enough to call them the same,
     * with the rule (the lessons' ±10% band): a bare "same" left a class to guess why. */
    return g_strdup_printf (_ ("same\n(within ±%g%%)"), MS_COMPARE_DEFAULT_THRESHOLD_PCT);
  if (!pair->apart[p])
    /* TRANSLATORS: beside a pair of bars whose intervals meet but are too wide to call them the
     * same; on two lines, as the cache-state lesson's "cannot tell, too noisy". */
    /* Why, in the class's words: "too noisy" left them asking what noise had to do with it;
     * "ranges", which the slide calls thin lines, was read as jargon. */
    return g_strdup (_ ("cannot tell\n(lines overlap)"));
  double times;
  const char *order = ms_issue_order_longer (pair->cell[2 * p], pair->cell[2 * p + 1], &times);
  /* TRANSLATORS: beside a pair of bars whose intervals lie apart, on two lines: the longer order
   * and its time over the other's, e.g. "depth-first 1.20×\n(lines apart)": the thin lines
   * under the bars, as the note calls them. */
  return g_strdup_printf (_ ("%s %.2f×\n(lines apart)"), order, times);
}

/* One bar from its row's middle cy: named at its left, timed at its end and its interval under
 * it. */
static void
draw_bar (cairo_t *cr, const MsChartStyle *style, const OrderPair *pair, const PairLayout *l,
          int i, double cy)
{
  const double fs = l->fs;
  const MsCell *c = bar_cell (pair, i);
  const MsStat *e2e = &c->stats.e2e;
  double x1 = ms_scale_to_pixel (&l->xs, e2e->median);
  MsColor colour = style->fg;
  if (i >= 0)
    ms_chart_palette_color ((guint)i % 2, style->dark, &colour);
  /* The bar's name, and its queue setting under it: which pair it is. */
  char t[32], range[64];
  const char *by = name_words (pair, i);
  double name_h, by_h = 0, by_fs = l->by_fs, name_fs = l->name_fs;
  ms_draw_text (cr, order_name (i), 0, 0, name_fs, -1, 0, TRUE, NULL, &name_h);
  if (*by)
    ms_draw_text (cr, by, 0, 0, by_fs, -1, 0, FALSE, NULL, &by_h);
  ms_set_color (cr, &style->fg, 1);
  ms_draw_text (cr, order_name (i), l->label_x, cy - (name_h + by_h) / 2, name_fs, 0, 0, TRUE,
                NULL, NULL);
  if (by_h > 0)
    ms_draw_text (cr, by, l->label_x, cy - (name_h + by_h) / 2 + name_h, by_fs, 0, 0, FALSE, NULL,
                  NULL);
  double wy = cy + MAX (l->bar_h, l->time_h) / 2 + fs * 0.35,
         lo = ms_scale_to_pixel (&l->xs, e2e->ci_low);
  /* One stream grey: the yardstick, not a third order. */
  ms_set_color (cr, &colour, i < 0 ? 0.4 : 1);
  cairo_rectangle (cr, l->xs.pixel_lo, cy - l->bar_h / 2, x1 - l->xs.pixel_lo, l->bar_h);
  cairo_fill (cr);
  ms_picture_interval (cr, style, lo, ms_scale_to_pixel (&l->xs, e2e->ci_high), FALSE, wy,
                       fs * 0.2);
  /* Under its whisker, from its start: past its end it took the bars' width. */
  ms_set_color (cr, &style->fg, 1);
  if (l->full)
    ms_draw_text (cr, range_text (c, range, sizeof range), lo, wy + fs * 0.3,
                  ms_draw_figure_size (cr, fs), 0, 0, FALSE, NULL, NULL);
  ms_draw_text (cr, ms_caption_time (e2e->median, t, sizeof t), x1 + fs * 0.4, cy,
                ms_draw_figure_size (cr, fs * 1.1), 0, 0.5, TRUE, NULL, NULL);
}

/* The bars from y: one stream's where the run has it, then each pair of orders, with a bracket at
 * their right and its verdict. */
static void
draw_pair (cairo_t *cr, const MsChartStyle *style, const OrderPair *pair, const PairLayout *l,
           double y)
{
  const double fs = l->fs;
  double top = y + l->head_h, mid[6];
  int first = pair->one ? -1 : 0;
  for (int i = first; i < pair->n; i++) {
    double cy = top + (i - first) * l->row_h + (l->row_h - l->under) / 2;
    draw_bar (cr, style, pair, l, i, cy);
    if (i >= 0)
      mid[i] = cy;
  }
  /* Each bracket joins its pair's two bars: the verdict is about both. */
  for (int p = 0; p < pair->n / 2; p++) {
    double y_top = mid[2 * p] - l->bar_h / 2, y_bottom = mid[2 * p + 1] + l->bar_h / 2;
    double bx = l->bracket_x, arm = fs * 0.5;
    ms_set_color (cr, &style->fg, 0.7);
    cairo_set_line_width (cr, ms_style_line_width (style));
    cairo_move_to (cr, bx - arm, y_top);
    cairo_line_to (cr, bx, y_top);
    cairo_line_to (cr, bx, y_bottom);
    cairo_line_to (cr, bx - arm, y_bottom);
    cairo_stroke (cr);
    g_autofree char *verdict = pair_verdict (pair, p);
    ms_set_color (cr, &style->fg, 1);
    ms_draw_text (cr, verdict, bx + fs * 0.5, (y_top + y_bottom) / 2, fs * 1.4, 0, 0.5, TRUE, NULL,
                  NULL);
  }
}

/* The bars' layout in width from top to bottom: names at the left, then the bars on one time scale
 * from 0 to past every 95% range (cut at the axis, a class could not see how wide they were),
 * their times, the brackets and the verdicts at the right. Where the rows are high enough (full),
 * each whisker has its range in numbers; on a low slide the bars, times and whiskers alone. */
static PairLayout
pair_layout (cairo_t *cr, const MsChartStyle *style, const OrderPair *pair, double width,
             double top, double bottom)
{
  PairLayout l = { .fs = ms_style_font_size (style) };
  const double fs = l.fs, ffs = ms_draw_figure_size (cr, fs);
  l.name_fs = ffs;
  l.by_fs = fs * 1.1;
  double label_w = 0, words_w[7], end = 0, range_h, name_h, by_h, verdict_w = 0;
  int first = pair->one ? -1 : 0;
  ms_draw_text (cr, "0", 0, 0, ffs, -1, 0, FALSE, NULL, &range_h);
  ms_draw_text (cr, order_name (0), 0, 0, l.name_fs, -1, 0, TRUE, NULL, &name_h);
  ms_draw_text (cr, "1 ms", 0, 0, ms_draw_figure_size (cr, fs * 1.1), -1, 0, TRUE, NULL, &l.time_h);
  ms_draw_text (cr, name_words (pair, 0), 0, 0, l.by_fs, -1, 0, FALSE, NULL, &by_h);
  l.head_h = fs * 0.5;
  l.row_h = (bottom - top - l.head_h) / (pair->n - first);
  l.bar_h = MIN (l.row_h * 0.45, fs * 1.8);
  double least = (MAX (l.bar_h, l.time_h) - l.bar_h) / 2 + fs * 0.7;
  l.full = l.row_h >= MAX (name_h + by_h, l.bar_h + least + range_h);
  l.under = l.full ? least + range_h : least;
  for (int p = 0; p < pair->n / 2; p++) {
    g_autofree char *verdict = pair_verdict (pair, p);
    verdict_w = MAX (verdict_w, ms_draw_text_width (cr, verdict, fs * 1.4, TRUE));
  }
  for (int i = first; i < pair->n; i++) {
    char t[32];
    label_w = MAX (label_w, ms_draw_text_width (cr, order_name (i), l.name_fs, TRUE));
    label_w = MAX (label_w, ms_draw_text_width (cr, name_words (pair, i), l.by_fs, FALSE));
    ms_caption_time (median (pair, i), t, sizeof t);
    words_w[i + 1] = ms_draw_text_width (cr, t, ms_draw_figure_size (cr, fs * 1.1), TRUE);
    end = MAX (end, MAX (bar_cell (pair, i)->stats.e2e.ci_high, median (pair, i) * 1.05));
  }
  l.label_x = fs * 1.5;
  l.bracket_x = width - fs * 1.5 - verdict_w;
  double x0 = l.label_x + label_w + fs, span = l.bracket_x - fs - x0;
  /* Each bar's end and words before the bracket. */
  for (int i = first; i < pair->n; i++) {
    char range[64];
    range_text (bar_cell (pair, i), range, sizeof range);
    double range_w = ms_draw_text_width (cr, range, ffs, FALSE);
    span = MIN (span, (l.bracket_x - fs * 1.2 - x0 - words_w[i + 1]) * end / median (pair, i));
    if (l.full)
      span = MIN (span, (l.bracket_x - fs * 1.4 - x0 - range_w) * end
                            / bar_cell (pair, i)->stats.e2e.ci_low);
  }
  l.xs = (MsScale){ MS_SCALE_LINEAR, 0, end, x0, x0 + span, MS_SCALE_TIME_US };
  /* The axis ends on a tick: past its last one it ran on unlabelled. */
  MsTick ticks[16];
  guint nt = ms_axis_ticks (&l.xs, l.xs.pixel_hi - l.xs.pixel_lo, fs * 3, ticks, 16);
  if (nt >= 2 && ticks[nt - 1].value < l.xs.max)
    l.xs.max = 2 * ticks[nt - 1].value - ticks[nt - 2].value;
  return l;
}

/* The orders named by what they do, in one line where the steps are one queue's: the third pair
 * of bars needed the room, and the one queue's definition went to the Details. */
static char *
slide_terms (const OrderPair *pair, gboolean gloss, int streams)
{
  /* One queue glossed where the rows keep their room: in the details alone, a teacher had to
   * explain it first; what a queue is, in a bracket: teachers had to. */
  if (pair->single && gloss && pair->usual_kernels && streams > 8)
    /* The usual number where kernels alone on them are drawn: more streams than queues is why
     * depth-first is still longer there, and a teacher had to say so. */
    return g_strdup_printf (_ ("Depth-first: one stream's in, add, back, then the next's; "
                               "breadth-first: each step for every stream. Queues (GPU work "
                               "lanes): 1 with CUDA_DEVICE_MAX_CONNECTIONS=1, else %d for %d "
                               "streams."),
                            MS_ISSUE_ORDER_USUAL_QUEUES, streams);
  if (pair->single && gloss)
    /* The usual queues' number in both: "several" left a reader asking how many. */
    return g_strdup_printf (_ ("Depth-first: one stream's in, add, back, then the next's; "
                               "breadth-first: each step for every stream. Queues (GPU work "
                               "lanes): 1 with CUDA_DEVICE_MAX_CONNECTIONS=1, else the default "
                               "%d."),
                            MS_ISSUE_ORDER_USUAL_QUEUES);
  return g_strdup (pair->single ? _ ("Depth-first: one stream's in, add, back, then the next's; "
                                     "breadth-first: each step for every stream.")
                                : _ ("Each stream copies its part of a and b in, adds them, "
                                     "copies c back. Depth-first: each stream's steps, then the "
                                     "next stream's; breadth-first: each step for every stream "
                                     "in turn."));
}

/* The note under the bars: what the thin lines are (at 8 or fewer repetitions a median's 95% range
 * is the fastest to the slowest) and, where the timed pair (the last) lies apart and both untimed
 * ones read alike, what the bars show: the event pairs, the only difference between the one-queue
 * pairs, slowed both orders and one more. No mechanism: the run does not show one. */
static char *
slide_note (const OrderPair *pair, gboolean brief)
{
  const MsStat *e2e = &pair->cell[0]->stats.e2e;
  int last = pair->n / 2 - 1;
  g_autofree char *range
      = e2e->ci_low == e2e->min && e2e->ci_high == e2e->max
            ? g_strdup_printf (_ ("Bars: medians of %d whole repetitions; thin lines: fastest to "
                                  "slowest."),
                               e2e->n)
            : g_strdup_printf (_ ("Bars: medians of %d whole repetitions; thin lines: their 95%% "
                                  "ranges."),
                               e2e->n);
  if (pair->kernels) {
    /* TRANSLATORS: after the bars' note on the issue-order slide, e.g. "Kernels alone: each of a
     * stream's 3 steps one block spinning 50 µs (48 kernels), no copies." (in, add, back) */
    /* How many kernels: without it a teacher could not rebuild 1.74 ms from 50 µs a step. */
    g_autofree char *kernels = g_strdup_printf (
        _ ("Kernels alone: each of a stream's 3 steps one block spinning %g µs (%d kernels), no "
           "copies."),
        MS_ISSUE_ORDER_SPIN_US, 3 * MS_ISSUE_ORDER_AROUND_K);
    /* Why the copies ran alike, where breadth-first shows it: a teacher found their "same"
     * beside kernels' 7× unexplained on the slide. */
    char why[256] = "";
    if (pair->one && pair->single)
      ms_issue_order_copies_free (pair->one, pair->cell[1], why, sizeof why);
    /* The copies on the usual queues, whose bars make way for kernels alone there: "With
     * copies: no" was read as measured on one queue alone. */
    g_autofree char *usual = NULL;
    const MsCell *const *u = pair->usual_copies;
    if (!brief && u[0] && u[1] && ms_issue_order_same (u[0], u[1])) {
      char t[2][32];
      ms_caption_time (u[0]->stats.e2e.median, t[0], sizeof t[0]);
      ms_caption_time (u[1]->stats.e2e.median, t[1], sizeof t[1]);
      /* TRANSLATORS: on the issue-order slide, e.g. "Copies and add on the usual 8 queues: 785 vs
       * 787 µs, the same." (depth-first's median first). */
      usual = g_strdup_printf (_ ("Copies and add on the usual %d queues: %s vs %s, the same."),
                               MS_ISSUE_ORDER_USUAL_QUEUES, t[0], t[1]);
    }
    return g_strjoin (" ", range, kernels, why, usual ? usual : "", NULL);
  }
  /* "Slowed both orders" where both timed medians lie above their untimed ones on one queue. */
  if (last < 2 || !pair->apart[last] || pair->apart[0] || pair->apart[1]
      || pair->same[0] != pair->same[1]
      || pair->cell[4]->stats.e2e.median <= pair->cell[0]->stats.e2e.median
      || pair->cell[5]->stats.e2e.median <= pair->cell[1]->stats.e2e.median)
    return g_steal_pointer (&range);
  double times;
  const char *order = ms_issue_order_longer (pair->cell[4], pair->cell[5], &times);
  /* What the bars show and no more: teachers read "the textbook's false dependency" as an
   * interpretation the run does not establish. */
  double t0 = pair->cell[4]->stats.e2e.median, t1 = pair->cell[5]->stats.e2e.median;
  /* TRANSLATORS: after the bars' note, e.g. "Untimed, the orders ran alike. Event pairs around
   * every step on one queue slowed both orders, depth-first to 1.20× breadth-first's time." */
  g_autofree char *timed = g_strdup_printf (
      _ ("Event pairs around every step on one queue slowed both orders, %s to %.2f× %s's "
         "time."),
      order, times, t0 >= t1 ? _ ("breadth-first") : _ ("depth-first"));
  return g_strjoin (" ", range,
                    pair->same[0] && pair->same[1]
                        ? _ ("Untimed, the orders ran alike.")
                        : _ ("Untimed, the run cannot tell the orders apart."),
                    timed, NULL);
}

/* A slide: the two orders at the takeaway's K without timers, beside the same work in one stream,
 * bars of time on one scale from 0, the orders bracketed with their verdict; on one queue the
 * usual queues' pair and one queue's with a timer on every step, which the headline answers with
 * (in the Details alone, the textbook's effect went unseen). */
static gboolean
draw_slide_pair (cairo_t *cr, const MsResults *run, const MsChartStyle *style, double width,
                  double height)
{
  OrderPair pair = { .n = 0 };
  int k;
  bool apart;
  const MsCell *depth, *breadth;
  if (!ms_issue_order_quoted (run, &depth, &breadth, &k, &pair.single, &apart))
    return FALSE;
  pair.one = ms_issue_order_one_stream (run, depth);
  /* Said to carry copies where kernels alone are drawn too: "one queue" alone left a reader to
   * infer which rows moved data. */
  const int e = depth->exponent;
  const MsCell *kd, *kb;
  /* Kernels alone where the run has them: the textbook's effect itself, which the timed pair
   * stood in for (the timers' sentence is the Details'). */
  pair.kernels = pair.single && ms_issue_order_kernels (run, e, TRUE, &kd, &kb);
  add_pair (&pair, depth, breadth,
            !pair.single   ? _ ("usual queues")
            : pair.kernels ? _ ("copies and add, one queue")
                           : _ ("one queue"));
  /* The usual queues' pair beside one queue's: the contrast a teacher wanted drawn; then kernels
   * alone, else the timed one (whose timers are all that differs from the untimed one-queue
   * pair). */
  if (pair.single) {
    /* On the usual queues too, in the copies' place there, where a teacher asked for the cure
     * beside the effect. */
    const MsCell *ud, *ub;
    /* Only where the headline leads with kernels alone (one queue's lie apart, the copies' not):
     * else it quotes the copies' usual-queues pair, which must stay drawn. */
    pair.usual_kernels = pair.kernels && !apart && ms_issue_order_apart (kd, kb)
                         && ms_issue_order_kernels (run, e, FALSE, &ud, &ub);
    const MsCell *cd = timed_cell (run, e, FALSE, FALSE, MS_ORDER_DEPTH_FIRST, k),
                 *cb = timed_cell (run, e, FALSE, FALSE, MS_ORDER_BREADTH_FIRST, k);
    if (!pair.usual_kernels)
      add_pair (&pair, cd, cb, _ ("usual queues"));
    else
      pair.usual_copies[0] = cd, pair.usual_copies[1] = cb;
    if (pair.kernels)
      add_pair (&pair, kd, kb, _ ("kernels alone, one queue"));
    if (pair.usual_kernels)
      add_pair (&pair, ud, ub, _ ("kernels alone, usual queues"));
    else if (!pair.kernels)
      add_pair (&pair, timed_cell (run, e, TRUE, TRUE, MS_ORDER_DEPTH_FIRST, k),
                timed_cell (run, e, TRUE, TRUE, MS_ORDER_BREADTH_FIRST, k),
                _ ("one queue, every step timed"));
  }
  const double fs = ms_style_font_size (style);
  char size[32], vector[32];
  ms_format_size_label ((double) ms_vector_bytes (depth->elements) / k, size, sizeof size);
  ms_format_size_label ((double) ms_vector_bytes (depth->elements), vector, sizeof vector);
  /* TRANSLATORS: the issue-order slide's title, e.g. "16 streams, each adding a 1 MiB part of 16
   * MiB vectors: time to run them all"; each pair's queue setting is under its bars' names. */
  g_autofree char *title = g_strdup_printf (_ ("%d streams, each adding a %s part of %s vectors: "
                                               "time to run them all"),
                                            k, size, vector);
  const double top
      = ms_draw_text_wrapped (cr, title, fs * 0.5, fs * 0.3, fs * 1.1, width - fs, TRUE, FALSE)
        + fs * 0.5;
  g_autofree char *terms = NULL, *note = NULL;
  double note_h = 0, bottom = 0;
  PairLayout l;
  /* The note in full, then brief, where the rows would close up (a 540 px pane). */
  for (int brief = 0; brief < 2 && !terms; brief++) {
    g_free (note);
    note = slide_note (&pair, brief);
    note_h = ms_draw_note (cr, style, note, fs * 0.5, 0, width - fs, FALSE);
    bottom = height - note_h - fs * 2.6;
    for (int gloss = 1; gloss >= 0 && !terms; gloss--) {
      g_autofree char *t = slide_terms (&pair, gloss, k);
      double y
          = top + ms_draw_text_wrapped (cr, t, fs * 0.5, top, fs, width - fs, FALSE, FALSE) + fs;
      l = pair_layout (cr, style, &pair, width, y, bottom);
      /* Under 2.3 lines a row, the values met the bars (a 540 px pane). */
      if ((!gloss && brief) || l.row_h >= fs * 2.3)
        terms = g_steal_pointer (&t);
    }
  }
  /* Too narrow for the bars beside their words: the chart instead. */
  if (l.row_h < fs * 1.6 || l.xs.pixel_hi - l.xs.pixel_lo < fs * 5)
    return FALSE;
  ms_draw_background (cr, style);
  double y = ms_picture_title (cr, style, title, width) + fs * 0.5;
  /* At full contrast: grey, the definitions under the title washed out on a projector. */
  ms_set_color (cr, &style->fg, 1);
  y += ms_draw_text_wrapped (cr, terms, fs * 0.5, y, fs, width - fs, FALSE, TRUE) + fs;
  ms_draw_time_axis (cr, style, &l.xs, y, bottom, fs * 3, width);
  draw_pair (cr, style, &pair, &l, y);
  ms_draw_note (cr, style, note, fs * 0.5, height - note_h - fs * 0.5, width - fs, TRUE);
  return TRUE;
}

static void
ms_picture_issue_order (cairo_t *cr, const MsResults *run, const MsChartStyle *style, double width,
                        double height)
{
  const double fs = ms_style_font_size (style);
  if (ms_draw_is_slide (style, height) && draw_slide_pair (cr, run, style, width, height))
    return;
  g_autoptr (MsChartData) data = build (run, ms_draw_is_slide (style, height));
  ms_draw_background (cr, style);
  MsTimelineRows rows;
  ms_timeline_rows_init (&rows);
  /* Where the takeaway's orders do not differ, no timelines: one repetition of each order, drawn
   * with timers, showed one order visibly shorter and suggested the winner the run did not give. */
  const MsCell *qd, *qb;
  int qk;
  bool qsingle, apart = false;
  ms_issue_order_quoted (run, &qd, &qb, &qk, &qsingle, &apart);
  int n_rows = data->series->len > 0 && apart
                 ? ms_lesson_rows_fill (&rows, MS_TOPIC_ISSUE_ORDER, run)
                 : 0;
  /* The chart keeps room to be read; the timelines come only with lanes their least height (16
   * streams each: at a lesson pane's size they were stripes). */
  double chart_least = fs * 16, tl_h = 0;
  if (n_rows > 0) {
    double need = ms_timeline_rows_least_height (cr, &rows, style, width);
    if (height - need >= chart_least)
      tl_h = MAX (need, height * 0.55) <= height - chart_least ? MAX (need, height * 0.55) : need;
  }
  double chart_h = round (height - tl_h);
  cairo_save (cr);
  cairo_rectangle (cr, 0, 0, width, chart_h);
  cairo_clip (cr);
  ms_chart_draw (cr, data, style, width, chart_h, -1, NULL);
  cairo_restore (cr);
  if (tl_h > 0)
    ms_picture_timelines (cr, &rows, FALSE, TRUE, style, chart_h, width, tl_h);
  ms_timeline_rows_clear (&rows);
}

/* The rows its timelines compare: both orders on one queue and on the
 * default ones, at the most streams measured in both orders. */
static int
pick_rows (const MsResults *run, MsLessonRow *rows, int max)
{
  int best = 0;
  for (gsize i = 0; i < run->n_cells; i++) {
    int k;
    char host[16];
    const MsCell *c = &run->cells[i];
    if (c->mode == MS_MODE_STREAMS && ms_variant_get_int (c->variant, "K", &k) && k > best
        && !ms_variant_get (c->variant, "host", host, sizeof host))
      best = k;
  }
  static const char *const labels[2][2] = {
    { N_ ("default queues, depth-first"), N_ ("default queues, breadth-first") },
    { N_ ("one queue, depth-first"), N_ ("one queue, breadth-first") },
  };
  int n = 0;
  for (int single = 1; single >= 0 && best; single--)
    for (int o = MS_ORDER_DEPTH_FIRST; o <= MS_ORDER_BREADTH_FIRST && n < max; o++) {
      rows[n].mode = MS_MODE_STREAMS;
      rows[n].label = _ (labels[single][o == MS_ORDER_BREADTH_FIRST]);
      rows[n].words = NULL;
      ms_lesson_streams_variant (rows[n++].variant, MS_VARIANT_LEN, single, o, best);
    }
  return n;
}

static const MsVariantWords words[] = {
  { "around=plain", N_ ("no instrumented repetition between the timed ones") },
  { "around=kept", N_ ("the inputs not rewritten before every repetition") },
  { "queue=default", N_ ("on the default stream") },
  { "order=breadth", N_ ("issued breadth first: each step for every stream in turn") },
  { "order=depth", N_ ("issued depth first: one stream's steps, then the next's") },
  { "host=work", N_ ("the host does work of its own meanwhile") },
  { "work=kernels", N_ ("kernels alone: every step one block spinning, no copies") },
  { NULL },
};

const MsLessonLook ms_lesson_look_issue_order = {
  .picture = ms_picture_issue_order,
  .view = { NULL, NULL, MS_METRIC_E2E_TIME, TRUE },
  .pick_rows = pick_rows,
  .words = words,
  /* The streams settings matter to the lesson about streams. */
  .title_words = ms_run_describe_streams,
};
