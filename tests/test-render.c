/* test-render.c: charts drawn into image surfaces, checked pixel by pixel:
 * a series' colour where its point is, nothing outside the plot, the dark
 * style's background, timeline bars where their events are, exports. */
#include <glib/gstdio.h>
#include <math.h>

#include "ms-chart.h"
#include "ms-export.h"
#include "ms-timeline.h"

#define W 900
#define H 560

typedef struct {
  cairo_surface_t *surface;
  cairo_t *cr;
} Canvas;

static Canvas
canvas_new (void)
{
  Canvas c;
  c.surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, W, H);
  c.cr = cairo_create (c.surface);
  return c;
}

static void
canvas_free (Canvas *c)
{
  cairo_destroy (c->cr);
  cairo_surface_destroy (c->surface);
}

static void
pixel (Canvas *c, int x, int y, double rgb[3])
{
  cairo_surface_flush (c->surface);
  const unsigned char *data = cairo_image_surface_get_data (c->surface);
  guint32 p = *(const guint32 *) (data + y * cairo_image_surface_get_stride (c->surface) + x * 4);
  rgb[0] = ((p >> 16) & 0xff) / 255.0;
  rgb[1] = ((p >> 8) & 0xff) / 255.0;
  rgb[2] = (p & 0xff) / 255.0;
}

static gboolean
near_color (const double rgb[3], const MsColor *c, double tol)
{
  return fabs (rgb[0] - c->red) < tol && fabs (rgb[1] - c->green) < tol &&
         fabs (rgb[2] - c->blue) < tol;
}

/* Whether any pixel in the rectangle is close to the colour. */
static gboolean
any_color (Canvas *c, int x0, int y0, int x1, int y1, const MsColor *col)
{
  double rgb[3];
  for (int y = MAX (0, y0); y < MIN (H, y1); y++)
    for (int x = MAX (0, x0); x < MIN (W, x1); x++) {
      pixel (c, x, y, rgb);
      if (near_color (rgb, col, 0.08))
        return TRUE;
    }
  return FALSE;
}

static MsChartData *
one_series (double y_scale)
{
  MsChartData *d = ms_chart_data_new ();
  d->y_kind = MS_SCALE_LINEAR;
  MsChartSeries *s = ms_chart_data_add_series (d, "Pinned", 4, 0, 0);
  for (int e = 10; e <= 20; e++)
    ms_chart_series_add (s, (1 << e) * 4.0, (e - 9) * y_scale, (e - 9) * y_scale * 0.5,
                         (e - 9) * y_scale * 3, FALSE);
  return d;
}

static void
test_series_at_its_point (void)
{
  Canvas c = canvas_new ();
  g_autoptr (MsChartData) d = one_series (1);
  MsChartStyle st;
  ms_chart_style_init_light (&st);
  MsChartLayout l;
  ms_chart_layout_init (&l);
  ms_chart_draw (c.cr, d, &st, W, H, -1, &l);
  MsColor blue;
  ms_chart_palette_color (4, FALSE, &blue);
  /* The marker of 2^15 sits where the scales put it. */
  int px = (int) round (ms_scale_to_pixel (&l.xs, (1 << 15) * 4.0));
  int py = (int) round (ms_scale_to_pixel (&l.ys, 6));
  g_assert_true (any_color (&c, px - 2, py - 2, px + 3, py + 3, &blue));
  /* And not somewhere it should not be: the top-left of the plot. */
  g_assert_false (any_color (&c, (int) l.plot_x + 5, (int) l.plot_y + 5, (int) l.plot_x + 40,
                             (int) l.plot_y + 40, &blue));
  ms_chart_layout_clear (&l);
  canvas_free (&c);
}

static void
test_nothing_outside_plot (void)
{
  /* Error bars far beyond the axis range (a log axis fitted to the values,
   * not the bars, would cut them): they must be clipped to the plot. */
  Canvas c = canvas_new ();
  g_autoptr (MsChartData) d = one_series (1);
  d->y_kind = MS_SCALE_LOG10;
  MsChartSeries *s = g_ptr_array_index (d->series, 0);
  g_array_index (s->points, MsChartPoint, 5).hi = 1e9; /* beyond the top */
  g_array_index (s->points, MsChartPoint, 5).lo = 1e-9;
  MsChartStyle st;
  ms_chart_style_init_light (&st);
  MsChartLayout l;
  ms_chart_layout_init (&l);
  ms_chart_draw (c.cr, d, &st, W, H, -1, &l);
  MsColor blue;
  ms_chart_palette_color (4, FALSE, &blue);
  /* Above the plot and in the gap between plot and legend. */
  g_assert_false (any_color (&c, (int) l.plot_x, 0, (int) (l.plot_x + l.plot_w), (int) l.plot_y - 1,
                             &blue));
  const MsChartBox *legend = &g_array_index (l.legend, MsChartBox, 0);
  g_assert_false (any_color (&c, (int) (l.plot_x + l.plot_w) + 2, legend->y + legend->h + 4,
                             (int) legend->x + 40, H, &blue));
  g_assert_false (any_color (&c, 0, (int) (l.plot_y + l.plot_h) + 2, W, H, &blue));
  ms_chart_layout_clear (&l);
  canvas_free (&c);
}

static void
test_dark_background (void)
{
  Canvas c = canvas_new ();
  g_autoptr (MsChartData) d = one_series (1);
  MsChartStyle light, dark;
  double rgb[3];
  ms_chart_style_init_light (&light);
  ms_chart_style_init_dark (&dark);
  ms_chart_draw (c.cr, d, &light, W, H, -1, NULL);
  pixel (&c, 2, 2, rgb);
  g_assert_cmpfloat (rgb[0] + rgb[1] + rgb[2], >, 2.7);
  ms_chart_draw (c.cr, d, &dark, W, H, -1, NULL);
  pixel (&c, 2, 2, rgb);
  g_assert_cmpfloat (rgb[0] + rgb[1] + rgb[2], <, 0.6);
  /* The series colour follows the style too. */
  MsColor a, b;
  ms_chart_palette_color (7, FALSE, &a);
  ms_chart_palette_color (7, TRUE, &b);
  g_assert_false (a.red == b.red && a.green == b.green && a.blue == b.blue);
  canvas_free (&c);
}

static void
test_hidden_and_failed (void)
{
  Canvas c = canvas_new ();
  g_autoptr (MsChartData) d = one_series (1);
  MsChartSeries *s = g_ptr_array_index (d->series, 0);
  MsChartStyle st;
  ms_chart_style_init_light (&st);
  MsChartLayout l;
  ms_chart_layout_init (&l);
  MsColor blue;
  ms_chart_palette_color (4, FALSE, &blue);
  s->hidden = TRUE;
  ms_chart_draw (c.cr, d, &st, W, H, -1, &l);
  g_assert_false (any_color (&c, (int) l.plot_x, (int) l.plot_y, (int) (l.plot_x + l.plot_w),
                             (int) (l.plot_y + l.plot_h), &blue));
  /* A failed point draws a cross on the axis, not a value. */
  s->hidden = FALSE;
  g_array_set_size (s->points, 0);
  ms_chart_series_add (s, 4096, 0, 1, 0, TRUE);
  ms_chart_series_add (s, 8192, 5, 1, 0, FALSE);
  ms_chart_draw (c.cr, d, &st, W, H, -1, &l);
  int px = (int) round (ms_scale_to_pixel (&l.xs, 4096));
  g_assert_true (any_color (&c, px - 6, (int) (l.plot_y + l.plot_h) - 20, px + 6,
                            (int) (l.plot_y + l.plot_h), &blue));
  ms_chart_layout_clear (&l);
  canvas_free (&c);
}

static void
test_timeline_bars (void)
{
  MsEvent ev[3] = {
    { .phase = MS_PHASE_INIT, .lane = 0, .rep = 0, .host_start_us = 0, .host_us = 100,
      .gpu_start_us = -1, .gpu_us = -1 },
    /* A copy that blocked the host: pageable. */
    { .phase = MS_PHASE_H2D, .lane = 1, .rep = 0, .host_start_us = 100, .host_us = 300,
      .gpu_start_us = 110, .gpu_us = 280, .bytes = 8 << 20 },
    { .phase = MS_PHASE_KERNEL, .lane = 1, .rep = 0, .host_start_us = 400, .host_us = 5,
      .gpu_start_us = 400, .gpu_us = 100 },
  };
  MsCell cell = { .mode = MS_MODE_PAGEABLE, .exponent = 20, .elements = 1 << 20,
                  .n_reps = 1, .events = ev, .n_events = 3 };
  Canvas c = canvas_new ();
  MsChartStyle st;
  ms_chart_style_init_light (&st);
  MsTimeWindow win;
  ms_time_window_reset (&win, ms_timeline_extent (&cell, 0));
  g_assert_cmpfloat (win.total_us, ==, 500);
  MsTimelineLayout l;
  ms_timeline_layout_init (&l);
  ms_timeline_draw (c.cr, &cell, 0, &win, &st, W, H, "test", &l);
  g_assert_cmpuint (l.bars->len, ==, 5); /* init; h2d and kernel twice */
  MsColor h2d;
  ms_phase_color (MS_PHASE_H2D, FALSE, &h2d);
  double x = l.plot_x + 250.0 / 500 * l.plot_w; /* inside the h2d GPU bar */
  const MsTimelineBar *bar = NULL;
  for (guint i = 0; i < l.bars->len; i++) {
    const MsTimelineBar *b = &g_array_index (l.bars, MsTimelineBar, i);
    if (b->event == &ev[1] && !b->host_part)
      bar = b;
  }
  g_assert_nonnull (bar);
  g_assert_true (any_color (&c, (int) x - 1, (int) (bar->y + bar->h / 2) - 1, (int) x + 2,
                            (int) (bar->y + bar->h / 2) + 2, &h2d));
  const MsTimelineBar *hit = ms_timeline_layout_hit (&l, x, bar->y + bar->h / 2);
  g_assert_true (hit && hit->event == &ev[1]);
  g_assert_true (ms_event_blocked_host (&ev[1]));
  g_assert_false (ms_event_blocked_host (&ev[2]));
  ms_timeline_layout_clear (&l);
  canvas_free (&c);
}

static void
draw_chart (cairo_t *cr, double w, double h, gpointer data)
{
  MsChartStyle st;
  ms_chart_style_init_light (&st);
  ms_chart_draw (cr, data, &st, w, h, -1, NULL);
}

static void
test_exports (void)
{
  g_autofree char *dir = g_dir_make_tmp ("memsweep-render-XXXXXX", NULL);
  g_autoptr (MsChartData) d = one_series (1);
  const char *names[] = { "c.png", "c.svg", "c.pdf" };
  const char *magic[] = { "\x89PNG", "<?xml", "%PDF" };
  for (int i = 0; i < 3; i++) {
    g_autofree char *path = g_build_filename (dir, names[i], NULL);
    g_autoptr (GError) error = NULL;
    g_assert_true (ms_export_drawing (path, 640, 400, draw_chart, d, &error));
    g_autofree char *contents = NULL;
    gsize len;
    g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
    g_assert_cmpuint (len, >, 500);
    g_assert_true (g_str_has_prefix (contents, magic[i]));
    g_unlink (path);
  }
  g_autoptr (GError) error = NULL;
  g_assert_false (ms_export_drawing ("/nonexistent-folder/c.png", 640, 400, draw_chart, d, &error));
  g_assert_nonnull (strstr (error->message, "/nonexistent-folder/c.png"));
  g_clear_error (&error);
  g_autofree char *bad = g_build_filename (dir, "c.bmp", NULL);
  g_assert_false (ms_export_drawing (bad, 640, 400, draw_chart, d, &error));
  g_rmdir (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/render/series-at-point", test_series_at_its_point);
  g_test_add_func ("/render/nothing-outside-plot", test_nothing_outside_plot);
  g_test_add_func ("/render/dark-background", test_dark_background);
  g_test_add_func ("/render/hidden-and-failed", test_hidden_and_failed);
  g_test_add_func ("/render/timeline-bars", test_timeline_bars);
  g_test_add_func ("/render/exports", test_exports);
  return g_test_run ();
}
