/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-raster.c: coverage from distances, gathered in a mask of the clip's
 * size and painted through the list of pixels touched (ms-raster.h). */
#include "ms-raster-private.h"

#include <string.h>

/* Lines through points this far (device pixels) are left to Cairo: their
 * dashes would take as long to walk. */
#define MS_RASTER_FAR 1e5
/* The largest mask kept between draws: a 4K screen's. */
#define MS_RASTER_KEEP ((gsize) 3840 * 2400)

static void
scratch_free (gpointer data)
{
  MsRasterScratch *s = data;
  g_free (s->mask);
  g_free (s->touched);
  g_free (s);
}

static GPrivate scratch_key = G_PRIVATE_INIT (scratch_free);

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
  /* No colour yet: nothing painted. */
  static const guint32 none[256];
  r->at_cover = r->over_bg = none;
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
  double mid = walk_mid (w, i0 + 0.5);
  for (int i = i0; i <= i1; i++, mid += w->slope) {
    int j0 = MAX (w->mj0, ifloor (mid - w->half - 0.5) + 1);
    int j1 = MIN (w->mj1 - 1, iceil (mid + w->half - 0.5) - 1);
    double off = j0 + 0.5 - mid;
    int x = w->flat ? i : j0, y = w->flat ? j0 : i;
    if (direct) {
      guint32 *p = (guint32 *) (data + (gsize) y * stride) + x;
      for (int j = j0; j <= j1; j++, off += 1, p += step_pixel)
        *p = blend (r, *p, coverage_byte (reach - per_j * fabs (off)));
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

/* One stroke of the polyline (device points), its ends butt. */
static void
add_piece (MsRaster *r, const double *xy, guint n, double hw, gboolean monotonic)
{
  if (monotonic && ms_raster_add_columns (r, xy, n, hw))
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
  const MsBlend b = blend_of (r);
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
          p[i] = blend_with (&b, p[i], v[i]);
      continue;
    }
    guint8 *m = r->mask + (gsize) py * r->width + (bx - half);
    for (int i = i0; i < i1; i++)
      if (v[i])
        cover_at (&cov, m + i, v[i]);
  }
  cover_end (r, &cov);
}

void
ms_raster_set_color (MsRaster *r, const MsColor *color, double alpha)
{
  guint32 src = cairo_pixel (color, alpha);
  MsRasterScratch *s = r->scratch;
  MsRasterColor *t = NULL;
  for (guint i = 0; i < MS_RASTER_COLORS && !t; i++)
    if (s->colors[i].used && s->colors[i].src == src && s->colors[i].background == r->background)
      t = &s->colors[i];
  if (!t) {
    t = &s->colors[s->next_color++ % MS_RASTER_COLORS];
    *t = (MsRasterColor){ src, r->background, TRUE };
    for (guint m = 0; m < 256; m++) {
      t->at_cover[m] = mul_un8x4 (src, m);
      t->over_bg[m] = over (r->background, t->at_cover[m]);
    }
  }
  r->at_cover = t->at_cover;
  r->over_bg = t->over_bg;
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

