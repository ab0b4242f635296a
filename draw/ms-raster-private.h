/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-raster-private.h: what ms-raster.c, ms-raster-columns.c and
 * ms-raster-fill.c share: the raster's state and the arithmetic of
 * coverage and blending. */
#pragma once

#include "ms-raster.h"

#include <math.h>

G_BEGIN_DECLS

typedef struct _MsRasterScratch MsRasterScratch;

struct _MsRaster {
  cairo_surface_t *surface;
  guchar *data;
  int stride;
  int x0, y0, x1, y1;       /* the clip in device pixels, x1 and y1 past it */
  double scale, dx, dy;     /* user to device: x * scale + dx */
  int width;                /* the surface's, the mask's stride */
  guint8 *mask;             /* coverage, as big as the surface; zero between paints */
  MsRasterScratch *scratch; /* the mask's owner, and the pixels touched */
  const guint32 *at_cover;  /* the colour (premultiplied) at each coverage */
  guint32 background;       /* the last background filled on this thread */
  const guint32 *over_bg;   /* at_cover over it: most pixels a line covers */
  int last_right;           /* past what was last painted at once, G_MAXINT: none */
};

/* The mask is kept per thread, zero outside a paint: a chart allocates it
 * once, not for every draw. */
/* A colour's tables, worked out once for the few colours a chart paints
 * with on every draw (its series' and its text's). */
enum { MS_RASTER_COLORS = 16 };

typedef struct {
  guint32 src, background;
  gboolean used;
  guint32 at_cover[256], over_bg[256];
} MsRasterColor;

struct _MsRasterScratch {
  guint8 *mask;
  gsize size;
  guint32 *touched; /* y * width + x where the mask is not zero */
  gsize n_touched, touched_size;
  guint32 background; /* the last ms_raster_fill's */
  MsRasterColor colors[MS_RASTER_COLORS];
  guint next_color; /* the one to replace */
};

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
typedef struct {
  guint32 background;
  const guint32 *over_bg, *at_cover;
} MsBlend;

static inline guint32
blend_with (const MsBlend *b, guint32 pixel, guint c)
{
  return pixel == b->background ? b->over_bg[c] : over (pixel, b->at_cover[c]);
}

static inline guint32
blend (const MsRaster *r, guint32 pixel, guint c)
{
  return pixel == r->background ? r->over_bg[c] : over (pixel, r->at_cover[c]);
}

/* The raster's colour as local values: the pixels written are of the same
 * type as its fields, which would otherwise be read again after each. */
static inline MsBlend
blend_of (const MsRaster *r)
{
  return (MsBlend){ r->background, r->over_bg, r->at_cover };
}

/* Within a millionth of a whole number; without round's library call. */
static inline gboolean
whole (double v)
{
  if (!(fabs (v) < 1e15))
    return FALSE;
  double f = fabs (v - (double) (gint64) v);
  return f < 1e-6 || f > 1 - 1e-6;
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

/* Coverage 0..1 as a byte, rounded; without a branch (min and max
 * instructions), as the edge pixels of a line come and go. */
static inline guint8
coverage_byte (double c)
{
  c = c < 1 ? c : 1;
  return (guint8) ((c > 0 ? c : 0) * 255 + 0.5);
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

/* A channel as Cairo makes it: 16 bits, rounded, then the upper 8. */
static inline guint32
cairo_channel (double v)
{
  return (guint32) (CLAMP (v, 0, 1) * 65535.0 + 0.5) >> 8;
}

/* The colour premultiplied, as the surface stores it (alpha, red, green,
 * blue) and as Cairo's solid sources reach pixman. */
static inline guint32
cairo_pixel (const MsColor *color, double alpha)
{
  double a = CLAMP (color->alpha * alpha, 0, 1);
  return cairo_channel (a) << 24 | cairo_channel (CLAMP (color->red, 0, 1) * a) << 16 |
         cairo_channel (CLAMP (color->green, 0, 1) * a) << 8 |
         cairo_channel (CLAMP (color->blue, 0, 1) * a);
}

/* A polyline whose x only grows (or only shrinks), clear of what was
 * painted at once since the last paint and with nothing waiting in the
 * mask, painted straight into the image column by column
 * (ms-raster-columns.c). FALSE, and nothing painted, where that does not
 * hold. */
gboolean ms_raster_add_columns (MsRaster *r, const double *xy, guint n, double hw);

G_END_DECLS
