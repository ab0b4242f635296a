/* bench-ui: drawing speed of the charts (no display needed): the bandwidth
 * chart with 12 series x 19 sizes and timelines of 10,000 to 1,000,000 bars
 * on 16 and 64 lanes, each drawn into a 1600x1000 image surface; the median
 * of many draws. Prints figures; asserts nothing. The first-frame time of the app is measured by
 * running memsweep-gtk with MEMSWEEP_FIRST_FRAME=1 (see the README). */
#include <math.h>
#include <stdio.h>

#include "ms-chart.h"
#include "ms-timeline.h"

static int
cmp (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

static double
median_ms (double *t, int n)
{
  qsort (t, n, sizeof *t, cmp);
  return n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
}

/* A streams cell whose repetition 1 (or 0 when reps is 1) has n_bars bars
 * over lanes stream lanes: each event draws a GPU bar and a host bar. The
 * view shows 1/zoom of the repetition's extent from its middle. */
static void
bench_timeline (cairo_t *cr, cairo_surface_t *surface, const MsChartStyle *style, int n_bars,
                int lanes, int reps, double zoom, int width, int height)
{
  enum { RUNS = 30 };
  double t[RUNS];
  size_t per_rep = n_bars / 2, n = per_rep * reps;
  MsEvent *ev = g_new0 (MsEvent, n);
  for (size_t i = 0; i < n; i++) {
    size_t k = i % per_rep;
    ev[i].phase = (MsPhase) (MS_PHASE_H2D + k % 3);
    ev[i].lane = 1 + k % lanes;
    ev[i].rep = (int) (i / per_rep);
    ev[i].host_start_us = k * 0.5;
    ev[i].host_us = 0.4;
    ev[i].gpu_start_us = k * 0.5 + 0.1;
    ev[i].gpu_us = 5;
  }
  MsCell cell = { .mode = MS_MODE_STREAMS, .exponent = 20, .elements = 1 << 20, .n_reps = reps,
                  .events = ev, .n_events = n };
  int rep = reps - 1;
  MsTimeWindow win;
  ms_time_window_reset (&win, ms_timeline_extent (&cell, rep));
  ms_time_window_zoom (&win, zoom, win.total_us / 2);
  MsTimelineLayout tl;
  ms_timeline_layout_init (&tl);
  for (int i = 0; i < RUNS; i++) {
    gint64 t0 = g_get_monotonic_time ();
    ms_timeline_draw (cr, &cell, rep, &win, style, width, height, "bench", &tl);
    cairo_surface_flush (surface);
    t[i] = (g_get_monotonic_time () - t0) * 1e-3;
  }
  double med = median_ms (t, RUNS);
  printf ("timeline, %d bars, %d lanes, %d reps, 1/%g of the extent, %dx%d: median %.2f ms "
          "(min %.2f, max %.2f; %u bars in the layout)\n", n_bars, lanes, reps, zoom, width,
          height, med, t[0], t[RUNS - 1], tl.bars->len);
  ms_timeline_layout_clear (&tl);
  g_free (ev);
}

int
main (void)
{
  enum { W = 1600, H = 1000, RUNS = 60 };
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, W, H);
  cairo_t *cr = cairo_create (surface);
  MsChartStyle style;
  ms_chart_style_init_light (&style);
  double t[RUNS];

  MsChartData *d = ms_chart_data_new ();
  d->y_kind = MS_SCALE_LOG10;
  d->title = g_strdup ("bench");
  for (int s = 0; s < 12; s++) {
    g_autofree char *label = g_strdup_printf ("series %d", s);
    MsChartSeries *series = ms_chart_data_add_series (d, label, s % 8, s / 8, 0);
    for (int e = 10; e <= 28; e++) {
      double y = (s + 1) * pow (1.3, e - 10);
      ms_chart_series_add (series, (1 << e) * 4.0, y, y * 0.8, y * 1.2, FALSE);
    }
  }
  ms_chart_data_add_ref (d, 63, "PCIe");
  MsChartLayout layout;
  ms_chart_layout_init (&layout);
  for (int i = 0; i < RUNS; i++) {
    gint64 t0 = g_get_monotonic_time ();
    ms_chart_draw (cr, d, &style, W, H, -1, &layout);
    cairo_surface_flush (surface);
    t[i] = (g_get_monotonic_time () - t0) * 1e-3;
  }
  double med = median_ms (t, RUNS);
  printf ("bandwidth chart, 12 series x 19 sizes, %dx%d: median %.2f ms (min %.2f, max %.2f) "
          "over %d draws\n", W, H, med, t[0], t[RUNS - 1], RUNS);

  /* The size the chart gets in the default 1280x820 window. */
  for (int i = 0; i < RUNS; i++) {
    gint64 t0 = g_get_monotonic_time ();
    ms_chart_draw (cr, d, &style, 970, 680, -1, &layout);
    cairo_surface_flush (surface);
    t[i] = (g_get_monotonic_time () - t0) * 1e-3;
  }
  med = median_ms (t, RUNS);
  printf ("bandwidth chart, 12 series x 19 sizes, 970x680 (default window): median %.2f ms "
          "(min %.2f, max %.2f)\n", med, t[0], t[RUNS - 1]);

  /* Hovering: the app repaints a cached chart and the crosshair only. */
  cairo_surface_t *cache = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, W, H);
  cairo_t *cc = cairo_create (cache);
  ms_chart_draw (cc, d, &style, W, H, -1, &layout);
  cairo_destroy (cc);
  for (int i = 0; i < RUNS; i++) {
    gint64 t0 = g_get_monotonic_time ();
    cairo_set_source_surface (cr, cache, 0, 0);
    cairo_paint (cr);
    ms_chart_draw_crosshair (cr, d, &style, &layout, 300 + i * 10);
    cairo_surface_flush (surface);
    t[i] = (g_get_monotonic_time () - t0) * 1e-3;
  }
  med = median_ms (t, RUNS);
  printf ("bandwidth chart, hover repaint (cached chart + crosshair): median %.2f ms (min %.2f, "
          "max %.2f)\n", med, t[0], t[RUNS - 1]);
  cairo_surface_destroy (cache);

  /* 10,000 bars: a streams cell with 16 lanes, the original figure. */
  bench_timeline (cr, surface, &style, 10000, 16, 1, 1, W, H);
  /* Issue 10's targets: 100k and 1M bars on 16 and 64 lanes in the
   * repetition drawn, with a second repetition's events in the cell; whole
   * extent, then a window of 1/100 of it. */
  for (int lanes = 16; lanes <= 64; lanes *= 4)
    for (int bars = 100000; bars <= 1000000; bars *= 10) {
      bench_timeline (cr, surface, &style, bars, lanes, 2, 1, W, H);
      bench_timeline (cr, surface, &style, bars, lanes, 2, 100, W, H);
    }

  ms_chart_layout_clear (&layout);
  ms_chart_data_free (d);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
  return 0;
}
