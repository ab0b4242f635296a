/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-widget-chart-view.c: MsChartView, the base of the drawing widgets:
 * its scale properties, the style it hands its subclass, its snapshot
 * calling the subclass's draw and keeping the picture, and finalising. */
#include "ms-chart-view.h"
#include "ms-widget-test.h"

/* The least subclass: counts what the base calls. */
struct _MsTestChart {
  MsChartView parent_instance;
  guint draws, scale_sets;
  double drawn_text_scale;
};
G_DECLARE_FINAL_TYPE (MsTestChart, ms_test_chart, MS, TEST_CHART, MsChartView)
G_DEFINE_FINAL_TYPE (MsTestChart, ms_test_chart, MS_TYPE_CHART_VIEW)

static void
ms_test_chart_draw (MsChartView *view, cairo_t *cr, const MsChartStyle *style, int w, int h)
{
  MsTestChart *self = MS_TEST_CHART (view);
  self->draws++;
  self->drawn_text_scale = style->text_scale;
  cairo_set_source_rgb (cr, 1, 0, 0);
  cairo_rectangle (cr, w / 2.0, 0, w / 2.0, h);
  cairo_fill (cr);
}

static void
ms_test_chart_scale_set (MsChartView *view, GParamSpec *pspec)
{
  MS_TEST_CHART (view)->scale_sets++;
}

static void
ms_test_chart_class_init (MsTestChartClass *klass)
{
  MS_CHART_VIEW_CLASS (klass)->draw = ms_test_chart_draw;
  MS_CHART_VIEW_CLASS (klass)->scale_set = ms_test_chart_scale_set;
  MS_CHART_VIEW_CLASS (klass)->keeps_picture = TRUE;
}

static void
ms_test_chart_init (MsTestChart *self)
{
}

static void
test_base (void)
{
  MsTestChart *chart = g_object_new (ms_test_chart_get_type (), NULL);
  MsChartView *view = MS_CHART_VIEW (chart);
  g_assert_true (gtk_widget_get_hexpand (GTK_WIDGET (view)));
  g_assert_cmpint (gtk_accessible_get_accessible_role (GTK_ACCESSIBLE (view)), ==,
                   GTK_ACCESSIBLE_ROLE_IMG);
  g_assert_cmpfloat (ms_chart_view_get_scale (view)->text_scale, ==, 1.0);
  guint text_n, contrast_n;
  ms_test_watch (view, "text-scale", &text_n);
  ms_test_watch (view, "high-contrast", &contrast_n);
  g_object_set (view, "text-scale", 1.6, NULL);
  g_object_set (view, "text-scale", 1.6, NULL); /* no change: no notify */
  g_object_set (view, "high-contrast", TRUE, NULL);
  g_assert_cmpuint (text_n, ==, 1);
  g_assert_cmpuint (contrast_n, ==, 1);
  g_assert_cmpuint (chart->scale_sets, ==, 3);
  MsChartStyle style;
  ms_chart_view_get_style (view, &style);
  g_assert_cmpfloat (style.text_scale, ==, 1.6);
  g_assert_true (style.high_contrast);
  GtkWindow *window = ms_test_show (GTK_WIDGET (view), 400, 300);
  g_assert_cmpuint (ms_test_ink (GTK_WIDGET (view)), >, 20);
  g_assert_cmpuint (chart->draws, >=, 1);
  g_assert_cmpfloat (chart->drawn_text_scale, ==, 1.6);
  guint draws = chart->draws;
  ms_test_ink (GTK_WIDGET (view)); /* the kept picture */
  g_assert_cmpuint (chart->draws, ==, draws);
  ms_chart_view_redraw (view);
  g_assert_cmpuint (ms_test_ink (GTK_WIDGET (view)), >, 20);
  g_assert_cmpuint (chart->draws, ==, draws + 1);
  ms_test_destroy (window, GTK_WIDGET (view));
}

static void
test_finalize (void)
{
  MsChartView *view = g_object_ref_sink (g_object_new (ms_test_chart_get_type (), NULL));
  g_object_set (view, "line-scale", 2.0, NULL);
  g_assert_cmpfloat (ms_chart_view_get_scale (view)->line_scale, ==, 2.0);
  g_assert_finalize_object (view);
}

int
main (int argc, char **argv)
{
  ms_widget_test_init (&argc, &argv);
  g_test_add_func ("/chart-view/base", test_base);
  g_test_add_func ("/chart-view/finalize", test_finalize);
  return g_test_run ();
}
