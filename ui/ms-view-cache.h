/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-view-cache.h: a drawing widget's picture, kept as a texture: drawn
 * once with Cairo for a size, scale factor and style, then handed to GTK
 * as it is on every frame until the data, the size, the scale or the style
 * changes. Hovering draws only what goes on top. */
#pragma once

#include <gtk/gtk.h>

#include "ms-drawing.h"

G_BEGIN_DECLS

typedef struct {
  GdkTexture *texture;
  int width, height, scale;
  MsChartStyle style;
} MsViewCache;

/* Whether the cache holds a picture for this size, scale factor and style;
 * when it does not, what it held is dropped. */
gboolean ms_view_cache_holds (MsViewCache *cache, int width, int height, int scale,
                              const MsChartStyle *style);
/* A context on a new picture width x height user units at scale, to draw
 * into and give to ms_view_cache_end. */
cairo_t *ms_view_cache_begin (MsViewCache *cache, int width, int height, int scale,
                              const MsChartStyle *style);
/* Turns what was drawn into the kept texture and destroys cr. */
void ms_view_cache_end (MsViewCache *cache, cairo_t *cr);
/* The kept picture at (0, 0), width x height. */
void ms_view_cache_append (MsViewCache *cache, GtkSnapshot *snapshot);
/* Forgets the picture: the data changed. */
void ms_view_cache_clear (MsViewCache *cache);

G_END_DECLS
