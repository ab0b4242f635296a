/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-render-health.c: the health strip drawn at 1024x768 (the strip as
 * wide as the window, as tall as it asks) from test-backend runs: with the
 * link at its maximum its boxes are green, with a link trained down to gen4
 * x8 they are orange; every text stays inside the strip.
 * MEMSWEEP_RENDER_DIR=dir keeps the images for a look. */
#include <cairo.h>
#include <glib.h>
#include <string.h>

#include "model/ms-results.h"
#include "ms-backend-test.h"
#include "ms-health-strip.h"
#include "ms-sweep-test.h"

typedef struct {
  double x, y, w, h;
} Box;

static void
record (const char *text, double x, double y, double w, double h, gpointer data)
{
  Box b = { x, y, w, h };
  g_array_append_val ((GArray *)data, b);
}

static MsResults *
run_with_link (int gen, int width)
{
  MsSweep s;
  MsTestBackendConfig cfg;
  ms_test_sweep_init (&s, NULL, 10, 26, 2);
  ms_test_backend_config_init (&cfg);
  cfg.link_gen = gen;
  cfg.link_width = width;
  return ms_test_sweep_run (&s, &cfg);
}

/* Pixels of the box colour (green or orange, light style) in the strip. */
static guint
count_color (cairo_surface_t *s, double r, double g, double b)
{
  guint n = 0;
  int w = cairo_image_surface_get_width (s), h = cairo_image_surface_get_height (s);
  int stride = cairo_image_surface_get_stride (s);
  const guint8 *data = cairo_image_surface_get_data (s);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      guint32 px = *(const guint32 *)(data + y * stride + 4 * x);
      int pr = (px >> 16) & 0xff, pg = (px >> 8) & 0xff, pb = px & 0xff;
      n += ABS (pr - r * 255) < 3 && ABS (pg - g * 255) < 3 && ABS (pb - b * 255) < 3;
    }
  return n;
}

static cairo_surface_t *
render (const MsResults *r, const char *envelope_line, GArray *boxes, double *height)
{
  MsChartStyle style;
  ms_chart_style_init_light (&style);
  *height = ms_health_strip_height (&style);
  g_assert_cmpfloat (*height, >, 40);
  g_assert_cmpfloat (*height, <, 768 / 4);
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_RGB24, 1024, (int)*height);
  cairo_t *cr = cairo_create (s);
  ms_draw_background (cr, &style);
  ms_draw_set_text_recorder (record, boxes);
  ms_health_strip_draw (cr, r, envelope_line, &style, 1024, *height);
  ms_draw_set_text_recorder (NULL, NULL);
  cairo_destroy (cr);
  cairo_surface_flush (s);
  const char *dir = g_getenv ("MEMSWEEP_RENDER_DIR");
  if (dir) {
    static int n;
    char *path = g_strdup_printf ("%s/health-strip-%d.png", dir, n++);
    cairo_surface_write_to_png (s, path);
    g_free (path);
  }
  return s;
}

static void
check_boxes_inside (GArray *boxes, double height)
{
  g_assert_cmpuint (boxes->len, >, 17 * 2);
  for (guint i = 0; i < boxes->len; i++) {
    const Box *b = &g_array_index (boxes, Box, i);
    g_assert_cmpfloat (b->x, >=, -1);
    g_assert_cmpfloat (b->y, >=, -1);
    g_assert_cmpfloat (b->x + b->w, <=, 1024 + 1);
    g_assert_cmpfloat (b->y + b->h, <=, height + 1);
  }
}

static void
test_strip_fine_and_down (void)
{
  GArray *boxes = g_array_new (FALSE, FALSE, sizeof (Box));
  double height;
  MsResults *fine = run_with_link (0, 0);
  cairo_surface_t *s = render (fine, "Against the test envelope: 4 normal", boxes, &height);
  check_boxes_inside (boxes, height);
  guint green = count_color (s, 0.0, 0.62, 0.45), orange = count_color (s, 0.90, 0.62, 0.0);
  g_assert_cmpuint (green, >, 17 * 50);
  g_assert_cmpuint (orange, ==, 0);
  cairo_surface_destroy (s);
  ms_results_free (fine);

  g_array_set_size (boxes, 0);
  MsResults *down = run_with_link (4, 8);
  s = render (down, NULL, boxes, &height);
  check_boxes_inside (boxes, height);
  green = count_color (s, 0.0, 0.62, 0.45);
  orange = count_color (s, 0.90, 0.62, 0.0);
  g_assert_cmpuint (orange, >, 17 * 50);
  g_assert_cmpuint (green, ==, 0);
  cairo_surface_destroy (s);
  ms_results_free (down);
  g_array_free (boxes, TRUE);
}

static void
record_text (const char *text, double x, double y, double w, double h, gpointer data)
{
  g_string_append_printf (data, "%s\n", text);
}

/* Without GPU cells measured, the strip says why: a summary's cells have no samples (its link's
 * state unknown); a run stopped before its first GPU cell has none. */
static void
test_strip_without_points (void)
{
  MsResults *r = run_with_link (5, 16);
  for (size_t i = 0; i < r->n_cells; i++)
    r->cells[i].n_reps = 0, r->cells[i].n_rounds = 0;
  for (int summary = 0; summary <= 1; summary++) {
    r->from_summary = summary;
    g_autoptr (GString) said = g_string_new (NULL);
    MsChartStyle style;
    ms_chart_style_init_light (&style);
    cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_RGB24, 1024, 120);
    cairo_t *cr = cairo_create (s);
    ms_draw_set_text_recorder (record_text, said);
    ms_health_strip_draw (cr, r, NULL, &style, 1024, ms_health_strip_height (&style));
    ms_draw_set_text_recorder (NULL, NULL);
    cairo_destroy (cr);
    cairo_surface_destroy (s);
    g_assert_nonnull (strstr (said->str, summary ? "No samples in this run (a summary)"
                                                 : "No GPU cells in this run"));
  }
  ms_results_free (r);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/render-health/strip-fine-and-down", test_strip_fine_and_down);
  g_test_add_func ("/render-health/strip-without-points", test_strip_without_points);
  return g_test_run ();
}
