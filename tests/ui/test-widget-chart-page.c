/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-widget-chart-page.c: MsChartPage: its properties reach the chart and
 * the toolbar, and the toolbar reaches the properties. */
#include "ms-backend-test.h"
#include "ms-chart-page.h"
#include "ms-widget-test.h"
#include "ms-sweep-test.h"
#include "ms-modes.h"
#include "ms-plot-view.h"

/* A property's value, read as a test reads it. */
static int
prop_int (gpointer object, const char *name)
{
  int value;
  g_object_get (object, name, &value, NULL);
  return value;
}

static void
test_bandwidth (void)
{
  g_autoptr (GPtrArray) runs = ms_test_reference_runs ();
  MsChartPage *page = g_object_new (MS_TYPE_CHART_PAGE, NULL);
  MsPlotView *view = ms_chart_page_get_view (page);
  GtkDropDown *metric = GTK_DROP_DOWN (ms_test_find (GTK_WIDGET (page), GTK_TYPE_DROP_DOWN, NULL));
  GtkToggleButton *log =
    GTK_TOGGLE_BUTTON (ms_test_find (GTK_WIDGET (page), GTK_TYPE_TOGGLE_BUTTON, "_Log scale"));
  g_assert_nonnull (metric);
  g_assert_nonnull (log);
  ms_page_show_runs (MS_PAGE (page), runs);

  /* Log scale by default, in the page, its toggle and its chart. */
  gboolean log_scale;
  g_object_get (page, "log-scale", &log_scale, NULL);
  g_assert_true (log_scale);
  g_assert_true (gtk_toggle_button_get_active (log));
  g_assert_true (prop_int (view, "log-scale"));
  guint log_n, metric_n;
  ms_test_watch (page, "log-scale", &log_n);
  ms_test_watch (page, "metric", &metric_n);
  gtk_toggle_button_set_active (log, FALSE);
  g_assert_cmpuint (log_n, ==, 1);
  g_assert_false (prop_int (view, "log-scale"));
  g_object_set (page, "log-scale", TRUE, NULL);
  g_assert_true (gtk_toggle_button_get_active (log));

  gtk_drop_down_set_selected (metric, MS_METRIC_D2H_BANDWIDTH);
  g_assert_cmpuint (metric_n, ==, 1);
  g_assert_cmpint (prop_int (view, "metric"), ==, MS_METRIC_D2H_BANDWIDTH);
  g_object_set (page, "metric", MS_METRIC_H2D_BANDWIDTH, NULL);
  g_assert_cmpuint (gtk_drop_down_get_selected (metric), ==, MS_METRIC_H2D_BANDWIDTH);
  g_assert_cmpint (prop_int (view, "metric"), ==, MS_METRIC_H2D_BANDWIDTH);

  GtkWindow *window = ms_test_show (GTK_WIDGET (page), 1000, 700);
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (metric)));
  g_assert_cmpuint (ms_test_ink (GTK_WIDGET (view)), >, 10);
  ms_test_destroy (window, GTK_WIDGET (page));
}

static void
test_time (void)
{
  MsChartPage *page = g_object_new (MS_TYPE_CHART_PAGE, "metric", MS_METRIC_E2E_TIME, NULL);
  GtkWidget *metric = ms_test_find (GTK_WIDGET (page), GTK_TYPE_DROP_DOWN, NULL);
  GtkWidget *log = ms_test_find (GTK_WIDGET (page), GTK_TYPE_TOGGLE_BUTTON, "_Log scale");
  g_assert_cmpint (prop_int (ms_chart_page_get_view (page), "metric"), ==,
                   MS_METRIC_E2E_TIME);
  GtkWindow *window = ms_test_show (GTK_WIDGET (page), 800, 600);
  /* No metric to pick for times. */
  g_assert_false (gtk_widget_get_mapped (metric));
  g_assert_cmpstr (gtk_widget_get_tooltip_text (log), ==, "Logarithmic time axis");
  ms_test_destroy (window, GTK_WIDGET (page));
}

/* A lesson's filter: the chart shows it, says so, and Show All ends it. */
static void
test_modes_filter (void)
{
  g_autoptr (GPtrArray) runs = ms_test_reference_runs ();
  MsChartPage *page = g_object_new (MS_TYPE_CHART_PAGE, NULL);
  MsPlotView *view = ms_chart_page_get_view (page);
  ms_page_show_runs (MS_PAGE (page), runs);
  GtkWindow *window = ms_test_show (GTK_WIDGET (page), 1000, 700);
  GtkWidget *show_all = ms_test_find (GTK_WIDGET (page), GTK_TYPE_BUTTON, "Show _All");
  g_assert_nonnull (show_all);
  g_assert_false (gtk_widget_get_mapped (show_all));
  guint all = ms_plot_view_get_data (view)->series->len;
  g_object_set (page, "modes", "registered,pinned", NULL);
  g_assert_cmpstr (ms_plot_view_get_modes (view), ==, "registered,pinned");
  g_assert_cmpuint (ms_plot_view_get_data (view)->series->len, ==, 2);
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_assert_true (gtk_widget_get_mapped (show_all));
  GtkWidget *label = gtk_widget_get_prev_sibling (show_all);
  g_autofree char *expect = g_strdup_printf ("Showing only: %s, %s",
                                             ms_mode_title (MS_MODE_REGISTERED),
                                             ms_mode_title (MS_MODE_PINNED));
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (label)), ==, expect);
  /* On one line where the page has room for it (a wrapping label in a box
   * would ask for a narrow width and take two). */
  ms_test_wait_until (ms_test_is_laid_out, label, "the filter bar is laid out");
  g_assert_cmpint (pango_layout_get_line_count (gtk_label_get_layout (GTK_LABEL (label))), ==, 1);
  g_signal_emit_by_name (show_all, "clicked");
  g_autofree char *modes = NULL;
  g_object_get (page, "modes", &modes, NULL);
  g_assert_null (modes);
  g_assert_null (ms_plot_view_get_modes (view));
  g_assert_cmpuint (ms_plot_view_get_data (view)->series->len, ==, all);
  g_assert_false (gtk_widget_get_visible (gtk_widget_get_parent (show_all)));
  ms_test_destroy (window, GTK_WIDGET (page));
}

/* A run from the test backend whose cells read the link under load as
 * gen, width (0: the device's maximum, gen4 x16). */
static MsRun *
run_with_link (int gen, int width)
{
  MsSweep s;
  MsTestBackendConfig cfg;
  ms_test_sweep_init (&s, NULL, 10, 14, 2);
  ms_test_backend_config_init (&cfg);
  cfg.link_gen = gen;
  cfg.link_width = width;
  MsResults *r = ms_test_sweep_run (&s, &cfg);
  MsRun *run = ms_run_new (r, MS_RUN_KIND_SWEEP);
  ms_run_set_name (run, gen > 0 ? "down" : "fine");
  return run;
}

/* The health strip under the chart, and the warning when a run's link
 * trained down: shown for the injected gen4 x8, gone when only healthy
 * runs are left. */
/* Whether the warning above the strip shows (text: what it says). */
static gboolean
health_warning (MsChartPage *page, const char **text)
{
  if (text)
    *text = gtk_label_get_text (ms_test_child (page, "health_warning_label"));
  return gtk_info_bar_get_revealed (ms_test_child (page, "health_warning"));
}

/* The heading that names the run the strip describes; NULL while hidden. */
static const char *
health_title (MsChartPage *page)
{
  GtkWidget *title = ms_test_child (page, "health_title");
  return gtk_widget_get_visible (title) ? gtk_label_get_text (GTK_LABEL (title)) : NULL;
}

static void
test_health_warning (void)
{
  g_autoptr (GPtrArray) runs = ms_run_array_new ();
  g_ptr_array_add (runs, run_with_link (0, 0));
  MsChartPage *page = g_object_new (MS_TYPE_CHART_PAGE, NULL);
  MsHealthView *health = ms_chart_page_get_health (page);
  ms_page_show_runs (MS_PAGE (page), runs);
  const char *text = NULL;
  g_assert_false (health_warning (page, &text));
  g_assert_false (ms_test_get_boolean (health, "warns"));
  /* The test GPU has no envelope, and the strip says so. */
  g_assert_nonnull (strstr (ms_test_get_string (health, "envelope"), "No envelope for this GPU"));

  g_ptr_array_add (runs, run_with_link (4, 8));
  ms_page_show_runs (MS_PAGE (page), runs);
  g_assert_true (health_warning (page, &text));
  g_assert_true (g_str_has_prefix (text, "down: PCIe link under load: gen4 x8, below its maximum gen4 x16"));
  g_assert_null (strstr (text, "fine:"));
  g_assert_true (ms_test_get_boolean (health, "warns"));

  GtkWindow *window = ms_test_show (GTK_WIDGET (page), 1024, 768);
  ms_test_wait_until (ms_test_is_laid_out, health, "the health strip is laid out");
  g_assert_cmpint (gtk_widget_get_height (GTK_WIDGET (health)), >, 40);
  g_assert_cmpuint (ms_test_ink (GTK_WIDGET (health)), >, 10);

  g_ptr_array_remove_index (runs, 1);
  ms_page_show_runs (MS_PAGE (page), runs);
  g_assert_false (health_warning (page, NULL));
  ms_test_destroy (window, GTK_WIDGET (page));
}

/* The strip's heading names the run it describes, says which of several
 * that is, and follows a rename. */
static void
test_health_title (void)
{
  g_autoptr (GPtrArray) runs = ms_run_array_new ();
  MsChartPage *page = g_object_new (MS_TYPE_CHART_PAGE, NULL);
  g_object_ref_sink (page);
  ms_page_show_runs (MS_PAGE (page), runs);
  g_assert_null (health_title (page));
  g_ptr_array_add (runs, run_with_link (0, 0));
  ms_page_show_runs (MS_PAGE (page), runs);
  g_assert_cmpstr (health_title (page), ==, "Link health of fine");
  for (int i = 0; i < 3; i++)
    g_ptr_array_add (runs, run_with_link (4, 8));
  ms_run_set_name (runs->pdata[3], "fourth");
  ms_page_show_runs (MS_PAGE (page), runs);
  g_assert_cmpstr (health_title (page), ==,
                   "Link health of fourth, the last of the 4 runs shown");
  ms_run_set_name (runs->pdata[3], "renamed");
  g_assert_cmpstr (health_title (page), ==,
                   "Link health of renamed, the last of the 4 runs shown");
  /* A lesson's run opened after them, which the curves leave out: not the one described. */
  MsRun *lesson = run_with_link (0, 0);
  g_strlcpy (ms_run_get_results (lesson)->experiment, "pin-payoff",
             sizeof ms_run_get_results (lesson)->experiment);
  ms_run_set_name (lesson, "a lesson");
  g_ptr_array_add (runs, lesson);
  ms_page_show_runs (MS_PAGE (page), runs);
  g_assert_cmpstr (health_title (page), ==,
                   "Link health of renamed, the last of the 4 runs shown");
  g_ptr_array_remove_index (runs, 4);
  ms_page_show_runs (MS_PAGE (page), runs);
  /* Hidden with the strip (presentation mode), back with it. */
  gtk_widget_set_visible (GTK_WIDGET (ms_chart_page_get_health (page)), FALSE);
  g_assert_null (health_title (page));
  gtk_widget_set_visible (GTK_WIDGET (ms_chart_page_get_health (page)), TRUE);
  g_assert_nonnull (health_title (page));
  g_assert_finalize_object (page);
}

int
main (int argc, char **argv)
{
  ms_widget_test_init (&argc, &argv);
  g_test_add_func ("/chart-page/bandwidth", test_bandwidth);
  g_test_add_func ("/chart-page/time", test_time);
  g_test_add_func ("/chart-page/modes-filter", test_modes_filter);
  g_test_add_func ("/chart-page/health-warning", test_health_warning);
  g_test_add_func ("/chart-page/health-title", test_health_title);
  return g_test_run ();
}
