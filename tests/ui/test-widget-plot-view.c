/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-widget-plot-view.c: MsPlotView's properties, drawing and legend. */
#include "ms-modes.h"
#include "ms-view-cache.h"
#include "ms-views.h"
#include "ms-reference-test.h"
#include "ms-widget-test.h"
#include "ms-plot-view.h"
#include "ms-breakdown-view.h"

/* A property's value, read as a test reads it. */
static GtkWidget *
plot_view_new (MsMetric metric)
{
  return g_object_new (MS_TYPE_PLOT_VIEW, "metric", metric, NULL);
}

static int
prop_int (gpointer object, const char *name)
{
  int value;
  g_object_get (object, name, &value, NULL);
  return value;
}

static void
test_properties (void)
{
  GtkWidget *view = plot_view_new (MS_METRIC_E2E_TIME);
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
  g_assert_cmpint (prop_int (MS_PLOT_VIEW (view), "metric"), ==, MS_METRIC_H2D_BANDWIDTH);
  g_assert_true (prop_int (MS_PLOT_VIEW (view), "log-scale"));
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
  GtkWidget *view = plot_view_new (MS_METRIC_E2E_BANDWIDTH);
  g_object_ref_sink (view);
  MsPlotView *pv = MS_PLOT_VIEW (view);
  guint direct_n, plan_n;
  ms_test_watch (view, "direct-labels", &direct_n);
  ms_test_watch (view, "planned-max-exponent", &plan_n);
  g_assert_false (prop_int (pv, "direct-labels"));
  g_object_set (view, "high-contrast", TRUE, NULL);
  g_assert_true (prop_int (pv, "direct-labels"));
  g_assert_true (ms_plot_view_get_data (pv)->direct_labels);
  g_object_set (view, "direct-labels", FALSE, NULL);
  g_assert_false (ms_plot_view_get_data (pv)->direct_labels);
  g_object_set (view, "high-contrast", FALSE, NULL);
  g_assert_false (prop_int (pv, "direct-labels"));
  g_assert_cmpuint (direct_n, ==, 2);

  g_assert_cmpfloat (ms_plot_view_get_data (pv)->x_min, ==, 0);
  g_object_set (pv, "planned-min-exponent", 10, "planned-max-exponent", 24, NULL);
  g_object_set (pv, "planned-min-exponent", 10, "planned-max-exponent", 24, NULL);
  g_assert_cmpuint (plan_n, ==, 1);
  g_assert_cmpfloat (ms_plot_view_get_data (pv)->x_min, ==, 4096);
  g_assert_cmpfloat (ms_plot_view_get_data (pv)->x_max, ==, 64 << 20);
  g_object_set (pv, "planned-min-exponent", -1, "planned-max-exponent", -1, NULL);
  g_assert_cmpfloat (ms_plot_view_get_data (pv)->x_max, ==, 0);
  g_assert_finalize_object (view);
}

static void
test_runs_and_series (void)
{
  g_autoptr (GPtrArray) runs = ms_test_reference_runs ();
  MsPlotView *view = MS_PLOT_VIEW (plot_view_new (MS_METRIC_E2E_BANDWIDTH));
  g_object_set (view, "runs", runs, NULL);
  const MsChartData *data = ms_plot_view_get_data (view);
  MsResults *shown = ms_run_get_results (g_ptr_array_index (runs, 0));
  g_assert_cmpuint (data->series->len, ==, ms_test_n_modes (shown));
  const MsChartSeries *first = g_ptr_array_index (data->series, 0);
  g_autofree char *label = g_strdup (first->label);
  ms_plot_view_set_series_hidden (view, label, TRUE);
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

static void
record_text (const char *text, double x, double y, double w, double h, gpointer data)
{
  g_ptr_array_add (data, g_strdup_printf ("%.0f %s", y + h, text));
}

/* The text a view draws on one snapshot, each as "bottom text". */
static GPtrArray *
drawn_texts (GtkWidget *view)
{
  GPtrArray *texts = g_ptr_array_new_with_free_func (g_free);
  ms_draw_set_text_recorder (record_text, texts);
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  GTK_WIDGET_GET_CLASS (view)->snapshot (view, snapshot);
  GskRenderNode *node = gtk_snapshot_free_to_node (snapshot);
  if (node)
    gsk_render_node_unref (node);
  ms_draw_set_text_recorder (NULL, NULL);
  return texts;
}

/* The line at the bottom that names the run (GPU, kind, date), or NULL. */
static const char *
runs_line (GPtrArray *texts, int height)
{
  for (guint i = 0; i < texts->len; i++) {
    const char *t = g_ptr_array_index (texts, i);
    if (strstr (t, "H100") && strstr (t, "sweep") && strstr (t, "UTC") &&
        g_ascii_strtod (t, NULL) > height * 0.9)
      return t;
  }
  return NULL;
}

/* The bandwidth, time and breakdown views name their run in the picture,
 * at the bottom, at a desk and projected (where the header bar is
 * hidden). A legend entry says what its mode is on hover. */
static void
test_presentation_names_run (void)
{
  g_autoptr (GPtrArray) runs = ms_test_reference_runs ();
  GtkWidget *views[] = { plot_view_new (MS_METRIC_E2E_BANDWIDTH),
                         plot_view_new (MS_METRIC_E2E_TIME),
                         g_object_new (MS_TYPE_BREAKDOWN_VIEW, NULL) };
  for (guint i = 0; i < G_N_ELEMENTS (views); i++) {
    g_object_set (views[i], "runs", runs, NULL);
    GtkWindow *window = ms_test_show (views[i], 1000, 640);
    int height = gtk_widget_get_height (views[i]);
    /* A new text scale draws afresh (the window's first frame is cached). */
    g_object_set (views[i], "text-scale", 1.2, NULL);
    g_autoptr (GPtrArray) plain = drawn_texts (views[i]);
    g_assert_nonnull (runs_line (plain, height));
    g_object_set (views[i], "text-scale", 1.6, "line-scale", 2.0, "high-contrast", TRUE, NULL);
    g_autoptr (GPtrArray) shown = drawn_texts (views[i]);
    g_assert_nonnull (runs_line (shown, height));
    /* The legend's UVA says in full what it is on hover. */
    gboolean said = !MS_IS_PLOT_VIEW (views[i]);
    for (int y = 0; y < height && !said; y += 4)
      for (int x = 0; x < gtk_widget_get_width (views[i]) && !said; x += 6) {
        g_autofree char *tip = ms_plot_view_legend_tooltip (MS_PLOT_VIEW (views[i]), x, y);
        said = tip && strstr (tip, "unified virtual addressing");
      }
    g_assert_true (said);
    ms_test_destroy (window, views[i]);
  }
}

/* "modes": only the listed modes' series, in the legend too; NULL: all. */
static void
test_modes_filter (void)
{
  g_autoptr (GPtrArray) runs = ms_test_reference_runs ();
  MsPlotView *view = g_object_ref_sink (MS_PLOT_VIEW (plot_view_new (MS_METRIC_H2D_BANDWIDTH)));
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
  GtkWidget *view = plot_view_new (MS_METRIC_E2E_BANDWIDTH);
  GtkWindow *window = ms_test_show (view, 400, 300);
  g_assert_cmpuint (ms_plot_view_get_data (MS_PLOT_VIEW (view))->series->len, ==, 0);
  /* The frame, the axes and the line saying why it is empty (at 4.5:1,
   * its edges count too), no series. */
  g_assert_cmpuint (ms_test_ink (view), <, 120);
  g_assert_false (ms_plot_view_click (MS_PLOT_VIEW (view), 5, 5));
  ms_test_destroy (window, view);
}

static guchar *
texture_pixels (GdkTexture *t)
{
  int w = gdk_texture_get_width (t), h = gdk_texture_get_height (t);
  guchar *px = g_malloc ((gsize) w * h * 4);
  gdk_texture_download (t, px, (gsize) w * 4);
  return px;
}

/* The view drew its picture again since prev (and, when differs, the
 * picture changed); prev becomes the new frame. */
static void
expect_redrawn (GtkWidget *view, MsTestViewFrame *prev, gboolean differs, const char *why)
{
  MsTestViewFrame f = ms_test_view_frame (view);
  if (f.texture == prev->texture)
    g_error ("the picture was kept after %s", why);
  if (differs && gdk_texture_get_width (f.texture) == gdk_texture_get_width (prev->texture) &&
      gdk_texture_get_height (f.texture) == gdk_texture_get_height (prev->texture)) {
    g_autofree guchar *a = texture_pixels (prev->texture), *b = texture_pixels (f.texture);
    gsize n = (gsize) gdk_texture_get_width (f.texture) * gdk_texture_get_height (f.texture) * 4;
    if (memcmp (a, b, n) == 0)
      g_error ("the picture did not change after %s", why);
  }
  g_object_unref (prev->texture);
  *prev = f;
}

static void
settle (void)
{
  for (int i = 0; i < 50; i++)
    while (g_main_context_iteration (NULL, FALSE))
      ;
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
  g_assert_not_reached ();
}

/* The chart is drawn once and kept (a texture) while nothing changes:
 * hovering lays the crosshair over it in a node smaller than the view;
 * every property that changes the picture draws it again. */
static void
test_picture_kept_and_redrawn (void)
{
  g_autoptr (GPtrArray) runs = ms_test_reference_runs ();
  GtkWidget *view = plot_view_new (MS_METRIC_E2E_BANDWIDTH);
  g_object_set (view, "runs", runs, NULL);
  GtkWindow *window = ms_test_show (view, 900, 600);
  int scale = gtk_widget_get_scale_factor (view);
  MsTestViewFrame prev = ms_test_view_frame (view);
  g_assert_cmpint (gdk_texture_get_width (prev.texture), ==, 900 * scale);
  g_assert_cmpuint (prev.n_over, ==, 0);
  MsTestViewFrame again = ms_test_view_frame (view);
  g_assert_true (again.texture == prev.texture);
  g_object_unref (again.texture);

  g_signal_emit_by_name (motion_controller (view), "motion", 450.0, 300.0);
  MsTestViewFrame hover = ms_test_view_frame (view);
  g_assert_true (hover.texture == prev.texture);
  g_assert_cmpuint (hover.n_over, ==, 1);
  g_assert_cmpfloat (hover.over.size.width * hover.over.size.height, <, 900 * 600 / 2);
  g_assert_cmpfloat (hover.over.origin.x, <=, 450);
  g_assert_cmpfloat (hover.over.origin.x + hover.over.size.width, >=, 450);
  g_object_unref (hover.texture);
  g_signal_emit_by_name (motion_controller (view), "leave");
  MsTestViewFrame left = ms_test_view_frame (view);
  g_assert_cmpuint (left.n_over, ==, 0);
  g_object_unref (left.texture);

  g_object_set (view, "metric", MS_METRIC_E2E_TIME, NULL);
  expect_redrawn (view, &prev, TRUE, "metric");
  g_object_set (view, "log-scale", TRUE, NULL);
  expect_redrawn (view, &prev, TRUE, "log-scale");
  g_object_set (view, "direct-labels", TRUE, NULL);
  expect_redrawn (view, &prev, TRUE, "direct-labels");
  g_object_set (view, "text-scale", 1.5, NULL);
  expect_redrawn (view, &prev, TRUE, "text-scale");
  g_object_set (view, "line-scale", 2.0, NULL);
  expect_redrawn (view, &prev, TRUE, "line-scale");
  g_object_set (view, "high-contrast", TRUE, NULL);
  expect_redrawn (view, &prev, TRUE, "high-contrast");
  g_object_set (view, "modes", "pinned,pageable", NULL);
  expect_redrawn (view, &prev, TRUE, "modes");
  g_object_set (view, "planned-max-exponent", 30, "planned-min-exponent", 8, NULL);
  expect_redrawn (view, &prev, TRUE, "the planned sizes");
  const MsChartSeries *s = g_ptr_array_index (ms_plot_view_get_data (MS_PLOT_VIEW (view))->series, 0);
  ms_plot_view_set_series_hidden (MS_PLOT_VIEW (view), s->label, TRUE);
  expect_redrawn (view, &prev, TRUE, "a series hidden");
  /* The same array may have changed in place. */
  g_object_set (view, "runs", runs, NULL);
  expect_redrawn (view, &prev, FALSE, "runs");

  AdwStyleManager *style = adw_style_manager_get_default ();
  adw_style_manager_set_color_scheme (style, ADW_COLOR_SCHEME_FORCE_DARK);
  settle ();
  expect_redrawn (view, &prev, TRUE, "dark style");
  adw_style_manager_set_color_scheme (style, ADW_COLOR_SCHEME_DEFAULT);
  settle ();
  expect_redrawn (view, &prev, TRUE, "light style");

  gtk_window_set_default_size (window, 700, 500);
  ms_test_wait_until (ms_test_is_laid_out, view, "the window is resized");
  expect_redrawn (view, &prev, FALSE, "a resize");
  g_assert_cmpint (gdk_texture_get_width (prev.texture), ==, gtk_widget_get_width (view) * scale);
  g_object_unref (prev.texture);
  ms_test_destroy (window, view);
}

/* The kept picture is for one size, scale factor and style: any other
 * finds it stale (HiDPI cannot be switched under the test's display). */
static void
test_cache_key (void)
{
  MsViewCache cache = { 0 };
  MsChartStyle st, other;
  ms_chart_style_init_light (&st);
  g_assert_false (ms_view_cache_holds (&cache, 40, 30, 1, &st));
  ms_view_cache_end (&cache, ms_view_cache_begin (&cache, 40, 30, 2, &st));
  g_assert_cmpint (gdk_texture_get_width (cache.texture), ==, 80);
  g_assert_true (ms_view_cache_holds (&cache, 40, 30, 2, &st));
  g_assert_false (ms_view_cache_holds (&cache, 40, 30, 1, &st));
  g_assert_null (cache.texture);
  const struct {
    int w, h, scale;
    double text_scale;
    gboolean dark;
  } stale[] = { { 41, 30, 2, 1, FALSE }, { 40, 31, 2, 1, FALSE }, { 40, 30, 2, 1.2, FALSE },
                { 40, 30, 2, 1, TRUE } };
  for (guint i = 0; i < G_N_ELEMENTS (stale); i++) {
    ms_view_cache_end (&cache, ms_view_cache_begin (&cache, 40, 30, 2, &st));
    if (stale[i].dark)
      ms_chart_style_init_dark (&other);
    else
      other = st;
    other.text_scale = stale[i].text_scale;
    g_assert_false (ms_view_cache_holds (&cache, stale[i].w, stale[i].h, stale[i].scale, &other));
  }
  /* The picture's pixels go with its texture: nothing else holds them. */
  cairo_t *cr = ms_view_cache_begin (&cache, 40, 30, 1, &st);
  cairo_surface_t *pixels = cairo_surface_reference (cairo_get_target (cr));
  ms_view_cache_end (&cache, cr);
  ms_view_cache_clear (&cache);
  g_assert_cmpuint (cairo_surface_get_reference_count (pixels), ==, 1);
  cairo_surface_destroy (pixels);
}

int
main (int argc, char **argv)
{
  ms_widget_test_init (&argc, &argv);
  g_test_add_func ("/plot-view/properties", test_properties);
  g_test_add_func ("/plot-view/presentation-names-run", test_presentation_names_run);
  g_test_add_func ("/plot-view/runs-and-series", test_runs_and_series);
  g_test_add_func ("/plot-view/direct-labels-and-plan", test_direct_labels_and_plan);
  g_test_add_func ("/plot-view/empty", test_empty_draws);
  g_test_add_func ("/plot-view/modes-filter", test_modes_filter);
  g_test_add_func ("/plot-view/picture-kept-and-redrawn", test_picture_kept_and_redrawn);
  g_test_add_func ("/plot-view/cache-key", test_cache_key);
  return g_test_run ();
}
