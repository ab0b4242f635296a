/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-widget-breakdown-page.c: MsBreakdownPage's size picker and view, and
 * the page following its session. */
#include "ms-breakdown-page.h"
#include "ms-widget-test.h"
#include "ms-breakdown-view.h"

static void
test_sizes (void)
{
  g_autoptr (GPtrArray) runs = ms_test_reference_runs ();
  MsBreakdownPage *page = g_object_new (MS_TYPE_BREAKDOWN_PAGE, NULL);
  MsBreakdownView *view = ms_test_child (page, "view");
  int exponent;
  g_object_get (page, "exponent", &exponent, NULL);
  g_assert_cmpint (exponent, ==, -1);
  guint exponent_n;
  ms_test_watch (page, "exponent", &exponent_n);
  ms_page_show_runs (MS_PAGE (page), runs);
  /* The largest size is picked first. */
  g_object_get (page, "exponent", &exponent, NULL);
  g_assert_cmpint (exponent, ==, 20);
  g_assert_cmpint (ms_breakdown_view_get_exponent (view), ==, 20);
  g_assert_cmpuint (exponent_n, ==, 1);
  g_object_set (page, "exponent", 12, NULL);
  g_assert_cmpint (ms_breakdown_view_get_exponent (view), ==, 12);
  g_assert_cmpuint (exponent_n, ==, 2);
  /* A size no run has is not picked. */
  g_object_set (page, "exponent", 27, NULL);
  g_assert_cmpint (ms_breakdown_view_get_exponent (view), ==, 12);
  /* The same runs again keep the choice. */
  ms_page_show_runs (MS_PAGE (page), runs);
  g_assert_cmpint (ms_breakdown_view_get_exponent (view), ==, 12);

  GtkWindow *window = ms_test_show (GTK_WIDGET (page), 900, 600);
  g_assert_cmpuint (ms_test_ink (GTK_WIDGET (view)), >, 10);
  ms_test_destroy (window, GTK_WIDGET (page));
}

/* The page's check shows the one-time costs; it starts off. */
static GtkCheckButton *
find_check (GtkWidget *w)
{
  if (GTK_IS_CHECK_BUTTON (w))
    return GTK_CHECK_BUTTON (w);
  for (GtkWidget *c = gtk_widget_get_first_child (w); c; c = gtk_widget_get_next_sibling (c)) {
    GtkCheckButton *found = find_check (c);
    if (found)
      return found;
  }
  return NULL;
}

static void
test_one_time_check (void)
{
  MsBreakdownPage *page = g_object_ref_sink (g_object_new (MS_TYPE_BREAKDOWN_PAGE, NULL));
  MsBreakdownView *view = ms_test_child (page, "view");
  GtkCheckButton *check = find_check (GTK_WIDGET (page));
  g_assert_nonnull (check);
  g_assert_false (gtk_check_button_get_active (check));
  g_assert_false (ms_breakdown_view_get_one_time (view));
  gtk_check_button_set_active (check, TRUE);
  g_assert_true (ms_breakdown_view_get_one_time (view));
  g_object_set (view, "one-time", FALSE, NULL);
  g_assert_false (gtk_check_button_get_active (check));
  g_assert_finalize_object (page);
}

/* Around a session without a GPU: a run added is drawn, a rename redraws,
 * a run closed empties the page. */
static void
test_session (void)
{
  g_autoptr (MsSession) session = g_object_new (MS_TYPE_SESSION, NULL);
  MsBreakdownPage *page = g_object_new (MS_TYPE_BREAKDOWN_PAGE, "session", session, NULL);
  MsBreakdownView *view = ms_test_child (page, "view");
  GtkWindow *window = ms_test_show (GTK_WIDGET (page), 900, 600);
  g_autoptr (GPtrArray) view_runs = NULL;
  g_assert_cmpint (ms_breakdown_view_get_exponent (view), ==, -1);

  g_autoptr (MsRun) run = ms_test_read_run ("h100-default-samples.csv.gz", "default");
  g_assert_true (ms_session_add_run (session, run));
  g_object_get (view, "runs", &view_runs, NULL);
  g_assert_cmpuint (view_runs->len, ==, 1);
  g_assert_true (g_ptr_array_index (view_runs, 0) == run);
  g_clear_pointer (&view_runs, g_ptr_array_unref);
  g_assert_cmpint (ms_breakdown_view_get_exponent (view), ==, 20);
  g_assert_cmpuint (ms_test_ink (GTK_WIDGET (view)), >, 10);

  /* A rename hands the view the runs again, to draw the new name. */
  guint runs_n;
  ms_test_watch (view, "runs", &runs_n);
  ms_session_rename_run (session, run, "renamed");
  g_assert_cmpuint (runs_n, ==, 1);

  g_assert_true (ms_session_remove_run (session, run, NULL));
  g_object_get (view, "runs", &view_runs, NULL);
  g_assert_cmpuint (view_runs->len, ==, 0);
  g_assert_cmpint (ms_breakdown_view_get_exponent (view), ==, -1);
  ms_test_destroy (window, GTK_WIDGET (page));
}

static gboolean
view_taller_than_page (gpointer page)
{
  GtkWidget *view = ms_test_child (page, "view");
  return gtk_widget_get_height (view) > gtk_widget_get_height (GTK_WIDGET (page));
}

static gboolean
view_fits_page (gpointer page)
{
  return !view_taller_than_page (page);
}

/* Four runs' 44 rows at 1024x768, projected: the view asks for the height
 * its rows' text needs and the page scrolls (the text shrank to 5 px). */
static void
test_many_rows_scroll (void)
{
  g_autoptr (GPtrArray) runs = ms_run_array_new ();
  const char *files[] = { "h100-default-1-samples.csv.gz", "h100-default-2-samples.csv.gz",
                          "h100-default-3-samples.csv.gz", "h200-default-samples.csv.gz" };
  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    g_ptr_array_add (runs, ms_test_read_run (files[i], files[i]));
  MsBreakdownPage *page = g_object_new (MS_TYPE_BREAKDOWN_PAGE, NULL);
  ms_page_show_runs (MS_PAGE (page), runs);
  g_object_set (ms_test_child (page, "view"), "text-scale", 1.6, NULL);
  GtkWindow *window = ms_test_show (GTK_WIDGET (page), 1024, 768);
  ms_test_wait_until (view_taller_than_page, page, "the view asks for its rows' height");
  /* One run fits: no scrolling. */
  g_autoptr (GPtrArray) one = ms_test_reference_runs ();
  ms_page_show_runs (MS_PAGE (page), one);
  ms_test_wait_until (view_fits_page, page, "one run's view fits the page again");
  ms_test_destroy (window, GTK_WIDGET (page));
}

int
main (int argc, char **argv)
{
  ms_widget_test_init (&argc, &argv);
  g_test_add_func ("/breakdown-page/sizes", test_sizes);
  g_test_add_func ("/breakdown-page/one-time-check", test_one_time_check);
  g_test_add_func ("/breakdown-page/session", test_session);
  g_test_add_func ("/breakdown-page/many-rows-scroll", test_many_rows_scroll);
  return g_test_run ();
}
