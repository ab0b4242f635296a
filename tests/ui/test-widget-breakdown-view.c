/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-widget-breakdown-view.c: MsBreakdownView's properties and drawing. */
#include "ms-views.h"
#include "ms-widget-test.h"
#include "ms-breakdown-view.h"

static void
test_properties_and_draw (void)
{
  g_autoptr (GPtrArray) runs = ms_test_reference_runs ();
  GtkWidget *view = g_object_new (MS_TYPE_BREAKDOWN_VIEW, NULL);
  guint exponent_n, runs_n;
  ms_test_watch (view, "exponent", &exponent_n);
  ms_test_watch (view, "runs", &runs_n);
  g_object_set (view, "runs", runs, "exponent", 14, NULL);
  g_assert_cmpuint (exponent_n, ==, 1);
  g_assert_cmpuint (runs_n, ==, 1);
  g_assert_cmpint (ms_breakdown_view_get_exponent (MS_BREAKDOWN_VIEW (view)), ==, 14);

  GtkWindow *window = ms_test_show (view, 900, 600);
  guint with_data = ms_test_ink (view);
  g_assert_cmpuint (with_data, >, 20);
  /* The one-time costs: off by default; on, a second group of bars. */
  guint one_time_n;
  ms_test_watch (view, "one-time", &one_time_n);
  g_assert_false (ms_breakdown_view_get_one_time (MS_BREAKDOWN_VIEW (view)));
  g_object_set (view, "one-time", TRUE, NULL);
  g_object_set (view, "one-time", TRUE, NULL);
  g_assert_cmpuint (one_time_n, ==, 1);
  g_assert_cmpuint (ms_test_ink (view), !=, with_data);
  g_object_set (view, "one-time", FALSE, NULL);
  g_object_set (view, "runs", NULL, NULL);
  g_assert_cmpuint (runs_n, ==, 2);
  g_assert_cmpuint (ms_test_ink (view), <, with_data / 2);
  ms_test_destroy (window, view);
}

int
main (int argc, char **argv)
{
  ms_widget_test_init (&argc, &argv);
  g_test_add_func ("/breakdown-view/properties-and-draw", test_properties_and_draw);
  return g_test_run ();
}
