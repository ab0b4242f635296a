/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-view-cache.c: a drawing widget's picture kept as a texture. */
#include "ms-view-cache.h"

static gboolean
color_equal (const MsColor *a, const MsColor *b)
{
  return a->red == b->red && a->green == b->green && a->blue == b->blue && a->alpha == b->alpha;
}

/* Field by field: the struct's padding is not set by everyone. */
static gboolean
style_equal (const MsChartStyle *a, const MsChartStyle *b)
{
  return color_equal (&a->fg, &b->fg) && color_equal (&a->bg, &b->bg) &&
         !a->dark == !b->dark && a->text_scale == b->text_scale &&
         a->line_scale == b->line_scale && !a->high_contrast == !b->high_contrast;
}

gboolean
ms_view_cache_holds (MsViewCache *c, int width, int height, int scale, const MsChartStyle *style)
{
  if (c->texture && c->width == width && c->height == height && c->scale == scale &&
      style_equal (&c->style, style))
    return TRUE;
  ms_view_cache_clear (c);
  return FALSE;
}

cairo_t *
ms_view_cache_begin (MsViewCache *c, int width, int height, int scale, const MsChartStyle *style)
{
  ms_view_cache_clear (c);
  c->width = width;
  c->height = height;
  c->scale = scale;
  c->style = *style;
  /* Device scale keeps lines and text crisp on HiDPI screens. */
  cairo_surface_t *surface =
    cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width * scale, height * scale);
  cairo_surface_set_device_scale (surface, scale, scale);
  cairo_t *cr = cairo_create (surface);
  cairo_surface_destroy (surface); /* cr holds it */
  return cr;
}

void
ms_view_cache_end (MsViewCache *c, cairo_t *cr)
{
  cairo_surface_t *surface = cairo_surface_reference (cairo_get_target (cr));
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  int stride = cairo_image_surface_get_stride (surface);
  int h = cairo_image_surface_get_height (surface);
  /* Cairo's ARGB32 is GDK's default memory format (premultiplied, native
   * order): the texture takes the pixels without a copy and lets the
   * surface go with them. */
  GBytes *bytes = g_bytes_new_with_free_func (cairo_image_surface_get_data (surface),
                                              (gsize) stride * h,
                                              (GDestroyNotify) cairo_surface_destroy, surface);
  c->texture = gdk_memory_texture_new (cairo_image_surface_get_width (surface), h,
                                       GDK_MEMORY_DEFAULT, bytes, stride);
  g_bytes_unref (bytes);
}

void
ms_view_cache_append (MsViewCache *c, GtkSnapshot *snapshot)
{
  if (c->texture)
    gtk_snapshot_append_texture (snapshot, c->texture,
                                 &GRAPHENE_RECT_INIT (0, 0, c->width, c->height));
}

void
ms_view_cache_clear (MsViewCache *c)
{
  g_clear_object (&c->texture);
}
