/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-raster-columns.c: a polyline whose x only grows, painted column by
 * column straight into the image: beside a segment alone, each pixel's
 * coverage from its distance across the line; near a join, the largest of
 * the segments' coverages (their union, as one stroke). */
#include "ms-raster-private.h"

/* A segment of a polyline painted column by column, with what its
 * columns need. */
typedef struct {
  MsSegment s;
  double ux, uy, len;
  double slope, half; /* y per x; how far along y a pixel centre may lie */
  double inner0, inner1; /* the columns whose pixels all lie beside it, not by an end */
} MsColumnSegment;

static void
column_segment_init (MsColumnSegment *c, const double *a, gboolean butt_a, gboolean butt_b,
                     double hw)
{
  double dx = a[2] - a[0], dy = a[3] - a[1], reach = hw + 0.5;
  c->s = (MsSegment){ a[0], a[1], a[2], a[3], hw, butt_a, butt_b };
  c->len = sqrt (dx * dx + dy * dy);
  c->ux = dx / c->len;
  c->uy = dy / c->len;
  c->slope = dy / dx;
  c->half = reach / c->ux;
  /* A pixel beside the line at most reach away lies reach |uy| along it
   * from its column's crossing; a butt end's half pixel on top. */
  double margin = reach * fabs (c->uy) + 0.5 * c->ux + 1e-6;
  c->inner0 = a[0] + margin;
  c->inner1 = a[2] - margin;
}

/* The rows of column x (its centre cx) within reach of the segment, its
 * round ends included. */
static void
column_segment_rows (const MsColumnSegment *c, double cx, double reach, int *j0, int *j1)
{
  double xa = CLAMP (cx - reach, c->s.ax, c->s.bx), xb = CLAMP (cx + reach, c->s.ax, c->s.bx);
  double ya = c->s.ay + (xa - c->s.ax) * c->slope, yb = c->s.ay + (xb - c->s.ax) * c->slope;
  *j0 = MIN (*j0, iceil (MIN (ya, yb) - reach - 0.5));
  *j1 = MAX (*j1, ifloor (MAX (ya, yb) + reach - 0.5));
}

/* The image after a full fill is mostly out of the cache: the rows the
 * line crosses in the next cache line's columns (16 pixels from x, its
 * middle from mid to mid + 16 slope) are asked for ahead, so that reading
 * them does not stall; at most 64 of them. */
static inline void
prefetch_ahead (const MsRaster *r, int x, double mid, double slope, double half)
{
  double end = mid + 15 * slope;
  int j0 = MAX (r->y0, ifloor (MIN (mid, end) - half));
  int j1 = MIN (MIN (r->y1 - 1, iceil (MAX (mid, end) + half)), j0 + 63);
  if (x >= r->x1)
    return;
  for (int j = j0; j <= j1; j++)
    __builtin_prefetch (r->data + (gsize) j * r->stride + (gsize) x * 4, 1);
}

/* Columns x0..x1 beside segment c alone: each pixel's coverage from its
 * distance across the line, as walk_middle. */
static void
column_run (MsRaster *r, const MsColumnSegment *c, int x0, int x1, double reach)
{
  const gsize step = r->stride / 4;
  const double ux = c->ux, half = c->half, slope = c->slope;
  const MsBlend b = blend_of (r);
  double mid = c->s.ay + (x0 + 0.5 - c->s.ax) * slope;
  for (int x = x0; x <= x1; x++, mid += slope) {
    int j0 = MAX (r->y0, ifloor (mid - half - 0.5) + 1);
    int j1 = MIN (r->y1 - 1, iceil (mid + half - 0.5) - 1);
    if (j0 > j1)
      continue;
    guint32 *p = (guint32 *) (r->data + (gsize) j0 * r->stride) + x;
    /* Two cache lines ahead: the first two when the run starts. */
    if (x == x0)
      prefetch_ahead (r, x, mid, slope, half);
    if (x == x0 || x % 16 == 0)
      prefetch_ahead (r, (x & ~15) + 16, mid + ((x & ~15) + 16 - x) * slope, slope, half);
    if (x % 16 == 0)
      prefetch_ahead (r, x + 32, mid + 32 * slope, slope, half);
    double off = j0 + 0.5 - mid;
    for (int j = j0; j <= j1; j++, off += 1, p += step)
      *p = blend_with (&b, *p, coverage_byte (reach - ux * fabs (off)));
  }
}

/* Column x near the ends of segments k0..k1: each pixel at the largest of
 * their coverages (the union, as one stroke). */
static void
column_joined (MsRaster *r, const MsColumnSegment *cs, guint k0, guint k1, int x, double reach)
{
  double cx = x + 0.5;
  int j0 = G_MAXINT, j1 = G_MININT;
  for (guint k = k0; k <= k1; k++)
    column_segment_rows (&cs[k], cx, reach, &j0, &j1);
  j0 = MAX (j0, r->y0);
  j1 = MIN (j1, r->y1 - 1);
  if (j0 > j1)
    return;
  const gsize step = r->stride / 4;
  guint32 *p = (guint32 *) (r->data + (gsize) j0 * r->stride) + x;
  for (int j = j0; j <= j1; j++, p += step) {
    double c = 0;
    for (guint k = k0; k <= k1; k++)
      c = MAX (c, segment_coverage (&cs[k].s, cs[k].ux, cs[k].uy, cs[k].len, cx, j + 0.5));
    if (c > 0)
      *p = blend (r, *p, coverage_byte (c));
  }
}

/* Each pixel once (ms-raster-private.h). */
gboolean
ms_raster_add_columns (MsRaster *r, const double *xy, guint n, double hw)
{
  const double reach = hw + 0.5;
  double *pts = g_new (double, 2 * n);
  gboolean down = xy[2 * n - 2] < xy[0];
  for (guint i = 0; i < n; i++) {
    guint from = down ? n - 1 - i : i;
    pts[2 * i] = xy[2 * from];
    pts[2 * i + 1] = xy[2 * from + 1];
  }
  /* Not over shapes still in the mask: they would be painted over it. */
  gboolean ok = r->stride % 4 == 0 && ifloor (pts[0] - reach - 1) >= r->last_right &&
                r->scratch->n_touched == 0;
  for (guint i = 0; i + 1 < n && ok; i++)
    ok = pts[2 * i + 2] > pts[2 * i];
  if (!ok) {
    g_free (pts);
    return FALSE;
  }
  guint n_seg = n - 1;
  MsColumnSegment *cs = g_new (MsColumnSegment, n_seg);
  for (guint k = 0; k < n_seg; k++)
    column_segment_init (&cs[k], pts + 2 * k, k == 0, k + 1 == n_seg, hw);
  int x0 = MAX (r->x0, ifloor (pts[0] - reach - 0.5));
  int x1 = MIN (r->x1 - 1, iceil (pts[2 * n - 2] + reach - 0.5));
  guint k0 = 0, k1 = 0;
  for (int x = x0; x <= x1;) {
    double cx = x + 0.5;
    /* The segments whose pixels may lie in this column: within reach. */
    while (k0 + 1 < n_seg && cs[k0].s.bx + reach <= cx)
      k0++;
    k1 = MAX (k1, k0);
    while (k1 + 1 < n_seg && cs[k1 + 1].s.ax - reach < cx)
      k1++;
    if (k0 == k1 && cx >= cs[k0].inner0 && cx <= cs[k0].inner1) {
      /* The columns up to where the next segment comes within reach. */
      double end = k0 + 1 < n_seg ? MIN (cs[k0].inner1, cs[k0 + 1].s.ax - reach) : cs[k0].inner1;
      int last = MAX (x, MIN (x1, ifloor (end - 0.5)));
      column_run (r, &cs[k0], x, last, reach);
      x = last + 1;
    } else {
      column_joined (r, cs, k0, k1, x, reach);
      x++;
    }
  }
  r->last_right = iceil (pts[2 * n - 2] + reach + 1);
  g_free (cs);
  g_free (pts);
  return TRUE;
}
