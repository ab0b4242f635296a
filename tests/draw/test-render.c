/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-render.c: charts drawn into image surfaces, checked pixel by pixel:
 * a series' colour where its point is, nothing outside the plot, the dark
 * style's background, timeline bars where their events are, the shared
 * drawing steps, merged sub-pixel bars, the breakdown, exports. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lessons/ms-run-read.h"
#include "model/ms-results.h"
#include "ms-breakdown.h"
#include "ms-canvas-test.h"
#include "ms-chart.h"
#include "ms-export.h"
#include "ms-modes.h"
#include "ms-plots.h"
#include "ms-timeline-index.h"
#include "ms-timeline-labels.h"
#include "ms-timeline.h"
#include "ms-tmp-test.h"

#define W 900
#define H 560

static void
pixel (MsTestCanvas *c, int x, int y, double rgb[3])
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
any_color (MsTestCanvas *c, int x0, int y0, int x1, int y1, const MsColor *col)
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
  MsTestCanvas c = ms_test_canvas_new (W, H);
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
  ms_test_canvas_free (&c);
}

static void
test_nothing_outside_plot (void)
{
  /* Error bars far beyond the axis range (a log axis fitted to the values,
   * not the bars, would cut them): they must be clipped to the plot. */
  MsTestCanvas c = ms_test_canvas_new (W, H);
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
  ms_test_canvas_free (&c);
}

static void
test_dark_background (void)
{
  MsTestCanvas c = ms_test_canvas_new (W, H);
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
  ms_test_canvas_free (&c);
}

static void
test_hidden_and_failed (void)
{
  MsTestCanvas c = ms_test_canvas_new (W, H);
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
  ms_test_canvas_free (&c);
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
  MsTestCanvas c = ms_test_canvas_new (W, H);
  MsChartStyle st;
  ms_chart_style_init_light (&st);
  MsTimeWindow win;
  ms_time_window_reset (&win, ms_timeline_extent (&cell, 0));
  g_assert_cmpfloat (win.total_us, ==, 500);
  MsTimelineLayout l;
  ms_timeline_layout_init (&l);
  ms_timeline_draw (c.cr, &cell, 0, &win, &st, W, H, "test", &l);
  g_assert_cmpuint (l.bars->len, ==, 5); /* init; h2d and kernel twice */
  /* The kernel's host part is drawn as its launch: the legend keys launch. */
  gboolean seen[MS_PHASE_COUNT];
  ms_timeline_seen_in (&cell, 0, NULL, &win, seen);
  g_assert_true (seen[MS_PHASE_KERNEL] && seen[MS_PHASE_LAUNCH]);
  /* A window with the launch and not its kernel keys no kernel. */
  MsEvent later = ev[2];
  later.gpu_start_us = 450;
  MsCell one = { .mode = MS_MODE_PAGEABLE, .exponent = 20, .elements = 1 << 20, .n_reps = 1,
                 .events = &later, .n_events = 1 };
  MsTimeWindow launch_only = win;
  launch_only.t0 = 400, launch_only.t1 = 404;
  ms_timeline_seen_in (&one, 0, NULL, &launch_only, seen);
  g_assert_true (seen[MS_PHASE_LAUNCH] && !seen[MS_PHASE_KERNEL]);
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
  g_assert_true (ms_index_blocked_host (&ev[1]));
  g_assert_false (ms_index_blocked_host (&ev[2]));
  /* A launch as long as its kernel that returned 129 µs before the GPU
   * started it (queued behind a copy) did not block the host. */
  MsEvent queued = { .phase = MS_PHASE_KERNEL, .lane = 1, .host_start_us = 28.7,
                     .host_us = 4.2, .gpu_start_us = 161.9, .gpu_us = 3.4 };
  g_assert_false (ms_index_blocked_host (&queued));
  /* One whose call returned as its kernel ended did. */
  queued.host_us = 137;
  g_assert_true (ms_index_blocked_host (&queued));
  ms_timeline_layout_clear (&l);
  ms_test_canvas_free (&c);
}

/* Whether two canvases hold the same pixels. */
static gboolean
same_pixels (MsTestCanvas *a, MsTestCanvas *b)
{
  cairo_surface_flush (a->surface);
  cairo_surface_flush (b->surface);
  int stride = cairo_image_surface_get_stride (a->surface);
  return memcmp (cairo_image_surface_get_data (a->surface),
                 cairo_image_surface_get_data (b->surface), (size_t) stride * H) == 0;
}

static void
test_grid_and_frame_as_strokes (void)
{
  /* The grid and the frame are filled as rectangles for speed: they must
   * paint what stroking the same lines paints, crossings included, on
   * whole and fractional bounds and in both line widths. */
  const double bounds[][4] = { { 60, 40, 700, 400 }, { 60.4, 40.7, 700.3, 400.6 } };
  for (guint b = 0; b < G_N_ELEMENTS (bounds); b++)
    for (double lw = 1; lw <= 1.5; lw += 0.5) {
      double x = bounds[b][0], y = bounds[b][1], w = bounds[b][2], h = bounds[b][3];
      MsScale xs = { MS_SCALE_LOG2, 4096, 4 << 20, x, x + w };
      MsScale ys = { MS_SCALE_LINEAR, 0, 100, y + h, y };
      MsTick xt[16], yt[16];
      guint nx = ms_scale_ticks (&xs, xt, 10), ny = ms_scale_ticks (&ys, yt, 10);
      g_assert_cmpuint (nx, >, 2);
      g_assert_cmpuint (ny, >, 2);
      MsTestCanvas filled = ms_test_canvas_new (W, H), stroked = ms_test_canvas_new (W, H);
      cairo_t *cr = filled.cr;
      cairo_set_source_rgba (cr, 0, 0, 0, 0.5);
      ms_grid_path_x (cr, &xs, xt, nx, y, y + h, lw);
      ms_grid_path_y (cr, &ys, yt, ny, x, x + w, lw);
      cairo_fill (cr);
      ms_frame_rect (cr, x, y, w, h, lw);
      cr = stroked.cr;
      cairo_set_source_rgba (cr, 0, 0, 0, 0.5);
      cairo_set_line_width (cr, lw);
      for (guint i = 0; i < nx; i++) {
        double px = round (ms_scale_to_pixel (&xs, xt[i].value)) + 0.5;
        cairo_move_to (cr, px, y);
        cairo_line_to (cr, px, y + h);
      }
      for (guint i = 0; i < ny; i++) {
        double py = round (ms_scale_to_pixel (&ys, yt[i].value)) + 0.5;
        cairo_move_to (cr, x, py);
        cairo_line_to (cr, x + w, py);
      }
      cairo_stroke (cr);
      cairo_rectangle (cr, x + 0.5, y + 0.5, w - 1, h - 1);
      cairo_stroke (cr);
      g_assert_true (same_pixels (&filled, &stroked));
      ms_test_canvas_free (&filled);
      ms_test_canvas_free (&stroked);
    }
}

static void
test_time_axis (void)
{
  /* A tick's grid line on its pixel column, nothing between two ticks. */
  MsTestCanvas c = ms_test_canvas_new (W, H);
  MsChartStyle st;
  ms_chart_style_init_light (&st);
  st.fg = (MsColor){ 0, 0, 1, 1 };
  ms_draw_background (c.cr, &st);
  MsScale xs = { MS_SCALE_LINEAR, 0, 10000, 100, 800 }; /* µs: labelled in ms */
  ms_draw_time_axis (c.cr, &st, &xs, 50, 400, 70, W);
  MsTick ticks[16];
  guint n = ms_axis_ticks (&xs, 700, 70, ticks, 16);
  g_assert_cmpuint (n, >=, 2);
  double rgb[3];
  int x0 = (int) round (ms_scale_to_pixel (&xs, ticks[0].value));
  int x1 = (int) round (ms_scale_to_pixel (&xs, ticks[1].value));
  pixel (&c, x0, 200, rgb);
  g_assert_cmpfloat (rgb[2] - rgb[0], >, 0.05); /* a blue tint */
  pixel (&c, (x0 + x1) / 2, 200, rgb);
  g_assert_cmpfloat (rgb[0] + rgb[1] + rgb[2], >, 2.99);
  /* The labels sit under the axis, around their ticks. */
  int inked = 0;
  for (int y = 401; y < 430; y++)
    for (int x = x0 - 30; x < x0 + 30; x++) {
      pixel (&c, MAX (x, 0), y, rgb);
      inked += rgb[2] - rgb[0] > 0.4;
    }
  g_assert_cmpint (inked, >, 10);
  ms_test_canvas_free (&c);
}

/* A cell with n events in repetition rep on lane 1, each dur_us long and
 * step_us apart, phases alternating H2D (twice) and kernel. */
static MsEvent *
dense_events (int n, int rep, double dur_us, double step_us)
{
  MsEvent *ev = g_new0 (MsEvent, n);
  for (int i = 0; i < n; i++)
    ev[i] = (MsEvent){ .phase = i % 3 == 2 ? MS_PHASE_KERNEL : MS_PHASE_H2D, .lane = 1,
                       .rep = rep, .host_start_us = i * step_us, .host_us = dur_us / 10,
                       .gpu_start_us = i * step_us, .gpu_us = dur_us };
  return ev;
}

/* A streams cell of the n events, all of repetition 0 drawn into c; l to
 * be cleared. */
static void
draw_whole_timeline (MsTestCanvas *c, MsEvent *ev, int n, MsTimeWindow *win, MsTimelineLayout *l)
{
  MsCell cell = { .mode = MS_MODE_STREAMS, .exponent = 20, .elements = 1 << 20, .n_reps = 1,
                  .events = ev, .n_events = n };
  MsChartStyle st;
  ms_chart_style_init_light (&st);
  ms_time_window_reset (win, ms_timeline_extent (&cell, 0));
  ms_timeline_layout_init (l);
  ms_timeline_draw (c->cr, &cell, 0, win, &st, W, H, NULL, l);
}

static void
test_timeline_merges_subpixel_bars (void)
{
  /* 20,000 GPU bars of a fraction of a pixel each, back to back: a few
   * merged bars in the colour of the phase with most of the time, not
   * twenty thousand rectangles. */
  enum { N = 20000 };
  g_autofree MsEvent *ev = dense_events (N, 0, 0.1, 0.1);
  MsTestCanvas c = ms_test_canvas_new (W, H);
  MsTimeWindow win;
  MsTimelineLayout l;
  draw_whole_timeline (&c, ev, N, &win, &l);
  guint gpu_bars = 0;
  double covered = 0;
  const MsTimelineBar *gpu = NULL;
  for (guint i = 0; i < l.bars->len; i++) {
    const MsTimelineBar *b = &g_array_index (l.bars, MsTimelineBar, i);
    if (b->host_part)
      continue;
    gpu_bars++;
    covered += b->w;
    gpu = b;
  }
  g_assert_cmpuint (gpu_bars, >=, 1);
  g_assert_cmpuint (gpu_bars, <, 50);
  /* The merged bars span the lane's whole run of events. */
  g_assert_cmpfloat (covered, >, l.plot_w * 0.95);
  g_assert_cmpint (gpu->event->phase, ==, MS_PHASE_H2D);
  MsColor h2d, kernel;
  ms_phase_color (MS_PHASE_H2D, FALSE, &h2d);
  ms_phase_color (MS_PHASE_KERNEL, FALSE, &kernel);
  int y = (int) (gpu->y + gpu->h / 2);
  g_assert_true (any_color (&c, (int) l.plot_x + 10, y - 1, (int) l.plot_x + 20, y + 2, &h2d));
  g_assert_false (any_color (&c, (int) l.plot_x, y - 1, (int) (l.plot_x + l.plot_w), y + 2,
                             &kernel));
  /* A bar still answers hit tests with one of its events. */
  const MsTimelineBar *hit = ms_timeline_layout_hit (&l, l.plot_x + l.plot_w / 2, y);
  g_assert_nonnull (hit);
  g_assert_true (hit->event >= ev && hit->event < ev + N);
  ms_timeline_layout_clear (&l);
  ms_test_canvas_free (&c);
}

/* Merged runs end where the lane has a gap of a few pixels or a bar a
 * pixel wide or more, also where whole blocks of the index are merged at
 * once: 20,000 sub-pixel bars, one wide bar at 10,000, a gap after 15,000. */
static void
test_timeline_merge_stops (void)
{
  enum { N = 20000 };
  g_autofree MsEvent *ev = dense_events (N, 0, 0.1, 0.1);
  ev[10000].gpu_us = 200;
  for (int i = 15001; i < N; i++)
    ev[i].gpu_start_us += 100;
  MsTestCanvas c = ms_test_canvas_new (W, H);
  MsTimeWindow win;
  MsTimelineLayout l;
  draw_whole_timeline (&c, ev, N, &win, &l);
  const MsTimelineBar *gpu[8];
  guint n = 0;
  for (guint i = 0; i < l.bars->len && n < G_N_ELEMENTS (gpu); i++)
    if (!g_array_index (l.bars, MsTimelineBar, i).host_part)
      gpu[n++] = &g_array_index (l.bars, MsTimelineBar, i);
  g_assert_cmpuint (n, ==, 4);
  double px_us = l.plot_w / win.total_us;
  /* Events 0..9999, the wide one, 10,001..15,000 up to the gap, the rest;
   * each merged bar names its first H2D event. */
  g_assert_true (gpu[0]->event == &ev[0]);
  g_assert_cmpfloat_with_epsilon (gpu[0]->x + gpu[0]->w, l.plot_x + 9999 * 0.1 * px_us + 1.5,
                                  1e-6);
  g_assert_true (gpu[1]->event == &ev[10000]);
  g_assert_cmpfloat_with_epsilon (gpu[1]->w, 200 * px_us, 1e-6);
  g_assert_true (gpu[2]->event == &ev[10002]); /* 10,001 is a kernel */
  g_assert_cmpfloat_with_epsilon (gpu[2]->x + gpu[2]->w, l.plot_x + 15000 * 0.1 * px_us + 1.5,
                                  1e-6);
  g_assert_true (gpu[3]->event == &ev[15001]);
  g_assert_cmpfloat_with_epsilon (gpu[3]->x + gpu[3]->w,
                                  l.plot_x + (19999 * 0.1 + 100) * px_us + 1.5, 1e-6);
  ms_timeline_layout_clear (&l);
  ms_test_canvas_free (&c);
}

static void
test_timeline_index_follows_cell (void)
{
  /* Two repetitions; a window of the second shows its events only, and
   * the kept index notices another repetition and a cell rewritten in
   * place. */
  enum { N = 200 };
  MsEvent *ev = g_new0 (MsEvent, 2 * N);
  MsEvent *first = dense_events (N, 0, 5, 10), *second = dense_events (N, 1, 5, 10);
  memcpy (ev, first, N * sizeof *ev);
  memcpy (ev + N, second, N * sizeof *ev);
  g_free (first);
  g_free (second);
  MsCell cell = { .mode = MS_MODE_STREAMS, .exponent = 20, .elements = 1 << 20, .n_reps = 2,
                  .events = ev, .n_events = 2 * N };
  MsTestCanvas c = ms_test_canvas_new (W, H);
  MsChartStyle st;
  ms_chart_style_init_light (&st);
  MsTimeWindow win;
  ms_time_window_reset (&win, ms_timeline_extent (&cell, 1));
  ms_time_window_zoom (&win, 10, 1000); /* 200 µs around 1000 µs */
  MsTimelineLayout l;
  ms_timeline_layout_init (&l);
  ms_timeline_draw (c.cr, &cell, 1, &win, &st, W, H, NULL, &l);
  guint shown = l.bars->len;
  g_assert_cmpuint (shown, >, 10);
  g_assert_cmpuint (shown, <, N);
  for (guint i = 0; i < l.bars->len; i++) {
    const MsTimelineBar *b = &g_array_index (l.bars, MsTimelineBar, i);
    g_assert_cmpint (b->event->rep, ==, 1);
    g_assert_cmpfloat (b->x + b->w, >=, l.plot_x);
    g_assert_cmpfloat (b->x, <=, l.plot_x + l.plot_w);
  }
  ms_timeline_draw (c.cr, &cell, 0, &win, &st, W, H, NULL, &l);
  g_assert_cmpint (g_array_index (l.bars, MsTimelineBar, 0).event->rep, ==, 0);
  /* An event without a finite start (a damaged file) draws no bar. An
   * edit in place that the kept copies of a few events cannot see needs
   * ms_timeline_layout_forget_cell. */
  ev[100].host_start_us = ev[100].gpu_start_us = NAN;
  ms_timeline_layout_forget_cell (&l);
  ms_timeline_draw (c.cr, &cell, 0, &win, &st, W, H, NULL, &l);
  for (guint i = 0; i < l.bars->len; i++)
    g_assert_true (g_array_index (l.bars, MsTimelineBar, i).event != &ev[100]);
  /* Rewritten in place: repetition 0 moves to lane 2. */
  for (int i = 0; i < 2 * N; i++)
    ev[i].lane = 2;
  ms_timeline_draw (c.cr, &cell, 0, &win, &st, W, H, NULL, &l);
  /* Three lanes now (host, two streams): a stale index would keep two and
   * put the bar below the plot. */
  double lane_h = l.plot_h / 3;
  const MsTimelineBar *b = &g_array_index (l.bars, MsTimelineBar, 0);
  g_assert_cmpfloat (b->y, >, l.plot_y + 2 * lane_h - 1);
  g_assert_cmpfloat (b->y + b->h, <=, l.plot_y + l.plot_h + 0.01);
  ms_timeline_layout_clear (&l);
  ms_test_canvas_free (&c);
  g_free (ev);
}

static void
test_breakdown (void)
{
  /* Two runs compared: a row per (run, mode). */
  const char *files[] = { "h100-default-samples.csv.gz", "h200-default-samples.csv.gz" };
  g_autoptr (GPtrArray) runs = g_ptr_array_new_with_free_func ((GDestroyNotify) ms_results_free);
  for (guint i = 0; i < G_N_ELEMENTS (files); i++) {
    g_autofree char *path = g_build_filename (MS_SOURCE_REFERENCE_DIR, files[i], NULL);
    char err[256];
    MsResults *run = ms_run_read_samples (path, err, sizeof err);
    g_assert_nonnull (run);
    g_ptr_array_add (runs, run);
  }
  MsTestCanvas c = ms_test_canvas_new (W, H);
  MsChartStyle st;
  ms_chart_style_init_light (&st);
  MsColor h2d;
  ms_phase_color (MS_PHASE_H2D, FALSE, &h2d);
  ms_breakdown_draw_full (c.cr, runs, 20, FALSE, &st, W, H);
  g_assert_true (any_color (&c, 0, 40, W, H, &h2d));
  /* No cells at this size: a message, no bars. */
  ms_breakdown_draw_full (c.cr, runs, 40, FALSE, &st, W, H);
  g_assert_false (any_color (&c, 0, 0, W, H, &h2d));
  ms_test_canvas_free (&c);
}

static MsResults *
read_reference (const char *name)
{
  g_autofree char *path = g_build_filename (MS_SOURCE_REFERENCE_DIR, name, NULL);
  char err[256];
  MsResults *run = ms_run_read_samples (path, err, sizeof err);
  g_assert_nonnull (run);
  return run;
}

/* The Time view's value for (mode, bytes per vector), from its chart. */
static gboolean
time_view_value (const MsChartData *d, const char *label, double bytes, double *y)
{
  for (guint i = 0; i < d->series->len; i++) {
    const MsChartSeries *s = g_ptr_array_index (d->series, i);
    for (guint k = 0; g_strcmp0 (s->label, label) == 0 && k < s->points->len; k++) {
      const MsChartPoint *pt = &g_array_index (s->points, MsChartPoint, k);
      if (pt->x == bytes && !pt->failed) {
        *y = pt->y;
        return TRUE;
      }
    }
  }
  return FALSE;
}

/* For every cell of every bundled reference run that the Time view plots,
 * the Breakdown's default bar (its segments as drawn, the rest included)
 * adds up to the Time view's median end-to-end time. */
static void
test_breakdown_total_is_time_view (void)
{
  g_autoptr (GDir) dir = g_dir_open (MS_SOURCE_REFERENCE_DIR, 0, NULL);
  g_assert_nonnull (dir);
  const char *name;
  guint checked = 0;
  while ((name = g_dir_read_name (dir))) {
    if (!g_str_has_suffix (name, "-samples.csv.gz"))
      continue;
    g_autoptr (GPtrArray) runs = g_ptr_array_new_with_free_func ((GDestroyNotify) ms_results_free);
    g_ptr_array_add (runs, read_reference (name));
    const MsResults *run = g_ptr_array_index (runs, 0);
    g_autoptr (MsChartData) time = ms_plot_build (runs, MS_METRIC_E2E_TIME, TRUE, NULL);
    for (int m = 0; m < MS_MODE_COUNT; m++)
      for (int e = MS_MIN_EXPONENT; e <= MS_MAX_EXPONENT; e++) {
        const MsCell *c = ms_results_find (run, m, e);
        g_autofree char *label = ms_plot_series_label (run, m, FALSE);
        double y;
        if (!c || !time_view_value (time, label, c->elements * sizeof (float), &y))
          continue;
        MsBreakdownPath path;
        g_assert_true (ms_breakdown_path (c, &path));
        double drawn = path.rest;
        for (int p = 0; p < MS_PHASE_COUNT; p++) {
          g_assert_true (path.phase[p] == 0 || !ms_breakdown_phase_is_one_time (p));
          drawn += path.phase[p];
        }
        if (fabs (drawn - y) > 1e-9 * y)
          g_error ("%s: %s at 2^%d: breakdown %.3f µs, time view %.3f µs", name,
                   ms_mode_name (m), e, drawn, y);
        checked++;
      }
  }
  g_assert_cmpuint (checked, >, 100);
}

/* Two modes of one run within 1 % at every size: the later one's name
 * (legend and line end) says whose values it has; the label, the key for
 * hiding, stays the mode's. The reference run's own zero-copy and UVA
 * part further than that somewhere, and are named plainly. */
static void
test_plot_names_coinciding (void)
{
  g_autoptr (GPtrArray) runs = g_ptr_array_new_with_free_func ((GDestroyNotify) ms_results_free);
  g_ptr_array_add (runs, read_reference ("h100-default-samples.csv.gz"));
  MsResults *run = g_ptr_array_index (runs, 0);
  g_autofree char *uva = ms_plot_series_label (run, MS_MODE_UVA, FALSE);
  for (int pass = 0; pass < 2; pass++) {
    g_autoptr (MsChartData) d = ms_plot_build (runs, MS_METRIC_E2E_BANDWIDTH, TRUE, NULL);
    const MsChartSeries *u = NULL;
    for (guint i = 0; i < d->series->len; i++) {
      const MsChartSeries *s = g_ptr_array_index (d->series, i);
      if (g_str_equal (s->label, uva))
        u = s;
    }
    g_assert_nonnull (u);
    if (pass == 0) {
      g_assert_null (u->shown_name);
      /* UVA takes zero-copy's values: one line. */
      for (size_t i = 0; i < run->n_cells; i++) {
        MsCell *c = &run->cells[i];
        const MsCell *z = c->mode == MS_MODE_UVA
                            ? ms_results_find (run, MS_MODE_ZERO_COPY, c->exponent)
                            : NULL;
        if (z)
          c->stats = z->stats;
      }
    } else {
      g_assert_nonnull (u->shown_name);
      g_assert_nonnull (strstr (u->shown_name, ms_mode_title (MS_MODE_ZERO_COPY)));
    }
  }
}

/* The lesson at 4 MiB: pinned's bar is shorter than pageable's. */
static void
test_breakdown_pinned_beats_pageable (void)
{
  MsResults *run = read_reference ("h100-default-samples.csv.gz");
  MsBreakdownPath pinned, pageable;
  g_assert_true (ms_breakdown_path (ms_results_find (run, MS_MODE_PINNED, 20), &pinned));
  g_assert_true (ms_breakdown_path (ms_results_find (run, MS_MODE_PAGEABLE, 20), &pageable));
  g_assert_cmpfloat (pinned.total * 3, <, pageable.total);
  ms_results_free (run);
}

/* A bar's worth of pixels (not a few anti-aliased edges) of colour col in
 * the band y0..y1 right of x0. */
static gboolean
band_has_color (MsTestCanvas *c, int x0, int y0, int y1, const MsColor *col)
{
  double rgb[3];
  int n = 0;
  for (int y = y0; y < y1; y++)
    for (int x = x0; x < c->w; x++) {
      pixel (c, x, y, rgb);
      n += near_color (rgb, col, 0.08);
    }
  return n > 300;
}

/* At 1600x1000, as `plot` draws it, the rows share the height: the last
 * row (Host CPU's kernel) lies in the lower part, not the top 40 %. With
 * one-time costs shown, their group appears (init) beside the path. */
static void
test_breakdown_fills_canvas (void)
{
  g_autoptr (GPtrArray) runs = g_ptr_array_new_with_free_func ((GDestroyNotify) ms_results_free);
  g_ptr_array_add (runs, read_reference ("h100-default-samples.csv.gz"));
  MsTestCanvas c = ms_test_canvas_new (1600, 1000);
  MsChartStyle st;
  ms_chart_style_init_light (&st);
  MsColor kernel, init;
  ms_phase_color (MS_PHASE_KERNEL, FALSE, &kernel);
  ms_phase_color (MS_PHASE_INIT, FALSE, &init);
  ms_breakdown_draw_full (c.cr, runs, 20, FALSE, &st, 1600, 1000);
  g_assert_true (band_has_color (&c, 150, 700, 880, &kernel));
  /* One-time costs are not in the default picture. */
  g_assert_false (band_has_color (&c, 150, 0, 880, &init));
  ms_breakdown_draw_full (c.cr, runs, 20, TRUE, &st, 1600, 1000);
  g_assert_true (band_has_color (&c, 800, 0, 880, &init));
  ms_test_canvas_free (&c);
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
  g_autoptr (MsChartData) d = one_series (1);
  const char *names[] = { "c.png", "c.svg", "c.pdf" };
  const char *magic[] = { "\x89PNG", "<?xml", "%PDF" };
  for (int i = 0; i < 3; i++) {
    const char *path = ms_test_tmp_path (names[i]);
    g_autoptr (GError) error = NULL;
    g_assert_true (ms_export_drawing (path, 640, 400, draw_chart, d, &error));
    g_autofree char *contents = NULL;
    gsize len;
    g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
    g_assert_cmpuint (len, >, 500);
    g_assert_true (g_str_has_prefix (contents, magic[i]));
  }
  g_autoptr (GError) error = NULL;
  g_assert_false (ms_export_drawing ("/nonexistent-folder/c.png", 640, 400, draw_chart, d, &error));
  g_assert_nonnull (strstr (error->message, "/nonexistent-folder/c.png"));
  g_clear_error (&error);
  const char *bad = ms_test_tmp_path ("c.bmp");
  g_assert_false (ms_export_drawing (bad, 640, 400, draw_chart, d, &error));
}

/* A bar that begins left of the view (zoomed in) has its label on its part in view: centred on
 * the whole, "h2d 2 MiB · 53.8 µs" was cut at the edge and read "3.8 µs". */
static void
test_bar_label_in_view (void)
{
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_RGB24, 800, 100);
  cairo_t *cr = cairo_create (s);
  MsEvent ev = { .phase = MS_PHASE_H2D, .lane = 1, .gpu_start_us = 0, .gpu_us = 53.8,
                 .host_us = 1, .bytes = 2 << 20 };
  MsTimelineBar bar = { -300, 20, 700, 30, &ev, FALSE };
  g_autoptr (GArray) bars = g_array_new (FALSE, FALSE, sizeof (MsTimelineBar));
  g_array_append_val (bars, bar);
  g_autoptr (GArray) placed = ms_timeline_labels_place (cr, bars, bars, 0, 800, 14, 0, NULL);
  g_assert_cmpuint (placed->len, ==, 1);
  const MsBarLabel *l = &g_array_index (placed, MsBarLabel, 0);
  g_assert_true (l->on_bar);
  g_assert_cmpfloat (l->x, >=, 0);
  g_assert_cmpfloat (l->x + l->w, <=, 400);
  cairo_destroy (cr);
  cairo_surface_destroy (s);
}

static void
draw_nothing (cairo_t *cr, double w, double h, gpointer data)
{
}

static void
record_line (const char *text, double x, double y, double w, double h, gpointer data)
{
  if (y > 400 * 2.0 / 3 - 1)
    g_ptr_array_add (data, g_strdup (text));
}

/* A caption taller than a third of the picture (three runs' lines and the settings) is drawn
 * smaller and cut with a line saying how many more: it went whole, though asked for. */
static void
test_caption_kept (void)
{
  g_autoptr (GString) caption = g_string_new (NULL);
  for (int i = 0; i < 30; i++)
    g_string_append_printf (caption, "%sRun %d · NVIDIA H100 80GB HBM3 · sweep · 2026-11-24",
                            i ? "\n" : "", i);
  MsExportOptions options = { caption->str };
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_RGB24, 640, 400);
  cairo_t *cr = cairo_create (s);
  g_autoptr (GPtrArray) lines = g_ptr_array_new_with_free_func (g_free);
  ms_draw_set_text_recorder (record_line, lines);
  ms_export_draw_captioned (cr, 640, 400, draw_nothing, NULL, &options);
  ms_draw_set_text_recorder (NULL, NULL);
  cairo_destroy (cr);
  cairo_surface_destroy (s);
  /* Every line in the lowest third: the first ones whole, then how many more. */
  g_assert_cmpuint (lines->len, >=, 2);
  g_assert_cmpstr (lines->pdata[0], ==, "Run 0 · NVIDIA H100 80GB HBM3 · sweep · 2026-11-24");
  guint kept = lines->len - 1, more = 0;
  g_assert_cmpint (sscanf (lines->pdata[kept], "… and %u more lines", &more), ==, 1);
  g_assert_cmpuint (kept + more, ==, 30);
}

/* Every phase a timeline lane or the breakdown can show has a colour of its
 * own, in light and dark (launch and kernel once shared one). */
static void
test_phase_colours_distinct (void)
{
  for (int dark = 0; dark <= 1; dark++)
    for (int p = 0; p < MS_PHASE_COUNT; p++)
      for (int q = p + 1; q < MS_PHASE_COUNT; q++) {
        MsColor a, b;
        ms_phase_color (p, dark, &a);
        ms_phase_color (q, dark, &b);
        double d = fabs (a.red - b.red) + fabs (a.green - b.green) + fabs (a.blue - b.blue);
        if (d < 0.1)
          g_error ("%s and %s share a colour (dark %d)", ms_phase_name (p), ms_phase_name (q),
                   dark);
      }
}

/* Eight runs overlaid get eight marker fills (issue 21: the fourth run
 * repeated the first), each telling itself apart from every other at the
 * size markers are drawn, in every shape: many pixels differ between any
 * two. */
static void
test_run_fills_distinct (void)
{
  enum { S = 24 };
  MsChartStyle st;
  ms_chart_style_init_light (&st);
  const double r = ms_style_marker_radius (&st), lw = ms_style_line_width (&st) * 0.8;
  for (guint run = 0; run < MS_RUN_STYLES; run++) {
    g_assert_cmpint (ms_run_fill (run), ==, run);
    g_assert_cmpint (ms_run_fill (run + MS_RUN_STYLES), ==, ms_run_fill (run));
  }
  for (guint shape = 0; shape < MS_MARKER_SHAPES; shape++) {
    guint8 ink[MS_RUN_STYLES][S * S];
    for (guint f = 0; f < MS_RUN_STYLES; f++) {
      MsTestCanvas c = ms_test_canvas_new (S, S);
      cairo_set_source_rgb (c.cr, 0, 0, 0);
      const double at[2] = { S / 2.0, S / 2.0 };
      ms_draw_markers (c.cr, shape, f, at, 1, r, lw, NULL);
      cairo_surface_flush (c.surface);
      const guint8 *data = cairo_image_surface_get_data (c.surface);
      int stride = cairo_image_surface_get_stride (c.surface);
      for (int y = 0; y < S; y++)
        for (int x = 0; x < S; x++)
          ink[f][y * S + x] = data[y * stride + x * 4 + 3]; /* alpha: the ink */
      ms_test_canvas_free (&c);
    }
    for (guint a = 0; a < MS_RUN_STYLES; a++)
      for (guint b = a + 1; b < MS_RUN_STYLES; b++) {
        guint differ = 0;
        for (int i = 0; i < S * S; i++)
          differ += abs (ink[a][i] - ink[b][i]) > 96;
        if (differ < 8)
          g_error ("shape %u: fills %u and %u differ in %u pixels only", shape, a, b, differ);
      }
  }
}

/* Whether any pixel of rows y0..y1 has ink (alpha). */
static gboolean
band_has_ink (cairo_surface_t *s, int y0, int y1)
{
  cairo_surface_flush (s);
  const unsigned char *data = cairo_image_surface_get_data (s);
  int stride = cairo_image_surface_get_stride (s), width = cairo_image_surface_get_width (s);
  for (int y = y0; y < y1; y++)
    for (int x = 0; x < width; x++)
      if (data[y * stride + 4 * x + 3])
        return TRUE;
  return FALSE;
}

/* Between ms_draw_text_only_begin and _end only text lands: a faded
 * lesson picture is drawn again so, its words over its faded marks. */
static void
test_text_only (void)
{
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 240, 80);
  cairo_t *cr = cairo_create (s);
  ms_draw_text_only_begin (cr);
  cairo_set_source_rgb (cr, 0, 0, 0);
  cairo_rectangle (cr, 0, 0, 240, 30);
  cairo_fill (cr);
  cairo_save (cr);
  cairo_rectangle (cr, 0, 0, 10, 10);
  cairo_clip (cr);
  ms_draw_text (cr, "Words", 10, 40, 20, 0, 0, TRUE, NULL, NULL);
  cairo_restore (cr);
  ms_draw_text_only_end (cr);
  g_assert_false (band_has_ink (s, 0, 30));
  g_assert_true (band_has_ink (s, 38, 80));
  /* After the pass, drawing is whole again. */
  cairo_rectangle (cr, 0, 0, 240, 30);
  cairo_fill (cr);
  g_assert_true (band_has_ink (s, 0, 30));
  g_assert_false (ms_draw_has_text_sink (cr));
  cairo_destroy (cr);
  cairo_surface_destroy (s);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/render/series-at-point", test_series_at_its_point);
  g_test_add_func ("/render/text-only", test_text_only);
  g_test_add_func ("/render/phase-colours-distinct", test_phase_colours_distinct);
  g_test_add_func ("/render/run-fills-distinct", test_run_fills_distinct);
  g_test_add_func ("/render/nothing-outside-plot", test_nothing_outside_plot);
  g_test_add_func ("/render/dark-background", test_dark_background);
  g_test_add_func ("/render/hidden-and-failed", test_hidden_and_failed);
  g_test_add_func ("/render/timeline-bars", test_timeline_bars);
  g_test_add_func ("/render/grid-and-frame-as-strokes", test_grid_and_frame_as_strokes);
  g_test_add_func ("/render/time-axis", test_time_axis);
  g_test_add_func ("/render/timeline-merges-subpixel-bars", test_timeline_merges_subpixel_bars);
  g_test_add_func ("/render/timeline-merge-stops", test_timeline_merge_stops);
  g_test_add_func ("/render/timeline-index-follows-cell", test_timeline_index_follows_cell);
  g_test_add_func ("/render/breakdown", test_breakdown);
  g_test_add_func ("/render/breakdown-total-is-time-view", test_breakdown_total_is_time_view);
  g_test_add_func ("/render/breakdown-pinned-beats-pageable", test_breakdown_pinned_beats_pageable);
  g_test_add_func ("/render/breakdown-fills-canvas", test_breakdown_fills_canvas);
  g_test_add_func ("/render/exports", test_exports);
  g_test_add_func ("/render/caption-kept", test_caption_kept);
  g_test_add_func ("/render/bar-label-in-view", test_bar_label_in_view);
  g_test_add_func ("/render/plot-names-coinciding", test_plot_names_coinciding);
  return g_test_run ();
}
