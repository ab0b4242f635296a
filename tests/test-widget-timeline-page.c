/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-widget-timeline-page.c: MsTimelinePage's pickers, the repetition it
 * starts on, and its zoom action. */
#include "ms-timeline-page.h"
#include "ms-widget-test.h"

static void
test_pickers (void)
{
  g_autoptr (GPtrArray) runs = ms_test_reference_runs ();
  MsTimelinePage *page = g_object_new (MS_TYPE_TIMELINE_PAGE, NULL);
  MsTimelineView *view = ms_timeline_page_get_view (page);
  g_assert_null (ms_timeline_page_get_cell (page, NULL));
  ms_timeline_page_set_runs (page, runs);

  int mode, exponent, repetition;
  g_object_get (page, "mode", &mode, "exponent", &exponent, "repetition", &repetition, NULL);
  g_assert_cmpint (mode, ==, MS_MODE_PAGEABLE);
  g_assert_cmpint (exponent, ==, 20);
  /* Repetition 1 carries the allocation: the page starts on 2. */
  g_assert_cmpint (repetition, ==, 2);
  int rep;
  const MsCell *cell = ms_timeline_page_get_cell (page, &rep);
  g_assert_nonnull (cell);
  g_assert_cmpint (rep, ==, 1);
  g_assert_nonnull (strstr (ms_timeline_view_get_title (view), "repetition 2 of 10"));

  guint mode_n, title_n;
  ms_test_watch (page, "mode", &mode_n);
  ms_test_watch (view, "title", &title_n);
  g_object_set (page, "mode", MS_MODE_STREAMS, "repetition", 1, NULL);
  g_assert_cmpuint (mode_n, ==, 1);
  g_assert_cmpuint (title_n, >=, 1);
  cell = ms_timeline_page_get_cell (page, &rep);
  g_assert_cmpint (cell->mode, ==, MS_MODE_STREAMS);
  g_assert_cmpint (rep, ==, 0);
  g_assert_nonnull (strstr (ms_timeline_view_get_title (view), "(shows the allocation)"));

  GtkWindow *window = ms_test_show (GTK_WIDGET (page), 1000, 500);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "timeline.zoom", "i", 1));
  g_assert_true (ms_timeline_view_get_zoomed (view));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "timeline.zoom", "i", 0));
  g_assert_false (ms_timeline_view_get_zoomed (view));
  g_assert_cmpuint (ms_test_ink (GTK_WIDGET (view)), >, 5);
  ms_test_destroy (window, GTK_WIDGET (page));
}

int
main (int argc, char **argv)
{
  ms_widget_test_init (&argc, &argv);
  g_test_add_func ("/timeline-page/pickers", test_pickers);
  return g_test_run ();
}
