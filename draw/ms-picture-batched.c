/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-picture-batched.c: the batched-copies lesson's picture: one call per
 * copy's time ÷ the batch's (in stream order, the call's plain use) at
 * each size, a line per source, each point's verdict where its bar lies
 * against 1×, the slower point labelled, and both calls' times where the
 * ratio jumps. One size's pair as two bars was read
 * as the answer for every size; the other two orders are the details'. */
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

/* A run's sizes, "16 KiB→32 KiB". */
static void
jump_sizes (GString *s, const MsResults *run, MsMode mode, int e0, int e1, int count)
{
  for (int k = e0; k <= e1; k++) {
    char size[32];
    const MsCell *c0 = ms_batched_cell (run, mode, k, count, 0);
    ms_format_size_label ((double)ms_vector_bytes (c0->elements), size, sizeof size);
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
                       note->len ? "\n" : _ ("Where the ratio jumps, µs a copy:\n"));
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
      gboolean less = ms_batched_cell (run, modes[m], e, count, c)->stats.e2e.median
                      < ms_batched_cell (run, modes[m], e0, count, c)->stats.e2e.median;
      if (less && c == 1 && call_fell (run, modes[m], e - 1, e, count, c, t)) {
        const MsCell *before = ms_batched_cell (run, modes[m], e - 1, count, 0);
        ms_format_value (t[0], a, sizeof a);
        ms_format_value (t[1], b, sizeof b);
        ms_format_size_label ((double)ms_vector_bytes (before->elements), size, sizeof size);
        char after[32];
        ms_format_size_label ((double)ms_vector_bytes (
                                  ms_batched_cell (run, modes[m], e, count, 0)->elements),
                              after, sizeof after);
        int k0;
        double t0 = first_call_time (run, modes[m], e - 1, count, c, &k0);
        if (t0 < t[0]) {
          char z[32], least[32];
          ms_format_value (t0, z, sizeof z);
          ms_format_size_label (
              (double)ms_vector_bytes (ms_batched_cell (run, modes[m], k0, count, 0)->elements),
              least, sizeof least);
          /* TRANSLATORS: after a jump's times, e.g. ". Up to 16 KiB the batched call handled
           * the data itself: its own time was 1.18 µs a copy at 1 KiB, 2.25 at 16 KiB. At 32
           * KiB it returned after 0.437 µs." Its time growing with the bytes is why the data's
           * own handling is named: a teacher could not unpack "worked on the data itself". */
          g_string_append_printf (note,
                                  _ (". Up to %s the batched call handled the data itself: its "
                                     "own time was %s µs a copy at %s, %s at %s. At %s it "
                                     "returned after %s µs."),
                                  size, z, least, a, size, after, b);
        } else
          /* TRANSLATORS: after a jump's times, e.g. ". Up to 16 KiB the batched call worked on
           * the data itself before returning (2.25 µs a copy); at 32 KiB it returned after
           * 0.437 µs." The why first, each time by its size: "returned after 2.25 → 0.437 µs"
           * was read as cryptic. */
          g_string_append_printf (note,
                                  _ (". Up to %s the batched call worked on the data itself "
                                     "before returning (%s µs a copy); at %s it returned after "
                                     "%s µs."),
                                  size, a, after, b);
      } else if (less)
        /* Not "changed method": a strict reader found that an inference the cells do not show. */
        g_string_append (note, _ (". Larger copies in less time: this run does not show what changed."));
      else
        /* TRANSLATORS: the full stop after a jump's times. */
        g_string_append (note, _ ("."));
    }
}

/* Pinned's points a little right of their size, pageable's a little
 * left (in octaves, in the order of modes), so that the two sources' bars
 * at one size never overlap: with pinned on the left, its 1 KiB label
 * found room only along its own bar. */
static const double nudge[] = { 0.15, -0.15 };

/* Each source's points, its verdict left to where its bar lies against
 * 1× (the note's key): a code of filled, hollow and crossed markers was
 * one more thing to teach. */
static void
add_series (MsChartData *d, const MsResults *run, int count, GString *near)
{
  for (guint m = 0; m < G_N_ELEMENTS (modes); m++) {
    g_autofree char *word = g_utf8_strdown (ms_mode_title (modes[m]), -1);
    MsChartSeries *series = NULL;
    for (int e = 0; count > 0 && e <= 30; e++) {
      const MsCell *each = ms_batched_cell (run, modes[m], e, count, 0);
      const MsCell *batch = each ? ms_batched_cell (run, modes[m], e, count, 1) : NULL;
      if (!batch)
        continue;
      if (!series) {
        series = ms_chart_data_add_series (d, word, m, m, 0);
        series->x_nudge = nudge[m];
        series->caps_out = TRUE;
      }
      /* Its range from the two medians' 95% ranges, lest a single point
       * be read as a finding. */
      ms_chart_series_add (series, (double)ms_vector_bytes (each->elements),
                           ms_batched_ratio (each, batch, count),
                           each->stats.e2e.ci_low / batch->stats.e2e.ci_high,
                           each->stats.e2e.ci_high / batch->stats.e2e.ci_low, FALSE);
      MsChartPoint *last = &g_array_index (series->points, MsChartPoint, series->points->len - 1);
      /* A range wholly above or below 1× ending within a few pixels of
       * 1× looked as if it reached it: which side, in words, in the key
       * (an arrow between two series' bars was read as either's, and a
       * named label took the chart's room). */
      MsBatchedPair p = { modes[m], each, batch, 0 };
      double end = fabs (log (last->lo)) < fabs (log (last->hi)) ? last->lo : last->hi;
      if (!ms_batched_verdict (&p) || fabs (log (end)) >= log (1.016))
        continue;
      char size[32];
      ms_format_size_label (last->x, size, sizeof size);
      g_string_append (near, " ");
      g_string_append_printf (near,
                              end > 1 ? _ ("%s %s's bar ends just above 1×.")
                                      : _ ("%s %s's bar ends just below 1×."),
                              ms_mode_title (modes[m]), size);
    }
  }
}

/* A range ending on the line at 1 (within 3 px) seen to end there, in a
 * gap in its dots: under them, pinned 4 KiB's and pageable 64 KiB's lower
 * ends hid, and their bars read as wholly above 1. */
static void
ends_at_one (cairo_t *cr, const MsChartData *d, const MsChartStyle *st, const MsChartLayout *l)
{
  const double one = round (ms_scale_to_pixel (&l->ys, 1)) + 0.5, r = ms_style_marker_radius (st);
  const double bw = MAX (1, round (ms_style_line_width (st) * 0.7));
  for (guint i = 0; i < d->series->len; i++) {
    const MsChartSeries *s = g_ptr_array_index (d->series, i);
    MsColor c;
    ms_chart_palette_color (s->color, st->dark, &c);
    for (guint k = 0; k < s->points->len; k++) {
      const MsChartPoint *p = &g_array_index (s->points, MsChartPoint, k);
      double px = round (ms_scale_to_pixel (&l->xs, p->x * exp2 (s->x_nudge)));
      double lo = round (ms_scale_to_pixel (&l->ys, p->lo));
      double hi = round (ms_scale_to_pixel (&l->ys, p->hi));
      /* The cap's half width, as ms-chart.c draws it. */
      double w = lo - hi < 2 * r ? round (r * 1.8) : round (ms_style_font_size (st) * 0.3);
      double end = fabs (lo - one) <= 3 ? lo : hi;
      if (fabs (end - one) > 3)
        continue;
      ms_set_color (cr, &st->bg, 1);
      cairo_rectangle (cr, px - w - 3, one - 3, 2 * w + 6, 6);
      cairo_fill (cr);
      ms_set_color (cr, &c, p->muted ? MS_CHART_MUTED_POINT_ALPHA : 1);
      cairo_rectangle (cr, px - w, end - floor (bw / 2), 2 * w, bw);
      cairo_rectangle (cr, px - floor (bw / 2), MAX (hi, one - 3), bw,
                       MIN (lo, one + 3) - MAX (hi, one - 3));
      cairo_fill (cr);
    }
  }
}

/* The least-covering spot for a w x h label by a point at px (its bar's
 * end py on the label's side, its marker at mid) of a ratio: its side of
 * the bar first, then the other; centred, then hanging right or left of
 * the point, then beside its marker. Never on or past the line at 1,
 * which the key's rules read against (a figure over 1 under it read as
 * below 1), nor on taken. Returns the spot's score: 1e3 or more, on data. */
static double
best_spot (const MsChartData *d, const MsChartLayout *l, double fs, double w, double h,
           double px, double py, double mid, double ratio, const GArray *taken, MsChartRect *best)
{
  const double one = ms_scale_to_pixel (&l->ys, 1);
  static const double hang[] = { 0.5, 0.15, 0.85, 0, 1 };
  gboolean above = ratio >= 1;
  double best_score = G_MAXDOUBLE;
  for (int step = 0; step < 6; step++)
    for (int k = 0; k < 10; k++) {
      gboolean up = k < 5 ? above : !above;
      double gap = (up ? -1 : 1) * (3 + step * h * 0.3);
      MsChartRect box = { px - w * hang[k % 5] + ((k % 5 == 3) - (k % 5 == 4)) * fs,
                          k % 5 > 2 ? mid - h / 2 + gap : up ? py + gap - h : py + gap, w, h };
      box.x = CLAMP (box.x, l->plot_x + 2, l->plot_x + l->plot_w - w - 2);
      box.y = CLAMP (box.y, l->plot_y + 2, l->plot_y + l->plot_h - h - 2);
      gboolean across = above ? box.y + h > one : box.y < one;
      gboolean over = FALSE;
      for (guint t = 0; taken && t < taken->len; t++) {
        const MsChartRect *o = &g_array_index (taken, MsChartRect, t);
        over = over || (box.x < o->x + o->w && o->x < box.x + w && box.y < o->y + o->h
                        && o->y < box.y + h);
      }
      double score = ms_chart_data_cover (d, l, 2, box.x, box.y, w, h) * 1e3 + step * 6 + k % 5
                     + (k >= 5) * 20 + (across || over) * 500;
      if (score < best_score)
        best_score = score, *best = box;
    }
  return best_score;
}

/* label's lines at box, bold, in colour's series colour on the chart's ground (two: a name over
 * its figures, or one). */
static void
draw_label (cairo_t *cr, const MsChartData *d, const MsChartStyle *st, const MsChartLayout *l,
            guint colour, const char *const *lines, int n, const MsChartRect *box, double fs)
{
  g_autofree char *label = g_strjoinv (" ", (char **) lines);
  ms_chart_check_label (cr, d, l, label, box);
  MsColor c;
  ms_set_color (cr, &st->bg, 0.92);
  cairo_rectangle (cr, box->x, box->y, box->w, box->h);
  cairo_fill (cr);
  ms_chart_palette_color (colour, st->dark, &c);
  ms_set_color (cr, &c, 1);
  for (int i = 0; i < n; i++)
    ms_draw_text (cr, lines[i], box->x + fs * 0.3, box->y + i * box->h / n, fs, 0, 0, TRUE, NULL,
                  NULL);
}

/* The point where the batch was slower (ms_batched_marks'), named and in
 * its series' colour on its side of the line at 1: as a callout its
 * leader crossed others near 1 KiB, and a bare figure did not say whose
 * it was. Of a few spots, the nearest covering the least data. The
 * highest ratio is not labelled: on the H100 it was one call per copy's
 * outlying 16 KiB time, and was read as the finding. Its box added to
 * placed. */
static void
label_mark (cairo_t *cr, const MsChartData *d, const MsChartStyle *st, const MsChartLayout *l,
            const MsBatchedPair *mark, GArray *placed)
{
  const double fs = ms_draw_figure_size (cr, ms_style_font_size (st) * 0.95);
  const MsStat *e = &mark->each->stats.e2e, *b = &mark->batch->stats.e2e;
  gboolean above = mark->ratio >= 1;
  int m = mark->mode == modes[1];
  double px = ms_scale_to_pixel (&l->xs, ms_vector_bytes (mark->each->elements) * exp2 (nudge[m]));
  double py = ms_scale_to_pixel (&l->ys, above ? e->ci_high / b->ci_low : e->ci_low / b->ci_high);
  double mid = ms_scale_to_pixel (&l->ys, mark->ratio);
  g_autofree char *word = g_utf8_strdown (ms_mode_title (mark->mode), -1);
  /* TRANSLATORS: a source's ratio on the batched chart, "pinned 1.67×". */
  g_autofree char *named = g_strdup_printf (_ ("%s %.2f×"), word, mark->ratio);
  g_autofree char *bare = g_strdup_printf ("%.2f×", mark->ratio);
  const char *label = named;
  double best_score = G_MAXDOUBLE, tw, th;
  MsChartRect best = { 0 };
  /* Named where that fits near its bar, else the figure alone in the
   * series' colour right by it; as tall as the text: a padded box found
   * no room between the pinned bar and the line at 1. */
  for (int v = 0; v < 2; v++) {
    MsChartRect box;
    ms_draw_text (cr, v ? bare : named, 0, 0, fs, -1, 0, TRUE, &tw, &th);
    double score = best_spot (d, l, fs, tw + fs * 0.6, th, px, py, mid, mark->ratio, NULL, &box)
                   + v * 8;
    if (score < best_score)
      best_score = score, best = box, label = v ? bare : named;
  }
  /* On data at every spot (a small pane): none. */
  if (best_score >= 1e3)
    return;
  const char *lines[] = { label, NULL };
  draw_label (cr, d, st, l, (guint) m, lines, 1, &best, fs);
  g_array_append_val (placed, best);
}

/* A ring in colour's series colour round the marker at (px, py) and a
 * line to it from box's nearest edge: a label floating over the chart
 * with no pointer (a line a few pixels long went unseen) left teachers to
 * guess which point it meant. */
static void
leader (cairo_t *cr, const MsChartStyle *st, guint colour, const MsChartRect *box, double px,
        double py)
{
  double ex = CLAMP (px, box->x, box->x + box->w), ey = CLAMP (py, box->y, box->y + box->h);
  double dx = px - ex, dy = py - ey, dist = hypot (dx, dy), r = ms_style_marker_radius (st) * 2;
  double lw = MAX (2, ms_style_line_width (st) * 0.8);
  MsColor c;
  ms_chart_palette_color (colour, st->dark, &c);
  ms_set_color (cr, &c, 0.9);
  cairo_set_line_width (cr, lw);
  cairo_new_sub_path (cr);
  cairo_arc (cr, px, py, r, 0, 2 * G_PI);
  cairo_stroke (cr);
  if (dist > r + 2)
    ms_draw_line (cr, lw, ex, ey, px - dx / dist * r, py - dy / dist * r);
}

/* name over times and its unit, by the marker at px (its bar's end py)
 * of a ratio, where a spot is free of data and of taken; the unit said
 * in full where it fits ("µs" alone, on a chart of ratios, was read as
 * ratios), else short. */
static void
place_jump_label (cairo_t *cr, const MsChartData *d, const MsChartStyle *st,
                  const MsChartLayout *l, guint m, const char *const names[2], const char *times,
                  double px, double py, double ratio, GArray *taken, double fs)
{
  /* TRANSLATORS: after a call's times a copy on the batched chart, "2.8 → 1.06 µs a copy";
   * the second, where that does not fit, "2.8 → 1.06 µs". */
  const char *units[] = { _ (" µs a copy"), _ (" µs") };
  double mid = ms_scale_to_pixel (&l->ys, ratio);
  /* The name with its sizes and the unit in full first, then the name alone, then the unit
   * short. */
  for (guint try = 0; try < 3; try++) {
    const char *name = names[try > 0], *unit = units[try > 1];
    g_autofree char *second = g_strconcat (times, unit, NULL);
    const char *lines[] = { name, second, NULL };
    double w = 0, th;
    for (int i = 0; i < 2; i++)
      w = MAX (w, ms_draw_text_width (cr, lines[i], fs, TRUE));
    ms_draw_text (cr, second, 0, 0, fs, -1, 0, TRUE, NULL, &th);
    MsChartRect box;
    /* Left out where every spot is on data or on the other label (a small pane). */
    if (best_spot (d, l, fs, w + fs * 0.6, 2 * th, px, py, mid, ratio, taken, &box) < 500) {
      draw_label (cr, d, st, l, m, lines, 2, &box, fs);
      leader (cr, st, m, &box, px, mid);
      g_array_append_val (taken, box);
      return;
    }
  }
}

/* Beside the point where each run of jumps peaks, the call that moved
 * and its times a copy ("batched 2.8 → 1.06 µs"), in its series' colour:
 * said in the note alone, under the chart, the jump most readers saw
 * first was explained only in small print, and the H100's pageable 16 KiB
 * peak read as batching that got better, where one call each slowed. */
static void
label_jumps (cairo_t *cr, const MsChartData *d, const MsChartStyle *st, const MsChartLayout *l,
             const MsResults *run, int count, GArray *taken)
{
  const double fs = ms_draw_figure_size (cr, ms_style_font_size (st) * 0.8);
  for (guint m = 0; m < G_N_ELEMENTS (modes); m++)
    for (int e = 1; e <= 30; e++) {
      if (!jumps (run, modes[m], e, count))
        continue;
      int e0 = e - 1, peak = e, c;
      e = jump_run (run, modes[m], e, count, &c, &peak);
      /* The call over its times: on one line, in a figure's size, it found no room. */
      g_autoptr (GString) label = g_string_new (NULL);
      times (label, run, modes[m], e0, e, count, c);
      /* Its source named too: the call alone, in the series' colour, read as a series' name. */
      g_autofree char *word = g_utf8_strdown (ms_mode_title (modes[m]), -1);
      /* Its sizes too where they fit: "2.8 → 1.06 µs a copy" alone was read as cryptic. */
      g_autoptr (GString) sizes = g_string_new (NULL);
      jump_sizes (sizes, run, modes[m], e0, e, count);
      /* TRANSLATORS: over a call's times on the batched chart, "pinned, batched, 16 KiB→32 KiB",
       * or where that does not fit "pinned, batched". */
      g_autofree char *sized = g_strdup_printf (_ ("%s, %s, %s"), word, call_name (c), sizes->str);
      g_autofree char *name = g_strdup_printf (_ ("%s, %s"), word, call_name (c));
      const char *const names[] = { sized, name };
      const MsCell *each = ms_batched_cell (run, modes[m], peak, count, 0);
      const MsCell *batch = ms_batched_cell (run, modes[m], peak, count, 1);
      double ratio = ratio_at (run, modes[m], peak, count);
      const MsStat *a = &each->stats.e2e, *b = &batch->stats.e2e;
      double px = ms_scale_to_pixel (&l->xs, ms_vector_bytes (each->elements) * exp2 (nudge[m]));
      double py = ms_scale_to_pixel (&l->ys, ratio >= 1 ? a->ci_high / b->ci_low
                                                        : a->ci_low / b->ci_high);
      place_jump_label (cr, d, st, l, m, names, label->str, px, py, ratio, taken, fs);
    }
}

static void
ms_picture_batched (cairo_t *cr, const MsResults *run, const MsChartStyle *style, double width,
                    double height)
{
  int count = ms_batched_count (run);
  g_autoptr (MsChartData) d = ms_chart_data_new ();
  d->empty_text = g_strdup (_ ("The run has no measured copies."));
  /* TRANSLATORS: the batched chart's title, e.g. "Time for 256 copies of each size to arrive: one
   * call each ÷ one batched call". Until they arrive, not until the call returns: a teacher could
   * not tell which. */
  d->title = g_strdup_printf (_ ("Time for %d copies of each size to arrive: one call each ÷ one "
                                 "batched call"),
                              count);
  d->x_label = g_strdup_printf (_ ("%s (log scale)"), _ ("bytes per copy"));
  /* TRANSLATORS: the batched chart's y axis ("(log scale)" is added
   * where it fits). */
  d->y_label = g_strdup (_ ("× as fast"));
  d->y_kind = MS_SCALE_LOG10;
  d->fit_y = TRUE;
  /* Down to 0.5× at least, for a tick under 1× to read a slower point by. */
  d->y_min = d->y_max = 0.5;
  d->direct_labels = TRUE;
  g_autoptr (GString) near = g_string_new (NULL);
  add_series (d, run, count, near);
  if (d->series->len == 0) {
    ms_chart_draw (cr, d, style, width, height, -1, NULL);
    return;
  }
  /* The line at 1 over the lines, which the key reads the bars against. */
  d->refs_over = TRUE;
  ms_chart_data_add_ref (d, 1, NULL);
  MsBatchedPair mark;
  int tally[3] = { 0, 0, 0 };
  ms_batched_marks (run, &mark, tally);
  /* The count behind the headline, checkable bar by bar; then which call
   * moved where the ratio jumps. */
  /* Which of the batch's three source orders is drawn, in plain words:
   * in the details alone, teachers asked; "in stream order" was read as
   * unexplained. */
  g_autofree char *key
      = g_strdup_printf (_ ("The batch reads its sources when the stream reaches it. Bars, "
                            "95%% ranges: %d wholly above 1× (batch faster), %d across it "
                            "(cannot tell), %d below (slower).%s"),
                         tally[2], tally[1], tally[0], near->str);
  g_autoptr (GString) note = g_string_new (NULL);
  jump_times (run, count, note);
  const double fs = ms_style_font_size (style) * 0.95;
  double key_h = ms_draw_text_wrapped (cr, key, 0, 0, fs, width - fs, FALSE, FALSE);
  double note_h = ms_draw_text_wrapped (cr, note->str, 0, 0, fs, width - fs, FALSE, FALSE);
  /* A pane too small for the chart, the key and the note: the chart and
   * its key (the times stay in the details). */
  if (height - note_h - key_h < height * 0.45)
    g_string_truncate (note, 0), note_h = 0;
  double chart_h = round (height - note_h - key_h - fs * 0.6);
  ms_draw_background (cr, style);
  cairo_save (cr);
  cairo_rectangle (cr, 0, 0, width, chart_h);
  cairo_clip (cr);
  MsChartLayout layout;
  ms_chart_layout_init (&layout);
  ms_chart_draw (cr, d, style, width, chart_h, -1, &layout);
  ends_at_one (cr, d, style, &layout);
  /* The slower point (the only one below 1×), or, where none is apart, the one the caption quotes. */
  g_autoptr (GArray) placed = g_array_new (FALSE, FALSE, sizeof (MsChartRect));
  if (ms_batched_verdict (&mark) < 0 || (!tally[0] && !tally[2]))
    label_mark (cr, d, style, &layout, &mark, placed);
  label_jumps (cr, d, style, &layout, run, count, placed);
  ms_chart_layout_clear (&layout);
  cairo_restore (cr);
  ms_set_color (cr, &style->fg, 0.9);
  ms_draw_text_wrapped (cr, key, fs * 0.5, chart_h + fs * 0.3, fs, width - fs, FALSE, TRUE);
  ms_set_color (cr, &style->fg, 0.85);
  if (note->len)
    ms_draw_text_wrapped (cr, note->str, fs * 0.5, chart_h + key_h + fs * 0.3, fs, width - fs,
                          FALSE, TRUE);
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
