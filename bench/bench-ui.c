/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench-ui: drawing speed of the charts (no display needed): the bandwidth
 * chart with 12 series x 19 sizes and timelines of 10,000 to 1,000,000 bars
 * on 16 and 64 lanes, each drawn into an image surface; the median of many
 * draws, in wall time and in the thread's CPU time (steadier on a shared
 * machine). Prints figures; asserts nothing. The first-frame time of the
 * app is measured by running memsweep-gtk built with -Dprofiling=true with
 * MEMSWEEP_FIRST_FRAME=1 (bench/bench-app-open.sh, the README).
 *
 * Every chart draw is a whole draw from the data: the background, grid,
 * text, lines, markers and bars are all painted again. Kept between draws
 * on the drawing thread, as in the app (none is a picture of the chart; a
 * hover, a resize back and forth or a new run meets them the same):
 * laid-out labels (Pango layouts, ms-draw.c), marker coverage stamps, each
 * colour's blending tables and the raster's scratch mask (ms-raster.c),
 * besides Cairo's and Pango's own font and glyph caches. The "cold" figure
 * draws each time on a new thread, where those of ours are empty (Cairo's
 * and Pango's stay warm). The background alone (one cairo_paint of the
 * surface) is timed too: the floor of any draw into a surface of that
 * size on this machine.
 *
 * Options: --only chart|timeline restricts it to one part (for profiling);
 * --runs N draws N times per figure; --png FILE writes the 1600x1000
 * chart, --timeline-png PREFIX each timeline case, to compare drawings
 * before and after a change. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ms-chart.h"
#include "ms-timeline.h"

enum { W = 1600, H = 1000 };

/* 0: the defaults (60 chart draws, 30 timeline draws). */
static int bench_runs;

static int
runs_or (int fallback)
{
  return bench_runs > 0 ? bench_runs : fallback;
}

typedef void (*MsBenchDraw) (cairo_t *cr, int i, gpointer data);

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

static double
cpu_ms (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

/* Draws runs times into surface and prints the medians after what. */
static void
measure (const char *what, cairo_t *cr, cairo_surface_t *surface, int runs, MsBenchDraw draw,
         gpointer data)
{
  double *wall = g_new (double, runs), *cpu = g_new (double, runs);
  for (int i = 0; i < runs; i++) {
    gint64 t0 = g_get_monotonic_time ();
    double c0 = cpu_ms ();
    draw (cr, i, data);
    cairo_surface_flush (surface);
    cpu[i] = cpu_ms () - c0;
    wall[i] = (g_get_monotonic_time () - t0) * 1e-3;
  }
  double med = median_ms (wall, runs), cpu_med = median_ms (cpu, runs);
  printf ("%s: median %.2f ms (min %.2f, max %.2f), CPU %.2f ms, over %d draws\n", what, med,
          wall[0], wall[runs - 1], cpu_med, runs);
  g_free (wall);
  g_free (cpu);
}

typedef struct {
  MsChartData *data;
  MsChartStyle style;
  MsChartLayout layout;
  cairo_surface_t *cache;
  double width, height;
} MsChartBench;

static void
draw_chart (cairo_t *cr, int i, gpointer data)
{
  MsChartBench *b = data;
  ms_chart_draw (cr, b->data, &b->style, b->width, b->height, -1, &b->layout);
}

/* Hovering: the app repaints a cached chart and the crosshair only, the
 * chart copied as it is when its background is opaque (ms-plot-view.c). */
static void
draw_hover (cairo_t *cr, int i, gpointer data)
{
  MsChartBench *b = data;
  cairo_set_source_surface (cr, b->cache, 0, 0);
  cairo_set_operator (cr, CAIRO_OPERATOR_SOURCE);
  cairo_paint (cr);
  cairo_set_operator (cr, CAIRO_OPERATOR_OVER);
  ms_chart_draw_crosshair (cr, b->data, &b->style, &b->layout, 300 + i * 10);
}

/* One draw on a thread of its own: our caches are per thread (ms-draw.c,
 * ms-raster.c), so that they start empty. */
typedef struct {
  MsChartBench *bench;
  cairo_t *cr;
  cairo_surface_t *surface;
  double wall, cpu;
} MsColdDraw;

static gpointer
cold_draw_thread (gpointer data)
{
  MsColdDraw *c = data;
  gint64 t0 = g_get_monotonic_time ();
  double c0 = cpu_ms ();
  draw_chart (c->cr, 0, c->bench);
  cairo_surface_flush (c->surface);
  c->cpu = cpu_ms () - c0;
  c->wall = (g_get_monotonic_time () - t0) * 1e-3;
  return NULL;
}

static void
measure_cold (const char *what, cairo_t *cr, cairo_surface_t *surface, int runs, MsChartBench *b)
{
  double *wall = g_new (double, runs), *cpu = g_new (double, runs);
  for (int i = 0; i < runs; i++) {
    MsColdDraw c = { b, cr, surface };
    g_thread_join (g_thread_new ("cold-draw", cold_draw_thread, &c));
    wall[i] = c.wall;
    cpu[i] = c.cpu;
  }
  double med = median_ms (wall, runs), cpu_med = median_ms (cpu, runs);
  printf ("%s: median %.2f ms (min %.2f, max %.2f), CPU %.2f ms, over %d cold draws\n", what, med,
          wall[0], wall[runs - 1], cpu_med, runs);
  g_free (wall);
  g_free (cpu);
}

static void
draw_background (cairo_t *cr, int i, gpointer data)
{
  ms_draw_background (cr, &((MsChartBench *) data)->style);
}

static void
bench_chart (cairo_t *cr, cairo_surface_t *surface, const char *png)
{
  MsChartBench b = { .data = ms_chart_data_new (), .width = W, .height = H };
  ms_chart_style_init_light (&b.style);
  b.data->y_kind = MS_SCALE_LOG10;
  b.data->title = g_strdup ("bench");
  for (int s = 0; s < 12; s++) {
    g_autofree char *label = g_strdup_printf ("series %d", s);
    MsChartSeries *series = ms_chart_data_add_series (b.data, label, s % 8, s / 8, 0);
    for (int e = 10; e <= 28; e++) {
      double y = (s + 1) * pow (1.3, e - 10);
      ms_chart_series_add (series, (1 << e) * 4.0, y, y * 0.8, y * 1.2, FALSE);
    }
  }
  ms_chart_data_add_ref (b.data, 63, "PCIe");
  ms_chart_layout_init (&b.layout);
  if (png) {
    draw_chart (cr, 0, &b);
    if (cairo_surface_write_to_png (surface, png) != CAIRO_STATUS_SUCCESS)
      g_printerr ("cannot write %s\n", png);
  }
  measure ("bandwidth chart, 12 series x 19 sizes, 1600x1000", cr, surface, runs_or (60),
           draw_chart, &b);
  measure_cold ("bandwidth chart, 1600x1000, cold (our caches empty)", cr, surface,
                MIN (runs_or (60), 30), &b);
  measure ("background alone (cairo_paint), 1600x1000", cr, surface, runs_or (60),
           draw_background, &b);
  /* The size the chart gets in the default 1280x820 window. */
  b.width = 970;
  b.height = 680;
  measure ("bandwidth chart, 12 series x 19 sizes, 970x680 (default window)", cr, surface,
           runs_or (60), draw_chart, &b);

  b.width = W;
  b.height = H;
  b.cache = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, W, H);
  cairo_t *cc = cairo_create (b.cache);
  draw_chart (cc, 0, &b);
  cairo_destroy (cc);
  measure ("bandwidth chart, hover repaint (cached chart + crosshair)", cr, surface,
           runs_or (60), draw_hover, &b);
  cairo_surface_destroy (b.cache);
  ms_chart_layout_clear (&b.layout);
  ms_chart_data_free (b.data);
}

/* --only timeline BARS LANES ZOOM: that timeline case alone (0: any). */
static int only_bars, only_lanes;
static double only_zoom;
/* --timeline-png PREFIX: each case's drawing to PREFIX-BARS-LANES-ZOOM.png. */
static const char *timeline_png;

typedef struct {
  MsCell cell;
  int rep;
  MsTimeWindow win;
  MsChartStyle style;
  MsTimelineLayout layout;
} MsTimelineBench;

static void
draw_timeline (cairo_t *cr, int i, gpointer data)
{
  MsTimelineBench *b = data;
  ms_timeline_draw (cr, &b->cell, b->rep, &b->win, &b->style, W, H, "bench", &b->layout);
}

/* A streams cell whose last repetition has n_bars bars over lanes stream
 * lanes (each event draws a GPU bar and a host bar), after reps - 1 others
 * of the same size. The view shows 1/zoom of the extent from its middle. */
static void
bench_timeline (cairo_t *cr, cairo_surface_t *surface, int n_bars, int lanes, int reps,
                double zoom)
{
  if ((only_bars && only_bars != n_bars) || (only_lanes && only_lanes != lanes) ||
      (only_zoom > 0 && only_zoom != zoom))
    return;
  MsTimelineBench b = { .rep = reps - 1 };
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
  b.cell = (MsCell){ .mode = MS_MODE_STREAMS, .exponent = 20, .elements = 1 << 20,
                     .n_reps = reps, .events = ev, .n_events = n };
  ms_chart_style_init_light (&b.style);
  ms_time_window_reset (&b.win, ms_timeline_extent (&b.cell, b.rep));
  ms_time_window_zoom (&b.win, zoom, b.win.total_us / 2);
  ms_timeline_layout_init (&b.layout);
  /* The first draw builds the index the others reuse: timed on its own. */
  gint64 t0 = g_get_monotonic_time ();
  draw_timeline (cr, 0, &b);
  double first = (g_get_monotonic_time () - t0) * 1e-3;
  g_autofree char *what =
    g_strdup_printf ("timeline, %d bars, %d lanes, %d reps, 1/%g of the extent, %dx%d "
                     "(first draw %.1f ms)", n_bars, lanes, reps, zoom, W, H, first);
  measure (what, cr, surface, runs_or (30), draw_timeline, &b);
  printf ("  %u bars in the layout\n", b.layout.bars->len);
  if (timeline_png) {
    g_autofree char *png = g_strdup_printf ("%s-%d-%d-%g.png", timeline_png, n_bars, lanes, zoom);
    if (cairo_surface_write_to_png (surface, png) != CAIRO_STATUS_SUCCESS)
      g_printerr ("cannot write %s\n", png);
  }
  ms_timeline_layout_clear (&b.layout);
  g_free (ev);
}

static void
usage (void)
{
  g_printerr ("usage: bench-ui [--only chart|timeline] [--case BARS LANES ZOOM] [--runs N] "
              "[--png FILE] [--timeline-png PREFIX]\n");
  exit (2);
}

int
main (int argc, char **argv)
{
  /* --only picks one part and --case one timeline case, for profiling. */
  const char *only = NULL, *png = NULL;
  for (int i = 1; i < argc; i++) {
    if (i + 1 < argc && strcmp (argv[i], "--only") == 0)
      only = argv[++i];
    else if (i + 3 < argc && strcmp (argv[i], "--case") == 0) {
      only_bars = atoi (argv[++i]);
      only_lanes = atoi (argv[++i]);
      only_zoom = atof (argv[++i]);
    } else if (i + 1 < argc && strcmp (argv[i], "--runs") == 0)
      bench_runs = atoi (argv[++i]);
    else if (i + 1 < argc && strcmp (argv[i], "--png") == 0)
      png = argv[++i];
    else if (i + 1 < argc && strcmp (argv[i], "--timeline-png") == 0)
      timeline_png = argv[++i];
    else
      usage ();
  }
  if (only && strcmp (only, "chart") != 0 && strcmp (only, "timeline") != 0)
    usage ();
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, W, H);
  cairo_t *cr = cairo_create (surface);
  if (!only || strcmp (only, "chart") == 0)
    bench_chart (cr, surface, png);
  if (only && strcmp (only, "chart") == 0)
    goto out;
  /* 10,000 bars on 16 lanes in one repetition: the earlier figure. */
  bench_timeline (cr, surface, 10000, 16, 1, 1);
  /* Issue 10's targets: 100k and 1M bars on 16 and 64 lanes in the
   * repetition drawn, another repetition's events before them in the cell;
   * the whole extent, then 1/100 of it. */
  for (int lanes = 16; lanes <= 64; lanes *= 4)
    for (int bars = 100000; bars <= 1000000; bars *= 10) {
      bench_timeline (cr, surface, bars, lanes, 2, 1);
      bench_timeline (cr, surface, bars, lanes, 2, 100);
    }
out:
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
  return 0;
}
