/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-widget-timeline-page.c: MsTimelinePage's pickers, the repetition it
 * starts on, its zoom action, and the page following its session. */
#include "lessons/ms-run-read.h"
#include "ms-timeline-page.h"
#include "ms-widget-test.h"
#include "ms-timeline-view.h"

static void
test_pickers (void)
{
  g_autoptr (GPtrArray) runs = ms_test_reference_runs ();
  MsTimelinePage *page = g_object_new (MS_TYPE_TIMELINE_PAGE, NULL);
  MsTimelineView *view = ms_test_child (page, "view");
  g_assert_null (ms_timeline_page_get_cell (page, NULL));
  ms_page_show_runs (MS_PAGE (page), runs);

  int mode, exponent, repetition;
  g_object_get (page, "mode", &mode, "exponent", &exponent, "repetition", &repetition, NULL);
  g_assert_cmpint (mode, ==, MS_MODE_PAGEABLE);
  g_assert_cmpint (exponent, ==, 20);
  /* The first repetition with a timeline carries the allocation: the page
   * starts on the second (the property counts them from 1; the file says rep 1). */
  g_assert_cmpint (repetition, ==, 2);
  int rep;
  const MsCell *cell = ms_timeline_page_get_cell (page, &rep);
  g_assert_nonnull (cell);
  g_assert_cmpint (rep, ==, 1);
  /* Numbered from 1 (the file's rep 1 is repetition 2): the title and
   * the field agree. */
  g_assert_nonnull (strstr (ms_timeline_view_get_title (view), "repetition 2 of "));
  GtkWidget *spin = ms_test_find (GTK_WIDGET (page), GTK_TYPE_SPIN_BUTTON, NULL);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (spin)), ==, "2");
  /* A repetition number typed is read the same way. */
  gtk_editable_set_text (GTK_EDITABLE (spin), "3");
  gtk_spin_button_update (GTK_SPIN_BUTTON (spin));
  g_assert_cmpint (gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (spin)), ==, 3);
  g_assert_nonnull (strstr (ms_timeline_view_get_title (view), "repetition 3 of "));
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (spin)), ==, "3");

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
  g_assert_true (ms_test_get_boolean (view, "zoomed"));
  /* Back to the data movement; "All phases" shows the whole repetition. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "timeline.zoom", "i", 0));
  double t0, t1;
  g_assert_true (ms_timeline_movement_span (cell, rep, NULL, &t0, &t1));
  const MsTimeWindow *win = ms_timeline_view_get_window (view);
  g_assert_cmpfloat (win->t0, <=, t0);
  g_assert_cmpfloat (win->t1, >=, t1);
  g_assert_true (ms_test_get_boolean (view, "zoomed"));
  g_object_set (view, "show-setup", TRUE, NULL);
  g_assert_false (ms_test_get_boolean (view, "zoomed"));
  g_assert_cmpuint (ms_test_ink (GTK_WIDGET (view)), >, 5);
  ms_test_destroy (window, GTK_WIDGET (page));
}

/* Runs open but no cell to draw: the view says what to choose, not how to
 * open a run; and with a plain sweep beside, nothing. */
static void
test_empty_text (void)
{
  MsTimelinePage *page = g_object_new (MS_TYPE_TIMELINE_PAGE, NULL);
  MsTimelineView *view = ms_test_child (page, "view");
  g_assert_null (ms_test_get_string (view, "empty-text"));
  g_autoptr (GPtrArray) runs = ms_run_array_new ();
  g_ptr_array_add (runs, ms_test_read_run ("h100-lesson-reuse-samples.csv.gz", "reuse"));
  ms_page_show_runs (MS_PAGE (page), runs);
  /* The reuse lesson has each mode and size in several variants. */
  g_assert_null (ms_timeline_page_get_cell (page, NULL));
  g_assert_nonnull (strstr (ms_timeline_view_get_title (view), "variants"));
  g_assert_nonnull (strstr (ms_test_get_string (view, "empty-text"), "Lessons page"));
  g_object_set (page, "mode", MS_MODE_PAGEABLE, NULL);
  g_assert_null (ms_timeline_page_get_cell (page, NULL));
  const char *text = ms_test_get_string (view, "empty-text");
  g_assert_nonnull (text);
  g_assert_nonnull (strstr (ms_timeline_view_get_title (view), "reuse has no Pageable cell at 2^"));
  g_assert_nonnull (strstr (text, "Choose a mode and a size it measured"));
  g_assert_null (strstr (text, "open a CSV"));
  g_ptr_array_add (runs, ms_test_read_run ("h100-default-samples.csv.gz", "sweep"));
  ms_page_show_runs (MS_PAGE (page), runs);
  GtkDropDown *run_dd = GTK_DROP_DOWN (ms_test_find (GTK_WIDGET (page), GTK_TYPE_DROP_DOWN, NULL));
  gtk_drop_down_set_selected (run_dd, 1);
  g_assert_nonnull (ms_timeline_page_get_cell (page, NULL));
  g_assert_null (ms_test_get_string (view, "empty-text"));
  GtkWindow *window = ms_test_show (GTK_WIDGET (page), 1000, 500);
  g_assert_cmpuint (ms_test_ink (GTK_WIDGET (view)), >, 5);
  ms_test_destroy (window, GTK_WIDGET (page));
}

/* Two runs without a size in common: picking a run picks a size it has
 * (the nearest to the one shown) and a mode it has; the view never empties. */
static void
test_sizes_per_run (void)
{
  g_autoptr (GPtrArray) runs = ms_test_reference_runs ();
  char err[512];
  g_autofree char *path =
    g_build_filename (g_getenv ("MEMSWEEP_REFERENCE_DIR"), "h100-large-samples.csv.gz", NULL);
  MsResults *large = ms_run_read_samples (path, err, sizeof err);
  g_assert_nonnull (large);
  g_snprintf (large->label, sizeof large->label, "large sizes");
  g_ptr_array_add (runs, ms_run_new (large, MS_RUN_KIND_REFERENCE));
  MsTimelinePage *page = g_object_new (MS_TYPE_TIMELINE_PAGE, NULL);
  ms_page_show_runs (MS_PAGE (page), runs);
  GtkWindow *window = ms_test_show (GTK_WIDGET (page), 1000, 500);

  /* The page's drop-downs in order: run, mode, size. */
  g_autoptr (GPtrArray) dds = g_ptr_array_new ();
  for (GtkWidget *w = gtk_widget_get_first_child (GTK_WIDGET (page)); w;) {
    if (GTK_IS_DROP_DOWN (w))
      g_ptr_array_add (dds, w);
    GtkWidget *next = GTK_IS_DROP_DOWN (w) ? NULL : gtk_widget_get_first_child (w);
    while (!next && w && w != GTK_WIDGET (page)) {
      next = gtk_widget_get_next_sibling (w);
      w = gtk_widget_get_parent (w);
    }
    w = next;
  }
  g_assert_cmpuint (dds->len, ==, 3);
  GtkDropDown *run_dd = g_ptr_array_index (dds, 0), *size_dd = g_ptr_array_index (dds, 2);
  g_assert_nonnull (run_dd);
  g_assert_nonnull (size_dd);

  gtk_drop_down_set_selected (run_dd, 0);
  int exponent;
  g_object_set (page, "exponent", 20, NULL);
  g_assert_nonnull (ms_timeline_page_get_cell (page, NULL));
  g_assert_cmpuint (g_list_model_get_n_items (gtk_drop_down_get_model (size_dd)), ==, 11);
  gtk_drop_down_set_selected (run_dd, 1);
  g_object_get (page, "exponent", &exponent, NULL);
  g_assert_cmpint (exponent, ==, 22); /* the nearest the large run has */
  /* 2^22..2^28, step 2 */
  g_assert_cmpuint (g_list_model_get_n_items (gtk_drop_down_get_model (size_dd)), ==, 4);
  const MsCell *cell = ms_timeline_page_get_cell (page, NULL);
  g_assert_nonnull (cell);
  g_assert_cmpint (cell->exponent, ==, 22);
  gtk_drop_down_set_selected (run_dd, 0);
  g_object_get (page, "exponent", &exponent, NULL);
  g_assert_cmpint (exponent, ==, 20);
  g_assert_nonnull (ms_timeline_page_get_cell (page, NULL));
  ms_test_destroy (window, GTK_WIDGET (page));
}

/* Around a session without a GPU: the page shows the session's selected
 * run and picking a run selects it in the session; a run closed leaves the
 * other, the last one closed empties the page. */
static void
test_session (void)
{
  g_autoptr (MsSession) session = g_object_new (MS_TYPE_SESSION, NULL);
  MsTimelinePage *page = g_object_new (MS_TYPE_TIMELINE_PAGE, "session", session, NULL);
  MsTimelineView *view = ms_test_child (page, "view");
  GtkWindow *window = ms_test_show (GTK_WIDGET (page), 1000, 500);
  g_assert_null (ms_timeline_page_get_cell (page, NULL));

  g_autoptr (MsRun) run = ms_test_read_run ("h100-default-samples.csv.gz", "default");
  g_autoptr (MsRun) large = ms_test_read_run ("h100-large-samples.csv.gz", "large");
  g_assert_true (ms_session_add_run (session, run));
  const MsCell *cell = ms_timeline_page_get_cell (page, NULL);
  g_assert_nonnull (cell);
  g_assert_cmpint (cell->exponent, ==, 20);
  g_assert_true (ms_test_get_pointer (session, "selected-run") == run);
  g_assert_nonnull (strstr (ms_timeline_view_get_title (view), "2^20"));

  /* The session's selected run is the one shown; the title follows. */
  g_assert_true (ms_session_add_run (session, large));
  g_assert_true (ms_test_get_pointer (session, "selected-run") == run);
  guint title_n;
  ms_test_watch (view, "title", &title_n);
  g_object_set (session, "selected-run", large, NULL);
  g_assert_cmpuint (title_n, >=, 1);
  cell = ms_timeline_page_get_cell (page, NULL);
  g_assert_nonnull (cell);
  g_assert_cmpint (cell->exponent, ==, 22);
  g_assert_nonnull (strstr (ms_timeline_view_get_title (view), "2^22"));
  /* Picking a run here selects it in the session. */
  GtkDropDown *run_dd = GTK_DROP_DOWN (ms_test_find (GTK_WIDGET (page), GTK_TYPE_DROP_DOWN, NULL));
  g_assert_cmpuint (gtk_drop_down_get_selected (run_dd), ==, 1);
  gtk_drop_down_set_selected (run_dd, 0);
  g_assert_true (ms_test_get_pointer (session, "selected-run") == run);

  /* Closing the run shown shows the other. */
  g_assert_true (ms_session_remove_run (session, run, NULL));
  cell = ms_timeline_page_get_cell (page, NULL);
  g_assert_nonnull (cell);
  g_assert_cmpint (cell->exponent, ==, 22);
  g_assert_true (ms_test_get_pointer (session, "selected-run") == large);
  ms_session_clear_runs (session);
  g_assert_null (ms_timeline_page_get_cell (page, NULL));
  g_assert_null (ms_test_get_pointer (session, "selected-run"));
  ms_test_destroy (window, GTK_WIDGET (page));
}

int
main (int argc, char **argv)
{
  ms_widget_test_init (&argc, &argv);
  g_test_add_func ("/timeline-page/pickers", test_pickers);
  g_test_add_func ("/timeline-page/empty-text", test_empty_text);
  g_test_add_func ("/timeline-page/sizes-per-run", test_sizes_per_run);
  g_test_add_func ("/timeline-page/session", test_session);
  return g_test_run ();
}
