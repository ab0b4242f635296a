/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-widget-compare-page.c: MsComparePage: a status page below two runs;
 * with the H100 and H200 reference runs, the first against the second, the
 * summary, the table's rows, the pickers and the threshold; the chart
 * drawn; a run against itself all SAME; Measure Live through the
 * command line on the CPU baseline, its runs picked as A and B. */
#include "lessons/ms-run-read.h"
#include "ms-compare-page.h"
#include "ms-widget-test.h"

static MsRun *
reference_run (const char *file)
{
  char err[512];
  g_autofree char *path = g_build_filename (g_getenv ("MEMSWEEP_REFERENCE_DIR"), file, NULL);
  MsResults *r = ms_run_read_samples (path, err, sizeof err);
  g_assert_nonnull (r);
  MsRun *run = ms_run_new (r, MS_RUN_KIND_REFERENCE);
  ms_run_set_name (run, file);
  return run;
}

/* The H100 and H200 default sweeps, A and B. */
static GPtrArray *
h100_and_h200 (void)
{
  GPtrArray *runs = ms_run_array_new ();
  g_ptr_array_add (runs, reference_run ("h100-default-samples.csv.gz"));
  g_ptr_array_add (runs, reference_run ("h200-default-samples.csv.gz"));
  return runs;
}

static GtkWidget *
visible_stack_child (MsComparePage *page)
{
  GtkStack *stack = GTK_STACK (ms_test_find (GTK_WIDGET (page), GTK_TYPE_STACK, NULL));
  g_assert_nonnull (stack);
  return gtk_stack_get_visible_child (stack);
}

static gboolean
table_has_rows (gpointer table)
{
  GListModel *model = G_LIST_MODEL (gtk_column_view_get_model (table));
  guint *want = g_object_get_data (G_OBJECT (table), "want");
  return g_list_model_get_n_items (model) == *want;
}

/* Labels under root that say text. */
static guint
count_labels (GtkWidget *root, const char *text)
{
  guint n = GTK_IS_LABEL (root) && g_strcmp0 (gtk_label_get_text (GTK_LABEL (root)), text) == 0;
  for (GtkWidget *c = gtk_widget_get_first_child (root); c; c = gtk_widget_get_next_sibling (c))
    n += count_labels (c, text);
  return n;
}

/* The table's rows come in idle slices while the page is shown. */
static void
wait_rows (GtkColumnView *table, guint n)
{
  g_object_set_data (G_OBJECT (table), "want", &n);
  ms_test_wait_until (table_has_rows, table, "the table has its rows");
}

static void
on_rows_changed (GListModel *model, guint position, guint removed, guint added, guint *calls)
{
  (*calls)++;
}

static int
n_apart (const MsComparison *cmp)
{
  return cmp->all.count[MS_VERDICT_FASTER] + cmp->all.count[MS_VERDICT_SLOWER];
}

static void
test_runs (void)
{
  MsComparePage *page = g_object_new (MS_TYPE_COMPARE_PAGE, NULL);
  GtkWindow *window = ms_test_show (GTK_WIDGET (page), 1024, 768);
  /* No runs, then one: the status page says how to open two. */
  g_assert_null (ms_compare_page_get_comparison (page));
  g_assert_true (ADW_IS_STATUS_PAGE (visible_stack_child (page)));
  g_autoptr (GPtrArray) runs = ms_run_array_new ();
  g_ptr_array_add (runs, reference_run ("h100-default-samples.csv.gz"));
  ms_page_show_runs (MS_PAGE (page), runs);
  g_assert_true (ADW_IS_STATUS_PAGE (visible_stack_child (page)));
  g_assert_null (ms_compare_page_get_comparison (page));

  /* Two: the first is A, the second B. */
  g_ptr_array_add (runs, reference_run ("h200-default-samples.csv.gz"));
  ms_page_show_runs (MS_PAGE (page), runs);
  g_assert_false (ADW_IS_STATUS_PAGE (visible_stack_child (page)));
  const MsComparison *cmp = ms_compare_page_get_comparison (page);
  g_assert_nonnull (cmp);
  g_assert_cmpint (cmp->all.n_common, ==, 121);
  g_assert_true (ms_comparison_differs (cmp));
  g_assert_nonnull (
    strstr (gtk_label_get_text (ms_test_child (page, "modes_label")), "Pinned: 11 common cells"));
  GtkColumnView *table
      = GTK_COLUMN_VIEW (ms_test_find (GTK_WIDGET (page), GTK_TYPE_COLUMN_VIEW, NULL));
  wait_rows (table, 121);
  /* Rows are changed in place by a new comparison: the table keeps its
   * rows (and their widgets). */
  GListModel *rows = G_LIST_MODEL (gtk_column_view_get_model (table));
  g_autoptr (GObject) row0 = g_list_model_get_item (rows, 0);
  guint rows_changed = 0;
  gulong handler = g_signal_connect (rows, "items-changed", G_CALLBACK (on_rows_changed),
                                     &rows_changed);
  GtkWidget *chart = ms_test_find (GTK_WIDGET (page), GTK_TYPE_DRAWING_AREA, NULL);
  ms_test_wait_until (ms_test_is_laid_out, chart, "the chart is laid out");
  g_assert_cmpuint (ms_test_ink (chart), >, 10);

  /* The threshold is a property the spin button follows. */
  guint notified;
  ms_test_watch (page, "threshold", &notified);
  g_object_set (page, "threshold", 99.0, NULL);
  g_assert_cmpuint (notified, ==, 1);
  GtkSpinButton *spin
      = GTK_SPIN_BUTTON (ms_test_find (GTK_WIDGET (page), GTK_TYPE_SPIN_BUTTON, NULL));
  g_assert_cmpfloat (gtk_spin_button_get_value (spin), ==, 99.0);
  /* The comparison follows: a wider band decides fewer cells apart,
   * whatever the band's shape (engine/ms-verdict.c). */
  g_assert_cmpfloat (ms_compare_page_get_comparison (page)->threshold, ==, 0.99);
  int apart_wide = n_apart (ms_compare_page_get_comparison (page));
  gtk_spin_button_set_value (spin, 5);
  g_assert_cmpfloat (ms_compare_page_get_comparison (page)->threshold, ==, 0.05);
  g_assert_cmpint (n_apart (ms_compare_page_get_comparison (page)), >, apart_wide + 10);
  g_autoptr (GObject) row0_after = g_list_model_get_item (rows, 0);
  g_assert_true (row0_after == row0);
  g_assert_cmpuint (rows_changed, ==, 0);
  g_signal_handler_disconnect (rows, handler);

  /* B picked as the first run: a run against itself never differs (SAME,
   * or AMBIGUOUS where a cell's own interval is wider than the threshold). */
  GtkDropDown *b = NULL;
  for (GtkWidget *w = ms_test_find (GTK_WIDGET (page), GTK_TYPE_DROP_DOWN, NULL); w;
       w = gtk_widget_get_next_sibling (w))
    if (GTK_IS_DROP_DOWN (w))
      b = GTK_DROP_DOWN (w);
  g_assert_nonnull (b);
  gtk_drop_down_set_selected (b, 0);
  cmp = ms_compare_page_get_comparison (page);
  g_assert_false (ms_comparison_differs (cmp));
  g_assert_cmpfloat (cmp->all.median_ratio, ==, 1);
  int same = cmp->all.count[MS_VERDICT_SAME];
  g_assert_cmpint (same + cmp->all.count[MS_VERDICT_AMBIGUOUS], ==, 121);
  /* And the page says that A and B are one run, first. */
  g_assert_true (g_str_has_prefix (gtk_label_get_text (ms_test_child (page, "summary_label")),
                                   "A and B are the same run: it is compared with itself."));
  /* The pick survives the runs changing. */
  ms_page_show_runs (MS_PAGE (page), runs);
  g_assert_cmpint (ms_compare_page_get_comparison (page)->all.count[MS_VERDICT_SAME], ==, same);

  /* Back to one run. */
  g_ptr_array_set_size (runs, 1);
  ms_page_show_runs (MS_PAGE (page), runs);
  g_assert_true (ADW_IS_STATUS_PAGE (visible_stack_child (page)));
  ms_test_destroy (window, GTK_WIDGET (page));
}

/* Hidden, the page makes no rows for its table (runs are opened with
 * another page in view); shown, they come; a label shown follows its
 * row's cell when the comparison changes. */
static void
test_hidden (void)
{
  GtkStack *stack = GTK_STACK (gtk_stack_new ());
  GtkWidget *other = gtk_label_new ("other");
  MsComparePage *page = g_object_new (MS_TYPE_COMPARE_PAGE, NULL);
  gtk_stack_add_child (stack, other);
  gtk_stack_add_child (stack, GTK_WIDGET (page));
  gtk_stack_set_visible_child (stack, other);
  GtkWindow *window = ms_test_show (GTK_WIDGET (stack), 1024, 768);
  g_autoptr (GPtrArray) runs = h100_and_h200 ();
  ms_page_show_runs (MS_PAGE (page), runs);
  g_assert_nonnull (ms_compare_page_get_comparison (page));
  GtkColumnView *table
      = GTK_COLUMN_VIEW (ms_test_find (GTK_WIDGET (page), GTK_TYPE_COLUMN_VIEW, NULL));
  GListModel *rows = G_LIST_MODEL (gtk_column_view_get_model (table));
  for (int i = 0; i < 5; i++)
    g_main_context_iteration (NULL, FALSE);
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 0);

  gtk_stack_set_visible_child (stack, GTK_WIDGET (page));
  wait_rows (table, 121);
  GtkWidget *t = GTK_WIDGET (table);
  guint apart = count_labels (t, "B slower") + count_labels (t, "B faster");
  guint same = count_labels (t, "same");
  g_assert_cmpuint (apart, >, 0);
  /* A threshold of 99%: fewer cells differ, and the labels shown say so. */
  g_object_set (page, "threshold", 99.0, NULL);
  g_assert_cmpuint (count_labels (t, "B slower") + count_labels (t, "B faster"), <, apart);
  g_assert_cmpuint (count_labels (t, "same"), >, same);
  ms_test_destroy (window, GTK_WIDGET (stack));
}

/* At 1024x768 the chart has most of the page: the lines per mode are
 * folded away, the table keeps a few rows below; long run names are cut
 * in the pickers (their tooltips have them whole), not widening the page. */
static void
record_height (const char *text, double x, double y, double w, double h, gpointer data)
{
  double *tick = data;
  if (strstr (text, "KiB"))
    *tick = MAX (*tick, h);
}

/* The height of the size axis's labels ("4 KiB") on one snapshot. */
static double
chart_text_height (GtkWidget *chart)
{
  double tick = 0;
  ms_draw_set_text_recorder (record_height, &tick);
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  GTK_WIDGET_GET_CLASS (chart)->snapshot (chart, snapshot);
  GskRenderNode *node = gtk_snapshot_free_to_node (snapshot);
  if (node)
    gsk_render_node_unref (node);
  ms_draw_set_text_recorder (NULL, NULL);
  g_assert_cmpfloat (tick, >, 0);
  return tick;
}

static void
test_layout (void)
{
  MsComparePage *page = g_object_new (MS_TYPE_COMPARE_PAGE, NULL);
  GtkWindow *window = ms_test_show (GTK_WIDGET (page), 1024, 768);
  g_autoptr (GPtrArray) runs = h100_and_h200 ();
  const char *long_name = "NVIDIA H100 80GB HBM3 · sweep · 2026-11-23 09:35 UTC · a long note";
  ms_run_set_name (g_ptr_array_index (runs, 0), long_name);
  ms_page_show_runs (MS_PAGE (page), runs);
  GtkWidget *chart = ms_test_find (GTK_WIDGET (page), GTK_TYPE_DRAWING_AREA, NULL);
  ms_test_wait_until (ms_test_is_laid_out, chart, "the chart is laid out");
  int page_h = gtk_widget_get_height (GTK_WIDGET (page));
  g_assert_cmpint (gtk_widget_get_height (chart), >=, page_h * 6 / 10);
  GtkWidget *table = ms_test_find (GTK_WIDGET (page), GTK_TYPE_COLUMN_VIEW, NULL);
  g_assert_cmpint (gtk_widget_get_height (gtk_widget_get_parent (table)), >=, 90);
  GtkExpander *modes = GTK_EXPANDER (ms_test_find (GTK_WIDGET (page), GTK_TYPE_EXPANDER, NULL));
  g_assert_false (gtk_expander_get_expanded (modes));
  /* Opened, the modes' lines scroll and leave the chart its room (they
   * took all of it at 1024x768 projected). */
  g_object_set (page, "text-scale", 1.6, NULL);
  gtk_expander_set_expanded (modes, TRUE);
  GtkWidget *lines = gtk_widget_get_parent (gtk_widget_get_parent (GTK_WIDGET (modes)));
  g_assert_true (GTK_IS_SCROLLED_WINDOW (lines));
  ms_test_wait_until (ms_test_is_laid_out, lines, "the modes' lines are laid out");
  g_assert_cmpint (gtk_widget_get_height (lines), <=, 170);
  g_assert_cmpint (gtk_widget_get_height (chart), >=, page_h * 3 / 10);
  gtk_expander_set_expanded (modes, FALSE);
  g_object_set (page, "text-scale", 1.0, NULL);
  g_assert_nonnull (
    strstr (gtk_label_get_text (ms_test_child (page, "summary_label")), "all: 121 common cells"));
  int min_w;
  gtk_widget_measure (GTK_WIDGET (page), GTK_ORIENTATION_HORIZONTAL, -1, &min_w, NULL, NULL, NULL);
  g_assert_cmpint (min_w, <, 800);
  GtkWidget *a = ms_test_find (GTK_WIDGET (page), GTK_TYPE_DROP_DOWN, NULL);
  g_assert_cmpstr (gtk_widget_get_tooltip_text (a), ==, long_name);
  /* Projected, the chart's text grows with the window's text scale, as in
   * every view (up to 1.3 in a low chart, which keeps the plot its room). */
  double plain = chart_text_height (chart);
  g_object_set (page, "text-scale", 1.6, "line-scale", 2.0, "high-contrast", TRUE, NULL);
  g_assert_cmpfloat (chart_text_height (chart), >, plain * 1.2);

  ms_test_destroy (window, GTK_WIDGET (page));
}

/* Without a window, with a session of its own. */
static void
test_session (void)
{
  MsComparePage *page = g_object_ref_sink (g_object_new (MS_TYPE_COMPARE_PAGE, NULL));
  g_autoptr (MsSession) session = g_object_new (MS_TYPE_SESSION, NULL);
  ms_page_set_session (MS_PAGE (page), session);
  g_autoptr (MsRun) a = reference_run ("h100-default-samples.csv.gz");
  g_autoptr (MsRun) b = reference_run ("h200-default-samples.csv.gz");
  ms_session_add_run (session, a);
  g_assert_null (ms_compare_page_get_comparison (page));
  ms_session_add_run (session, b);
  g_assert_nonnull (ms_compare_page_get_comparison (page));
  ms_page_set_session (MS_PAGE (page), NULL);
  g_assert_finalize_object (page);
}

/* The command line of this build, found on PATH as an installed one is:
 * tests/ui/ and app/cli/ are two folders apart. */
static void
put_cli_on_path (void)
{
  g_autofree char *self = g_file_read_link ("/proc/self/exe", NULL);
  g_autofree char *dir = g_path_get_dirname (self);
  g_autofree char *cli = g_build_filename (dir, "..", "..", "app", "cli", NULL);
  g_autofree char *path = g_strdup_printf ("%s:%s", cli, g_getenv ("PATH"));
  g_setenv ("PATH", path, TRUE);
}

/* The page's Measure Live button, which says label. */
static GtkWidget *
live_button (MsComparePage *page, const char *label)
{
  GtkWidget *b = ms_test_find (GTK_WIDGET (page), GTK_TYPE_BUTTON, label);
  g_assert_nonnull (b);
  return b;
}

static void
on_live_finished (MsSession *session, MsRun *a, MsRun *b, const char *error, int *finished)
{
  g_assert_null (error);
  g_assert_nonnull (a);
  g_assert_nonnull (b);
  (*finished)++;
}

static gboolean
is_set (gpointer flag)
{
  return *(int *) flag != 0;
}

/* Measure Live: the button follows the session (a Stop while it measures),
 * both sides join the runs, named as live, and are picked as A and B. */
static void
test_live (void)
{
  g_autofree char *home = g_dir_make_tmp ("memsweep-live-XXXXXX", NULL);
  g_setenv ("XDG_DATA_HOME", home, TRUE);
  put_cli_on_path ();
  MsComparePage *page = g_object_ref_sink (g_object_new (MS_TYPE_COMPARE_PAGE, NULL));
  g_autoptr (MsSession) session = g_object_new (MS_TYPE_SESSION, NULL);
  ms_page_set_session (MS_PAGE (page), session);
  live_button (page, "Measure _Live…");
  int finished = 0;
  g_signal_connect (session, "live-compare-finished", G_CALLBACK (on_live_finished), &finished);
  const char *host = "--modes host --min-exp 12 --max-exp 14 --step 2";
  g_autoptr (GError) error = NULL;
  g_assert_true (ms_session_run_live_compare (session, host, host, 10, 10, &error));
  g_assert_no_error (error);
  g_assert_true (ms_session_get_live_comparing (session));
  g_assert_true (ms_session_get_busy (session));
  g_assert_true (gtk_widget_get_sensitive (live_button (page, "_Stop Live")));
  /* A second piece of work waits for this one. */
  g_assert_false (ms_session_run_live_compare (session, host, host, 10, 10, NULL));
  ms_test_wait_until (is_set, &finished, "the live comparison ends");
  g_assert_false (ms_session_get_live_comparing (session));
  g_assert_cmpuint (ms_session_get_n_runs (session), ==, 2);
  g_assert_true (g_str_has_prefix (ms_run_get_name (ms_session_get_run (session, 0)), "Live A"));
  const MsComparison *cmp = ms_compare_page_get_comparison (page);
  g_assert_nonnull (cmp);
  g_assert_cmpint (cmp->all.n_common, >, 0);
  live_button (page, "Measure _Live…");
  ms_page_set_session (MS_PAGE (page), NULL);
  g_assert_finalize_object (page);
}

/* A lesson run opened beside two sweeps stays out of the pickers: the
 * comparison is between the sweeps. */
static void
test_lesson_runs_left_out (void)
{
  MsComparePage *page = g_object_new (MS_TYPE_COMPARE_PAGE, NULL);
  GtkWindow *window = ms_test_show (GTK_WIDGET (page), 1024, 768);
  g_autoptr (GPtrArray) runs = ms_run_array_new ();
  g_ptr_array_add (runs, reference_run ("h100-lesson-batched-samples.csv.gz"));
  g_ptr_array_add (runs, reference_run ("h100-default-samples.csv.gz"));
  g_ptr_array_add (runs, reference_run ("h200-default-samples.csv.gz"));
  ms_page_show_runs (MS_PAGE (page), runs);
  GtkDropDown *a = GTK_DROP_DOWN (ms_test_find (GTK_WIDGET (page), GTK_TYPE_DROP_DOWN, NULL));
  g_assert_nonnull (a);
  g_assert_cmpuint (g_list_model_get_n_items (gtk_drop_down_get_model (a)), ==, 2);
  const MsComparison *cmp = ms_compare_page_get_comparison (page);
  g_assert_nonnull (cmp);
  g_assert_cmpint (cmp->all.n_common, ==, 121);
  ms_test_destroy (window, GTK_WIDGET (page));
}

/* Tab from the threshold goes on to the table's cells, as a keyboard user
 * reaches them (GTK 4.8's selectable summary label claimed Tab without
 * taking it: the focus stayed in the threshold). */
static void
test_tab_order (void)
{
  MsComparePage *page = g_object_new (MS_TYPE_COMPARE_PAGE, NULL);
  GtkWindow *window = ms_test_show (GTK_WIDGET (page), 1024, 768);
  g_autoptr (GPtrArray) runs = h100_and_h200 ();
  ms_page_show_runs (MS_PAGE (page), runs);
  GtkWidget *table = ms_test_find (GTK_WIDGET (page), GTK_TYPE_COLUMN_VIEW, NULL);
  wait_rows (GTK_COLUMN_VIEW (table), 121);
  GtkWidget *spin = ms_test_find (GTK_WIDGET (page), GTK_TYPE_SPIN_BUTTON, NULL);
  g_assert_true (gtk_widget_grab_focus (spin));
  gboolean reached = FALSE;
  for (int i = 0; i < 8 && !reached; i++) {
    gtk_widget_child_focus (GTK_WIDGET (window), GTK_DIR_TAB_FORWARD);
    GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (window));
    reached = focus && gtk_widget_is_ancestor (focus, table);
  }
  g_assert_true (reached);
  ms_test_destroy (window, GTK_WIDGET (page));
}

int
main (int argc, char **argv)
{
  ms_widget_test_init (&argc, &argv);
  g_test_add_func ("/compare-page/runs", test_runs);
  g_test_add_func ("/compare-page/layout", test_layout);
  g_test_add_func ("/compare-page/hidden", test_hidden);
  g_test_add_func ("/compare-page/session", test_session);
  g_test_add_func ("/compare-page/lesson-runs-left-out", test_lesson_runs_left_out);
  g_test_add_func ("/compare-page/live", test_live);
  g_test_add_func ("/compare-page/tab-order", test_tab_order);
  return g_test_run ();
}
