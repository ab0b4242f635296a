/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-widget-table-page.c: MsTablePage and its rows: every cell a row,
 * sorting, the selection as CSV, and the page following its session. */
#include <math.h>
#include <string.h>

#include "lessons/ms-run-read.h"
#include "ms-modes.h"
#include "ms-run.h"
#include "ms-table-model.h"
#include "ms-table-page.h"
#include "ms-table-row.h"
#include "ms-variant-text.h"
#include "ms-widget-test.h"

static void
test_rows_and_csv (void)
{
  g_autoptr (GPtrArray) runs = ms_test_reference_runs ();
  const MsResults *run = ms_run_get_results (g_ptr_array_index (runs, 0));
  MsTablePage *page = g_object_new (MS_TYPE_TABLE_PAGE, NULL);
  ms_page_show_runs (MS_PAGE (page), runs);
  GtkSelectionModel *selection = ms_test_child (page, "selection");
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (selection)), ==, run->n_cells);

  /* Nothing selected: the header only. */
  g_autofree char *empty = ms_table_page_dup_selected_csv (page);
  g_assert_true (g_str_has_prefix (empty, "run,mode,elements,status,"));
  g_assert_cmpuint (strlen (strchr (empty, '\n')), ==, 1);

  gtk_selection_model_select_range (selection, 0, 3, TRUE);
  g_autofree char *csv = ms_table_page_dup_selected_csv (page);
  g_auto (GStrv) lines = g_strsplit (csv, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 5); /* header, 3 rows, "" */
  g_assert_nonnull (strstr (lines[1], ",pageable,1024,ok,"));

  GtkWindow *window = ms_test_show (GTK_WIDGET (page), 1200, 600);
  ms_page_show_runs (MS_PAGE (page), NULL);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (selection)), ==, 0);
  ms_test_destroy (window, GTK_WIDGET (page));
}

typedef struct {
  guint calls, position, removed, added;
} ItemsChanged;

static void
on_items_changed (GListModel *model, guint position, guint removed, guint added, ItemsChanged *c)
{
  c->calls++;
  c->position = position;
  c->removed = removed;
  c->added = added;
}

/* Rows are made as they show: the model counts every cell of every run, and
 * a run opened later changes only its own rows, not those already shown. */
static void
test_lazy_rows (void)
{
  g_autoptr (GPtrArray) runs = ms_test_reference_runs ();
  const MsResults *first = ms_run_get_results (g_ptr_array_index (runs, 0));
  char err[512];
  g_autofree char *path =
    g_build_filename (g_getenv ("MEMSWEEP_REFERENCE_DIR"), "h200-default-samples.csv.gz", NULL);
  MsResults *second = ms_run_read_samples (path, err, sizeof err);
  g_assert_nonnull (second);
  MsRun *second_run = ms_run_new (second, MS_RUN_KIND_REFERENCE);
  MsTablePage *page = g_object_ref_sink (g_object_new (MS_TYPE_TABLE_PAGE, NULL));
  GListModel *rows = G_LIST_MODEL (ms_test_child (page, "selection"));
  ItemsChanged c = { 0 };
  g_signal_connect (rows, "items-changed", G_CALLBACK (on_items_changed), &c);
  ms_page_show_runs (MS_PAGE (page), runs);
  g_assert_cmpuint (c.calls, ==, 1);
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, first->n_cells);

  g_ptr_array_add (runs, second_run);
  ms_page_show_runs (MS_PAGE (page), runs);
  g_assert_cmpuint (c.calls, ==, 2);
  g_assert_cmpuint (c.position, ==, first->n_cells);
  g_assert_cmpuint (c.removed, ==, 0);
  g_assert_cmpuint (c.added, ==, second->n_cells);
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, first->n_cells + second->n_cells);
  g_autoptr (MsTableRow) last = g_list_model_get_item (rows, first->n_cells + second->n_cells - 1);
  g_assert_nonnull (last);
  g_assert_null (g_list_model_get_item (rows, first->n_cells + second->n_cells));

  /* The same runs again change nothing; closing the first moves the rest. */
  ms_page_show_runs (MS_PAGE (page), runs);
  g_assert_cmpuint (c.calls, ==, 2);
  g_ptr_array_remove_index (runs, 0);
  ms_page_show_runs (MS_PAGE (page), runs);
  g_assert_cmpuint (c.calls, ==, 3);
  g_assert_cmpuint (c.position, ==, 0);
  g_assert_cmpuint (c.added, ==, 0);
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, second->n_cells);
  g_object_unref (page);
}

/* A copy of the list kept by items-changed alone: it must match the model
 * after every change, limit or not. */
typedef struct {
  GListModel *model;
  guint n, calls;
} Mirror;

static void
on_mirror_changed (GListModel *model, guint position, guint removed, guint added, Mirror *m)
{
  g_assert_cmpuint (position + removed, <=, m->n);
  m->n = m->n - removed + added;
  m->calls++;
  g_assert_cmpuint (m->n, ==, g_list_model_get_n_items (model));
}

static void
test_limit (void)
{
  g_autoptr (GPtrArray) runs = ms_test_reference_runs ();
  const MsResults *first = ms_run_get_results (g_ptr_array_index (runs, 0));
  g_autoptr (MsTableModel) model = g_object_new (MS_TYPE_TABLE_MODEL, NULL);
  Mirror m = { G_LIST_MODEL (model) };
  g_signal_connect (model, "items-changed", G_CALLBACK (on_mirror_changed), &m);
  ms_table_model_set_limit (model, 5);
  ms_table_model_set_runs (model, runs);
  g_assert_cmpuint (m.n, ==, 5);
  g_assert_cmpuint (ms_table_model_get_n_all (model), ==, first->n_cells);
  g_assert_null (g_list_model_get_item (G_LIST_MODEL (model), 5));

  /* A run opened beyond the limit changes nothing shown. */
  char err[512];
  g_autofree char *path =
    g_build_filename (g_getenv ("MEMSWEEP_REFERENCE_DIR"), "h200-default-samples.csv.gz", NULL);
  MsResults *second = ms_run_read_samples (path, err, sizeof err);
  g_assert_nonnull (second);
  MsRun *second_run = ms_run_new (second, MS_RUN_KIND_REFERENCE);
  g_ptr_array_add (runs, second_run);
  guint calls = m.calls;
  ms_table_model_set_runs (model, runs);
  g_assert_cmpuint (m.calls, ==, calls);
  g_assert_cmpuint (ms_table_model_get_n_all (model), ==, first->n_cells + second->n_cells);

  /* Closing the first run under a limit past it: its rows go, the second
   * run's rows move up and those that cross the limit come in. */
  ms_table_model_set_limit (model, first->n_cells + 7);
  g_assert_cmpuint (m.n, ==, first->n_cells + 7);
  /* Read before closing: the first run's results go with it. */
  guint limit = first->n_cells + 7;
  first = NULL;
  g_ptr_array_remove_index (runs, 0);
  ms_table_model_set_runs (model, runs);
  g_assert_cmpuint (m.n, ==, MIN (second->n_cells, limit));
  g_autoptr (MsTableRow) row = g_list_model_get_item (G_LIST_MODEL (model), m.n - 1);
  g_assert_nonnull (row);
  ms_table_model_set_limit (model, 0);
  g_assert_cmpuint (m.n, ==, 0);
  ms_table_model_set_limit (model, G_MAXUINT);
  g_assert_cmpuint (m.n, ==, second->n_cells);
}

typedef struct {
  GListModel *rows;
  guint want, calls;
} Growth;

static void
on_growth (GListModel *rows, guint position, guint removed, guint added, Growth *g)
{
  g->calls++;
}

static gboolean
all_rows_shown (gpointer data)
{
  Growth *g = data;
  return g_list_model_get_n_items (g->rows) == g->want;
}

static GtkColumnView *
find_column_view (GtkWidget *widget)
{
  if (GTK_IS_COLUMN_VIEW (widget))
    return GTK_COLUMN_VIEW (widget);
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c)) {
    GtkColumnView *found = find_column_view (c);
    if (found)
      return found;
  }
  return NULL;
}

static gboolean
column_view_let_go (gpointer view)
{
  return gtk_column_view_get_model (view) == NULL;
}

/* Shown, the table takes its rows a few at a time (GTK makes widgets for
 * each) and gives the selection back once they are all in. */
static void
test_rows_grow_when_shown (void)
{
  g_autoptr (GPtrArray) runs = ms_test_reference_runs ();
  const MsResults *run = ms_run_get_results (g_ptr_array_index (runs, 0));
  MsTablePage *page = g_object_new (MS_TYPE_TABLE_PAGE, NULL);
  ms_page_show_runs (MS_PAGE (page), runs);
  GtkSelectionModel *selection = ms_test_child (page, "selection");
  gtk_selection_model_select_item (selection, run->n_cells - 1, FALSE);
  Growth g = { G_LIST_MODEL (selection), run->n_cells };
  g_signal_connect (selection, "items-changed", G_CALLBACK (on_growth), &g);
  GtkWindow *window = ms_test_show (GTK_WIDGET (page), 1200, 600);
  ms_test_wait_until (all_rows_shown, &g, "every row is in");
  g_assert_cmpuint (g.calls, >, 2);
  g_assert_true (gtk_selection_model_is_selected (selection, run->n_cells - 1));
  g_assert_false (gtk_selection_model_is_selected (selection, 0));

  /* A run opened while shown comes in the same way. */
  char err[512];
  g_autofree char *path =
    g_build_filename (g_getenv ("MEMSWEEP_REFERENCE_DIR"), "h200-default-samples.csv.gz", NULL);
  MsResults *second = ms_run_read_samples (path, err, sizeof err);
  g_assert_nonnull (second);
  MsRun *second_run = ms_run_new (second, MS_RUN_KIND_REFERENCE);
  g_ptr_array_add (runs, second_run);
  g.calls = 0;
  g.want = run->n_cells + second->n_cells;
  ms_page_show_runs (MS_PAGE (page), runs);
  g_assert_cmpuint (g_list_model_get_n_items (g.rows), <, g.want);
  ms_test_wait_until (all_rows_shown, &g, "the new run's rows are in");
  g_assert_cmpuint (g.calls, >, 2);

  /* Shown again, the page holds the selection while its rows come back:
   * a run opened after it meanwhile keeps it, one closed before it drops
   * it (the rows moved). */
  GtkColumnView *view = find_column_view (GTK_WIDGET (page));
  gtk_selection_model_select_item (selection, 3, TRUE);
  gtk_widget_set_visible (GTK_WIDGET (page), FALSE);
  ms_test_wait_until (column_view_let_go, view, "the hidden table lets go of its rows");
  g_assert_true (gtk_selection_model_is_selected (selection, 3));
  gtk_widget_set_visible (GTK_WIDGET (page), TRUE);
  g_ptr_array_add (runs, g_object_ref (second_run));
  g.want += second->n_cells;
  ms_page_show_runs (MS_PAGE (page), runs);
  ms_test_wait_until (all_rows_shown, &g, "the third run's rows are in");
  g_assert_true (gtk_selection_model_is_selected (selection, 3));
  gtk_widget_set_visible (GTK_WIDGET (page), FALSE);
  ms_test_wait_until (column_view_let_go, view, "the hidden table lets go of its rows");
  gtk_widget_set_visible (GTK_WIDGET (page), TRUE);
  g.want -= run->n_cells;
  g_ptr_array_remove_index (runs, 0);
  ms_page_show_runs (MS_PAGE (page), runs);
  ms_test_wait_until (all_rows_shown, &g, "the first run's rows are gone");
  g_assert_false (gtk_selection_model_is_selected (selection, 3));

  /* Sorted by a column, rows come and go at once: hidden, the list keeps
   * every row; shown again, so does the first frame's. */
  g_autoptr (GtkColumnViewColumn) size =
    g_list_model_get_item (gtk_column_view_get_columns (view), MS_TABLE_COL_SIZE);
  gtk_column_view_sort_by_column (view, size, GTK_SORT_DESCENDING);
  gtk_widget_set_visible (GTK_WIDGET (page), FALSE);
  g_assert_cmpuint (g_list_model_get_n_items (g.rows), ==, g.want);
  gtk_widget_set_visible (GTK_WIDGET (page), TRUE);
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (page)));
  g_assert_cmpuint (g_list_model_get_n_items (g.rows), ==, g.want);
  ms_test_wait_until (ms_test_is_laid_out, page, "the page is shown again");
  ms_test_destroy (window, GTK_WIDGET (page));
}

/* What a person reads: the modes' display names, the timers' cost as the
 * Timeline view words it, variants in words, and a title's tooltip. */
static void
test_words (void)
{
  MsCell cell = { .mode = MS_MODE_DEVICE, .exponent = 10, .elements = 1024, .status = MS_CELL_OK,
                  .n_reps = 10 };
  cell.stats.e2e = (MsStat){ .n = 10, .median = 10.0 };
  cell.stats.e2e_instr = (MsStat){ .n = 10, .median = 9.5 };
  g_snprintf (cell.variant, sizeof cell.variant, "stores=streamed/read=wc/K=4/odd=1");
  g_autoptr (MsTableRow) row = ms_table_row_new ("run", &cell, MS_TABLE_ROW_TIMES);
  g_autofree char *mode = ms_table_row_text (row, MS_TABLE_COL_MODE);
  g_assert_cmpstr (mode, ==, ms_mode_title (MS_MODE_DEVICE));
  g_autofree char *size = ms_table_row_text (row, MS_TABLE_COL_SIZE);
  g_assert_cmpstr (size, ==, "4 KiB");
  /* An instrumented median under the plain one is noise, not a saving. */
  g_autofree char *cost = ms_table_row_text (row, MS_TABLE_COL_OVERHEAD);
  g_assert_cmpstr (cost, ==, "≈0");
  cell.stats.e2e_instr.median = 12.5;
  g_autoptr (MsTableRow) slower = ms_table_row_new ("run", &cell, MS_TABLE_ROW_TIMES);
  g_autofree char *added = ms_table_row_text (slower, MS_TABLE_COL_OVERHEAD);
  g_assert_cmpstr (added, ==, "+2.5");

  g_autofree char *words = ms_variant_describe (cell.variant);
  g_assert_nonnull (strstr (words, "stores=streamed: the host writes the inputs with streaming"));
  g_assert_nonnull (strstr (words, "\nread=wc: the result in write-combined host memory"));
  g_assert_nonnull (strstr (words, "\nK=4: 4 streams"));
  g_assert_true (g_str_has_suffix (words, "\nodd=1"));
  g_autofree char *tip = ms_table_row_tooltip (row, MS_TABLE_COL_VARIANT);
  /* The Run column's tooltip: the run in full where known, else its name. */
  g_autofree char *run_tip = ms_table_row_tooltip (row, MS_TABLE_COL_RUN);
  g_assert_cmpstr (run_tip, ==, "run");
  ms_table_row_set_run_description (row, "H100 80GB HBM3 · sweep · 2026-11-24 12:27 UTC");
  g_autofree char *full_tip = ms_table_row_tooltip (row, MS_TABLE_COL_RUN);
  g_assert_cmpstr (full_tip, ==, "H100 80GB HBM3 · sweep · 2026-11-24 12:27 UTC");
  g_assert_cmpstr (tip, ==, words);

  /* Every column says what it holds, on its title. */
  MsTablePage *page = g_object_new (MS_TYPE_TABLE_PAGE, NULL);
  GtkWindow *window = ms_test_show (GTK_WIDGET (page), 1024, 768);
  GtkWidget *view = ms_test_find (GTK_WIDGET (page), GTK_TYPE_COLUMN_VIEW, NULL);
  GtkWidget *title = gtk_widget_get_first_child (gtk_widget_get_first_child (view));
  for (MsTableCol c = 0; c < MS_TABLE_N_COLS; c++, title = gtk_widget_get_next_sibling (title)) {
    g_assert_nonnull (title);
    g_assert_cmpstr (gtk_widget_get_tooltip_text (title), ==, ms_table_col_description (c));
  }
  ms_test_destroy (window, GTK_WIDGET (page));
}

static void
test_row (void)
{
  MsCell ok = { .mode = MS_MODE_PINNED, .exponent = 10, .elements = 1024, .status = MS_CELL_OK };
  ok.stats.e2e.median = 12.5;
  ok.stats.e2e_gbps = 0.98;
  MsCell failed = { .mode = MS_MODE_HOST, .exponent = 12, .elements = 4096,
                    .status = MS_CELL_FAILED };
  g_snprintf (failed.message, sizeof failed.message, "=cmd|' /c calc'!A1");
  ok.n_reps = 10;
  g_snprintf (ok.variant, sizeof ok.variant, "copy=duplex");
  g_autoptr (MsTableRow) a = ms_table_row_new ("run \"A\"", &ok, MS_TABLE_ROW_TIMES);
  g_autoptr (MsTableRow) b = ms_table_row_new ("run B\xff", &failed, MS_TABLE_ROW_TIMES);

  g_autofree char *median = ms_table_row_text (a, MS_TABLE_COL_E2E);
  g_assert_cmpstr (median, ==, "12.5");
  g_autofree char *none = ms_table_row_text (b, MS_TABLE_COL_E2E);
  g_assert_cmpstr (none, ==, "—");
  /* Invalid UTF-8 from a file shows as a replacement character. */
  g_autofree char *name = ms_table_row_text (b, MS_TABLE_COL_RUN);
  g_assert_true (g_utf8_validate (name, -1, NULL));
  /* Rows without a number sort last either way round. */
  g_assert_cmpint (ms_table_row_compare (a, b, MS_TABLE_COL_E2E), <, 0);
  g_assert_cmpint (ms_table_row_compare (b, a, MS_TABLE_COL_E2E), >, 0);
  g_assert_cmpint (ms_table_row_compare (a, b, MS_TABLE_COL_MODE), <, 0);
  g_assert_cmpstr (ms_table_col_title (MS_TABLE_COL_MESSAGE), ==, "Reason");

  g_autoptr (GString) out = g_string_new (NULL);
  ms_table_row_append_csv (a, out);
  ms_table_row_append_csv (b, out);
  g_assert_true (g_str_has_prefix (out->str, "\"run \\\"A\\\"\",pinned,1024,ok,10,12.500,"));
  g_assert_nonnull (strstr (out->str, ",\"copy=duplex\","));
  g_autofree char *variant = ms_table_row_text (a, MS_TABLE_COL_VARIANT);
  g_assert_cmpstr (variant, ==, "copy=duplex");
  g_autofree char *reps = ms_table_row_text (a, MS_TABLE_COL_REPS);
  g_assert_cmpstr (reps, ==, "10");
  /* A reason that starts like a formula is neutralised. */
  g_assert_nonnull (strstr (out->str, ",\"'=cmd|"));
}

/* Around a session without a GPU: a run's cells become rows, a rename
 * reaches them, a run closed takes its rows with it. */
static void
test_session (void)
{
  g_autoptr (MsSession) session = g_object_new (MS_TYPE_SESSION, NULL);
  /* Not shown: shown, rows come in slices (test_rows_grow_when_shown). */
  MsTablePage *page =
    g_object_ref_sink (g_object_new (MS_TYPE_TABLE_PAGE, "session", session, NULL));
  GListModel *rows = G_LIST_MODEL (ms_test_child (page, "selection"));
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 0);

  g_autoptr (MsRun) run = ms_test_read_run ("h100-default-samples.csv.gz", "default");
  g_autoptr (MsRun) large = ms_test_read_run ("h100-large-samples.csv.gz", "large");
  g_assert_true (ms_session_add_run (session, run));
  guint n_cells = ms_run_get_results (run)->n_cells;
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, n_cells);
  g_assert_true (ms_session_add_run (session, large));
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==,
                    n_cells + ms_run_get_results (large)->n_cells);
  g_autoptr (MsTableRow) first = g_list_model_get_item (rows, 0);
  g_autofree char *name = ms_table_row_text (first, MS_TABLE_COL_RUN);
  g_assert_cmpstr (name, ==, "default");

  ms_session_rename_run (session, run, "renamed");
  g_autoptr (MsTableRow) renamed = g_list_model_get_item (rows, 0);
  g_autofree char *new_name = ms_table_row_text (renamed, MS_TABLE_COL_RUN);
  g_assert_cmpstr (new_name, ==, "renamed");

  g_assert_true (ms_session_remove_run (session, run, NULL));
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, ms_run_get_results (large)->n_cells);
  ms_session_clear_runs (session);
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 0);
  g_assert_finalize_object (page);
}

static gboolean
column_shown (MsTablePage *page, MsTableCol col)
{
  GtkColumnView *view = GTK_COLUMN_VIEW (ms_test_find (GTK_WIDGET (page), GTK_TYPE_COLUMN_VIEW, NULL));
  g_autoptr (GtkColumnViewColumn) column =
    g_list_model_get_item (gtk_column_view_get_columns (view), col);
  return gtk_column_view_column_get_visible (column);
}

static guint
count_cells (const MsResults *run, const char *variant_part)
{
  guint n = 0;
  for (size_t i = 0; i < run->n_cells; i++)
    n += strstr (run->cells[i].variant, variant_part) != NULL;
  return n;
}

/* Lesson runs: a variant column, the costs lesson's allocation and free
 * instead of end-to-end times, and the filter by mode or variant. */
static void
test_lessons (void)
{
  g_autoptr (MsSession) session = g_object_new (MS_TYPE_SESSION, NULL);
  MsTablePage *page =
    g_object_ref_sink (g_object_new (MS_TYPE_TABLE_PAGE, "session", session, NULL));
  GListModel *rows = G_LIST_MODEL (ms_test_child (page, "selection"));
  g_autoptr (MsRun) sweep = ms_test_read_run ("h100-default-samples.csv.gz", "sweep");
  g_autoptr (MsRun) costs = ms_test_read_run ("h100-lesson-costs-samples.csv.gz", "costs");
  g_autoptr (MsRun) duplex = ms_test_read_run ("h100-lesson-duplex-samples.csv.gz", "duplex");
  const MsResults *costs_r = ms_run_get_results (costs), *duplex_r = ms_run_get_results (duplex);

  /* A plain sweep: no variant, no costs. */
  g_assert_true (ms_session_add_run (session, sweep));
  g_assert_false (column_shown (page, MS_TABLE_COL_VARIANT));
  g_assert_false (column_shown (page, MS_TABLE_COL_ALLOC));
  g_assert_true (column_shown (page, MS_TABLE_COL_E2E));
  g_assert_true (column_shown (page, MS_TABLE_COL_REPS));
  /* One run: no Run column (the hint names the run), no empty Reason. */
  g_assert_false (column_shown (page, MS_TABLE_COL_RUN));
  g_assert_false (column_shown (page, MS_TABLE_COL_MESSAGE));
  GtkWidget *copy = ms_test_find (GTK_WIDGET (page), GTK_TYPE_BUTTON, "Cop_y Selected Rows");
  GtkLabel *hint = GTK_LABEL (gtk_widget_get_next_sibling (copy));
  g_assert_nonnull (strstr (gtk_label_get_text (hint), ms_run_get_name (sweep)));
  GtkScrolledWindow *scroll =
    GTK_SCROLLED_WINDOW (ms_test_find (GTK_WIDGET (page), GTK_TYPE_SCROLLED_WINDOW, NULL));
  g_assert_false (gtk_scrolled_window_get_overlay_scrolling (scroll));

  /* The costs lesson alone: its variants, alloc and free, no times. */
  ms_session_clear_runs (session);
  g_assert_true (ms_session_add_run (session, costs));
  g_assert_true (column_shown (page, MS_TABLE_COL_VARIANT));
  g_assert_true (column_shown (page, MS_TABLE_COL_ALLOC));
  g_assert_true (column_shown (page, MS_TABLE_COL_FREE));
  g_assert_false (column_shown (page, MS_TABLE_COL_E2E));
  g_assert_false (column_shown (page, MS_TABLE_COL_E2E_GBPS));
  g_autoptr (MsTableRow) row = g_list_model_get_item (rows, 0);
  const MsCell *cell = &costs_r->cells[0];
  g_autofree char *variant = ms_table_row_text (row, MS_TABLE_COL_VARIANT);
  g_assert_cmpstr (variant, ==, cell->variant);
  g_assert_cmpstr (variant, !=, "");
  g_assert_true (isnan (ms_table_row_number (row, MS_TABLE_COL_E2E)));
  g_assert_true (isnan (ms_table_row_number (row, MS_TABLE_COL_E2E_GBPS)));
  MsPhase alloc = cell->mode == MS_MODE_REGISTERED ? MS_PHASE_REGISTER : MS_PHASE_ALLOC;
  g_assert_cmpfloat (ms_table_row_number (row, MS_TABLE_COL_ALLOC), ==,
                     cell->stats.phase_host[alloc].median);

  /* With a sweep beside it, both kinds of columns, and which run a row
   * belongs to. */
  g_assert_true (ms_session_add_run (session, duplex));
  g_assert_true (column_shown (page, MS_TABLE_COL_RUN));
  g_assert_cmpstr (gtk_label_get_text (hint), ==, "Click a column title to sort");
  g_assert_true (column_shown (page, MS_TABLE_COL_E2E));
  g_assert_true (column_shown (page, MS_TABLE_COL_ALLOC));
  guint all = costs_r->n_cells + duplex_r->n_cells;
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, all);

  /* The filter: by variant, by mode, case aside; empty shows every row. */
  GtkEditable *entry = GTK_EDITABLE (ms_test_find (GTK_WIDGET (page), GTK_TYPE_SEARCH_ENTRY, NULL));
  g_assert_nonnull (entry);
  guint n_duplex = count_cells (duplex_r, "copy=duplex");
  g_assert_cmpuint (n_duplex, >, 0);
  g_assert_cmpuint (n_duplex, <, duplex_r->n_cells);
  gtk_editable_set_text (entry, "Copy=Duplex");
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, n_duplex);
  for (guint i = 0; i < n_duplex; i++) {
    g_autoptr (MsTableRow) r = g_list_model_get_item (rows, i);
    g_autofree char *v = ms_table_row_text (r, MS_TABLE_COL_VARIANT);
    g_assert_cmpstr (v, ==, "copy=duplex");
  }
  GtkWidget *none = ms_test_child (page, "no_match_label");
  g_assert_false (gtk_widget_get_visible (none));
  gtk_editable_set_text (entry, "no such mode");
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 0);
  /* The empty table says why. */
  g_assert_true (gtk_widget_get_visible (none));
  g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (none)), "“no such mode”"));
  gtk_editable_set_text (entry, "");
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, all);
  g_assert_false (gtk_widget_get_visible (none));
  g_assert_finalize_object (page);
}

/* The header's title of column c (GTK 4.8: the header buttons, in the
 * columns' order, in the column view's first child; hidden ones too). */
static GtkWidget *
column_title (GtkWidget *column_view, MsTableCol c)
{
  GtkWidget *title = gtk_widget_get_first_child (gtk_widget_get_first_child (column_view));
  for (MsTableCol k = 0; title && k < c; k++)
    title = gtk_widget_get_next_sibling (title);
  return title;
}

static gboolean
larger_text (gpointer title)
{
  int *before = g_object_get_data (G_OBJECT (title), "before");
  return gtk_widget_get_height (title) > *before;
}

/* Projected at 1024x768: the run's name whole (wrapped, not cut), the
 * columns to the timer cost in view, the units under their titles, and the note that spells
 * out the abbreviations the titles use. */
static void
test_projected (void)
{
  g_autoptr (GtkCssProvider) css = gtk_css_provider_new ();
  gtk_css_provider_load_from_resource (css, "/io/github/memsweep/Memsweep/style.css");
  gtk_style_context_add_provider_for_display (gdk_display_get_default (),
                                              GTK_STYLE_PROVIDER (css),
                                              GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
  g_autoptr (GPtrArray) runs = ms_test_reference_runs ();
  MsTablePage *page = g_object_new (MS_TYPE_TABLE_PAGE, NULL);
  ms_page_show_runs (MS_PAGE (page), runs);
  GtkWindow *window = ms_test_show (GTK_WIDGET (page), 1024, 768);
  GtkWidget *view = ms_test_find (GTK_WIDGET (page), GTK_TYPE_COLUMN_VIEW, NULL);
  GtkWidget *timer = column_title (view, MS_TABLE_COL_OVERHEAD);
  int before = gtk_widget_get_height (timer);
  g_object_set_data (G_OBJECT (timer), "before", &before);
  gtk_widget_add_css_class (GTK_WIDGET (window), "presentation");
  ms_test_wait_until (larger_text, timer, "the projected style applies");
  GtkWidget *copy = ms_test_find (GTK_WIDGET (page), GTK_TYPE_BUTTON, "Cop_y Selected Rows");
  GtkLabel *hint = GTK_LABEL (gtk_widget_get_next_sibling (copy));
  const char *name = ms_run_get_name (g_ptr_array_index (runs, 0));
  g_assert_cmpstr (gtk_label_get_text (hint), ==, name);
  g_assert_cmpint (gtk_label_get_ellipsize (hint), ==, PANGO_ELLIPSIZE_NONE);
  g_assert_true (gtk_label_get_wrap (hint));
  GtkScrolledWindow *scroll =
    GTK_SCROLLED_WINDOW (ms_test_find (GTK_WIDGET (page), GTK_TYPE_SCROLLED_WINDOW, NULL));
  /* Every figure a class reads first is in view, the timer cost included
   * (the columns after the kernel span were cut off). */
  graphene_rect_t bounds;
  g_assert_true (gtk_widget_compute_bounds (timer, GTK_WIDGET (scroll), &bounds));
  g_assert_cmpfloat (bounds.origin.x + bounds.size.width, <=,
                     gtk_widget_get_width (GTK_WIDGET (scroll)));
  GListModel *columns = gtk_column_view_get_columns (GTK_COLUMN_VIEW (view));
  g_autoptr (GtkColumnViewColumn) kernel = g_list_model_get_item (columns, MS_TABLE_COL_KERNEL);
  g_assert_nonnull (strchr (gtk_column_view_column_get_title (kernel), '\n'));
  GtkWidget *note = gtk_widget_get_last_child (GTK_WIDGET (page));
  g_assert_true (GTK_IS_LABEL (note));
  const char *said = gtk_label_get_text (GTK_LABEL (note));
  g_assert_nonnull (strstr (said, "E2E = end to end"));
  g_assert_nonnull (strstr (said, "h2d = host to device"));
  g_assert_nonnull (strstr (said, "d2h = device to host"));
  ms_test_destroy (window, GTK_WIDGET (page));
  gtk_style_context_remove_provider_for_display (gdk_display_get_default (),
                                                 GTK_STYLE_PROVIDER (css));
}

int
main (int argc, char **argv)
{
  ms_widget_test_init (&argc, &argv);
  g_test_add_func ("/table-page/rows-and-csv", test_rows_and_csv);
  g_test_add_func ("/table-page/row", test_row);
  g_test_add_func ("/table-page/words", test_words);
  g_test_add_func ("/table-page/lazy-rows", test_lazy_rows);
  g_test_add_func ("/table-page/limit", test_limit);
  g_test_add_func ("/table-page/rows-grow-when-shown", test_rows_grow_when_shown);
  g_test_add_func ("/table-page/session", test_session);
  g_test_add_func ("/table-page/lessons", test_lessons);
  g_test_add_func ("/table-page/projected", test_projected);
  return g_test_run ();
}
