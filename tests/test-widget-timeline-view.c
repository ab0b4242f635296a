/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-widget-timeline-view.c: MsTimelineView's cell, title, zoom and
 * drawing. */
#include "ms-views.h"
#include "ms-widget-test.h"

static void
test_cell_and_zoom (void)
{
  g_autoptr (GPtrArray) runs = ms_test_reference_runs ();
  const MsResults *run = g_ptr_array_index (runs, 0);
  const MsCell *cell = ms_results_find (run, MS_MODE_PINNED, 20);
  g_assert_nonnull (cell);
  MsTimelineView *view = MS_TIMELINE_VIEW (ms_timeline_view_new ());
  guint title_n, zoomed_n;
  ms_test_watch (view, "title", &title_n);
  ms_test_watch (view, "zoomed", &zoomed_n);
  ms_timeline_view_set_cell (view, run, cell, 1, "pinned, repetition 2");
  g_assert_cmpuint (title_n, ==, 1);
  g_assert_cmpstr (ms_timeline_view_get_title (view), ==, "pinned, repetition 2");
  const MsTimeWindow *win = ms_timeline_view_get_window (view);
  g_assert_cmpfloat (win->t0, ==, 0);
  g_assert_cmpfloat (win->t1, ==, win->total_us);
  g_assert_cmpfloat (win->total_us, >, 0);

  ms_timeline_view_zoom (view, 2);
  g_assert_true (ms_timeline_view_get_zoomed (view));
  g_assert_cmpuint (zoomed_n, ==, 1);
  g_assert_cmpfloat (win->t1 - win->t0, <, win->total_us * 0.75);
  ms_timeline_view_reset_zoom (view);
  g_assert_false (ms_timeline_view_get_zoomed (view));
  g_assert_cmpuint (zoomed_n, ==, 2);

  GtkWindow *window = ms_test_show (GTK_WIDGET (view), 900, 400);
  g_object_set (view, "text-scale", 2.0, "high-contrast", TRUE, NULL);
  g_assert_cmpuint (ms_test_ink (GTK_WIDGET (view)), >, 20);
  /* A new cell shows the whole repetition again. */
  ms_timeline_view_zoom (view, 3);
  ms_timeline_view_set_cell (view, run, cell, 0, "pinned, repetition 1");
  g_assert_false (ms_timeline_view_get_zoomed (view));
  ms_test_destroy (window, GTK_WIDGET (view));
}

static void
test_no_cell (void)
{
  GtkWidget *view = ms_timeline_view_new ();
  ms_timeline_view_set_cell (MS_TIMELINE_VIEW (view), NULL, NULL, 0, NULL);
  g_assert_null (ms_timeline_view_get_title (MS_TIMELINE_VIEW (view)));
  GtkWindow *window = ms_test_show (view, 400, 300);
  g_assert_cmpuint (ms_test_ink (view), <, 100);
  ms_test_destroy (window, view);
}

/* The view holds the run it shows: closing the run (the window drops its
 * reference) leaves the view drawing and hit-testing valid data, and the
 * view does not copy the cell. */
static void
test_run_closed_while_shown (void)
{
  GPtrArray *runs = ms_test_reference_runs ();
  const MsResults *run = g_ptr_array_index (runs, 0);
  const MsCell *cell = ms_results_find (run, MS_MODE_STREAMS, 20);
  g_assert_nonnull (cell);
  MsTimelineView *view = MS_TIMELINE_VIEW (ms_timeline_view_new ());
  ms_timeline_view_set_cell (view, run, cell, 1, "streams");
  double total = ms_timeline_view_get_window (view)->total_us;
  g_ptr_array_unref (runs);
  GtkWindow *window = ms_test_show (GTK_WIDGET (view), 900, 400);
  g_assert_cmpuint (ms_test_ink (GTK_WIDGET (view)), >, 20);
  g_assert_cmpfloat (ms_timeline_view_get_window (view)->total_us, ==, total);
  /* Another cell, or none, lets the closed run go. */
  ms_timeline_view_set_cell (view, NULL, NULL, 0, NULL);
  g_assert_cmpuint (ms_test_ink (GTK_WIDGET (view)), <, 100);
  ms_test_destroy (window, GTK_WIDGET (view));
}

int
main (int argc, char **argv)
{
  ms_widget_test_init (&argc, &argv);
  g_test_add_func ("/timeline-view/cell-and-zoom", test_cell_and_zoom);
  g_test_add_func ("/timeline-view/no-cell", test_no_cell);
  g_test_add_func ("/timeline-view/run-closed-while-shown", test_run_closed_while_shown);
  return g_test_run ();
}
