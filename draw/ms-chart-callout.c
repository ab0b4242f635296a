/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-chart-callout.c: the points a lesson's takeaway quotes, ringed on the
 * chart with their figure beside them, so that a class finds the number
 * it has just read without hunting along the lines. */
#include "ms-chart.h"

#include <math.h>

void
ms_chart_data_add_callout (MsChartData *d, double x, double y, const char *label)
{
  MsChartCallout c = { x, y, g_strdup (label), FALSE };
  g_array_append_val (d->callouts, c);
}

/* Whether segments a-b and c-d cross. */
static gboolean
segments_cross (const double a[2], const double b[2], const double c[2], const double d[2])
{
  double d1 = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
  double d2 = (b[0] - a[0]) * (d[1] - a[1]) - (b[1] - a[1]) * (d[0] - a[0]);
  double d3 = (d[0] - c[0]) * (a[1] - c[1]) - (d[1] - c[1]) * (a[0] - c[0]);
  double d4 = (d[0] - c[0]) * (b[1] - c[1]) - (d[1] - c[1]) * (b[0] - c[0]);
  return d1 * d2 < 0 && d3 * d4 < 0;
}

/* Whether the segment a-b passes through box, its first and last tenth
 * aside (they end at the point and at the label): tried at steps. */
static gboolean
segment_meets_box (const double a[2], const double b[2], const MsChartRect *box)
{
  for (int i = 1; i < 10; i++) {
    double x = a[0] + (b[0] - a[0]) * i / 10, y = a[1] + (b[1] - a[1]) * i / 10;
    if (x > box->x && x < box->x + box->w && y > box->y && y < box->y + box->h)
      return TRUE;
  }
  return FALSE;
}

/* The leader of a label at b for the point (px, py): from the point to
 * the box's nearest edge. */
static void
leader_of (const MsChartRect *b, double px, double py, double from[2], double to[2])
{
  from[0] = px, from[1] = py;
  to[0] = CLAMP (px, b->x, b->x + b->w), to[1] = CLAMP (py, b->y, b->y + b->h);
}

/* Whether the leader a-b, past the point's marker, runs over a mark, a
 * line or an error bar, or is upright: batched's "1.67×" ran down its own
 * point's range, which then looked longer than it was. */
static gboolean
leader_covers (const MsChartData *d, const MsChartLayout *l, const double a[2], const double b[2])
{
  double len = hypot (b[0] - a[0], b[1] - a[1]);
  if (fabs (b[0] - a[0]) < 2 && len > l->marker_r * 2)
    return TRUE;
  for (double t = l->marker_r * 1.5 + 2; t < len - 1; t += 2)
    if (ms_chart_data_cover (d, l, 0, a[0] + (b[0] - a[0]) * t / len - 0.5,
                             a[1] + (b[1] - a[1]) * t / len - 0.5, 1, 1) > 0)
      return TRUE;
  return FALSE;
}

/* The distance from (x, y) to box. */
static double
box_distance (const MsChartRect *b, double x, double y)
{
  return hypot (x - CLAMP (x, b->x, b->x + b->w), y - CLAMP (y, b->y, b->y + b->h));
}

/* Whether box lies nearer another callout's point (points: x, y pairs)
 * than its own at (px, py): it then reads as that point's label, as
 * sync-async's "waited: 409 µs" did under the 1 MiB ring at 1024x768. */
static gboolean
nearer_another (const MsChartRect *b, double px, double py, const GArray *points)
{
  double own = box_distance (b, px, py);
  for (guint j = 0; j + 2 <= points->len; j += 2) {
    double qx = g_array_index (points, double, j), qy = g_array_index (points, double, j + 1);
    if ((qx != px || qy != py) && box_distance (b, qx, qy) < own)
      return TRUE;
  }
  return FALSE;
}

/* Where a label of w x h goes for a ring of radius r at (px, py): of the
 * spots around it, a step or more away, the one inside the plot covering
 * the least data and no label or ring placed before, then the nearest;
 * width 0 where every spot covers a label or ring. */
static MsChartRect
callout_spot (const MsChartData *d, const MsChartLayout *l, double px, double py, double r,
              double w, double h, const GArray *placed, const GArray *leaders,
              const GArray *points)
{
  /* The half slopes last: a label beside a ring between tall error
   * bars found its free spot only along them. */
  static const double dirs[][2] = { { 1, -1 },   { -1, -1 },   { 1, 1 },   { -1, 1 },
                                    { 0, -1 },   { 0, 1 },     { 1, 0 },   { -1, 0 },
                                    { 1, -0.5 }, { -1, -0.5 }, { 1, 0.5 }, { -1, 0.5 } };
  /* Failing every spot, above and right of the ring, moved into the
   * plot; the caller leaves out a label wider or taller than the plot. */
  MsChartRect best = { CLAMP (px + r, l->plot_x + 2, l->plot_x + l->plot_w - w - 2),
                 CLAMP (py - r - h, l->plot_y + 2, l->plot_y + l->plot_h - h - 2), w, h };
  double best_score = G_MAXDOUBLE;
  /* Six steps: beside tall error bars the nearest free spot lay beyond
   * four. */
  for (int step = 1; step <= 6; step++)
    for (guint k = 0; k < G_N_ELEMENTS (dirs); k++) {
      double gap = r + step * h * 0.6;
      double cx = px + dirs[k][0] * gap, cy = py + dirs[k][1] * gap;
      /* The box hangs off the spot on the side away from the point. */
      MsChartRect b = { dirs[k][0] > 0 ? cx : dirs[k][0] < 0 ? cx - w : cx - w / 2,
                  dirs[k][1] > 0 ? cy : dirs[k][1] < 0 ? cy - h : cy - h / 2, w, h };
      /* A spot past the plot's edge slides back inside it: by the right
       * edge the free room under a point was never tried (sync-async's
       * "4 MiB: waited" hid the line to 1 MiB on the H200). */
      if (w > l->plot_w - 4 || h > l->plot_h - 4)
        continue;
      b.x = CLAMP (b.x, l->plot_x + 2, l->plot_x + l->plot_w - w - 2);
      b.y = CLAMP (b.y, l->plot_y + 2, l->plot_y + l->plot_h - h - 2);
      /* Over a marker, a stretch of line or an error bar only where no
       * spot of the six steps is free, and before a crossed leader: at
       * two steps' cost, a tie with a free spot further off, sync-async's
       * "1 MiB: returned after 84 µs" hid 55 px of the H100's pageable
       * line at 1024x768 (issue 84). */
      double score = ms_chart_data_cover (d, l, 2, b.x, b.y, w, h) * 2e5 + step * h;
      for (guint j = 0; j < placed->len; j++)
        if (ms_chart_rects_overlap (&b, &g_array_index (placed, MsChartRect, j)))
          score += 1e6;
      /* Crossed leaders pointed each label at the other's point. */
      double from[2], to[2];
      leader_of (&b, px, py, from, to);
      for (guint j = 0; j < placed->len; j++)
        if (segment_meets_box (from, to, &g_array_index (placed, MsChartRect, j)))
          score += 1e5;
      for (guint j = 0; j + 4 <= leaders->len; j += 4)
        if (segments_cross (from, to, &g_array_index (leaders, double, j),
                            &g_array_index (leaders, double, j + 2)))
          score += 1e5;
      if (nearer_another (&b, px, py, points) || leader_covers (d, l, from, to))
        score += 1e5;
      if (score < best_score)
        best_score = score, best = b;
    }
  /* Over another label or ring at every spot: none (a ring alone). */
  if (best_score >= 1e6)
    best.w = 0;
  return best;
}

/* The ring, a leader from the label's nearest corner to it, and the label
 * on a background in bold (the ring alone without c): the one annotation on the chart that is the
 * takeaway's own. */
static void
callout_draw (cairo_t *cr, const MsChartStyle *st, const MsChartCallout *c, const MsChartRect *b,
              double px, double py, double r, double fs)
{
  const double lw = ms_style_line_width (st);
  ms_set_color (cr, &st->fg, 0.9);
  if (!c || !c->remark) {
    cairo_set_line_width (cr, lw * 1.3);
    cairo_new_sub_path (cr);
    cairo_arc (cr, px, py, r, 0, 2 * G_PI);
    cairo_stroke (cr);
  }
  if (!c)
    return;
  double ex = CLAMP (px, b->x, b->x + b->w), ey = CLAMP (py, b->y, b->y + b->h);
  double dx = ex - px, dy = ey - py, len = hypot (dx, dy);
  /* Without a ring the leader starts at the marker's edge (a ring's
   * radius is 2.2 markers'). */
  if (c->remark)
    r /= 2.2;
  /* An upright leader from a point without a ring ran along its own bar,
   * which then looked longer: the label right over or under it is its. */
  if (len > r + 1 && !(c->remark && fabs (dx) < 1))
    ms_draw_line (cr, lw, px + dx / len * r, py + dy / len * r, ex, ey);
  ms_set_color (cr, &st->bg, 0.92);
  cairo_rectangle (cr, b->x, b->y, b->w, b->h);
  cairo_fill (cr);
  /* A label without a ring as dark as one with: grey, the concurrent
   * slide's headline figure read as the lesser one. */
  ms_set_color (cr, &st->fg, 1);
  ms_draw_text (cr, c->label, b->x + fs * 0.3, b->y + fs * 0.2, fs, 0, 0, TRUE, NULL, NULL);
}

void
ms_chart_callouts_draw (cairo_t *cr, const MsChartData *d, const MsChartStyle *st,
                        const MsChartLayout *l)
{
  if (!d->callouts || d->callouts->len == 0)
    return;
  /* A callout is the figure its chart is drawn for: a slide's least
   * figure size. */
  const double fs = ms_draw_figure_size (cr, ms_style_font_size (st) * 0.95);
  const double r = ms_style_marker_radius (st) * 2.2;
  GArray *placed = g_array_new (FALSE, FALSE, sizeof (MsChartRect));
  GArray *leaders = g_array_new (FALSE, FALSE, sizeof (double)); /* x0 y0 x1 y1 each */
  GArray *points = g_array_new (FALSE, FALSE, sizeof (double));  /* x y each */
  /* The reference lines' labels and the rings first, so that no label
   * sits on another's or on a point. */
  for (guint i = 0; l->labels && i < l->labels->len; i++) {
    const MsChartBox *n = &g_array_index (l->labels, MsChartBox, i);
    MsChartRect note = { n->x, n->y, n->w, n->h };
    g_array_append_val (placed, note);
  }
  for (guint i = 0; i < d->callouts->len; i++) {
    const MsChartCallout *c = &g_array_index (d->callouts, MsChartCallout, i);
    MsChartRect ring = { ms_scale_to_pixel (&l->xs, c->x) - r, ms_scale_to_pixel (&l->ys, c->y) - r,
                   2 * r, 2 * r };
    g_array_append_val (placed, ring);
    double p[2] = { ms_scale_to_pixel (&l->xs, c->x), ms_scale_to_pixel (&l->ys, c->y) };
    g_array_append_vals (points, p, 2);
  }
  for (guint i = 0; i < d->callouts->len; i++) {
    const MsChartCallout *c = &g_array_index (d->callouts, MsChartCallout, i);
    if (!ms_scale_contains (&l->xs, c->x) || !ms_scale_contains (&l->ys, c->y))
      continue;
    double tw, th, px = ms_scale_to_pixel (&l->xs, c->x), py = ms_scale_to_pixel (&l->ys, c->y);
    ms_draw_text (cr, c->label, 0, 0, fs, -1, 0, TRUE, &tw, &th);
    double w = tw + fs * 0.6, h = th + fs * 0.4;
    if (w > l->plot_w - 4 || h > l->plot_h - 4) {
      if (!c->remark)
        callout_draw (cr, st, NULL, NULL, px, py, r, fs);
      continue;
    }
    MsChartRect b = callout_spot (d, l, px, py, r, w, h, placed, leaders, points);
    if (b.w > 0) {
      ms_chart_check_label (cr, d, l, c->label, &b);
      double seg[4];
      leader_of (&b, px, py, seg, seg + 2);
      g_array_append_vals (leaders, seg, 4);
      g_array_append_val (placed, b);
    }
    if (b.w > 0 || !c->remark)
      callout_draw (cr, st, b.w > 0 ? c : NULL, &b, px, py, r, fs);
  }
  g_array_unref (placed);
  g_array_unref (leaders);
  g_array_unref (points);
}
