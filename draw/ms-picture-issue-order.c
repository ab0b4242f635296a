/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-picture-issue-order.c: the issue-order lesson's picture: how much longer depth-first took
 * than breadth-first against the number of streams, on one hardware queue without timers (the line
 * the takeaway quotes, its point ringed: no difference on Hopper) and with a timer around every
 * step, and on the default queues. The timelines of K = 16, drawn from repetitions with a timer
 * around every step, go under it only where their lanes can be read and the quoted orders differ;
 * they show how the orders interleave, and their lengths are not the finding. A slide draws the
 * takeaway's orders as bars of time, a row a workload and a column a queue setting, each pair
 * with its verdict (draw_slide_grid). */
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

/* The chart of a larger view, and of a slide too small for its
 * grid (draw_slide_grid), which keeps the one queue's lines. */
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

/* A slide's grid: a row a workload (copies and add; kernels alone where the run has them, else one
 * queue's pair with a timer on every step), a column a queue setting (one queue, the usual ones),
 * each cell both orders' bars on one time scale with its verdict. As seven bars in a column, each
 * named by its order over its setting and workload, teachers had to sort out which bars to compare,
 * and the usual queues' copies, left to a sentence, were looked for among the bars. */
typedef struct {
  const MsCell *pair[2][2][2]; /* [row][column][depth-first, breadth-first]; NULL: not measured */
  const char *row_name[2];
  int rows;
  bool kernels;      /* the second row kernels alone, not one queue timed */
  const MsCell *one; /* the copies in one stream, NULL where none */
} Grid;

/* Where the grid's parts go. */
typedef struct {
  MsScale xs[2]; /* each column's time scale: one span, from its own left */
  double fs, ffs, head_x, col_x[2], col_w, top, row_h, bar_h;
  double time_h; /* a bar's time beside it, which its thin line goes under */
  gboolean why;  /* each verdict with what it rests on under it */
  gboolean said; /* each column's name with what its setting does under it */
} GridLayout;

static gboolean
measured (const MsCell *const pair[2])
{
  return pair[0] && pair[1];
}

/* Row r's pair in column q, both orders. */
static const MsCell *const *
grid_pair (const Grid *g, int r, int q)
{
  return (const MsCell *const *)g->pair[r][q];
}

/* The grid from the run, at the takeaway's size and streams; FALSE where the run has no pair. */
static gboolean
grid_fill (const MsResults *run, Grid *g, int *k, const MsCell **depth)
{
  const MsCell *breadth, *kd[2], *kb[2];
  bool single, apart;
  memset (g, 0, sizeof *g);
  if (!ms_issue_order_quoted (run, depth, &breadth, k, &single, &apart))
    return FALSE;
  const int e = (*depth)->exponent;
  g->one = ms_issue_order_one_stream (run, *depth);
  for (int q = 0; q < 2; q++)
    for (int o = 0; o < 2; o++)
      g->pair[0][q][o] = timed_cell (run, e, q == 0, FALSE, o ? MS_ORDER_BREADTH_FIRST
                                                                : MS_ORDER_DEPTH_FIRST, *k);
  g->row_name[0] = _ ("copies and add");
  g->rows = 1;
  g->kernels = ms_issue_order_kernels (run, e, TRUE, &kd[0], &kb[0]);
  if (g->kernels) {
    g->pair[1][0][0] = kd[0], g->pair[1][0][1] = kb[0];
    if (ms_issue_order_kernels (run, e, FALSE, &kd[1], &kb[1]))
      g->pair[1][1][0] = kd[1], g->pair[1][1][1] = kb[1];
    g->row_name[1] = _ ("kernels alone");
    g->rows = 2;
  } else {
    for (int o = 0; o < 2; o++)
      g->pair[1][0][o] = timed_cell (run, e, TRUE, TRUE, o ? MS_ORDER_BREADTH_FIRST
                                                            : MS_ORDER_DEPTH_FIRST, *k);
    g->row_name[1] = _ ("copies and add, every step timed");
    g->rows = measured (grid_pair (g, 1, 0)) ? 2 : 1;
  }
  return TRUE;
}

/* The verdict under a cell's bars, in bold, and what it rests on under it in *why: which order took
 * longer and how many times as long where their ranges lie apart, "the same" where the rule finds
 * them so, else "cannot tell": H100's untimed bars, stamped "same" with ranges from 0.85 to 1.9 ms,
 * claimed more than the run showed. On one line the longer verdicts ran past their column. */
static char *
cell_verdict (const MsCell *const pair[2], char **why)
{
  if (!measured (pair)) {
    *why = g_strdup ("");
    /* TRANSLATORS: in an issue-order slide's cell the run did not measure. */
    return g_strdup (_ ("not measured"));
  }
  if (!ms_issue_order_apart (pair[0], pair[1]) && ms_issue_order_same (pair[0], pair[1])) {
    /* TRANSLATORS: under "the same" on the issue-order slide (the lessons' ±10% band). */
    *why = g_strdup_printf (_ ("within ±%g%%"), MS_COMPARE_DEFAULT_THRESHOLD_PCT);
    /* TRANSLATORS: under a pair of bars the rule calls the same. */
    return g_strdup (_ ("the same"));
  }
  if (!ms_issue_order_apart (pair[0], pair[1])) {
    /* TRANSLATORS: under "cannot tell": the bars' thin lines meet, but are too wide to call them
     * the same. */
    *why = g_strdup (_ ("their thin lines overlap"));
    return g_strdup (_ ("cannot tell"));
  }
  double times;
  const char *order = ms_issue_order_longer (pair[0], pair[1], &times);
  /* TRANSLATORS: under a verdict such as "depth-first 5.47×": the other order ("(lines apart)"
   * was read as jargon). */
  gboolean depth_longer = pair[0]->stats.e2e.median >= pair[1]->stats.e2e.median;
  *why = g_strdup_printf (_ ("as long as %s"),
                          depth_longer ? _ ("breadth-first") : _ ("depth-first"));
  /* TRANSLATORS: under a pair of bars whose thin lines lie apart: the longer order and its time
   * over the other's, e.g. "depth-first 5.47×". */
  return g_strdup_printf (_ ("%s %.2f×"), order, times);
}

/* The height of a cell's verdict and its why, and drawn at x, y where draw. */
static double
verdict_lines (cairo_t *cr, const GridLayout *l, const MsCell *const pair[2], double x, double y,
               gboolean draw)
{
  g_autofree char *why = NULL;
  g_autofree char *verdict = cell_verdict (pair, &why);
  double w = l->col_w - l->fs * 0.5, vw, th;
  ms_draw_text (cr, verdict, 0, 0, l->ffs, -1, 0, TRUE, &vw, &th);
  /* Its why at a figure's size, as the figures it may hold ("within ±10%"): after it on its line
   * where both fit, else under it. */
  double gap = l->ffs * 0.35, ww = *why ? ms_draw_text_width (cr, why, l->ffs, FALSE) : 0;
  if (*why && l->why && vw + gap + ww <= w) {
    if (draw) {
      ms_draw_text (cr, verdict, x, y, l->ffs, 0, 0, measured (pair), NULL, NULL);
      ms_draw_text (cr, why, x + vw + gap, y, l->ffs, 0, 0, FALSE, NULL, NULL);
    }
    return th;
  }
  double h = ms_draw_text_wrapped (cr, verdict, x, y, l->ffs, w, measured (pair), draw);
  return h + (*why && l->why ? ms_draw_text_wrapped (cr, why, x, y + h, l->ffs, w, FALSE, draw)
                             : 0);
}

/* The columns' heads: the queue setting, and what it is under it. */
static char *
column_name (int q)
{
  /* TRANSLATORS: over the issue-order slide's second column, e.g. "the usual 8 queues". */
  return q == 0 ? g_strdup (_ ("one queue"))
                : g_strdup_printf (_ ("the usual %d queues"), MS_ISSUE_ORDER_USUAL_QUEUES);
}

/* Under a column's name, how its setting is made and what it does (text at the body's size, a
 * sentence): one queue's variable, in the Details alone at 1024x768, was the first thing
 * teachers had to explain. */
static const char *
column_words (int q)
{
  /* TRANSLATORS: under "one queue" on the issue-order slide. */
  return q == 0 ? _ ("work starts in issue order; set by CUDA_DEVICE_MAX_CONNECTIONS")
                /* TRANSLATORS: under "the usual 8 queues". */
                : _ ("CUDA's default");
}

/* What a row is, under its name: one stream's time for the copies (how much the streams
 * overlapped), the kernels for kernels alone (a teacher could not rebuild 1.74 ms from 50 µs a
 * step without their number). */
static char *
row_words (const Grid *g, int r)
{
  char t[32];
  if (r == 0 && g->one)
    /* TRANSLATORS: under "copies and add", e.g. "one stream alone: 944 µs". */
    return g_strdup_printf (_ ("one stream alone: %s"),
                            ms_caption_time (g->one->stats.e2e.median, t, sizeof t));
  if (r == 1 && g->kernels)
    /* TRANSLATORS: under "kernels alone", e.g. "48 kernels, each spinning 50 µs". */
    return g_strdup_printf (_ ("%d kernels, each spinning %g µs"), 3 * MS_ISSUE_ORDER_AROUND_K,
                            MS_ISSUE_ORDER_SPIN_US);
  return g_strdup ("");
}

/* One bar from cy: order o's colour, timed at its end, its range as a thin line under it. */
static void
grid_bar (cairo_t *cr, const MsChartStyle *style, const GridLayout *l, const MsScale *xs,
          const MsCell *c, int o, double cy)
{
  const MsStat *e2e = &c->stats.e2e;
  double x1 = ms_scale_to_pixel (xs, e2e->median);
  MsColor colour;
  char t[32];
  ms_chart_palette_color ((guint)o, style->dark, &colour);
  ms_set_color (cr, &colour, 1);
  cairo_rectangle (cr, xs->pixel_lo, cy - l->bar_h / 2, x1 - xs->pixel_lo, l->bar_h);
  cairo_fill (cr);
  /* Under the bar and its time: across the time, a wide range was read through it. */
  ms_picture_interval (cr, style, ms_scale_to_pixel (xs, e2e->ci_low),
                       ms_scale_to_pixel (xs, e2e->ci_high), FALSE,
                       cy + MAX (l->bar_h, l->time_h) / 2 + l->fs * 0.25, l->fs * 0.12);
  ms_set_color (cr, &style->fg, 1);
  ms_draw_text (cr, ms_caption_time (e2e->median, t, sizeof t), x1 + l->fs * 0.3, cy, l->ffs, 0,
                0.5, TRUE, NULL, NULL);
}

/* Row r's cell in column q: both bars, the verdict under them. */
static void
grid_cell (cairo_t *cr, const MsChartStyle *style, const GridLayout *l, const Grid *g, int r, int q)
{
  const MsCell *const *pair = grid_pair (g, r, q);
  double y = l->top + r * l->row_h, gap = MAX (l->bar_h, l->time_h) + l->fs * 0.5;
  if (measured (pair))
    for (int o = 0; o < 2; o++)
      grid_bar (cr, style, l, &l->xs[q], pair[o], o, y + l->fs * 0.3 + l->bar_h / 2 + o * gap);
  ms_set_color (cr, &style->fg, measured (pair) ? 1 : 0.6);
  verdict_lines (cr, l, pair, l->col_x[q], y + l->fs * 0.3 + 2 * gap, TRUE);
}

/* The columns' heads from y, each name over its words wrapped to its column (cut, "as on the
 * textbook's GPU" lost its end on a handout); their height, drawn only where draw. */
static double
column_heads (cairo_t *cr, const GridLayout *l, double y, gboolean draw)
{
  double h = 0;
  for (int q = 0; q < 2; q++) {
    g_autofree char *name = column_name (q);
    double w = l->col_w - l->fs * 0.5;
    double th = ms_draw_text_wrapped (cr, name, l->col_x[q], y, l->ffs, w, TRUE, draw);
    h = MAX (h, th + (l->said ? ms_draw_text_wrapped (cr, column_words (q), l->col_x[q], y + th,
                                                      l->fs, w, FALSE, draw)
                              : 0));
  }
  return h;
}

/* The grid's layout from its columns' heads at heads to bottom: row heads at the left, two
 * columns of the same width, one time span for every cell from 0 to past every bar's range and
 * time. */
static GridLayout
grid_layout (cairo_t *cr, const MsChartStyle *style, const Grid *g, double width, double heads,
             double bottom, int step)
{
  GridLayout l = { .fs = ms_style_font_size (style), .why = step < 3, .said = step < 4 };
  const double fs = l.fs;
  l.ffs = ms_draw_figure_size (cr, fs);
  double head_w = 0;
  for (int r = 0; r < g->rows; r++) {
    g_autofree char *words = row_words (g, r);
    head_w = MAX (head_w, ms_draw_text_width (cr, g->row_name[r], l.ffs, TRUE));
    head_w = MAX (head_w, ms_draw_text_width (cr, words, l.ffs, FALSE));
  }
  l.head_x = fs * 0.5;
  head_w = MIN (head_w, width * 0.22);
  /* A gap between the columns for their axes' last and first ticks. */
  l.col_w = (width - l.head_x - head_w - fs * 3.5) / 2;
  l.col_x[0] = l.head_x + head_w + fs;
  l.col_x[1] = l.col_x[0] + l.col_w + fs * 2.5;
  l.top = heads + column_heads (cr, &l, heads, FALSE) + fs * 0.5;
  l.row_h = (bottom - l.top) / g->rows;
  /* Room under the bars for the longest verdict, wrapped to its column. */
  double verdict_h = 0;
  for (int r = 0; r < g->rows; r++)
    for (int q = 0; q < 2; q++)
      verdict_h = MAX (verdict_h, verdict_lines (cr, &l, grid_pair (g, r, q),
                                                 0, 0, FALSE));
  ms_draw_text (cr, "1 ms", 0, 0, l.ffs, -1, 0, TRUE, NULL, &l.time_h);
  l.bar_h = MIN (fs * 1.3, l.row_h - verdict_h - 2 * (l.time_h + fs * 0.5) - fs * 0.3);
  /* One span for all: each bar's end and its time, and its range, inside its cell. */
  double end = 0, span = l.col_w - fs * 1.5;
  for (int r = 0; r < g->rows; r++)
    for (int q = 0; q < 2; q++)
      for (int o = 0; o < 2 && measured (grid_pair (g, r, q)); o++)
        end = MAX (end, g->pair[r][q][o]->stats.e2e.ci_high);
  for (int r = 0; r < g->rows; r++)
    for (int q = 0; q < 2; q++)
      for (int o = 0; o < 2 && measured (grid_pair (g, r, q)); o++) {
        char t[32];
        double m = g->pair[r][q][o]->stats.e2e.median;
        double tw = ms_draw_text_width (cr, ms_caption_time (m, t, sizeof t), l.ffs, TRUE);
        span = MIN (span, (l.col_w - fs * 0.6 - tw) * end / m);
      }
  for (int q = 0; q < 2; q++) {
    l.xs[q] = (MsScale){ MS_SCALE_LINEAR, 0, end, l.col_x[q], l.col_x[q] + span,
                         MS_SCALE_TIME_US };
    /* The axis ends on a tick: past its last one it ran on unlabelled. */
    MsTick ticks[16];
    guint nt = ms_axis_ticks (&l.xs[q], span, fs * 3, ticks, 16);
    if (nt >= 2 && ticks[nt - 1].value < end)
      l.xs[q].max = 2 * ticks[nt - 1].value - ticks[nt - 2].value;
  }
  return l;
}

/* The heads over the columns and beside the rows, bold over plain. */
static void
grid_heads (cairo_t *cr, const MsChartStyle *style, const GridLayout *l, const Grid *g,
            double y)
{
  ms_set_color (cr, &style->fg, 1);
  column_heads (cr, l, y, TRUE);
  for (int r = 0; r < g->rows; r++) {
    g_autofree char *words = row_words (g, r);
    double ry = l->top + r * l->row_h + l->fs * 0.2, th;
    /* Under the name as wrapped: under its first line, a name on two
     * lines (a narrow pane's) lay over the words. */
    double name_h = ms_draw_text_wrapped (cr, g->row_name[r], l->head_x, ry, l->ffs,
                                          l->col_x[0] - l->head_x - l->fs, TRUE, TRUE);
    ms_draw_text (cr, g->row_name[r], 0, 0, l->ffs, -1, 0, TRUE, NULL, &th);
    ms_draw_text_wrapped (cr, words, l->head_x, ry + name_h + th * 0.1, l->ffs,
                          l->col_x[0] - l->head_x - l->fs, FALSE, TRUE);
  }
}

/* The orders, each by its colour and what it does: the key to every cell's two bars. */
static double
grid_key (cairo_t *cr, const MsChartStyle *style, double y, double width, gboolean draw)
{
  const double fs = ms_style_font_size (style);
  static const char *const words[] = {
    N_ ("depth-first: one stream's in, add, back, then the next stream's"),
    N_ ("breadth-first: each step for every stream, then the next step"),
  };
  double h = 0;
  for (int o = 0; o < 2; o++) {
    MsColor colour;
    double th = ms_draw_text_wrapped (cr, _ (words[o]), 0, 0, fs, width - fs * 2.4, FALSE, FALSE);
    if (draw) {
      ms_chart_palette_color ((guint)o, style->dark, &colour);
      ms_set_color (cr, &colour, 1);
      cairo_rectangle (cr, fs * 0.5, y + h + fs * 0.25, fs * 1.2, fs * 0.8);
      cairo_fill (cr);
      ms_set_color (cr, &style->fg, 1);
      ms_draw_text_wrapped (cr, _ (words[o]), fs * 2.2, y + h, fs, width - fs * 2.4, FALSE, TRUE);
    }
    h += th;
  }
  return h;
}

/* The note under the grid: what the thin lines are (at 8 or fewer repetitions a median's 95% range
 * is the fastest to the slowest), what one queue does, as the textbook has it (at step 0), and,
 * where the run shows it, that copies did not wait as it says (but at step 2). No mechanism of its
 * own: the run does not show one. */
static char *
grid_note (const Grid *g, int step)
{
  const MsCell *first = g->pair[0][0][0] ? g->pair[0][0][0] : g->pair[0][1][0];
  const MsStat *e2e = &first->stats.e2e;
  g_autofree char *range
      = e2e->ci_low == e2e->min && e2e->ci_high == e2e->max
            ? g_strdup_printf (_ ("Bars: medians of %d whole repetitions; thin lines: fastest to "
                                  "slowest."),
                               e2e->n)
            : g_strdup_printf (_ ("Bars: medians of %d whole repetitions; thin lines: their 95%% "
                                  "ranges."),
                               e2e->n);
  /* What one queue does in the textbook, in a class's words: "queues" and "false dependencies"
   * each needed a teacher. */
  GString *note = g_string_new (range);
  if (step == 0)
    g_string_append_printf (note, " %s",
                            _ ("On one queue, as on the textbook's GPU, a step waiting for its "
                               "own stream holds up every step issued after it."));
  char why[256] = "";
  if (step != 2 && g->one && measured (grid_pair (g, 0, 0))
      && ms_issue_order_copies_free (g->one, g->pair[0][0][1], why, sizeof why))
    g_string_append_printf (note, " %s", why);
  return g_string_free (note, FALSE);
}

/* A slide: the grid of both orders' bars, a row a workload, a column a queue setting, under a key
 * to the orders' colours and over a note. */
static gboolean
draw_slide_grid (cairo_t *cr, const MsResults *run, const MsChartStyle *style, double width,
                 double height)
{
  Grid g;
  int k;
  const MsCell *depth;
  if (!grid_fill (run, &g, &k, &depth))
    return FALSE;
  const double fs = ms_style_font_size (style);
  char size[32], vector[32];
  ms_format_size_label ((double) ms_vector_bytes (depth->elements) / k, size, sizeof size);
  ms_format_size_label ((double) ms_vector_bytes (depth->elements), vector, sizeof vector);
  /* TRANSLATORS: the issue-order slide's title, e.g. "16 streams, each adding a 1 MiB part of 16
   * MiB vectors: time to run them all". */
  g_autofree char *title = g_strdup_printf (_ ("%d streams, each adding a %s part of %s vectors: "
                                               "time to run them all"),
                                            k, size, vector);
  /* Measured first: where the grid does not fit, the chart draws instead. */
  const double title_y
      = ms_draw_text_wrapped (cr, title, fs * 0.5, fs * 0.3, fs * 1.1, width - fs, TRUE, FALSE)
        + fs * 0.4;
  double y = title_y + grid_key (cr, style, 0, width, FALSE) + fs * 0.5;
  g_autofree char *note = NULL;
  double note_h = 0, bottom = 0;
  GridLayout l;
  /* Closed up in steps where the rows would not keep their bars (a 540 px pane): the note
   * without what one queue does (the column says it), then without the textbook's copies (the
   * Details keep them), then the verdicts without what they rest on with it back, then the
   * columns' names alone. */
  for (int step = 0; step < 5; step++) {
    g_free (note);
    note = grid_note (&g, step);
    note_h = ms_draw_note (cr, style, note, fs * 0.5, 0, width - fs, FALSE);
    bottom = height - note_h - fs * 2.6;
    l = grid_layout (cr, style, &g, width, y, bottom, step);
    if (l.bar_h >= fs * 0.6)
      break;
  }
  /* Too small for the bars beside their words: the chart instead. */
  if (l.bar_h < fs * 0.6 || l.xs[0].pixel_hi - l.xs[0].pixel_lo < fs * 5)
    return FALSE;
  ms_draw_background (cr, style);
  ms_picture_title (cr, style, title, width);
  grid_key (cr, style, title_y, width, TRUE);
  grid_heads (cr, style, &l, &g, y);
  for (int q = 0; q < 2; q++)
    ms_draw_time_axis (cr, style, &l.xs[q], l.top, bottom, fs * 3, l.col_x[q] + l.col_w);
  for (int r = 0; r < g.rows; r++)
    for (int q = 0; q < 2; q++)
      grid_cell (cr, style, &l, &g, r, q);
  ms_draw_note (cr, style, note, fs * 0.5, height - note_h - fs * 0.5, width - fs, TRUE);
  return TRUE;
}

static void
ms_picture_issue_order (cairo_t *cr, const MsResults *run, const MsChartStyle *style, double width,
                        double height)
{
  const double fs = ms_style_font_size (style);
  if (ms_draw_is_slide (style, height) && draw_slide_grid (cr, run, style, width, height))
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
