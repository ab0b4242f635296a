/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-scale.c: axes, ticks, value <-> pixel, the timeline window and
 * legend hit testing, with no display. */
#include <math.h>

#include "lessons/ms-run-read.h"
#include "model/ms-results.h"
#include "ms-chart.h"
#include "ms-plots.h"
#include "ms-reference-test.h"
#include "ms-scale.h"
#include "ms-timeline.h"

static void
test_log2_axis (void)
{
  MsScale s = { 0 };
  ms_scale_fit (&s, MS_SCALE_LOG2, 4096, 4 << 20);
  s.pixel_lo = 100;
  s.pixel_hi = 1100;
  MsTick ticks[32];
  guint n = ms_scale_ticks (&s, ticks, 32);
  g_assert_cmpuint (n, ==, 11);
  g_assert_cmpstr (ticks[0].label, ==, "4 KiB");
  g_assert_cmpstr (ticks[10].label, ==, "4 MiB");
  /* Half a step of margin: the first size is inside the frame. */
  double p0 = ms_scale_to_pixel (&s, 4096), p1 = ms_scale_to_pixel (&s, 8192);
  g_assert_cmpfloat (p0, >, 100);
  g_assert_cmpfloat_with_epsilon (p1 - p0, 1000.0 / 11, 1e-9);
  /* Too many to label: every second one. */
  n = ms_scale_ticks (&s, ticks, 6);
  g_assert_cmpuint (n, ==, 6);
  g_assert_cmpstr (ticks[1].label, ==, "16 KiB");
}

static void
test_linear_and_log10 (void)
{
  MsScale s = { 0 };
  ms_scale_fit (&s, MS_SCALE_LINEAR, 3.2, 47.9);
  g_assert_cmpfloat (s.min, ==, 0);
  g_assert_cmpfloat (s.max, >=, 47.9);
  s.pixel_lo = 500;
  s.pixel_hi = 0; /* y grows downwards */
  g_assert_cmpfloat_with_epsilon (ms_scale_to_pixel (&s, 0), 500, 1e-9);
  MsTick ticks[16];
  guint n = ms_scale_ticks (&s, ticks, 16);
  g_assert_cmpuint (n, >=, 3);
  g_assert_cmpstr (ticks[0].label, ==, "0");
  ms_scale_fit (&s, MS_SCALE_LOG10, 0.07, 750);
  g_assert_cmpfloat_with_epsilon (s.min, 0.01, 1e-12);
  g_assert_cmpfloat_with_epsilon (s.max, 1000, 1e-9);
  n = ms_scale_ticks (&s, ticks, 16);
  g_assert_cmpuint (n, ==, 6);
  g_assert_cmpstr (ticks[5].label, ==, "1000");
  /* A tight fit ends on round values with room beyond the data, and a
   * range under a decade gets ticks to read by (the intensity lesson's
   * 0.66 to 1: 0.6 to 1.2, ticks 0.6, 0.8, 1, 1.2: a range around 1 is
   * read on both sides of it). */
  ms_scale_fit_tight (&s, MS_SCALE_LOG10, 0.66, 1);
  g_assert_cmpfloat_with_epsilon (s.min, 0.6, 1e-12);
  g_assert_cmpfloat_with_epsilon (s.max, 1.2, 1e-12);
  n = ms_scale_ticks (&s, ticks, 16);
  g_assert_cmpuint (n, ==, 4);
  g_assert_cmpstr (ticks[0].label, ==, "0.6");
  g_assert_cmpstr (ticks[2].label, ==, "1");
  g_assert_cmpstr (ticks[3].label, ==, "1.2");
  /* A decade and a half: 1-2-5, every tick inside the range. */
  ms_scale_fit_tight (&s, MS_SCALE_LOG10, 1, 15);
  n = ms_scale_ticks (&s, ticks, 16);
  g_assert_cmpuint (n, ==, 5);
  g_assert_cmpstr (ticks[0].label, ==, "1");
  g_assert_cmpstr (ticks[1].label, ==, "2");
  g_assert_cmpstr (ticks[2].label, ==, "5");
  for (guint i = 0; i < n; i++)
    g_assert_true (ms_scale_contains (&s, ticks[i].value));
  /* On a short axis the ends widen until the values clear the frame by
   * the pixels asked for; a tall one keeps its tight range. */
  ms_scale_fit_tight (&s, MS_SCALE_LOG10, 1, 124);
  s.pixel_lo = 160, s.pixel_hi = 0;
  ms_scale_keep_clear (&s, 1, 124, 160, 14, 9);
  g_assert_cmpfloat (ms_scale_to_pixel (&s, 1), <=, 160 - 14);
  g_assert_cmpfloat (ms_scale_to_pixel (&s, 124), >=, 9);
  ms_scale_fit_tight (&s, MS_SCALE_LOG10, 1, 124);
  double min = s.min, max = s.max;
  ms_scale_keep_clear (&s, 1, 124, 2000, 14, 9);
  g_assert_cmpfloat (s.min, ==, min);
  g_assert_cmpfloat (s.max, ==, max);
  /* Nonsense ranges fall back to something drawable. */
  ms_scale_fit (&s, MS_SCALE_LOG10, NAN, INFINITY);
  g_assert_cmpfloat (s.max, >, s.min);
  char buf[32];
  ms_format_size_label (1536, buf, sizeof buf);
  g_assert_cmpstr (buf, ==, "1.5 KiB");
}

static void
test_time_window (void)
{
  MsTimeWindow w;
  ms_time_window_reset (&w, 1000);
  ms_time_window_zoom (&w, 4, 500);
  g_assert_cmpfloat_with_epsilon (w.t0, 375, 1e-9);
  g_assert_cmpfloat_with_epsilon (w.t1, 625, 1e-9);
  ms_time_window_pan (&w, -1000); /* stops at the start */
  g_assert_cmpfloat (w.t0, ==, 0);
  g_assert_cmpfloat_with_epsilon (w.t1, 250, 1e-9);
  ms_time_window_zoom (&w, 1e-6, 0); /* zooming out stops at the data */
  g_assert_cmpfloat (w.t1 - w.t0, <=, 1050 + 1e-9);
  ms_time_window_zoom (&w, 1e12, 10); /* and in at 50 ns */
  g_assert_cmpfloat_with_epsilon (w.t1 - w.t0, 0.05, 1e-9);
}

static void
test_legend_hit (void)
{
  g_autoptr (MsChartData) d = ms_chart_data_new ();
  MsChartSeries *a = ms_chart_data_add_series (d, "Pinned", 1, 0, 0);
  MsChartSeries *b = ms_chart_data_add_series (d, "Pageable", 0, 0, 0);
  for (int e = 10; e <= 20; e++) {
    ms_chart_series_add (a, (1 << e) * 4.0, e, 1, 0, FALSE);
    ms_chart_series_add (b, (1 << e) * 4.0, e / 2.0, 1, 0, FALSE);
  }
  MsChartStyle st;
  ms_chart_style_init_light (&st);
  cairo_surface_t *surf = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 800, 500);
  cairo_t *cr = cairo_create (surf);
  MsChartLayout l;
  ms_chart_layout_init (&l);
  ms_chart_draw (cr, d, &st, 800, 500, -1, &l);
  g_assert_cmpuint (l.legend->len, ==, 2);
  const MsChartBox *box = &g_array_index (l.legend, MsChartBox, 1);
  g_assert_cmpint (ms_chart_layout_hit_legend (&l, box->x + 2, box->y + box->h / 2), ==, 1);
  g_assert_cmpint (ms_chart_layout_hit_legend (&l, 5, 5), ==, -1);
  g_assert_true (ms_chart_layout_in_plot (&l, l.plot_x + 1, l.plot_y + 1));
  g_assert_false (ms_chart_layout_in_plot (&l, l.plot_x - 1, l.plot_y + 1));
  g_assert_cmpfloat (l.plot_x + l.plot_w, <, box->x);
  ms_chart_layout_clear (&l);
  cairo_destroy (cr);
  cairo_surface_destroy (surf);
}

static void
test_plot_from_results (void)
{
  char err[256];
  MsResults *r = ms_run_read_samples (MS_SOURCE_REFERENCE_DIR "/h100-default-samples.csv.gz", err,
                                      sizeof err);
  g_assert_nonnull (r);
  g_autoptr (GPtrArray) runs = g_ptr_array_new ();
  g_ptr_array_add (runs, r);
  g_autoptr (MsChartData) d = ms_plot_build (runs, MS_METRIC_H2D_BANDWIDTH, FALSE, NULL);
  /* Modes without an h2d phase are not in the copy chart. */
  for (guint i = 0; i < d->series->len; i++) {
    MsChartSeries *s = g_ptr_array_index (d->series, i);
    g_assert_cmpstr (s->label, !=, "Zero-copy");
    g_assert_cmpuint (s->points->len, ==, 11);
  }
  g_assert_cmpuint (d->refs->len, ==, 2); /* PCIe and best pinned */
  /* Best pinned says which figure it is: on the copy chart the copies'
   * rate, the one the pinned lesson and the report quote; end to end the
   * vector add's rate, which is lower. */
  double h2d = 0, e2e = 0;
  for (size_t i = 0; i < r->n_cells; i++)
    if (r->cells[i].mode == MS_MODE_PINNED && r->cells[i].status == MS_CELL_OK) {
      h2d = MAX (h2d, r->cells[i].stats.h2d_gbps);
      e2e = MAX (e2e, r->cells[i].stats.e2e_gbps);
    }
  const MsChartRefLine *best = &g_array_index (d->refs, MsChartRefLine, 1);
  g_assert_cmpfloat_with_epsilon (best->y, h2d, 1e-9);
  g_assert_nonnull (strstr (best->label, "the Pinned mode's best copy to the device"));
  g_assert_nonnull (strstr (best->label, "(median at 4\u00a0MiB)"));
  g_autoptr (MsChartData) e2e_chart = ms_plot_build (runs, MS_METRIC_E2E_BANDWIDTH, FALSE, NULL);
  best = &g_array_index (e2e_chart->refs, MsChartRefLine, 1);
  g_assert_cmpfloat_with_epsilon (best->y, e2e, 1e-9);
  g_assert_cmpfloat (best->y, <, h2d);
  g_assert_nonnull (strstr (best->label, "the Pinned mode's best end to end"));
  g_assert_nonnull (strstr (best->label, "copies and kernel"));
  g_autoptr (GHashTable) hidden = g_hash_table_new (g_str_hash, g_str_equal);
  g_hash_table_add (hidden, (gpointer) "Pinned");
  g_autoptr (MsChartData) e = ms_plot_build (runs, MS_METRIC_E2E_BANDWIDTH, TRUE, hidden);
  g_assert_cmpuint (e->series->len, ==, ms_test_n_modes (r));
  for (guint i = 0; i < e->series->len; i++) {
    const MsChartSeries *s = g_ptr_array_index (e->series, i);
    g_assert_true (s->hidden == (strcmp (s->label, "Pinned") == 0));
  }
  /* Two runs: labels name the run. */
  g_ptr_array_add (runs, r);
  g_autoptr (MsChartData) c = ms_plot_build (runs, MS_METRIC_E2E_TIME, FALSE, NULL);
  g_assert_nonnull (strstr (((MsChartSeries *) g_ptr_array_index (c->series, 0))->label, "H100"));
  /* A run the user named (the window names every run) shows by that name. */
  g_strlcpy (r->label, "before the driver update", sizeof r->label);
  g_autoptr (MsChartData) named = ms_plot_build (runs, MS_METRIC_E2E_TIME, FALSE, NULL);
  gboolean found = FALSE;
  for (guint i = 0; i < named->series->len; i++)
    found = found || strstr (((MsChartSeries *) g_ptr_array_index (named->series, i))->label,
                             "before the driver update") != NULL;
  g_assert_true (found);
  ms_results_free (r);
}

/* One precision everywhere, and times in the unit that reads: no
 * "1000000 µs" axis, no "495330.11 µs" read-out. */
static void
test_units (void)
{
  char buf[48];
  const struct {
    double v;
    const char *text;
  } values[] = { { 495330.11, "495000" }, { 12.345, "12.3" }, { 0.25, "0.25" },
                 { 1500, "1500" },        { 99.96, "100" },   { 0, "0" } };
  for (guint i = 0; i < G_N_ELEMENTS (values); i++) {
    ms_format_value (values[i].v, buf, sizeof buf);
    g_assert_cmpstr (buf, ==, values[i].text);
  }
  const struct {
    double us;
    const char *text;
  } times[] = { { 495330.11, "495 ms" }, { 3.2, "3.2 µs" }, { 999.7, "1 ms" },
                { 1.5e6, "1.5 s" },      { 12.34, "12.3 µs" } };
  for (guint i = 0; i < G_N_ELEMENTS (times); i++) {
    ms_format_time_us (times[i].us, buf, sizeof buf);
    g_assert_cmpstr (buf, ==, times[i].text);
  }
  /* A linear time axis up to 2 s counts in s, every tick with its unit. */
  MsScale s = { 0 };
  MsTick ticks[16];
  ms_scale_fit (&s, MS_SCALE_LINEAR, 0, 2e6);
  s.unit = MS_SCALE_TIME_US;
  guint n = ms_scale_ticks (&s, ticks, 16);
  g_assert_cmpuint (n, >=, 3);
  g_assert_cmpstr (ticks[0].label, ==, "0 s");
  g_assert_true (g_str_has_suffix (ticks[n - 1].label, " s"));
  g_assert_cmpfloat (ticks[n - 1].value, ==, 2e6);
  g_assert_cmpstr (ticks[n - 1].label, ==, "2 s");
  /* A log time axis labels each decade in its own unit. */
  ms_scale_fit (&s, MS_SCALE_LOG10, 1, 1e6);
  s.unit = MS_SCALE_TIME_US;
  n = ms_scale_ticks (&s, ticks, 16);
  g_assert_cmpuint (n, ==, 7);
  g_assert_cmpstr (ticks[0].label, ==, "1 µs");
  g_assert_cmpstr (ticks[3].label, ==, "1 ms");
  g_assert_cmpstr (ticks[6].label, ==, "1 s");
  /* Fewer labels than decades: every second one, the top one kept. */
  n = ms_scale_ticks (&s, ticks, 3);
  g_assert_cmpuint (n, <=, 3);
  g_assert_cmpstr (ticks[n - 1].label, ==, "1 s");
  /* The same for sizes: the largest is labelled whatever the count. */
  ms_scale_fit (&s, MS_SCALE_LOG2, 4096, 1 << 30);
  for (guint max = 2; max < 12; max++) {
    n = ms_scale_ticks (&s, ticks, max);
    g_assert_cmpuint (n, <=, max);
    g_assert_cmpstr (ticks[n - 1].label, ==, "1 GiB");
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/scale/log2", test_log2_axis);
  g_test_add_func ("/scale/linear-log10", test_linear_and_log10);
  g_test_add_func ("/scale/units", test_units);
  g_test_add_func ("/timeline/window", test_time_window);
  g_test_add_func ("/chart/legend-hit", test_legend_hit);
  g_test_add_func ("/plot/from-results", test_plot_from_results);
  return g_test_run ();
}
