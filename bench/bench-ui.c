/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench-ui: drawing speed of the charts (no display needed): the bandwidth
 * chart with 12 series x 19 sizes and timelines of 10,000 to 1,000,000 bars
 * on 16 and 64 lanes, each drawn into an image surface; the median of many
 * draws, in wall time and in the thread's CPU time (steadier on a shared
 * machine). Prints figures; asserts nothing. The first-frame time of the
 * app is measured by running memsweep-gtk built with -Dprofiling=true with
 * MEMSWEEP_FIRST_FRAME=1 (bench/bench-app-open.sh, the README).
 *
 * First, the acceptance figures for the plot view (--only accept): eight
 * reference runs overlaid at 1600x1000, the full redraw after a data change
 * (chart data built from the runs, then drawn into a new picture, as
 * ms-plot-view.c does into its ms-view-cache.c texture) and after a size
 * change, and the hover frame (the crosshair drawn into a new transparent
 * surface the widget's size, which GTK then lays over the kept texture),
 * each with its min, median and max against the targets (50 and 16 ms).
 * --only widget measures the same in the app's widget, frames included:
 * MsPlotView in a 1600x1000 window, from the frame clock's before-paint to
 * its after-paint (snapshot, GSK's rendering and the texture's upload);
 * it needs a display (Xvfb will do).
 *
 * Every chart draw is a whole draw from the data: the background, grid,
 * text, lines, markers and bars are all painted again with Cairo. Kept
 * between draws on the drawing thread, as in the app: laid-out labels
 * (Pango layouts, ms-draw.c), besides Cairo's and Pango's own font and
 * glyph caches. The "cold" figure
 * draws each time on a new thread, where those of ours are empty (Cairo's
 * and Pango's stay warm). The background alone (one cairo_paint of the
 * surface) is timed too: the floor of any draw into a surface of that
 * size on this machine.
 *
 * Options: --only accept|widget|chart|timeline restricts it to one part (for profiling);
 * --runs N draws N times per figure; --png FILE writes the 1600x1000
 * chart, --timeline-png PREFIX each timeline case, to compare drawings
 * before and after a change. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <adwaita.h>

#include "lessons/ms-run-read.h"
#include "model/ms-results.h"
#include "ms-chart.h"
#include "ms-plots.h"
#include "ms-timeline.h"
#include "ms-views.h"
#include "ms-plot-view.h"

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

/* The thread's CPU time, unless process: GL's software rasteriser has
 * threads of its own, which the widget's frames count. */
static double
cpu_ms (bool process)
{
  struct timespec ts;
  clock_gettime (process ? CLOCK_PROCESS_CPUTIME_ID : CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

/* One timed draw into surface, and the CPU time it took. */
typedef struct {
  MsBenchDraw draw;
  gpointer data;
  cairo_t *cr;
  cairo_surface_t *surface;
  int i;
  double wall, cpu;
} MsTimedDraw;

static gpointer
timed_draw (gpointer data)
{
  MsTimedDraw *t = data;
  gint64 t0 = g_get_monotonic_time ();
  double c0 = cpu_ms (false);
  t->draw (t->cr, t->i, t->data);
  cairo_surface_flush (t->surface);
  t->cpu = cpu_ms (false) - c0;
  t->wall = (g_get_monotonic_time () - t0) * 1e-3;
  return NULL;
}

/* Draws runs times into surface and prints the medians after what; cold:
 * each draw on a thread of its own (as draw 0): our caches are per thread
 * (ms-draw.c), so that they start empty. */
static void
measure (const char *what, cairo_t *cr, cairo_surface_t *surface, int runs, MsBenchDraw draw,
         gpointer data, bool cold)
{
  double *wall = g_new (double, runs), *cpu = g_new (double, runs);
  for (int i = 0; i < runs; i++) {
    MsTimedDraw t = { draw, data, cr, surface, cold ? 0 : i };
    if (cold)
      g_thread_join (g_thread_new ("cold-draw", timed_draw, &t));
    else
      timed_draw (&t);
    wall[i] = t.wall;
    cpu[i] = t.cpu;
  }
  double med = median_ms (wall, runs), cpu_med = median_ms (cpu, runs);
  printf ("%s: median %.2f ms (min %.2f, max %.2f), CPU %.2f ms, over %d %sdraws\n", what, med,
          wall[0], wall[runs - 1], cpu_med, runs, cold ? "cold " : "");
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

/* A kept chart copied into the frame with the crosshair over it, as the
 * plot view painted hover frames before it handed GTK a texture (now GTK
 * composites the texture and a crosshair node: --only accept and widget);
 * kept to compare with earlier logs. */
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
           draw_chart, &b, false);
  measure ("bandwidth chart, 1600x1000, cold (our caches empty)", cr, surface,
           MIN (runs_or (60), 30), draw_chart, &b, true);
  measure ("background alone (cairo_paint), 1600x1000", cr, surface, runs_or (60),
           draw_background, &b, false);
  /* The size the chart gets in the default 1280x820 window. */
  b.width = 970;
  b.height = 680;
  measure ("bandwidth chart, 12 series x 19 sizes, 970x680 (default window)", cr, surface,
           runs_or (60), draw_chart, &b, false);

  b.width = W;
  b.height = H;
  b.cache = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, W, H);
  cairo_t *cc = cairo_create (b.cache);
  draw_chart (cc, 0, &b);
  cairo_destroy (cc);
  measure ("bandwidth chart, hover repaint (cached chart + crosshair)", cr, surface,
           runs_or (60), draw_hover, &b, false);
  cairo_surface_destroy (b.cache);
  ms_chart_layout_clear (&b.layout);
  ms_chart_data_free (b.data);
}

/* The acceptance figures: eight runs overlaid, as a user comparing runs
 * has them (the bundled sweeps, each opened more than once under a name of
 * its own). */
enum { ACCEPT_RUNS = 8 };
static const double redraw_target_ms = 50, hover_target_ms = 16;

typedef struct {
  const char *what;
  double min, median, max, target;
} MsAcceptFigure;

/* Wall time decides; the thread's CPU time says how much of it was the
 * draw's own work rather than waiting for a core on a shared machine. */
static MsAcceptFigure
accept_figure (const char *what, double *t, double *cpu, int n, double target)
{
  qsort (t, n, sizeof *t, cmp);
  MsAcceptFigure f = { what, t[0], median_ms (t, n), t[n - 1], target };
  double cpu_median = median_ms (cpu, n); /* sorts cpu */
  printf ("  %s\n    wall min %.2f, median %.2f, max %.2f ms (target <= %.0f: %s); "
          "CPU median %.2f, max %.2f ms\n",
          what, f.min, f.median, f.max, target, f.max <= target ? "met" : "MISSED",
          cpu_median, cpu[n - 1]);
  return f;
}

/* The figure of the three furthest over its target. */
static void
print_worst (const MsAcceptFigure f[3])
{
  const MsAcceptFigure *worst = &f[0];
  for (int i = 1; i < 3; i++)
    if (f[i].max / f[i].target > worst->max / worst->target)
      worst = &f[i];
  printf ("  worst case: %s, %.2f ms against %.0f ms\n", worst->what, worst->max, worst->target);
}

static GPtrArray *
accept_runs (void)
{
  static const char *files[] = { "h100-default-samples.csv.gz", "h200-default-samples.csv.gz",
                                 "h100-large-samples.csv.gz" };
  GPtrArray *runs = g_ptr_array_new_with_free_func ((GDestroyNotify) ms_results_free);
  for (guint i = 0; i < ACCEPT_RUNS; i++) {
    char err[512];
    g_autofree char *path =
      g_build_filename (MS_SOURCE_REFERENCE_DIR, files[i % G_N_ELEMENTS (files)], NULL);
    MsResults *r = ms_run_read_samples (path, err, sizeof err);
    if (!r) {
      g_printerr ("bench-ui: %s\n", err);
      exit (1);
    }
    g_snprintf (r->label, sizeof r->label, "run %u", i + 1);
    g_ptr_array_add (runs, r);
  }
  return runs;
}

/* A new picture w x h with the chart drawn into it, as the view's cache
 * makes it on a data, size, scale or style change. */
static void
accept_redraw (const MsChartData *d, const MsChartStyle *st, int w, int h, MsChartLayout *l)
{
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, w, h);
  cairo_t *cr = cairo_create (s);
  ms_chart_draw (cr, d, st, w, h, -1, l);
  cairo_destroy (cr);
  cairo_surface_flush (s);
  cairo_surface_destroy (s);
}

static void
bench_accept (int n)
{
  g_autoptr (GPtrArray) runs = accept_runs ();
  MsChartStyle st;
  ms_chart_style_init_light (&st);
  MsChartLayout l;
  ms_chart_layout_init (&l);
  double *t = g_new (double, n), *cpu = g_new (double, n);
  MsAcceptFigure f[3];
  printf ("acceptance, the plot view with %d runs overlaid at %dx%d, %d frames each:\n",
          ACCEPT_RUNS, W, H, n);

  MsChartData *d = NULL;
  for (int i = 0; i < n; i++) {
    gint64 t0 = g_get_monotonic_time ();
    double c0 = cpu_ms (false);
    /* A data change: the metric flips, so that nothing is reused. */
    ms_chart_data_free (d);
    d = ms_plot_build (runs, i % 2 ? MS_METRIC_E2E_TIME : MS_METRIC_E2E_BANDWIDTH, TRUE, NULL);
    accept_redraw (d, &st, W, H, &l);
    cpu[i] = cpu_ms (false) - c0;
    t[i] = (g_get_monotonic_time () - t0) * 1e-3;
  }
  f[0] = accept_figure ("full redraw after a data change (chart data built, then drawn)", t, cpu,
                        n, redraw_target_ms);
  for (int i = 0; i < n; i++) {
    /* A resize: every frame a different size near the full one. */
    int w = W - (i % 16) * 7, h = H - (i % 16) * 5;
    gint64 t0 = g_get_monotonic_time ();
    double c0 = cpu_ms (false);
    accept_redraw (d, &st, w, h, &l);
    cpu[i] = cpu_ms (false) - c0;
    t[i] = (g_get_monotonic_time () - t0) * 1e-3;
  }
  f[1] = accept_figure ("full redraw after a size change (drawn)", t, cpu, n, redraw_target_ms);
  accept_redraw (d, &st, W, H, &l);
  for (int i = 0; i < n; i++) {
    double x = l.plot_x + fmod (i * 37.0, l.plot_w);
    gint64 t0 = g_get_monotonic_time ();
    double c0 = cpu_ms (false);
    cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, W, H);
    cairo_t *cr = cairo_create (s);
    ms_chart_draw_crosshair (cr, d, &st, &l, x);
    cairo_destroy (cr);
    cairo_surface_flush (s);
    cairo_surface_destroy (s);
    cpu[i] = cpu_ms (false) - c0;
    t[i] = (g_get_monotonic_time () - t0) * 1e-3;
  }
  f[2] = accept_figure ("hover frame (crosshair and read-out drawn over the kept picture)", t, cpu,
                        n, hover_target_ms);
  print_worst (f);
  ms_chart_data_free (d);
  ms_chart_layout_clear (&l);
  g_free (t);
  g_free (cpu);
}

/* The frames of a plot view in a window: from before-paint to after-paint
 * of the frame clock. */
typedef struct {
  gint64 started;
  double cpu_started;
  guint frames;
  double last_ms, last_cpu_ms;
} MsFrameTimer;

static void
on_before_paint (GdkFrameClock *clock, MsFrameTimer *ft)
{
  ft->started = g_get_monotonic_time ();
  ft->cpu_started = cpu_ms (true);
}

static void
on_after_paint (GdkFrameClock *clock, MsFrameTimer *ft)
{
  ft->last_ms = (g_get_monotonic_time () - ft->started) * 1e-3;
  ft->last_cpu_ms = cpu_ms (true) - ft->cpu_started;
  ft->frames++;
}

/* Runs the main loop until the next frame is painted; its time, or -1
 * when none came within a second (nothing to draw). */
static double
next_frame_ms (MsFrameTimer *ft)
{
  guint frames = ft->frames;
  gint64 deadline = g_get_monotonic_time () + G_USEC_PER_SEC;
  while (ft->frames == frames && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, FALSE);
  /* What the change set off may take one more frame (the cursor, a
   * relayout): the figure is the frame that drew it and any that follow
   * at once. */
  while (g_main_context_iteration (NULL, FALSE))
    ;
  return ft->frames == frames ? -1 : ft->last_ms;
}

static GtkEventController *
motion_controller (GtkWidget *widget)
{
  g_autoptr (GListModel) controllers = gtk_widget_observe_controllers (widget);
  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++) {
    g_autoptr (GtkEventController) c = g_list_model_get_item (controllers, i);
    if (GTK_IS_EVENT_CONTROLLER_MOTION (c))
      return c;
  }
  return NULL;
}

/* Times n frames, each after change (i); prints the figure. */
static MsAcceptFigure
widget_frames (const char *what, MsFrameTimer *ft, int n, double target,
               void (*change) (GtkWidget *view, int i), GtkWidget *view)
{
  double *t = g_new (double, n), *cpu = g_new0 (double, n);
  int got = 0;
  for (int i = 0; i < n; i++) {
    change (view, i);
    double ms = next_frame_ms (ft);
    if (ms < 0)
      continue;
    cpu[got] = ft->last_cpu_ms;
    t[got++] = ms;
  }
  MsAcceptFigure f = { what, -1, -1, -1, target };
  if (got > 0)
    f = accept_figure (what, t, cpu, got, target);
  else
    printf ("  %s: no frames\n", what);
  g_free (t);
  g_free (cpu);
  return f;
}

static void
change_metric (GtkWidget *view, int i)
{
  g_object_set (view, "metric", i % 2 ? MS_METRIC_E2E_TIME : MS_METRIC_E2E_BANDWIDTH, NULL);
}

static void
change_size (GtkWidget *view, int i)
{
  GtkWindow *window = GTK_WINDOW (gtk_widget_get_root (view));
  gtk_window_set_default_size (window, W - (i % 2 ? 0 : 40), H - (i % 2 ? 0 : 25));
}

static void
change_hover (GtkWidget *view, int i)
{
  g_signal_emit_by_name (motion_controller (view), "motion", 200.0 + fmod (i * 37.0, W - 500),
                         H / 2.0);
}

/* A frame in which nothing changed but the view asked to be drawn again
 * (the kept picture alone, no crosshair): GTK finds nothing to paint. */
static void
change_nothing (GtkWidget *view, int i)
{
  gtk_widget_queue_draw (view);
}

/* The floor of any frame that changes something: a 4x4 square over the
 * chart's corner, drawn in another colour each time. */
static void
draw_square (GtkDrawingArea *area, cairo_t *cr, int w, int h, gpointer data)
{
  guint *n = data;
  cairo_set_source_rgb (cr, (*n)++ % 2, 0, 0);
  cairo_paint (cr);
}

static void
change_square (GtkWidget *view, int i)
{
  gtk_widget_queue_draw (g_object_get_data (G_OBJECT (view), "bench-square"));
}

static void
bench_widget (int n)
{
  g_autoptr (GPtrArray) runs = accept_runs ();
  gtk_init ();
  adw_init ();
  GtkWidget *view = g_object_new (MS_TYPE_PLOT_VIEW, "metric", MS_METRIC_E2E_BANDWIDTH, NULL);
  g_object_set (view, "runs", runs, "log-scale", TRUE, NULL);
  GtkWindow *window = GTK_WINDOW (gtk_window_new ());
  gtk_window_set_default_size (window, W, H);
  GtkWidget *overlay = gtk_overlay_new (), *square = gtk_drawing_area_new ();
  guint square_n = 0;
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (square), draw_square, &square_n, NULL);
  gtk_widget_set_size_request (square, 4, 4);
  gtk_widget_set_halign (square, GTK_ALIGN_START);
  gtk_widget_set_valign (square, GTK_ALIGN_START);
  g_object_set_data (G_OBJECT (view), "bench-square", square);
  gtk_overlay_set_child (GTK_OVERLAY (overlay), view);
  gtk_overlay_add_overlay (GTK_OVERLAY (overlay), square);
  gtk_window_set_child (window, overlay);
  gtk_window_present (window);
  MsFrameTimer ft = { 0 };
  GdkFrameClock *clock = gtk_widget_get_frame_clock (GTK_WIDGET (window));
  g_signal_connect (clock, "before-paint", G_CALLBACK (on_before_paint), &ft);
  g_signal_connect (clock, "after-paint", G_CALLBACK (on_after_paint), &ft);
  while (ft.frames < 3)
    next_frame_ms (&ft);
  GskRenderer *r = gtk_native_get_renderer (GTK_NATIVE (window));
  printf ("acceptance in the widget (%s, %d runs, %dx%d window), %d frames each:\n",
          G_OBJECT_TYPE_NAME (r), ACCEPT_RUNS, W, H, n);
  MsAcceptFigure f[3];
  f[0] = widget_frames ("frame after a data change (the metric flips)", &ft, n, redraw_target_ms,
                        change_metric, view);
  f[1] = widget_frames ("frame after a size change (the window resized)", &ft, MIN (n, 40),
                        redraw_target_ms, change_size, view);
  change_size (view, 1);
  next_frame_ms (&ft);
  f[2] = widget_frames ("hover frame (the pointer moved over the plot)", &ft, n, hover_target_ms,
                        change_hover, view);
  print_worst (f);
  g_signal_emit_by_name (motion_controller (view), "leave");
  next_frame_ms (&ft);
  printf ("  for comparison, frames that draw nothing of the chart:\n");
  widget_frames ("the view drawn again with nothing new (GTK paints nothing)", &ft, n,
                 hover_target_ms, change_nothing, view);
  widget_frames ("a 4x4 square over the chart changes colour (any frame's floor)", &ft, n,
                 hover_target_ms, change_square, view);
  gtk_window_destroy (window);
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
  measure (what, cr, surface, runs_or (30), draw_timeline, &b, false);
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
  g_printerr ("usage: bench-ui [--only accept|widget|chart|timeline] [--case BARS LANES ZOOM] [--runs N] "
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
  if (only && strcmp (only, "chart") != 0 && strcmp (only, "timeline") != 0 &&
      strcmp (only, "accept") != 0 && strcmp (only, "widget") != 0)
    usage ();
  if (only && strcmp (only, "widget") == 0) {
    bench_widget (runs_or (100));
    return 0;
  }
  if (!only || strcmp (only, "accept") == 0)
    bench_accept (runs_or (100));
  if (only && strcmp (only, "accept") == 0)
    return 0;
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
