/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-widget-plot-view.c: MsPlotView's properties, drawing and legend. */
#include "ms-views.h"
#include "ms-widget-test.h"

static void
test_properties (void)
{
  GtkWidget *view = ms_plot_view_new (MS_METRIC_E2E_TIME);
  g_object_ref_sink (view);
  guint metric_n, log_n, text_n;
  ms_test_watch (view, "metric", &metric_n);
  ms_test_watch (view, "log-scale", &log_n);
  ms_test_watch (view, "text-scale", &text_n);
  int metric;
  g_object_get (view, "metric", &metric, NULL);
  g_assert_cmpint (metric, ==, MS_METRIC_E2E_TIME);

  g_object_set (view, "metric", MS_METRIC_H2D_BANDWIDTH, "log-scale", TRUE, "text-scale", 1.5,
                NULL);
  g_object_set (view, "metric", MS_METRIC_H2D_BANDWIDTH, "log-scale", TRUE, "text-scale", 1.5,
                NULL);
  g_assert_cmpuint (metric_n, ==, 1); /* a value set twice notifies once */
  g_assert_cmpuint (log_n, ==, 1);
  g_assert_cmpuint (text_n, ==, 1);
  g_assert_cmpint (ms_plot_view_get_metric (MS_PLOT_VIEW (view)), ==, MS_METRIC_H2D_BANDWIDTH);
  g_assert_true (ms_plot_view_get_log_scale (MS_PLOT_VIEW (view)));
  double text_scale;
  g_object_get (view, "text-scale", &text_scale, NULL);
  g_assert_cmpfloat (text_scale, ==, 1.5);
  g_assert_finalize_object (view);
}

/* Direct labels come on with presentation mode (high contrast) and go with
 * it, and can be set by hand in between; the planned sizes reach the chart
 * data as its fixed x range. */
static void
test_direct_labels_and_plan (void)
{
  GtkWidget *view = ms_plot_view_new (MS_METRIC_E2E_BANDWIDTH);
  g_object_ref_sink (view);
  MsPlotView *pv = MS_PLOT_VIEW (view);
  guint direct_n, plan_n;
  ms_test_watch (view, "direct-labels", &direct_n);
  ms_test_watch (view, "planned-max-exponent", &plan_n);
  g_assert_false (ms_plot_view_get_direct_labels (pv));
  g_object_set (view, "high-contrast", TRUE, NULL);
  g_assert_true (ms_plot_view_get_direct_labels (pv));
  g_assert_true (ms_plot_view_get_data (pv)->direct_labels);
  g_object_set (view, "direct-labels", FALSE, NULL);
  g_assert_false (ms_plot_view_get_data (pv)->direct_labels);
  g_object_set (view, "high-contrast", FALSE, NULL);
  g_assert_false (ms_plot_view_get_direct_labels (pv));
  g_assert_cmpuint (direct_n, ==, 2);

  g_assert_cmpfloat (ms_plot_view_get_data (pv)->x_min, ==, 0);
  ms_plot_view_set_planned_range (pv, 10, 24);
  ms_plot_view_set_planned_range (pv, 10, 24);
  g_assert_cmpuint (plan_n, ==, 1);
  g_assert_cmpfloat (ms_plot_view_get_data (pv)->x_min, ==, 4096);
  g_assert_cmpfloat (ms_plot_view_get_data (pv)->x_max, ==, 64 << 20);
  ms_plot_view_set_planned_range (pv, -1, -1);
  g_assert_cmpfloat (ms_plot_view_get_data (pv)->x_max, ==, 0);
  g_assert_finalize_object (view);
}

static void
test_runs_and_series (void)
{
  g_autoptr (GPtrArray) runs = ms_test_reference_runs ();
  MsPlotView *view = MS_PLOT_VIEW (ms_plot_view_new (MS_METRIC_E2E_BANDWIDTH));
  g_object_set (view, "runs", runs, NULL);
  const MsChartData *data = ms_plot_view_get_data (view);
  g_assert_cmpuint (data->series->len, ==, MS_MODE_COUNT);
  const MsChartSeries *first = g_ptr_array_index (data->series, 0);
  g_autofree char *label = g_strdup (first->label);
  ms_plot_view_set_series_hidden (view, label, TRUE);
  g_assert_true (ms_plot_view_get_series_hidden (view, label));
  first = g_ptr_array_index (ms_plot_view_get_data (view)->series, 0);
  g_assert_true (first->hidden);

  GtkWindow *window = ms_test_show (GTK_WIDGET (view), 900, 600);
  g_assert_cmpuint (ms_test_ink (GTK_WIDGET (view)), >, 20);
  /* The view holds its own reference to the runs. */
  GPtrArray *held = NULL;
  g_object_get (view, "runs", &held, NULL);
  g_assert_true (held == runs);
  g_ptr_array_unref (held);
  ms_test_destroy (window, GTK_WIDGET (view));
}

/* "modes": only the listed modes' series, in the legend too; NULL: all. */
static void
test_modes_filter (void)
{
  g_autoptr (GPtrArray) runs = ms_test_reference_runs ();
  MsPlotView *view = g_object_ref_sink (MS_PLOT_VIEW (ms_plot_view_new (MS_METRIC_H2D_BANDWIDTH)));
  g_object_set (view, "runs", runs, NULL);
  guint all = ms_plot_view_get_data (view)->series->len;
  g_assert_cmpuint (all, >, 2);
  guint notified;
  ms_test_watch (view, "modes", &notified);
  g_object_set (view, "modes", "pageable,pinned", NULL);
  g_assert_cmpuint (notified, ==, 1);
  const MsChartData *data = ms_plot_view_get_data (view);
  g_assert_cmpuint (data->series->len, ==, 2);
  for (guint i = 0; i < data->series->len; i++) {
    const MsChartSeries *s = g_ptr_array_index (data->series, i);
    g_assert_true (g_str_equal (s->short_label, ms_mode_title (MS_MODE_PAGEABLE)) ||
                   g_str_equal (s->short_label, ms_mode_title (MS_MODE_PINNED)));
  }
  g_object_set (view, "modes", "registered", NULL);
  g_assert_cmpuint (ms_plot_view_get_data (view)->series->len, ==, 1);
  /* A filter that leaves nothing of the open runs does not say "no results
   * yet" (zero-copy makes no copy to chart). */
  g_autofree char *no_runs = g_strdup (ms_plot_view_get_data (view)->empty_text);
  g_object_set (view, "modes", "zero-copy", NULL);
  data = ms_plot_view_get_data (view);
  g_assert_cmpuint (data->series->len, ==, 0);
  g_assert_nonnull (strstr (data->empty_text, "Show All"));
  g_assert_cmpstr (data->empty_text, !=, no_runs);
  /* "" is NULL: every mode again. */
  g_object_set (view, "modes", "", NULL);
  g_assert_null (ms_plot_view_get_modes (view));
  g_assert_cmpuint (ms_plot_view_get_data (view)->series->len, ==, all);
  g_assert_cmpuint (notified, ==, 4);
  g_object_unref (view);
}

static void
test_empty_draws (void)
{
  GtkWidget *view = ms_plot_view_new (MS_METRIC_E2E_BANDWIDTH);
  GtkWindow *window = ms_test_show (view, 400, 300);
  g_assert_cmpuint (ms_plot_view_get_data (MS_PLOT_VIEW (view))->series->len, ==, 0);
  g_assert_cmpuint (ms_test_ink (view), <, 100);
  g_assert_false (ms_plot_view_click (MS_PLOT_VIEW (view), 5, 5));
  ms_test_destroy (window, view);
}

int
main (int argc, char **argv)
{
  ms_widget_test_init (&argc, &argv);
  g_test_add_func ("/plot-view/properties", test_properties);
  g_test_add_func ("/plot-view/runs-and-series", test_runs_and_series);
  g_test_add_func ("/plot-view/direct-labels-and-plan", test_direct_labels_and_plan);
  g_test_add_func ("/plot-view/empty", test_empty_draws);
  g_test_add_func ("/plot-view/modes-filter", test_modes_filter);
  return g_test_run ();
}
