/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-raster.h: thin antialiased lines and small markers written straight
 * into an image surface. Cairo's scan converter costs about a thousand
 * instructions for every pixel row a path crosses, so a chart's dozen
 * polylines across the plot and its markers (one path per series, as tall
 * as the plot) were most of a draw; here a pixel's coverage comes from its
 * distance to the shape, only for the few pixels near it. Shapes are
 * gathered into a coverage mask (the union, as one Cairo path would paint
 * it) and painted in one colour; a line whose x only grows, the chart's
 * usual one, goes straight into the image column by column, each pixel
 * once (ms-raster-columns.c). The background and the grid can be written
 * in one pass too (ms_raster_fill). Only where that is exact: an image
 * surface, no group, OVER, no rotation, a clip that is one rectangle on
 * whole pixels; elsewhere (PDF, SVG, print) ms_raster_begin returns NULL and
 * the caller draws with Cairo. */
#pragma once

#include "ms-draw.h"

G_BEGIN_DECLS

typedef struct _MsRaster MsRaster;

/* One at a time on a thread: they share the mask. */
MsRaster *ms_raster_begin (cairo_t *cr);
void ms_raster_end (MsRaster *raster);

/* A polyline through n points (x, y pairs in user units), line_width wide,
 * round joins and butt ends as Cairo strokes it, dashed by the n_dashes
 * lengths in dashes (none when 0) from its start. FALSE, and nothing
 * added, for points far outside the surface (or not finite): Cairo's. */
gboolean ms_raster_add_polyline (MsRaster *raster, const double *xy, guint n, double line_width,
                             const double *dashes, guint n_dashes);
/* The colour (with alpha) of what is added next. */
void ms_raster_set_color (MsRaster *raster, const MsColor *color, double alpha);
/* A filled rectangle (user units); one on whole pixels in an opaque
 * colour is painted at once. */
void ms_raster_add_rect (MsRaster *raster, double x, double y, double w, double h);
/* A marker as ms_marker_path draws it: filled when ring_width is 0, else
 * its outline ring_width wide; with dot, a circle of 0.3 r inside drawn
 * the same way. */
void ms_raster_add_marker (MsRaster *raster, guint shape, double x, double y, double r,
                           double ring_width, gboolean dot);
/* Paints what was added, in the colour, and starts afresh. */
void ms_raster_paint (MsRaster *raster);

/* Boxes (x, y, w, h in user units, n_boxes of them) painted as their
 * union in one colour, as one Cairo fill of their rectangles. */
typedef struct {
  const MsColor *color;
  double alpha;
  const double *boxes;
  guint n_boxes;
} MsRasterLayer;

/* The background over the whole clip, then each layer over it in turn,
 * written row by row in one pass: the boxes are painted while their row
 * is in the cache, not in a second walk over the image (a vertical grid
 * line touches a cache line per pixel). The same pixels as cairo_paint
 * and cairo_fill. FALSE, and nothing painted, unless the background is
 * opaque and every box lies on whole device pixels. */
gboolean ms_raster_fill (MsRaster *raster, const MsColor *background,
                         const MsRasterLayer *layers, guint n_layers);

G_END_DECLS
