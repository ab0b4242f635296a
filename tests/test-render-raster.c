/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-render-raster.c: the lines, markers and rectangles ms-raster writes
 * straight into image surfaces: the ink where Cairo would put it (ends,
 * dashes, areas, the clip), when the direct way is taken and when it is
 * not, and a whole chart drawn both ways looking the same. */
#include <math.h>

#include "ms-canvas-test.h"
#include "ms-chart.h"
#include "ms-raster.h"

#define W 900
#define H 560

/* White, as a chart's background. */
static MsTestCanvas
white_canvas (int w, int h)
{
  MsTestCanvas c = ms_test_canvas_new (w, h);
  cairo_set_source_rgb (c.cr, 1, 1, 1);
  cairo_paint (c.cr);
  return c;
}

/* How much black is at (x, y): 0 white .. 1 black. */
static double
ink (MsTestCanvas *c, int x, int y)
{
  cairo_surface_flush (c->surface);
  const guchar *row = cairo_image_surface_get_data (c->surface) +
                      y * cairo_image_surface_get_stride (c->surface);
  return 1 - (((const guint32 *) row)[x] & 0xff) / 255.0;
}

static double
ink_sum (MsTestCanvas *c, int x0, int y0, int x1, int y1)
{
  double sum = 0;
  for (int y = y0; y < y1; y++)
    for (int x = x0; x < x1; x++)
      sum += ink (c, x, y);
  return sum;
}

static const MsColor black = { 0, 0, 0, 1 };

/* A raster over the whole canvas. */
static MsRaster *
raster_over (MsTestCanvas *c, int w, int h)
{
  cairo_rectangle (c->cr, 0, 0, w, h);
  cairo_clip (c->cr);
  MsRaster *r = ms_raster_begin (c->cr);
  g_assert_nonnull (r);
  ms_raster_set_color (r, &black, 1);
  return r;
}

static void
test_when (void)
{
  MsTestCanvas c = white_canvas (64, 64);
  /* No clip: the whole surface; a rectangle on whole pixels. */
  MsRaster *r = ms_raster_begin (c.cr);
  g_assert_nonnull (r);
  ms_raster_end (r);
  cairo_rectangle (c.cr, 2, 2, 40, 40);
  cairo_clip (c.cr);
  r = ms_raster_begin (c.cr);
  g_assert_nonnull (r);
  ms_raster_end (r);
  /* A group, a clip off the pixel grid, a rotation: Cairo draws. */
  cairo_push_group (c.cr);
  g_assert_null (ms_raster_begin (c.cr));
  cairo_pattern_destroy (cairo_pop_group (c.cr));
  cairo_save (c.cr);
  cairo_rectangle (c.cr, 2.5, 2, 10, 10);
  cairo_clip (c.cr);
  g_assert_null (ms_raster_begin (c.cr));
  cairo_restore (c.cr);
  cairo_save (c.cr);
  cairo_rotate (c.cr, 0.3);
  g_assert_null (ms_raster_begin (c.cr));
  cairo_restore (c.cr);
  ms_test_canvas_free (&c);
}

static void
test_line_ends_and_area (void)
{
  MsTestCanvas c = white_canvas (100, 100);
  MsRaster *r = raster_over (&c, 100, 100);
  /* Level, 2 wide on whole pixels, butt ends: exactly rows 19 and 20
   * from column 10 to 49. */
  double level[] = { 10, 20, 50, 20 };
  g_assert_true (ms_raster_add_polyline (r, level, 2, 2, NULL, 0));
  ms_raster_paint (r);
  g_assert_cmpfloat (ink (&c, 10, 19), >, 0.99);
  g_assert_cmpfloat (ink (&c, 49, 20), >, 0.99);
  g_assert_cmpfloat (ink (&c, 9, 19), <, 0.01);
  g_assert_cmpfloat (ink (&c, 50, 20), <, 0.01);
  g_assert_cmpfloat (ink (&c, 30, 18), <, 0.01);
  g_assert_cmpfloat (ink (&c, 30, 21), <, 0.01);
  /* A bent line: about its length times its width, the join counted
   * once (the mask keeps the union). */
  double bent[] = { 10, 90, 40, 60, 70, 80 };
  ms_raster_add_polyline (r, bent, 3, 1.6, NULL, 0);
  ms_raster_paint (r);
  double len = hypot (30, 30) + hypot (30, 20);
  g_assert_cmpfloat_with_epsilon (ink_sum (&c, 0, 50, 100, 100), len * 1.6, len * 1.6 * 0.04);
  ms_raster_end (r);
  ms_test_canvas_free (&c);
}

static void
test_dashes_and_clip (void)
{
  MsTestCanvas c = white_canvas (100, 40);
  MsRaster *r = raster_over (&c, 100, 40);
  double dashes[] = { 4, 4 }, xy[] = { 0, 10, 40, 10 }, none[] = { 0, 0 };
  /* Dashes that would never advance, and far points, are Cairo's. */
  g_assert_false (ms_raster_add_polyline (r, xy, 2, 2, none, 2));
  double far[] = { 0, 10, 1e9, 10 };
  g_assert_false (ms_raster_add_polyline (r, far, 2, 2, NULL, 0));
  g_assert_true (ms_raster_add_polyline (r, xy, 2, 2, dashes, 2));
  ms_raster_paint (r);
  for (int x = 0; x < 40; x++)
    g_assert_cmpfloat (ink (&c, x, 9), ==, x % 8 < 4 ? 1 : 0);
  ms_raster_end (r);
  /* Nothing outside the clip, though the line crosses it. */
  cairo_reset_clip (c.cr);
  cairo_rectangle (c.cr, 50, 0, 20, 40);
  cairo_clip (c.cr);
  r = ms_raster_begin (c.cr);
  ms_raster_set_color (r, &black, 1);
  double across[] = { 45, 30, 80, 30 };
  ms_raster_add_polyline (r, across, 2, 3, NULL, 0);
  ms_raster_add_marker (r, 0, 50, 20, 6, 0, FALSE);
  ms_raster_paint (r);
  ms_raster_end (r);
  g_assert_cmpfloat (ink_sum (&c, 40, 15, 50, 40) + ink_sum (&c, 70, 15, 100, 40), ==, 0);
  g_assert_cmpfloat (ink (&c, 60, 30), >, 0.9);
  ms_test_canvas_free (&c);
}

static void
test_markers (void)
{
  for (guint shape = 0; shape < MS_MARKER_SHAPES; shape++) {
    /* Cairo's path for the marker, filled, against the raster's. */
    MsTestCanvas a = white_canvas (40, 40), b = white_canvas (40, 40);
    cairo_set_source_rgb (a.cr, 0, 0, 0);
    ms_marker_path (a.cr, shape, 20.3, 19.6, 6);
    cairo_fill (a.cr);
    MsRaster *r = raster_over (&b, 40, 40);
    ms_raster_add_marker (r, shape, 20.3, 19.6, 6, 0, FALSE);
    ms_raster_paint (r);
    ms_raster_end (r);
    double want = ink_sum (&a, 0, 0, 40, 40);
    g_assert_cmpfloat_with_epsilon (ink_sum (&b, 0, 0, 40, 40), want, want * 0.03);
    ms_test_canvas_free (&a);
    ms_test_canvas_free (&b);
  }
  /* A ring: about its circumference times its width. */
  MsTestCanvas c = white_canvas (40, 40);
  MsRaster *r = raster_over (&c, 40, 40);
  ms_raster_add_marker (r, 0, 20, 20, 8, 1.5, FALSE);
  ms_raster_paint (r);
  ms_raster_end (r);
  g_assert_cmpfloat_with_epsilon (ink_sum (&c, 0, 0, 40, 40), 2 * G_PI * 8 * 1.5, 4);
  g_assert_cmpfloat (ink (&c, 20, 20), <, 0.01);
  ms_test_canvas_free (&c);
}

/* The same pixels, or the largest difference in a channel. */
static int
surfaces_differ (MsTestCanvas *a, MsTestCanvas *b, int w, int h)
{
  cairo_surface_flush (a->surface);
  cairo_surface_flush (b->surface);
  const guchar *p = cairo_image_surface_get_data (a->surface);
  const guchar *q = cairo_image_surface_get_data (b->surface);
  int stride = cairo_image_surface_get_stride (a->surface), most = 0;
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w * 4; x++)
      most = MAX (most, abs (p[y * stride + x] - q[y * stride + x]));
  return most;
}

static void
test_fill_as_cairo (void)
{
  /* A background, then a grid whose lines cross (one union) and a frame
   * over it: pixel for pixel what Cairo's paint and fills make. */
  const MsColor bg = { 0.12, 0.12, 0.12, 1 }, fg = { 1, 1, 1, 1 };
  double grid[] = { 10, 5, 1, 50, 30, 5, 1, 50, 5, 20, 60, 1, 5, 40, 60, 1 }, frame[16];
  ms_frame_boxes (5, 5, 60, 50, 1, frame);
  const MsRasterLayer layers[] = { { &fg, 0.12, grid, 4 }, { &fg, 0.55, frame, 4 } };
  MsTestCanvas a = white_canvas (80, 70), b = white_canvas (80, 70);
  MsRaster *r = ms_raster_begin (a.cr);
  g_assert_true (ms_raster_fill (r, &bg, layers, G_N_ELEMENTS (layers)));
  ms_raster_end (r);
  ms_set_color (b.cr, &bg, 1);
  cairo_paint (b.cr);
  for (guint i = 0; i < G_N_ELEMENTS (layers); i++) {
    ms_set_color (b.cr, layers[i].color, layers[i].alpha);
    ms_boxes_path (b.cr, layers[i].boxes, layers[i].n_boxes);
    cairo_fill (b.cr);
  }
  g_assert_cmpint (surfaces_differ (&a, &b, 80, 70), ==, 0);
  /* Off whole pixels, or a background that lets the old one through:
   * nothing painted, Cairo's to draw. */
  double half[] = { 10.5, 5, 1, 50 };
  const MsRasterLayer off = { &fg, 0.5, half, 1 };
  const MsColor clear_bg = { 1, 1, 1, 0.5 };
  r = ms_raster_begin (a.cr);
  g_assert_false (ms_raster_fill (r, &fg, &off, 1));
  g_assert_false (ms_raster_fill (r, &clear_bg, NULL, 0));
  ms_raster_end (r);
  g_assert_cmpint (surfaces_differ (&a, &b, 80, 70), ==, 0);
  ms_test_canvas_free (&a);
  ms_test_canvas_free (&b);
}

static void
test_columns_as_mask (void)
{
  /* A line whose x only grows is painted column by column at once; the
   * same line, added where something was painted at once just before, goes
   * through the mask. Joins (a sharp one too) and ends come out the same. */
  double xy[] = { 5.3, 50, 30.7, 20.2, 42, 58.5, 44, 10, 90.5, 31.25 };
  MsTestCanvas a = white_canvas (110, 70), b = white_canvas (110, 70);
  MsRaster *r = raster_over (&a, 110, 70);
  g_assert_true (ms_raster_add_polyline (r, xy, 5, 1.6, NULL, 0));
  ms_raster_paint (r);
  ms_raster_end (r);
  r = raster_over (&b, 110, 70);
  ms_raster_add_marker (r, 0, 104, 64, 2, 0, FALSE);
  g_assert_true (ms_raster_add_polyline (r, xy, 5, 1.6, NULL, 0));
  ms_raster_paint (r);
  ms_raster_end (r);
  /* The marker's pixels, away from the line, painted on a too. */
  r = raster_over (&a, 110, 70);
  ms_raster_add_marker (r, 0, 104, 64, 2, 0, FALSE);
  ms_raster_paint (r);
  ms_raster_end (r);
  g_assert_cmpint (surfaces_differ (&a, &b, 110, 70), <=, 1);
  g_assert_cmpfloat (ink_sum (&a, 0, 0, 100, 70), >, 100);
  ms_test_canvas_free (&a);
  ms_test_canvas_free (&b);
}

/* Every look a series can have: dashes, markers, runs, error bars, a
 * failed and a partial cell, a reference line. */
static MsChartData *
busy_chart (void)
{
  MsChartData *d = ms_chart_data_new ();
  d->y_kind = MS_SCALE_LOG10;
  d->title = g_strdup ("raster");
  for (guint i = 0; i < 8; i++) {
    g_autofree char *label = g_strdup_printf ("series %u", i);
    MsChartSeries *s = ms_chart_data_add_series (d, label, i, i % MS_MARKER_SHAPES, i % 4);
    s->run = i % 3;
    for (int e = 10; e <= 26; e++) {
      double y = (i + 1) * pow (1.25, e - 10) * (e % 5 == 0 ? 3 : 1);
      ms_chart_series_add (s, (1 << e) * 4.0, y, y * 0.7, y * 1.4, i == 2 && e == 15);
      if (i == 3 && e == 20)
        ms_chart_series_note_last (s, TRUE, "cut short");
    }
  }
  ms_chart_data_add_ref (d, 30, "PCIe");
  return d;
}

static void
test_chart_as_cairo (void)
{
  g_autoptr (MsChartData) d = busy_chart ();
  MsChartStyle st;
  ms_chart_style_init_light (&st);
  MsTestCanvas direct = white_canvas (W, H), cairo = white_canvas (W, H);
  ms_chart_draw (direct.cr, d, &st, W, H, -1, NULL);
  /* In a group the raster stands aside: Cairo draws everything. */
  cairo_push_group (cairo.cr);
  ms_chart_draw (cairo.cr, d, &st, W, H, -1, NULL);
  cairo_pop_group_to_source (cairo.cr);
  cairo_paint (cairo.cr);
  cairo_surface_flush (direct.surface);
  cairo_surface_flush (cairo.surface);
  /* To look at both: MS_RASTER_PNG=prefix. */
  const char *png = g_getenv ("MS_RASTER_PNG");
  if (png) {
    g_autofree char *a = g_strconcat (png, "-direct.png", NULL);
    g_autofree char *b = g_strconcat (png, "-cairo.png", NULL);
    cairo_surface_write_to_png (direct.surface, a);
    cairo_surface_write_to_png (cairo.surface, b);
  }
  const guchar *p = cairo_image_surface_get_data (direct.surface);
  const guchar *q = cairo_image_surface_get_data (cairo.surface);
  int stride = cairo_image_surface_get_stride (direct.surface);
  double sum = 0;
  int far = 0;
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W * 4; x++) {
      int diff = abs (p[y * stride + x] - q[y * stride + x]);
      sum += diff;
      far += diff > 96;
    }
  /* Edges differ by a shade here and there, nothing more. */
  g_test_message ("mean difference %.3f, %d channels off by more than 96", sum / (W * H * 4),
                  far);
  g_assert_cmpfloat (sum / (W * H * 4), <, 0.6);
  g_assert_cmpint (far, <, W * H * 4 / 2000);
  ms_test_canvas_free (&direct);
  ms_test_canvas_free (&cairo);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/render-raster/when", test_when);
  g_test_add_func ("/render-raster/line-ends-and-area", test_line_ends_and_area);
  g_test_add_func ("/render-raster/dashes-and-clip", test_dashes_and_clip);
  g_test_add_func ("/render-raster/markers", test_markers);
  g_test_add_func ("/render-raster/chart-as-cairo", test_chart_as_cairo);
  g_test_add_func ("/render-raster/fill-as-cairo", test_fill_as_cairo);
  g_test_add_func ("/render-raster/columns-as-mask", test_columns_as_mask);
  return g_test_run ();
}
