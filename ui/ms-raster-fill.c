/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-raster-fill.c: the background and boxes over it, row by row in one
 * pass over the image (ms_raster_fill). */
#include "ms-raster-private.h"

#include <stdlib.h>

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
