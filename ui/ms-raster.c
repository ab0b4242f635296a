/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-raster.c: coverage from distances, gathered in a mask of the clip's
 * size and painted through the list of pixels touched (ms-raster.h). */
#include "ms-raster.h"

#include <math.h>
#include <string.h>

typedef struct _MsRasterScratch MsRasterScratch;

/* Lines through points this far (device pixels) are left to Cairo: their
 * dashes would take as long to walk. */
#define MS_RASTER_FAR 1e5
/* The largest mask kept between draws: a 4K screen's. */
#define MS_RASTER_KEEP ((gsize) 3840 * 2400)

struct _MsRaster {
  cairo_surface_t *surface;
  guchar *data;
  int stride;
  int x0, y0, x1, y1;       /* the clip in device pixels, x1 and y1 past it */
  double scale, dx, dy;     /* user to device: x * scale + dx */
  int width;                /* the surface's, the mask's stride */
  guint8 *mask;             /* coverage, as big as the surface; zero between paints */
  MsRasterScratch *scratch; /* the mask's owner, and the pixels touched */
  guint32 at_cover[256];    /* the colour (premultiplied) at each coverage */
  guint32 background;       /* the last background filled on this thread */
  guint32 over_bg[256];     /* at_cover over it: most pixels a line covers */
  int last_right;           /* past the last marker painted at once, G_MAXINT: none */
};

/* The mask is kept per thread, zero outside a paint: a chart allocates it
 * once, not for every draw. */
struct _MsRasterScratch {
  guint8 *mask;
  gsize size;
  guint32 *touched; /* y * width + x where the mask is not zero */
  gsize n_touched, touched_size;
  guint32 background; /* the last ms_raster_fill's */
};

static void
scratch_free (gpointer data)
{
  MsRasterScratch *s = data;
  g_free (s->mask);
  g_free (s->touched);
  g_free (s);
}

static GPrivate scratch_key = G_PRIVATE_INIT (scratch_free);

/* The four 8-bit channels of x times a / 255, rounded (as pixman does). */
static inline guint32
mul_un8x4 (guint32 x, guint32 a)
{
  guint32 rb = (x & 0xff00ff) * a + 0x800080;
  rb = ((rb + ((rb >> 8) & 0xff00ff)) >> 8) & 0xff00ff;
  guint32 ag = ((x >> 8) & 0xff00ff) * a + 0x800080;
  ag = (ag + ((ag >> 8) & 0xff00ff)) & 0xff00ff00;
  return rb | ag;
}

/* OVER at coverage: the colour at that coverage plus the pixel times one
 * less its alpha. */
static inline guint32
over (guint32 pixel, guint32 src)
{
  return src >> 24 == 255 ? src : src + mul_un8x4 (pixel, 255 - (src >> 24));
}

/* The colour at coverage c over pixel: looked up where the pixel is the
 * background. */
static inline guint32
blend (const MsRaster *r, guint32 pixel, guint c)
{
  return pixel == r->background ? r->over_bg[c] : over (pixel, r->at_cover[c]);
}

/* Within a millionth of a whole number; without round's library call. */
static gboolean
whole (double v)
{
  if (!(fabs (v) < 1e15))
    return FALSE;
  double f = fabs (v - (double) (gint64) v);
  return f < 1e-6 || f > 1 - 1e-6;
}

MsRaster *
ms_raster_begin (cairo_t *cr)
{
  cairo_surface_t *target = cairo_get_target (cr);
  if (cairo_get_group_target (cr) != target || cairo_surface_get_type (target) != CAIRO_SURFACE_TYPE_IMAGE ||
      cairo_get_operator (cr) != CAIRO_OPERATOR_OVER)
    return NULL;
  cairo_format_t format = cairo_image_surface_get_format (target);
  if (format != CAIRO_FORMAT_ARGB32 && format != CAIRO_FORMAT_RGB24)
    return NULL;
  cairo_matrix_t m;
  double sx, sy, ox, oy;
  cairo_get_matrix (cr, &m);
  cairo_surface_get_device_scale (target, &sx, &sy);
  cairo_surface_get_device_offset (target, &ox, &oy);
  if (m.xy != 0 || m.yx != 0 || m.xx <= 0 || m.xx != m.yy || sx != sy)
    return NULL;
  cairo_rectangle_list_t *clip = cairo_copy_clip_rectangle_list (cr);
  gboolean one = clip->status == CAIRO_STATUS_SUCCESS && clip->num_rectangles == 1;
  cairo_rectangle_t c = one ? clip->rectangles[0] : (cairo_rectangle_t){ 0 };
  cairo_rectangle_list_destroy (clip);
  double scale = m.xx * sx, dx = m.x0 * sx + ox, dy = m.y0 * sy + oy;
  double cx0 = c.x * scale + dx, cy0 = c.y * scale + dy;
  double cx1 = (c.x + c.width) * scale + dx, cy1 = (c.y + c.height) * scale + dy;
  if (!one || !whole (cx0) || !whole (cy0) || !whole (cx1) || !whole (cy1))
    return NULL;

  MsRaster *r = g_new0 (MsRaster, 1);
  r->surface = target;
  r->scale = scale;
  r->dx = dx;
  r->dy = dy;
  r->x0 = MAX (0, (int) round (cx0));
  r->y0 = MAX (0, (int) round (cy0));
  r->x1 = MIN (cairo_image_surface_get_width (target), (int) round (cx1));
  r->y1 = MIN (cairo_image_surface_get_height (target), (int) round (cy1));
  r->x1 = MAX (r->x1, r->x0);
  r->y1 = MAX (r->y1, r->y0);
  MsRasterScratch *s = g_private_get (&scratch_key);
  if (!s) {
    s = g_new0 (MsRasterScratch, 1);
    g_private_set (&scratch_key, s);
  }
  r->width = cairo_image_surface_get_width (target);
  gsize need = (gsize) r->width * cairo_image_surface_get_height (target);
  if (need > s->size) {
    g_free (s->mask);
    s->mask = g_malloc0 (need);
    s->size = need;
  }
  r->mask = s->mask;
  r->scratch = s;
  r->background = s->background;
  r->last_right = G_MININT;
  s->n_touched = 0;
  cairo_surface_flush (target);
  r->data = cairo_image_surface_get_data (target);
  r->stride = cairo_image_surface_get_stride (target);
  return r->data ? r : (g_free (r), NULL);
}

void
ms_raster_end (MsRaster *r)
{
  /* Whatever was added and not painted is dropped: the mask stays zero. */
  MsRasterScratch *s = r->scratch;
  for (gsize i = 0; i < s->n_touched; i++)
    r->mask[s->touched[i]] = 0;
  s->n_touched = 0;
  /* A big export's mask is not kept for the screen's small ones. */
  if (s->size > MS_RASTER_KEEP) {
    g_clear_pointer (&s->mask, g_free);
    s->size = 0;
  }
  g_free (r);
}

/* Where shapes are added: the mask and the list of pixels touched, with
 * room for n more reserved. A local copy, so that the count stays in a
 * register while the mask is written byte by byte. */
typedef struct {
  guint8 *mask;
  guint32 *touched;
  gsize n;
} MsCover;

static MsCover
cover_begin (MsRaster *r, gsize n)
{
  MsRasterScratch *s = r->scratch;
  if (s->n_touched + n > s->touched_size) {
    s->touched_size = MAX (s->touched_size * 2, s->n_touched + n + 4096);
    s->touched = g_renew (guint32, s->touched, s->touched_size);
  }
  return (MsCover){ r->mask, s->touched, s->n_touched };
}

static void
cover_end (MsRaster *r, const MsCover *c)
{
  r->scratch->n_touched = c->n;
}

/* Coverage v into the mask at at, kept at the largest: the union of the
 * shapes, as one path. */
static inline void
cover_at (MsCover *c, guint8 *at, guint8 v)
{
  if (*at == 0)
    c->touched[c->n++] = (guint32) (at - c->mask);
  if (v > *at)
    *at = v;
}

/* floor and ceil without the library calls they compile to here. */
static inline int
ifloor (double v)
{
  int i = (int) v;
  return i - (v < i);
}

static inline int
iceil (double v)
{
  int i = (int) v;
  return i + (v > i);
}

static inline guint8
coverage_byte (double c)
{
  return c >= 1 ? 255 : (guint8) (c * 255 + 0.5);
}

static inline double
clamp01 (double v)
{
  return v < 0 ? 0 : v > 1 ? 1 : v;
}

/* One segment from (ax, ay) to (bx, by) in device pixels, hw half its
 * width; an end is butt (a dash's or the line's end) or round (a join). */
typedef struct {
  double ax, ay, bx, by, hw;
  gboolean butt_a, butt_b;
} MsSegment;

static inline double
segment_coverage (const MsSegment *s, double ux, double uy, double len, double px, double py)
{
  double rx = px - s->ax, ry = py - s->ay;
  double along = rx * ux + ry * uy, across = fabs (rx * uy - ry * ux);
  double c;
  if (along < 0 && !s->butt_a)
    c = s->hw + 0.5 - sqrt (rx * rx + ry * ry);
  else if (along > len && !s->butt_b)
    c = s->hw + 0.5 - sqrt ((px - s->bx) * (px - s->bx) + (py - s->by) * (py - s->by));
  else
    c = s->hw + 0.5 - across;
  c = clamp01 (c);
  if (s->butt_a)
    c *= clamp01 (0.5 + along);
  if (s->butt_b)
    c *= clamp01 (0.5 + len - along);
  return c;
}

/* A segment as walked: along its major axis i (x when it is flatter than
 * steep, else y), across the minor axis j. */
typedef struct {
  const MsSegment *s;
  gboolean flat;
  double ux, uy, len, reach;
  double a0, a1;  /* the ends along i */
  double slope;   /* j per i */
  double half;    /* how far along j a pixel centre may lie from the line */
  int mj0, mj1;   /* the clip along j */
} MsWalk;

static inline double
walk_mid (const MsWalk *w, double at)
{
  const MsSegment *s = w->s;
  return w->flat ? s->ay + (at - s->ax) * w->slope : s->ax + (at - s->ay) * w->slope;
}

/* Columns i0..i1 near an end: each pixel's coverage from the end's shape
 * (round join or butt), into the mask. */
static void
walk_ends (MsRaster *r, const MsWalk *w, MsCover *cov, int i0, int i1)
{
  for (int i = i0; i <= i1; i++) {
    double mid = walk_mid (w, CLAMP (i + 0.5, w->a0, w->a1));
    int j0 = MAX (w->mj0, ifloor (mid - w->half - 0.5));
    int j1 = MIN (w->mj1 - 1, iceil (mid + w->half - 0.5));
    for (int j = j0; j <= j1; j++) {
      int x = w->flat ? i : j, y = w->flat ? j : i;
      double c = segment_coverage (w->s, w->ux, w->uy, w->len, x + 0.5, y + 0.5);
      if (c > 0)
        cover_at (cov, r->mask + (gsize) y * r->width + x, coverage_byte (c));
    }
  }
}

/* Columns i0..i1 away from the ends: the pixels whose centre lies within
 * half of the line along j, their coverage from the distance across;
 * painted at once when direct, else into the mask. */
static void
walk_middle (MsRaster *r, const MsWalk *w, MsCover *cov, int i0, int i1, gboolean direct)
{
  /* Across the line, a step along j moves a pixel centre this far. */
  const double per_j = fabs (w->flat ? w->ux : w->uy), reach = w->reach;
  const gsize stride = r->stride, step_mask = w->flat ? (gsize) r->width : 1;
  const gsize step_pixel = w->flat ? stride / 4 : 1;
  guchar *data = r->data;
  guint32 at_cover[256];
  /* A local copy: the pixels written might otherwise be the table. */
  if (direct)
    memcpy (at_cover, r->at_cover, sizeof at_cover);
  double mid = walk_mid (w, i0 + 0.5);
  for (int i = i0; i <= i1; i++, mid += w->slope) {
    int j0 = MAX (w->mj0, ifloor (mid - w->half - 0.5) + 1);
    int j1 = MIN (w->mj1 - 1, iceil (mid + w->half - 0.5) - 1);
    double off = j0 + 0.5 - mid;
    int x = w->flat ? i : j0, y = w->flat ? j0 : i;
    if (direct) {
      guint32 *p = (guint32 *) (data + (gsize) y * stride) + x;
      for (int j = j0; j <= j1; j++, off += 1, p += step_pixel)
        *p = over (*p, at_cover[coverage_byte (reach - per_j * fabs (off))]);
      continue;
    }
    guint8 *m = r->mask + (gsize) y * r->width + x;
    for (int j = j0; j <= j1; j++, off += 1, m += step_mask) {
      double c = reach - per_j * fabs (off);
      if (c > 0)
        cover_at (cov, m, coverage_byte (c));
    }
  }
}

/* Walks the pixels within reach of the segment, column by column when it
 * is flatter than steep, else row by row: in each, the pixels whose centre
 * is within hw + 0.5 of the segment's line (which holds its round ends
 * too), a few per column. In a polyline whose x only grows (or only
 * shrinks), a flat segment's columns away from its ends are its own:
 * those pixels are painted at once. */
static void
add_segment (MsRaster *r, const MsSegment *s, gboolean monotonic)
{
  double dx = s->bx - s->ax, dy = s->by - s->ay, len = sqrt (dx * dx + dy * dy);
  if (len < 1e-9)
    return;
  MsWalk w = { s, fabs (dx) >= fabs (dy), dx / len, dy / len, len, s->hw + 0.5 };
  w.a0 = w.flat ? MIN (s->ax, s->bx) : MIN (s->ay, s->by);
  w.a1 = w.flat ? MAX (s->ax, s->bx) : MAX (s->ay, s->by);
  w.slope = w.flat ? dy / dx : dx / dy;
  w.half = w.reach * len / fabs (w.flat ? dx : dy);
  w.mj0 = w.flat ? r->y0 : r->x0;
  w.mj1 = w.flat ? r->y1 : r->x1;
  int mi0 = w.flat ? r->x0 : r->y0, mi1 = w.flat ? r->x1 : r->y1;
  int i0 = MAX (mi0, ifloor (w.a0 - w.reach - 0.5));
  int i1 = MIN (mi1 - 1, iceil (w.a1 + w.reach - 0.5));
  if (i1 < i0)
    return;
  /* The columns whose centre is clear of both ends by the reach and one. */
  int ia = MAX (i0, iceil (w.a0 + w.reach + 0.5));
  int ib = MIN (i1, ifloor (w.a1 - w.reach - 1.5));
  MsCover cov = cover_begin (r, (gsize) (i1 - i0 + 1) * ((int) ceil (2 * w.half) + 2));
  if (ia > ib) {
    walk_ends (r, &w, &cov, i0, i1);
  } else {
    walk_ends (r, &w, &cov, i0, ia - 1);
    walk_middle (r, &w, &cov, ia, ib, monotonic && w.flat && r->stride % 4 == 0);
    walk_ends (r, &w, &cov, ib + 1, i1);
  }
  cover_end (r, &cov);
}

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
  double mid = c->s.ay + (x0 + 0.5 - c->s.ax) * slope;
  for (int x = x0; x <= x1; x++, mid += slope) {
    int j0 = MAX (r->y0, ifloor (mid - half - 0.5) + 1);
    int j1 = MIN (r->y1 - 1, iceil (mid + half - 0.5) - 1);
    if (j0 > j1)
      continue;
    guint32 *p = (guint32 *) (r->data + (gsize) j0 * r->stride) + x;
    if (x % 16 == 0)
      prefetch_ahead (r, x + 16, mid + 16 * slope, slope, half);
    double off = j0 + 0.5 - mid;
    for (int j = j0; j <= j1; j++, off += 1, p += step)
      *p = blend (r, *p, coverage_byte (reach - ux * fabs (off)));
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

/* A polyline whose x only grows (or only shrinks), clear of what was
 * painted at once since the last paint, painted straight into the image
 * column by column: each pixel once. FALSE, and nothing painted, where
 * that does not hold. */
static gboolean
add_columns (MsRaster *r, const double *xy, guint n, double hw)
{
  const double reach = hw + 0.5;
  double *pts = g_new (double, 2 * n);
  gboolean down = xy[2 * n - 2] < xy[0];
  for (guint i = 0; i < n; i++) {
    guint from = down ? n - 1 - i : i;
    pts[2 * i] = xy[2 * from];
    pts[2 * i + 1] = xy[2 * from + 1];
  }
  gboolean ok = r->stride % 4 == 0 && ifloor (pts[0] - reach - 1) >= r->last_right;
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

/* One stroke of the polyline (device points), its ends butt. */
static void
add_piece (MsRaster *r, const double *xy, guint n, double hw, gboolean monotonic)
{
  if (monotonic && add_columns (r, xy, n, hw))
    return;
  /* Painted through the mask: nothing more at once until it is painted. */
  r->last_right = G_MAXINT;
  for (guint i = 0; i + 1 < n; i++) {
    MsSegment s = { xy[2 * i], xy[2 * i + 1], xy[2 * i + 2], xy[2 * i + 3], hw, i == 0,
                    i + 2 == n };
    add_segment (r, &s, monotonic);
  }
}

/* Cuts the polyline into its dashes (on, off, on...) from its start, as
 * Cairo does for each sub-path, and adds each. */
static void
add_dashed (MsRaster *r, const double *xy, guint n, double hw, const double *dashes,
            guint n_dashes, gboolean monotonic)
{
  GArray *piece = g_array_new (FALSE, FALSE, sizeof (double));
  guint k = 0;
  double left = dashes[0]; /* of the current dash or gap */
  for (guint i = 0; i + 1 < n; i++) {
    double ax = xy[2 * i], ay = xy[2 * i + 1], bx = xy[2 * i + 2], by = xy[2 * i + 3];
    double len = hypot (bx - ax, by - ay), done = 0;
    while (len - done > 1e-9) {
      double step = MIN (left, len - done), t0 = done / len, t1 = (done + step) / len;
      if (k % 2 == 0) {
        if (piece->len == 0) {
          double p[2] = { ax + (bx - ax) * t0, ay + (by - ay) * t0 };
          g_array_append_vals (piece, p, 2);
        }
        double q[2] = { ax + (bx - ax) * t1, ay + (by - ay) * t1 };
        g_array_append_vals (piece, q, 2);
      }
      done += step;
      left -= step;
      if (left <= 1e-9) {
        if (k % 2 == 0)
          add_piece (r, (double *) piece->data, piece->len / 2, hw, monotonic);
        g_array_set_size (piece, 0);
        k = (k + 1) % n_dashes;
        left = dashes[k];
      }
    }
  }
  if (k % 2 == 0 && piece->len >= 4)
    add_piece (r, (double *) piece->data, piece->len / 2, hw, monotonic);
  g_array_unref (piece);
}

gboolean
ms_raster_add_polyline (MsRaster *r, const double *xy, guint n, double line_width,
                        const double *dashes, guint n_dashes)
{
  for (guint i = 0; i < 2 * n; i++)
    if (!(fabs (xy[i] * r->scale) < MS_RASTER_FAR))
      return FALSE;
  /* Dashes of no length (or less) would never advance. */
  for (guint i = 0; i < n_dashes; i++)
    if (!(dashes[i] * r->scale > 1e-3))
      return FALSE;
  if (n < 2)
    return TRUE;
  double *dev = g_new (double, 2 * n);
  guint m = 0;
  for (guint i = 0; i < n; i++) {
    double x = xy[2 * i] * r->scale + r->dx, y = xy[2 * i + 1] * r->scale + r->dy;
    /* Repeated points make no segment and no join. */
    if (m > 0 && dev[2 * m - 2] == x && dev[2 * m - 1] == y)
      continue;
    dev[2 * m] = x;
    dev[2 * m + 1] = y;
    m++;
  }
  double hw = line_width * r->scale / 2;
  gboolean monotonic = TRUE;
  for (guint i = 1; i + 1 < m && monotonic; i++)
    monotonic = (dev[2 * i] - dev[2 * i - 2]) * (dev[2 * i + 2] - dev[2 * i]) > 0;
  if (n_dashes >= 2) {
    double scaled[8];
    n_dashes = MIN (n_dashes, G_N_ELEMENTS (scaled)) & ~1u;
    for (guint i = 0; i < n_dashes; i++)
      scaled[i] = dashes[i] * r->scale;
    add_dashed (r, dev, m, hw, scaled, n_dashes, monotonic);
  } else if (m >= 2) {
    add_piece (r, dev, m, hw, monotonic);
  }
  g_free (dev);
  return TRUE;
}

/* Signed distance from (px, py) to the marker's outline (< 0 inside) with
 * (px, py) relative to its centre: exact for the circle, the largest of the
 * distances to the sides' lines for the polygons (their corners stay
 * sharp, as filled). */
static double
marker_distance (guint shape, double px, double py, double r)
{
  switch (shape % MS_MARKER_SHAPES) {
  case 0:
    return sqrt (px * px + py * py) - r;
  case 1:
    return MAX (fabs (px), fabs (py)) - r * 0.9;
  case 3:
    return (fabs (px) + fabs (py) - r * 1.2) * G_SQRT2 / 2;
  default: {
    /* Triangles: apex (0, -1.15 r), base at 0.75 r from -1.05 r to 1.05 r;
     * shape 4 points down. The slanted sides by symmetry. */
    if (shape % MS_MARKER_SHAPES == 4)
      py = -py;
    double ex = r * 1.05, ey = r * 1.9, n = hypot (ex, ey);
    return MAX (py - r * 0.75, (ey * fabs (px) - ex * (py + r * 1.15)) / n);
  }
  }
}

void
ms_raster_add_rect (MsRaster *r, double x, double y, double w, double h)
{
  double x0 = MAX (x * r->scale + r->dx, r->x0), x1 = MIN ((x + w) * r->scale + r->dx, r->x1);
  double y0 = MAX (y * r->scale + r->dy, r->y0), y1 = MIN ((y + h) * r->scale + r->dy, r->y1);
  if (!(x1 > x0 && y1 > y0))
    return;
  int i0 = ifloor (x0), i1 = iceil (x1), j0 = ifloor (y0), j1 = iceil (y1);
  if (whole (x0) && whole (x1) && whole (y0) && whole (y1) && r->at_cover[255] >> 24 == 255) {
    /* Whole pixels in an opaque colour: painted at once, the same as
     * through the mask. */
    for (int j = j0; j < j1; j++) {
      guint32 *p = (guint32 *) (r->data + (gsize) j * r->stride) + i0;
      for (int i = i0; i < i1; i++)
        *p++ = r->at_cover[255];
    }
    return;
  }
  MsCover cov = cover_begin (r, (gsize) (i1 - i0) * (j1 - j0));
  for (int j = j0; j < j1; j++) {
    /* The share of each pixel inside: whole but at the edges. */
    double cy = MIN (j + 1, y1) - MAX (j, y0);
    guint8 *m = r->mask + (gsize) j * r->width + i0;
    for (int i = i0; i < i1; i++, m++) {
      double c = cy * (MIN (i + 1, x1) - MAX (i, x0));
      if (c > 0)
        cover_at (&cov, m, coverage_byte (c));
    }
  }
  cover_end (r, &cov);
}

/* A marker's coverage around a centre at a given eighth of a pixel, kept
 * per thread across draws: a chart's markers are a few shapes at a few
 * sizes, and a marker is then a copy instead of a hundred distances. */
enum { MS_STAMP_STEPS = 8, MS_STAMPS_MAX = 1024 };

typedef struct {
  int side;         /* pixels, 2 * half + 1 */
  guint16 *lo, *hi; /* per row, the first and one past the last covered pixel */
  guint8 cover[];
} MsStamp;

static GPrivate stamps_key = G_PRIVATE_INIT ((GDestroyNotify) g_hash_table_unref);

static const MsStamp *
stamp_for (guint shape, double rr, double hw, gboolean dot, int qx, int qy)
{
  GHashTable *stamps = g_private_get (&stamps_key);
  if (!stamps) {
    stamps = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
    g_private_set (&stamps_key, stamps);
  }
  gint64 key = (gint64) (shape % MS_MARKER_SHAPES) | (gint64) qx << 3 | (gint64) qy << 6 |
               (gint64) (dot != FALSE) << 10 |
               (gint64) MIN (lround (rr * 256), 0xfffff) << 11 |
               (gint64) MIN (lround (hw * 256), 0xfffff) << 31;
  MsStamp *st = g_hash_table_lookup (stamps, &key);
  if (st)
    return st;
  if (g_hash_table_size (stamps) >= MS_STAMPS_MAX)
    g_hash_table_remove_all (stamps);
  int half = MIN ((int) ceil (rr * 1.2 + hw + 1), 4096);
  int side = 2 * half + 1;
  /* The spans after the coverage, aligned for their type. */
  gsize spans = ((gsize) side * side + 1) & ~(gsize) 1;
  st = g_malloc (sizeof (MsStamp) + spans + 2 * side * sizeof (guint16));
  st->side = side;
  st->lo = (guint16 *) (st->cover + spans);
  st->hi = st->lo + side;
  for (int y = 0; y < side; y++) {
    st->lo[y] = side;
    st->hi[y] = 0;
    for (int x = 0; x < side; x++) {
      double px = x - half + 0.5 - qx / (double) MS_STAMP_STEPS;
      double py = y - half + 0.5 - qy / (double) MS_STAMP_STEPS;
      double d = marker_distance (shape, px, py, rr);
      double c = hw > 0 ? hw + 0.5 - fabs (d) : 0.5 - d;
      if (dot) {
        double e = marker_distance (0, px, py, rr * 0.3);
        c = MAX (c, hw > 0 ? hw + 0.5 - fabs (e) : 0.5 - e);
      }
      st->cover[y * side + x] = c > 0 ? coverage_byte (c) : 0;
      if (st->cover[y * side + x]) {
        st->lo[y] = MIN (st->lo[y], x);
        st->hi[y] = x + 1;
      }
    }
  }
  g_hash_table_insert (stamps, g_memdup2 (&key, sizeof key), st);
  return st;
}

void
ms_raster_add_marker (MsRaster *r, guint shape, double x, double y, double rad,
                      double ring_width, gboolean dot)
{
  double cx = x * r->scale + r->dx, cy = y * r->scale + r->dy;
  double reach = (rad * 1.2 + ring_width) * r->scale + 2;
  /* Out of sight (or not a number): nothing to cover. */
  if (!(cx > r->x0 - reach && cx < r->x1 + reach && cy > r->y0 - reach && cy < r->y1 + reach))
    return;
  int bx = ifloor (cx), by = ifloor (cy);
  int qx = (int) lround ((cx - bx) * MS_STAMP_STEPS), qy = (int) lround ((cy - by) * MS_STAMP_STEPS);
  bx += qx / MS_STAMP_STEPS;
  by += qy / MS_STAMP_STEPS;
  const MsStamp *st = stamp_for (shape, rad * r->scale, ring_width * r->scale / 2, dot,
                                 qx % MS_STAMP_STEPS, qy % MS_STAMP_STEPS);
  int half = st->side / 2;
  /* Markers that follow each other rightwards clear of the one before
   * cover pixels of their own: painted at once. */
  gboolean direct = bx - half >= r->last_right && r->stride % 4 == 0;
  r->last_right = direct ? bx + half + 1 : G_MAXINT;
  MsCover cov = cover_begin (r, direct ? 0 : (gsize) st->side * st->side);
  for (int j = 0; j < st->side; j++) {
    int py = by - half + j;
    if (py < r->y0 || py >= r->y1)
      continue;
    int i0 = MAX (st->lo[j], r->x0 - (bx - half)), i1 = MIN (st->hi[j], r->x1 - (bx - half));
    const guint8 *v = st->cover + j * st->side;
    if (direct) {
      guint32 *p = (guint32 *) (r->data + (gsize) py * r->stride) + (bx - half);
      for (int i = i0; i < i1; i++)
        if (v[i])
          p[i] = blend (r, p[i], v[i]);
      continue;
    }
    guint8 *m = r->mask + (gsize) py * r->width + (bx - half);
    for (int i = i0; i < i1; i++)
      if (v[i])
        cover_at (&cov, m + i, v[i]);
  }
  cover_end (r, &cov);
}

/* A channel as Cairo makes it: 16 bits, rounded, then the upper 8. */
static inline guint32
cairo_channel (double v)
{
  return (guint32) (CLAMP (v, 0, 1) * 65535.0 + 0.5) >> 8;
}

/* The colour premultiplied, as the surface stores it (alpha, red, green,
 * blue) and as Cairo's solid sources reach pixman. */
static guint32
cairo_pixel (const MsColor *color, double alpha)
{
  double a = CLAMP (color->alpha * alpha, 0, 1);
  return cairo_channel (a) << 24 | cairo_channel (CLAMP (color->red, 0, 1) * a) << 16 |
         cairo_channel (CLAMP (color->green, 0, 1) * a) << 8 |
         cairo_channel (CLAMP (color->blue, 0, 1) * a);
}

void
ms_raster_set_color (MsRaster *r, const MsColor *color, double alpha)
{
  guint32 src = cairo_pixel (color, alpha);
  for (guint m = 0; m < 256; m++) {
    r->at_cover[m] = mul_un8x4 (src, m);
    r->over_bg[m] = over (r->background, r->at_cover[m]);
  }
}

void
ms_raster_paint (MsRaster *r)
{
  MsRasterScratch *sc = r->scratch;
  guint8 *mask = r->mask;
  const guint32 *touched = sc->touched;
  if (r->stride == 4 * r->width) {
    guint32 *pixels = (guint32 *) r->data;
    for (gsize i = 0; i < sc->n_touched; i++) {
      guint32 at = touched[i];
      pixels[at] = blend (r, pixels[at], mask[at]);
      mask[at] = 0;
    }
  } else {
    for (gsize i = 0; i < sc->n_touched; i++) {
      guint32 at = touched[i];
      guint32 *p = (guint32 *) (r->data + at / r->width * r->stride) + at % r->width;
      *p = over (*p, r->at_cover[mask[at]]);
      mask[at] = 0;
    }
  }
  sc->n_touched = 0;
  r->last_right = G_MININT;
  cairo_surface_mark_dirty (r->surface);
}

typedef struct {
  int x0, y0, x1, y1;
} MsBox;

static int
box_cmp_x (gconstpointer a, gconstpointer b)
{
  return ((const MsBox *) a)->x0 - ((const MsBox *) b)->x0;
}

/* The layer's boxes in device pixels inside the clip, by their left edge;
 * FALSE when one is not on whole pixels. */
static gboolean
layer_boxes (MsRaster *r, const MsRasterLayer *layer, MsBox *out, guint *n_out)
{
  guint n = 0;
  for (guint i = 0; i < layer->n_boxes; i++) {
    const double *b = layer->boxes + 4 * i;
    double x0 = b[0] * r->scale + r->dx, y0 = b[1] * r->scale + r->dy;
    double x1 = (b[0] + b[2]) * r->scale + r->dx, y1 = (b[1] + b[3]) * r->scale + r->dy;
    if (!whole (x0) || !whole (y0) || !whole (x1) || !whole (y1))
      return FALSE;
    MsBox box = { MAX (r->x0, (int) round (MIN (x0, x1))), MAX (r->y0, (int) round (MIN (y0, y1))),
                  MIN (r->x1, (int) round (MAX (x0, x1))), MIN (r->y1, (int) round (MAX (y0, y1))) };
    if (box.x1 > box.x0 && box.y1 > box.y0)
      out[n++] = box;
  }
  qsort (out, n, sizeof *out, box_cmp_x);
  *n_out = n;
  return TRUE;
}

/* The layer's boxes across row y, each pixel once (the boxes are sorted by
 * their left edge). Pixels of the colour met last are not blended again. */
static void
fill_layer_row (guint32 *row, int y, const MsBox *boxes, guint n, guint32 src)
{
  int done = G_MININT;
  guint32 last_in = 0, last_out = over (0, src);
  for (guint k = 0; k < n; k++) {
    const MsBox *b = &boxes[k];
    if (y < b->y0 || y >= b->y1 || b->x1 <= done)
      continue;
    for (int x = MAX (b->x0, done); x < b->x1; x++) {
      if (row[x] != last_in) {
        last_in = row[x];
        last_out = over (last_in, src);
      }
      row[x] = last_out;
    }
    done = b->x1;
  }
}

/* Four pixels in one store (GCC's and Clang's vectors), as pixman fills. */
typedef guint32 MsPixels4 __attribute__ ((vector_size (16)));

/* n pixels of one colour from p: aligned 16-byte stores, which here beat
 * memcpy from a row of the colour by almost half. */
static void
fill_row (guint32 *p, int n, guint32 pixel)
{
  while (n > 0 && (guintptr) p % sizeof (MsPixels4) != 0) {
    *p++ = pixel;
    n--;
  }
  const MsPixels4 four = { pixel, pixel, pixel, pixel };
  MsPixels4 *q = (MsPixels4 *) p, *end = q + n / 4;
  /* A cache line a turn. */
  for (; end - q >= 4; q += 4) {
    q[0] = four;
    q[1] = four;
    q[2] = four;
    q[3] = four;
  }
  for (; q < end; q++)
    *q = four;
  for (int i = n & ~3; i < n; i++)
    p[i] = pixel;
}

gboolean
ms_raster_fill (MsRaster *r, const MsColor *background, const MsRasterLayer *layers,
                guint n_layers)
{
  guint32 bg = cairo_pixel (background, 1);
  if (bg >> 24 != 255 || r->stride % 4 != 0)
    return FALSE;
  guint total = 0;
  for (guint i = 0; i < n_layers; i++)
    total += layers[i].n_boxes;
  MsBox *boxes = g_new (MsBox, MAX (total, 1));
  guint *counts = g_new (guint, MAX (n_layers, 1));
  guint32 *srcs = g_new (guint32, MAX (n_layers, 1));
  gboolean ok = TRUE;
  for (guint i = 0, at = 0; i < n_layers && ok; at += counts[i], i++) {
    ok = layer_boxes (r, &layers[i], boxes + at, &counts[i]);
    srcs[i] = cairo_pixel (layers[i].color, layers[i].alpha);
  }
  for (int y = r->y0; y < r->y1 && ok; y++) {
    guint32 *row = (guint32 *) (r->data + (gsize) y * r->stride);
    fill_row (row + r->x0, r->x1 - r->x0, bg);
    for (guint i = 0, at = 0; i < n_layers; at += counts[i], i++)
      fill_layer_row (row, y, boxes + at, counts[i], srcs[i]);
  }
  if (ok) {
    cairo_surface_mark_dirty (r->surface);
    r->scratch->background = r->background = bg;
  }
  g_free (boxes);
  g_free (counts);
  g_free (srcs);
  return ok;
}
