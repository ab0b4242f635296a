/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-canvas-test.h: an image surface and its cairo_t for the render tests
 * to draw into and read pixels back from. */
#pragma once

#include <cairo.h>
#include <stddef.h>

typedef struct {
  cairo_surface_t *surface;
  cairo_t *cr;
  int w, h;
} MsTestCanvas;

/* A w x h ARGB32 canvas, transparent until drawn on. */
static inline MsTestCanvas
ms_test_canvas_new (int w, int h)
{
  MsTestCanvas c = { cairo_image_surface_create (CAIRO_FORMAT_ARGB32, w, h), NULL, w, h };
  c.cr = cairo_create (c.surface);
  return c;
}

static inline void
ms_test_canvas_free (MsTestCanvas *c)
{
  cairo_destroy (c->cr);
  cairo_surface_destroy (c->surface);
}
