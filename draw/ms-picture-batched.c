/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-picture-batched.c: the batched-copies lesson's picture: each
 * source's time a copy at each size, one call each against the batch (in
 * stream order, the call's plain use), and both calls' times where their
 * gap jumps. One size's pair as two bars was read as the answer for every
 * size; the other two orders are the details'. */
#include <glib/gi18n.h>
#include <math.h>

#include "ms-chart.h"
#include "ms-lessons.h"
#include "ms-lesson-picture.h"
#include "ms-picture-parts.h"
#include "ms-engine.h"

static const MsMode modes[] = { MS_MODE_PINNED, MS_MODE_PAGEABLE };

/* One call per copy's time ÷ the batch's at mode's size e, 0 when
 * either was not measured. */
static double
ratio_at (const MsResults *run, MsMode mode, int e, int count)
{
  const MsCell *each = ms_batched_cell (run, mode, e, count, 0);
  const MsCell *batch = each ? ms_batched_cell (run, mode, e, count, 1) : NULL;
  return batch ? each->stats.e2e.median / batch->stats.e2e.median : 0;
}

/* Whether mode's ratio changes over twice from size e - 1 to e. */
static gboolean
jumps (const MsResults *run, MsMode mode, int e, int count)
{
  double lo = ratio_at (run, mode, e - 1, count), hi = ratio_at (run, mode, e, count);
  return lo > 0 && hi > 0 && fabs (log (hi / lo)) >= log (2);
}

/* A call's name, 0 one call per copy, 1 the batch: in the note and over a
 * jump's label alike. */
static const char *
call_name (int call)
{
  /* TRANSLATORS: the calls' names before their times a copy on the batched
   * slide, e.g. "batched 2.8 → 1.06, one call each 2.84 → 3.22". */
  return call ? _ ("batched") : _ ("one call each");
}

/* The run of jumps of mode that starts at size e (where jumps() holds),
 * from its size before, e0 = e - 1: returns its last size, with the call
 * whose times moved more in *call and the size of its largest jump in
 * *peak; the note and the chart's label both tell a run so. */
static int
jump_run (const MsResults *run, MsMode mode, int e, int count, int *call, int *peak)
{
  int e0 = e - 1;
  double moved[2] = { 0, 0 }, far = 0;
  for (; e == e0 + 1 || (e <= 30 && jumps (run, mode, e, count)); e++) {
    for (int c = 0; c < 2; c++) {
      double a = ms_batched_cell (run, mode, e - 1, count, c)->stats.e2e.median;
      double b = ms_batched_cell (run, mode, e, count, c)->stats.e2e.median;
      moved[c] = MAX (moved[c], fabs (log (b / a)));
    }
    double r = fabs (log (ratio_at (run, mode, e, count) / ratio_at (run, mode, e0, count)));
    if (r > far)
      far = r, *peak = e;
  }
  *call = moved[1] > moved[0];
  return e - 1;
}

/* A cell's bytes per copy as a size's label, "16 KiB". */
static void
size_label (const MsCell *cell, char *buf, size_t len)
{
  ms_format_size_label ((double)ms_vector_bytes (cell->elements), buf, len);
}

/* A run's sizes, "16 KiB→32 KiB". */
static void
jump_sizes (GString *s, const MsResults *run, MsMode mode, int e0, int e1, int count)
{
  for (int k = e0; k <= e1; k++) {
    char size[32];
    const MsCell *c0 = ms_batched_cell (run, mode, k, count, 0);
    size_label (c0, size, sizeof size);
    g_string_append_printf (s, "%s%s", k > e0 ? "→" : "", size);
  }
}

/* call's times a copy at sizes e0 to e1 in µs, "3.59 → 1.38"; the
 * chart's bars already give their ranges. */
static void
times (GString *s, const MsResults *run, MsMode mode, int e0, int e1, int count, int call)
{
  for (int k = e0; k <= e1; k++) {
    char v[32];
    ms_format_value (ms_batched_cell (run, mode, k, count, call)->stats.e2e.median / count, v,
                     sizeof v);
    g_string_append_printf (s, "%s%s", k > e0 ? " → " : "", v);
  }
}

/* The call's own time a copy at e (the call phase of every plain
 * repetition, by the host clock); NAN where the cell lacks one. */
static double
call_time (const MsResults *run, MsMode mode, int e, int count, int call)
{
  const MsCell *c = ms_batched_cell (run, mode, e, count, call);
  const MsStat *s = c ? &c->stats.phase[MS_PHASE_CALL] : NULL;
  return s && s->n >= 1 && s->median > 0 && c->stats.e2e.median > 0 ? s->median / count : NAN;
}

/* The call's own time a copy at sizes e0 and e1 (the call phase of every
 * plain repetition, by the host clock) in t, where it fell and so did its
 * share of the whole: the call stopped working on the data itself (a
 * pageable call each takes the whole at every size, and a fall in its
 * time says nothing of that). FALSE otherwise, or where either lacks one
 * (runs before 2026-11-30 kept it at one size). */
static gboolean
call_fell (const MsResults *run, MsMode mode, int e0, int e1, int count, int call, double t[2])
{
  double share[2];
  for (int i = 0; i < 2; i++) {
    int e = i ? e1 : e0;
    t[i] = call_time (run, mode, e, count, call);
    if (!isfinite (t[i]))
      return FALSE;
    share[i] = t[i] * count / ms_batched_cell (run, mode, e, count, call)->stats.e2e.median;
  }
  return t[1] < t[0] && share[1] < share[0];
}

/* The call's own time a copy at the least size below e that has one, its
 * exponent in *first; NAN where none does. */
static double
first_call_time (const MsResults *run, MsMode mode, int e, int count, int call, int *first)
{
  for (int k = 0; k < e; k++) {
    double t = call_time (run, mode, k, count, call);
    if (isfinite (t)) {
      *first = k;
      return t;
    }
  }
  return NAN;
}

/* Whether call c took less time a copy at size e than at e0, the larger copies: not the same
 * work. */
static gboolean
took_less (const MsResults *run, MsMode mode, int e0, int e, int count, int c)
{
  return ms_batched_cell (run, mode, e, count, c)->stats.e2e.median
         < ms_batched_cell (run, mode, e0, count, c)->stats.e2e.median;
}

/* Whether the note says why the run of jumps from e0 to e came, where call c moved most: larger
 * copies took the batch less time and its call alone returned sooner, its own times a copy at e - 1
 * and e into t. Its panel then draws that time, dotted (call_line). */
static gboolean
fall_told (const MsResults *run, MsMode mode, int e0, int e, int count, int c, double t[2])
{
  return c == 1 && took_less (run, mode, e0, e, count, c)
         && call_fell (run, mode, e - 1, e, count, c, t);
}

/* Where mode's note tells of a fall in its batched call's own time (fall_told) at a run of
 * jumps, found as the note finds them: the run's last size, its own times a copy there and a
 * size before in t; -1 where none. The line, its remarks and the words that name it go together. */
static int
fall_size (const MsResults *run, MsMode mode, int count, double t[2])
{
  for (int e = 1; e <= 30; e++) {
    if (!jumps (run, mode, e, count))
      continue;
    int e0 = e - 1, c, peak;
    e = jump_run (run, mode, e, count, &c, &peak);
    if (fall_told (run, mode, e0, e, count, c, t))
      return e;
  }
  return -1;
}

static gboolean
call_line (const MsResults *run, MsMode mode, int count)
{
  double t[2];
  return fall_size (run, mode, count, t) >= 0;
}

/* A line for each run of sizes where a source's ratio jumps: both calls'
 * times a copy, the one that moved most (whose time a copy changed most)
 * first, then, where larger copies took it less time, what the cells say
 * of why. Readers asked what made the lines zig-zag; a run-on line of
 * clauses was read as too dense from the back, so the times come first and
 * the why in a sentence of its own. */
static void
jump_times (const MsResults *run, int count, GString *note)
{
  for (guint m = 0; m < G_N_ELEMENTS (modes); m++)
    for (int e = 1; e <= 30; e++) {
      if (!jumps (run, modes[m], e, count))
        continue;
      int e0 = e - 1, c, peak;
      e = jump_run (run, modes[m], e, count, &c, &peak);
      g_autofree char *word = g_utf8_strdown (ms_mode_title (modes[m]), -1);
      g_autoptr (GString) sizes = g_string_new (NULL);
      jump_sizes (sizes, run, modes[m], e0, e, count);
      g_string_append (note,
                       note->len ? "\n" : _ ("Where a pair's gap jumps, µs a copy:\n"));
      /* TRANSLATORS: "pinned 16 KiB→32 KiB: batched " and its times a copy. */
      g_string_append_printf (note, _ ("%s %s: %s "), word, sizes->str, call_name (c));
      times (note, run, modes[m], e0, e, count, c);
      g_string_append_printf (note, _ (", %s "), call_name (!c));
      times (note, run, modes[m], e0, e, count, !c);
      /* Larger copies in less time cannot be the same work. Where the
       * batched call alone returned sooner too, and sooner in the whole,
       * the smaller copies' call did the extra work itself (a plain
       * program found its time growing with the bytes up to 16 KiB on an
       * H200, docs/lessons.md); else the cells show the call changed
       * method, not which. */
      double t[2];
      char a[32], b[32], size[32];
      if (fall_told (run, modes[m], e0, e, count, c, t)) {
        const MsCell *before = ms_batched_cell (run, modes[m], e - 1, count, 0);
        ms_format_value (t[0], a, sizeof a);
        ms_format_value (t[1], b, sizeof b);
        size_label (before, size, sizeof size);
        char after[32];
        size_label (ms_batched_cell (run, modes[m], e, count, 0), after, sizeof after);
        int k0;
        double t0 = first_call_time (run, modes[m], e - 1, count, c, &k0);
        if (t0 < t[0]) {
          char z[32], least[32];
          ms_format_value (t0, z, sizeof z);
          /* The batch's cell, which has that time: one call each's may be missing there. */
          size_label (ms_batched_cell (run, modes[m], k0, count, c), least, sizeof least);
          /* TRANSLATORS: after a jump's times, e.g. ". Up to 16 KiB the batched call handled
           * the data itself: its own time (dotted) was 1.18 µs a copy at 1 KiB, 2.25 at 16 KiB.
           * At 32 KiB it returned after 0.437 µs." Its time growing with the bytes is why the
           * data's own handling is named: a teacher could not unpack "worked on the data
           * itself"; "(dotted)" names the line that draws it. */
          g_string_append_printf (note,
                                  _ (". Up to %s the batched call handled the data itself: its "
                                     "own time (dotted) was %s µs a copy at %s, %s at %s. At %s "
                                     "it returned after %s µs."),
                                  size, z, least, a, size, after, b);
        } else
          /* TRANSLATORS: after a jump's times, e.g. ". Up to 16 KiB the batched call worked on
           * the data itself before returning (2.25 µs a copy, dotted); at 32 KiB it returned
           * after 0.437 µs." The why first, each time by its size: "returned after 2.25 → 0.437
           * µs" was read as cryptic; "dotted" names the line that draws it. */
          g_string_append_printf (note,
                                  _ (". Up to %s the batched call worked on the data itself "
                                     "before returning (%s µs a copy, dotted); at %s it returned "
                                     "after %s µs."),
                                  size, a, after, b);
      } else if (took_less (run, modes[m], e0, e, count, c))
        /* Not "changed method": a strict reader found that an inference the cells do not show. */
        g_string_append (note,
                         _ (". Larger copies in less time: this run does not show what changed."));
      else
        /* TRANSLATORS: the full stop after a jump's times. */
        g_string_append (note, _ ("."));
    }
}

/* A source's times a copy, one line a call: the batch solid with filled markers, one call each
 * dashed with hollow ones, in the source's colour. As one call each ÷ the batch, a line of ratios,
 * a jump from 1× to 3× asked a class to work back to which call moved; times a copy show it, and
 * a pair's bars overlapping shows "cannot tell" without a line at 1 to read ranges against. Each
 * call's points a little either side of their size, so that their bars never overlap. */
/* A call's line, 0 one call each, 1 the batch: its dash and its markers' fill (ms_run_fill), in
 * the panels and in their key alike. */
static const struct {
  guint dash, fill;
} call_looks[] = { { 1, 1 }, { 0, 0 } };

/* A cell's KiB per copy, where its panel puts it. */
static double
copy_kib (const MsCell *cell)
{
  return (double)ms_vector_bytes (cell->elements) / 1024;
}

/* Each call's points a little either side of their size (2^nudge times it): one call each, the
 * batch. */
static const double nudge[] = { -0.15, 0.15 };

/* The dotted line's name, in its key. */
static const char *const inside_name = N_ ("time inside the batched call");

static void
add_series (MsChartData *d, const MsResults *run, int count, guint m)
{
  g_autofree char *word = g_utf8_strdown (ms_mode_title (modes[m]), -1);
  for (int c = 1; c >= 0; c--) {
    /* TRANSLATORS: a line's name on the batched chart, "pinned, batched". */
    g_autofree char *name = g_strdup_printf (_ ("%s, %s"), word, call_name (c));
    MsChartSeries *series = NULL;
    for (int e = 0; count > 0 && e <= 30; e++) {
      const MsCell *cell = ms_batched_cell (run, modes[m], e, count, c);
      if (!cell)
        continue;
      if (!series) {
        series = ms_chart_data_add_series (d, name, m, m, call_looks[c].dash);
        series->run = call_looks[c].fill;
        series->x_nudge = nudge[c];
        series->caps_out = TRUE;
      }
      /* Its median's 95% range, the one the headline's verdicts read. */
      const MsStat *st = &cell->stats.e2e;
      ms_chart_series_add (series, copy_kib (cell), st->median / count,
                           st->ci_low / count, st->ci_high / count, FALSE);
    }
  }
  /* Where the call's own time explains a drop (call_line), that time, dotted and without
   * markers: a teacher could not show a class the note's "handled the data itself". */
  MsChartSeries *inside = NULL;
  gboolean line = call_line (run, modes[m], count);
  for (int e = 0; line && e <= 30; e++) {
    double t = call_time (run, modes[m], e, count, 1);
    if (!isfinite (t))
      continue;
    if (!inside) {
      /* TRANSLATORS: a line's name on the batched chart, "pinned, time inside the call". */
      g_autofree char *name = g_strdup_printf (_ ("%s, %s"), word, _ (inside_name));
      inside = ms_chart_data_add_series (d, name, m, m, 2);
      inside->no_markers = TRUE;
      inside->x_nudge = nudge[1];
    }
    const MsCell *cell = ms_batched_cell (run, modes[m], e, count, 1);
    ms_chart_series_add (inside, copy_kib (cell), t, 1, 0, FALSE);
  }
}

/* The lines' key under the panels, in the text's colour (each panel's lines are its source's):
 * a sample of each line, the calls' and where drawn the call's own time (inside), and its name,
 * on as many rows as width needs (the third ran off a picture 700 px wide). Returns the height;
 * drawn only where draw. */
static double
key_row (cairo_t *cr, const MsChartStyle *st, double y, double width, gboolean inside,
         gboolean draw)
{
  const double fs = ms_style_font_size (st), th = fs * 1.35;
  double x = fs * 0.5, y0 = y;
  for (int c = 1; c >= -inside; c--) {
    const char *name = c > 0    ? _ ("one batched call")
                       : c == 0 ? _ ("one call each")
                                : _ (inside_name);
    double w = fs * 4 + ms_draw_text_width (cr, name, fs, FALSE);
    if (x > fs * 0.5 && x + w > width - fs * 0.5)
      x = fs * 0.5, y += th;
    if (draw) {
      ms_chart_draw_sample (cr, st, &st->fg, 0.9, TRUE, c < 0 ? 2 : call_looks[c].dash, 0,
                            c < 0 ? 0 : call_looks[c].fill, x, y + th / 2 - fs * 0.1, fs * 3.4,
                            c < 0 ? 0 : ms_style_marker_radius (st));
      ms_set_color (cr, &st->fg, 1);
      ms_draw_text (cr, name, x + fs * 4, y, fs, 0, 0, FALSE, NULL, NULL);
    }
    x += w + fs * 1.5;
  }
  return y + th - y0;
}

/* Source m's pair at size e into p, its ratio worked out; FALSE where either call was not
 * measured. */
static gboolean
pair_at (const MsResults *run, int count, guint m, int e, MsBatchedPair *p)
{
  *p = (MsBatchedPair){ modes[m], ms_batched_cell (run, modes[m], e, count, 0),
                        ms_batched_cell (run, modes[m], e, count, 1), 0 };
  if (!p->each || !p->batch)
    return FALSE;
  p->ratio = ms_batched_ratio (p->each, p->batch, count);
  return TRUE;
}

/* The least and most one call each took over the batch, a copy, where the batch was faster, into
 * r: a strict reader found the slide gave no size of the saving; its most alone, on the H100 a
 * pageable spike's 3.8×, overstated the rest. */
static void
faster_ratios (const MsResults *run, int count, double r[2])
{
  r[0] = G_MAXDOUBLE, r[1] = 0;
  for (guint m = 0; m < G_N_ELEMENTS (modes); m++)
    for (int e = 0; e <= 30; e++) {
      MsBatchedPair p;
      if (pair_at (run, count, m, e, &p) && ms_batched_verdict (&p) > 0)
        r[0] = MIN (r[0], p.ratio), r[1] = MAX (r[1], p.ratio);
    }
}

/* Where source m's first verdict stands on the panel laid out in l, in pixels. */
static double
first_x (const MsResults *run, int count, guint m, const MsChartLayout *l)
{
  MsBatchedPair p;
  for (int e = 0; e <= 30; e++)
    if (pair_at (run, count, m, e, &p))
      return ms_scale_to_pixel (&l->xs, copy_kib (p.each));
  return l->plot_x;
}

/* Over each size of source m's panel, its verdict as the headline counts it: ✓ the batch faster
 * (the pair's 95% bars apart), ? cannot tell (they overlap), ✗ slower. A teacher found the one
 * size where bars overlapped by a hair only by zooming in. */
static const char *const verdict_marks[] = { "✗", "?", "✓" };

/* What a panel's head row takes: a verdict's height (th) and its size, and a name's height. */
typedef struct {
  double th, size, name_h;
} Head;

/* The head row's measures for panels w wide of a run whose least size is lo, most hi: the
 * verdicts at the figures' size, smaller (not under a slide's least words) where a panel's sizes
 * stand too close for them (they ran together under 600 px). */
static Head
head_measure (cairo_t *cr, const MsChartStyle *st, double w, double lo, double hi)
{
  const double fs = ms_style_font_size (st);
  Head h = { 0, ms_draw_figure_size (cr, fs), 0 };
  double mw = ms_draw_text_width (cr, "✓", h.size, TRUE);
  /* A size's pitch, about: the plot takes some two thirds of a panel, over its sizes' octaves and
   * one. */
  double pitch = w * 0.65 / (log2 (hi / lo) + 1);
  if (mw + fs * 0.3 > pitch)
    h.size = MAX (ms_draw_get_least_text (cr), h.size * (pitch - fs * 0.3) / mw);
  ms_draw_text (cr, "✓", 0, 0, h.size, -1, 0, TRUE, NULL, &h.th);
  ms_draw_text (cr, ms_mode_title (modes[0]), 0, 0, fs, -1, 0, TRUE, NULL, &h.name_h);
  return h;
}

static void
draw_verdicts (cairo_t *cr, const MsChartStyle *st, const MsResults *run, int count, guint m,
               const MsChartLayout *l, const Head *h, double y)
{
  ms_set_color (cr, &st->fg, 1);
  for (int e = 0; e <= 30; e++) {
    MsBatchedPair p;
    if (!pair_at (run, count, m, e, &p))
      continue;
    double x = ms_scale_to_pixel (&l->xs, copy_kib (p.each));
    ms_draw_text (cr, verdict_marks[ms_batched_verdict (&p) + 1], x, y, h->size, 0.5, 1, TRUE, NULL,
                  NULL);
  }
}

/* The bottom of the verdicts' row on a panel laid out in l: over the top time tick's label, which
 * a name beside the row covered where the axis had a tick at its top. */
static double
row_bottom (const MsChartStyle *st, const MsChartLayout *l, const Head *h)
{
  return l->plot_y - h->th * 0.5 - ms_style_font_size (st) * 0.1;
}

/* The chart's offset under a panel's head: the row over its top margin, and the name's line where
 * own_line. */
static double
head_height (const MsChartStyle *st, const Head *h, gboolean own_line)
{
  return round (MAX (0, h->th - ms_style_font_size (st) * 0.3) + (own_line ? h->name_h : 0));
}

/* Where source m's name ends, left of its first verdict on its panel laid out in l. */
static double
name_end (const MsChartStyle *st, const MsResults *run, int count, guint m, const MsChartLayout *l,
          const Head *h)
{
  return first_x (run, count, m, l) - h->th * 0.5 - ms_style_font_size (st) * 0.4;
}

/* Whether source m's name fits left of its first verdict on its panel d in w x h. */
static gboolean
name_fits (cairo_t *cr, const MsChartStyle *st, const MsResults *run, int count, guint m,
           const MsChartData *d, double w, double h, const Head *head)
{
  const double fs = ms_style_font_size (st);
  MsChartLayout l;
  ms_chart_layout_init (&l);
  ms_chart_measure (cr, d, st, w, h - head_height (st, head, FALSE), &l);
  double room = name_end (st, run, count, m, &l, head) - fs * 0.3;
  ms_chart_layout_clear (&l);
  return ms_draw_text_width (cr, ms_mode_title (modes[m]), fs, TRUE) <= room;
}

/* The drop in the batched call's own time (fall_size) said at the dotted line itself, in the
 * source's colour: under every line left of the drop, what the call did up to it, and under the
 * line past it, that it then only queues the copies (it returned before they ended): readers
 * took the note's "handled the data itself" for a footnote to decode and asked for it at the
 * step. Each only where it fits in the plot, clear of the other. */
static void
draw_fall_words (cairo_t *cr, const MsChartStyle *st, const MsResults *run, int count, guint m,
                 const MsChartLayout *l)
{
  double t[2];
  int e = fall_size (run, modes[m], count, t);
  if (e < 1)
    return;
  const double fs = ms_style_font_size (st), x1 = l->plot_x + l->plot_w - fs * 0.3;
  const double bottom = l->plot_y + l->plot_h - fs * 0.2;
  double least = t[0];
  for (int k = 0; k < e; k++)
    for (int c = 0; c < 2; c++) {
      const MsCell *cell = ms_batched_cell (run, modes[m], k, count, c);
      if (cell && cell->stats.e2e.ci_low > 0)
        least = MIN (least, cell->stats.e2e.ci_low / count);
      if (isfinite (call_time (run, modes[m], k, count, c)))
        least = MIN (least, call_time (run, modes[m], k, count, c));
    }
  /* Words, no figures (the note has them): at a figure's size they ran over the drop. */
  /* TRANSLATORS: under the dotted line up to its drop: the batched call copies the data itself. */
  const char *before = _ ("the call copies the data");
  /* TRANSLATORS: under the dotted line past its drop: the call returns before its copies end
   * ("returns in 0.437 µs" left a reader asking what it did instead). */
  const char *after = _ ("then it only queues them");
  const MsCell *c0 = ms_batched_cell (run, modes[m], e - 1, count, 1);
  double wa, ha, wb, hb;
  ms_draw_text (cr, before, 0, 0, fs, -1, 0, FALSE, &wa, &ha);
  ms_draw_text (cr, after, 0, 0, fs, -1, 0, FALSE, &wb, &hb);
  double xa = ms_scale_to_pixel (&l->xs, copy_kib (c0) * exp2 (nudge[1])) - wa;
  double ya = ms_scale_to_pixel (&l->ys, least) + fs * 0.4;
  double yb = ms_scale_to_pixel (&l->ys, t[1]) + fs * 0.3;
  MsColor col;
  ms_chart_palette_color (m, st->dark, &col);
  ms_set_color (cr, &col, 1);
  gboolean b_fits = yb + hb <= bottom && x1 - wb >= l->plot_x;
  if (b_fits)
    ms_draw_text (cr, after, x1, yb, fs, 1, 0, FALSE, NULL, NULL);
  xa = MAX (xa, l->plot_x + fs * 0.3);
  gboolean clear = !b_fits || ya + ha <= yb || xa + wa <= x1 - wb;
  if (ya + ha <= bottom && xa + wa <= x1 && clear)
    ms_draw_text (cr, before, xa, ya, fs, 0, 0, FALSE, NULL, NULL);
}

/* Source m's panel d in w x h, its layout into l (cr's translation the caller's to restore): its
 * memory's name at the head of its row of verdicts, over the chart's top margin (a line of its
 * own for the name cost the time axis its "(log scale)" and its 2 and 5 µs ticks), or, where it
 * does not fit there in some panel, in every panel on a line above them (own_line): the panels
 * keep one height. */
static void
draw_panel (cairo_t *cr, const MsChartStyle *st, const MsResults *run, int count, guint m,
            const MsChartData *d, double w, double h, const Head *head, gboolean own_line,
            MsChartLayout *l)
{
  const char *name = ms_mode_title (modes[m]);
  const double fs = ms_style_font_size (st), top = head_height (st, head, own_line);
  /* The chart paints its background: the name and verdicts after it. */
  cairo_translate (cr, 0, top);
  ms_chart_draw (cr, d, st, w, h - top, -1, l);
  draw_fall_words (cr, st, run, count, m, l);
  double y = row_bottom (st, l, head);
  draw_verdicts (cr, st, run, count, m, l, head, y);
  double nw = ms_draw_text_width (cr, name, fs, TRUE);
  ms_set_color (cr, &st->fg, 1);
  ms_draw_text (cr, name, own_line ? fs * 0.5 : name_end (st, run, count, m, l, head) - nw,
                own_line ? y - head->th : y, fs, 0, 1, TRUE, NULL, NULL);
}

/* Source m's panel: its two calls over the sizes. */
static MsChartData *
panel (const MsResults *run, int count, guint m)
{
  MsChartData *d = ms_chart_data_new ();
  /* Sizes as counts of KiB, the unit in the axis's title, each labelled where they fit: as "16
   * KiB" every other size was, and readers counted along seven verdicts to find the unlabelled. */
  d->x_unit = MS_SCALE_COUNT;
  d->x_label = g_strdup_printf (_ ("%s (log scale)"), _ ("KiB per copy"));
  /* TRANSLATORS: the batched chart's y axis ("(log scale)" is added where it fits); no word of
   * one letter: turned up the axis, a handout's text check read "a" as 6 pt type. */
  d->y_label = g_strdup (_ ("time per copy"));
  d->y_kind = MS_SCALE_LOG10;
  d->y_unit = MS_SCALE_TIME_US;
  d->fit_y = TRUE;
  d->no_legend = TRUE;
  add_series (d, run, count, m);
  return d;
}

/* The key under the panels: which of the batch's three source orders is drawn, in plain words (in
 * the details alone, teachers asked), and the count behind the headline, checkable pair by pair,
 * with the batch's saving where it was faster, a range over those sizes. */
static char *
key_text (const MsResults *run, int count)
{
  MsBatchedPair mark;
  int tally[3] = { 0, 0, 0 };
  ms_batched_marks (run, &mark, tally);
  double fast[2];
  faster_ratios (run, count, fast);
  /* TRANSLATORS: the count of sizes the batch was faster at, in the batched slide's key. */
  g_autofree char *sizes = g_strdup_printf (
      g_dngettext (GETTEXT_PACKAGE, "at %d size", "at %d sizes", tally[2]), tally[2]);
  g_autofree char *faster = NULL;
  if (tally[2] > 0 && fast[0] <= fast[1]) {
    /* Two decimals near 1: "1.0× as fast" beside bars apart read as no saving at all. */
    int d = fast[0] < 1.05 ? 2 : 1;
    char lo[32], hi[32];
    g_snprintf (lo, sizeof lo, "%.*f", d, fast[0]);
    g_snprintf (hi, sizeof hi, "%.*f", d, fast[1]);
    faster = g_str_equal (lo, hi)
                 /* TRANSLATORS: e.g. "at 1 size, 2.1× as fast". */
                 ? g_strdup_printf (_ ("%s, %s× as fast"), sizes, lo)
                 /* TRANSLATORS: e.g. "at 10 sizes, 1.2× to 3.0× as fast". */
                 : g_strdup_printf (_ ("%s, %s× to %s× as fast"), sizes, lo, hi);
  }
  /* TRANSLATORS: the batched slide's key; ✓, ? and ✗ are the marks over each size, the first %s
   * e.g. "at 10 sizes, 1.2× to 3.0× as fast". */
  return g_strdup_printf (_ ("The batch reads its sources when the stream reaches it. Over each "
                             "size, by its 95%% bars: ✓ the batch faster (bars apart), %s; ? "
                             "cannot tell (bars overlap), %d; ✗ slower, %d."),
                          faster ? faster : sizes, tally[1], tally[0]);
}

/* The panels side by side in width from y, chart_h tall, each freed: a source each (on one chart
 * its four lines' markers and bars piled up at 4-16 KiB, and teachers could not read them from the
 * back), their names beside their verdicts or all on lines of their own. */
static void
draw_panels (cairo_t *cr, const MsChartStyle *style, const MsResults *run, int count,
             MsChartData **panels, const guint *of, guint n, double width, double y,
             double chart_h)
{
  double lo = G_MAXDOUBLE, hi = 0;
  for (guint m = 0; m < G_N_ELEMENTS (modes); m++)
    for (int e = 0; e <= 30; e++) {
      MsBatchedPair p;
      if (pair_at (run, count, m, e, &p))
        lo = MIN (lo, copy_kib (p.each)), hi = MAX (hi, copy_kib (p.each));
    }
  Head head = head_measure (cr, style, width / n, lo, MAX (lo, hi));
  gboolean own_line = FALSE;
  for (guint k = 0; k < n; k++)
    own_line |= !name_fits (cr, style, run, count, of[k], panels[k], width / n, chart_h, &head);
  for (guint k = 0; k < n; k++) {
    cairo_save (cr);
    cairo_translate (cr, k * width / n, y);
    cairo_rectangle (cr, 0, 0, width / n, chart_h);
    cairo_clip (cr);
    MsChartLayout l;
    ms_chart_layout_init (&l);
    draw_panel (cr, style, run, count, of[k], panels[k], width / n, chart_h, &head, own_line, &l);
    ms_chart_layout_clear (&l);
    cairo_restore (cr);
    ms_chart_data_free (panels[k]);
  }
}

static void
ms_picture_batched (cairo_t *cr, const MsResults *run, const MsChartStyle *style, double width,
                    double height)
{
  int count = ms_batched_count (run);
  MsChartData *panels[G_N_ELEMENTS (modes)];
  guint n = 0, of[G_N_ELEMENTS (modes)];
  gboolean inside = FALSE;
  for (guint m = 0; m < G_N_ELEMENTS (modes); m++) {
    panels[n] = panel (run, count, m);
    inside |= call_line (run, modes[m], count);
    of[n] = m;
    if (panels[n]->series->len)
      n++;
    else
      ms_chart_data_free (panels[n]);
  }
  if (n == 0) {
    g_autoptr (MsChartData) d = ms_chart_data_new ();
    d->empty_text = g_strdup (_ ("The run has no measured copies."));
    ms_chart_draw (cr, d, style, width, height, -1, NULL);
    return;
  }
  /* One time axis for both: the same time at the same height, down past the decade under the
   * least time (its tick on the frame had its label lifted off it, and a strict reader read the
   * low points against it). */
  ms_picture_share_range (panels, (int) n);
  for (guint k = 0; k < n; k++)
    if (panels[k]->y_min > 0)
      panels[k]->y_min = MIN (panels[k]->y_min, 0.9 * exp10 (floor (log10 (panels[k]->y_min))));
  g_autofree char *key = key_text (run, count);
  /* Which call moved where a pair's gap jumps. */
  g_autoptr (GString) note = g_string_new (NULL);
  jump_times (run, count, note);
  const double fs = ms_style_font_size (style) * 0.95;
  /* TRANSLATORS: the batched slide's title, e.g. "256 copies a size, pinned or pageable: time
   * until all arrive, per copy". Until they arrive, not until the call returns: a teacher could
   * not tell which ("time a copy until they arrive" asked to be rephrased). Its panels are named
   * by their memory alone. */
  g_autofree char *title = g_strdup_printf (
      _ ("%d copies a size, pinned or pageable: time until all arrive, per copy"), count);
  double title_h = ms_picture_title_height (cr, style, title, width) + fs * 0.6;
  double key_h = ms_draw_text_wrapped (cr, key, 0, 0, fs, width - fs, FALSE, FALSE);
  double note_h = ms_draw_text_wrapped (cr, note->str, 0, 0, fs, width - fs, FALSE, FALSE);
  double row_h = key_row (cr, style, 0, width, inside, FALSE);
  /* A pane too small for the panels, the lines' key, the count and the
   * note: the note goes, then the count (both stay in the details). */
  if (height - title_h - note_h - key_h - row_h < height * 0.45)
    g_string_truncate (note, 0), note_h = 0;
  if (height - title_h - key_h - row_h < height * 0.45)
    key[0] = '\0', key_h = 0;
  double chart_h = round (height - title_h - note_h - key_h - row_h - fs * 0.6);
  ms_draw_background (cr, style);
  ms_picture_title (cr, style, title, width);
  draw_panels (cr, style, run, count, panels, of, n, width, title_h, chart_h);
  double y = title_h + chart_h;
  y += key_row (cr, style, y, width, inside, TRUE);
  ms_set_color (cr, &style->fg, 0.9);
  ms_draw_text_wrapped (cr, key, fs * 0.5, y + fs * 0.3, fs, width - fs, FALSE, TRUE);
  ms_set_color (cr, &style->fg, 0.85);
  if (note->len)
    ms_draw_text_wrapped (cr, note->str, fs * 0.5, y + key_h + fs * 0.3, fs, width - fs, FALSE,
                          TRUE);
}

static const MsVariantWords words[] = {
  { "call=each", N_ ("one API call per copy") },
  { "call=batch", N_ ("the copies in one batched call") },
  /* TRANSLATORS: %s is a number from a variant ("n=256"). */
  { "n", N_ ("%s copies") },
  { NULL },
};

const MsLessonLook ms_lesson_look_batched = {
  .picture = ms_picture_batched,
  .words = words,
};
