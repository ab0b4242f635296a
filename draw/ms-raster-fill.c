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
    /* Inside the clip before they become integers. */
    MsBox box = { (int) round (MAX (r->x0, MIN (x0, x1))), (int) round (MAX (r->y0, MIN (y0, y1))),
                  (int) round (MIN (r->x1, MAX (x0, x1))), (int) round (MIN (r->y1, MAX (y0, y1))) };
    if (box.x1 > box.x0 && box.y1 > box.y0)
      out[n++] = box;
  }
  qsort (out, n, sizeof *out, box_cmp_x);
  *n_out = n;
  return TRUE;
}

typedef struct {
  int x0, x1;
} MsSpan;

/* A layer as filled: its boxes by their left edge, and the spans they
 * cover across the rows from the last one worked out until next, where a
 * box begins or ends. */
typedef struct {
  MsBox *boxes;
  MsSpan *spans;
  guint n_boxes, n_spans;
  int next;
  guint32 src;
} MsFillLayer;

/* The spans across row y, each pixel in one only (the union). */
static void
layer_spans (MsFillLayer *f, int y)
{
  int done = G_MININT;
  f->n_spans = 0;
  f->next = G_MAXINT;
  for (guint k = 0; k < f->n_boxes; k++) {
    const MsBox *b = &f->boxes[k];
    if (y < b->y0 || y >= b->y1) {
      f->next = y < b->y0 ? MIN (f->next, b->y0) : f->next;
      continue;
    }
    f->next = MIN (f->next, b->y1);
    if (b->x1 > done)
      f->spans[f->n_spans++] = (MsSpan){ MAX (b->x0, done), b->x1 };
    done = MAX (done, b->x1);
  }
}

/* The layer's spans over row y. Pixels of the colour met last are not
 * blended again. */
static void
fill_layer_row (guint32 *row, int y, MsFillLayer *f)
{
  if (y >= f->next)
    layer_spans (f, y);
  guint32 last_in = 0, last_out = over (0, f->src);
  for (guint k = 0; k < f->n_spans; k++)
    for (int x = f->spans[k].x0; x < f->spans[k].x1; x++) {
      if (row[x] != last_in) {
        last_in = row[x];
        last_out = over (last_in, f->src);
      }
      row[x] = last_out;
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
  MsFillLayer *f = g_new0 (MsFillLayer, MAX (n_layers, 1));
  gboolean ok = TRUE;
  for (guint i = 0; i < n_layers; i++) {
    f[i].boxes = g_new (MsBox, MAX (layers[i].n_boxes, 1));
    f[i].spans = g_new (MsSpan, MAX (layers[i].n_boxes, 1));
    f[i].next = r->y0;
    f[i].src = cairo_pixel (layers[i].color, layers[i].alpha);
    ok = ok && layer_boxes (r, &layers[i], f[i].boxes, &f[i].n_boxes);
  }
  for (int y = r->y0; y < r->y1 && ok; y++) {
    guint32 *row = (guint32 *) (r->data + (gsize) y * r->stride);
    fill_row (row + r->x0, r->x1 - r->x0, bg);
    for (guint i = 0; i < n_layers; i++)
      fill_layer_row (row, y, &f[i]);
  }
  if (ok) {
    cairo_surface_mark_dirty (r->surface);
    r->scratch->background = r->background = bg;
  }
  for (guint i = 0; i < n_layers; i++) {
    g_free (f[i].boxes);
    g_free (f[i].spans);
  }
  g_free (f);
  return ok;
}
