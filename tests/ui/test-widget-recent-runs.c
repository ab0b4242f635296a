/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-widget-recent-runs.c: the Recent Runs dialog over a runs library of
 * its own (two kept runs copied from the reference run, one damaged file):
 * rows for all three, Open emits the run's file and refuses the damaged one
 * with its reason, Rename asks for the name and renames the files, Delete and
 * Undo, the empty page, and the dialog finalised. */

#include <glib/gstdio.h>

#include "ms-meta-sidecar.h"
#include "ms-recent-runs.h"
#include "ms-widget-test.h"
#include "ms-tmp-test.h"

static const char *folder;

static gboolean
is_done_loading (gpointer lib)
{
  gboolean loading;
  g_object_get (lib, "loading", &loading, NULL);
  return !loading;
}

static void
keep_copy (MsRunsLibrary *lib, const char *date)
{
  g_autoptr (GPtrArray) runs = ms_test_reference_runs ();
  MsResults *r = ms_run_get_results (runs->pdata[0]);
  g_snprintf (r->date, sizeof r->date, "%s", date);
  g_assert_true (ms_runs_library_keep (lib, r, NULL));
}

static void
on_open (MsRecentRuns *dialog, GFile *file, char **opened)
{
  g_free (*opened);
  *opened = g_file_get_path (file);
}

static gboolean
shows_label (gpointer data)
{
  gpointer *args = data;
  return ms_test_find_label (args[0], args[1]) != NULL;
}

static GtkButton *
find_button (GtkWidget *widget, const char *tooltip)
{
  if (GTK_IS_BUTTON (widget) && g_strcmp0 (gtk_widget_get_tooltip_text (widget), tooltip) == 0)
    return GTK_BUTTON (widget);
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c)) {
    GtkButton *found = find_button (c, tooltip);
    if (found)
      return found;
  }
  return NULL;
}

/* Open and Show in Folder look different: their icons are not the same,
 * and neither is a folder for opening. */
static void
check_row_icons (MsRecentRuns *dialog)
{
  GtkButton *open = find_button (GTK_WIDGET (dialog), "Open in This Window");
  GtkButton *show = find_button (GTK_WIDGET (dialog), "Show in the File Manager");
  g_assert_nonnull (open);
  g_assert_nonnull (show);
  const char *open_icon = gtk_button_get_icon_name (open);
  g_assert_cmpstr (open_icon, !=, gtk_button_get_icon_name (show));
  g_assert_null (strstr (open_icon, "folder"));
  g_assert_null (strstr (open_icon, "document-open"));
}

/* A row's action: its file by path, as bytes (a name need not be UTF-8). */
static void
activate (MsRecentRuns *dialog, const char *action, const char *path)
{
  g_assert_true (gtk_widget_activate_action_variant (GTK_WIDGET (dialog), action,
                                                     g_variant_new_bytestring (path)));
}

/* The undo of the dialog's delete number n (1 for its first). */
static void
undo (MsRecentRuns *dialog, guint n)
{
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (dialog), "recent.undo", "u", n));
}

static void
test_dialog (void)
{
  g_autoptr (MsRunsLibrary) lib = ms_runs_library_new (folder);
  keep_copy (lib, "2026-11-22T10:00:00Z");
  keep_copy (lib, "2026-11-22T11:00:00Z");
  g_autofree char *damaged = g_build_filename (folder, "damaged-samples.csv", NULL);
  g_assert_true (g_file_set_contents (damaged, "# memsweep samples file\n# device: X", -1, NULL));
  ms_test_wait_until (is_done_loading, lib, "the folder is listed");

  MsRecentRuns *dialog = ms_recent_runs_new (lib);
  char *opened = NULL;
  g_signal_connect (dialog, "open", G_CALLBACK (on_open), &opened);
  gtk_window_present (GTK_WINDOW (dialog));
  ms_test_wait_until (is_done_loading, lib, "the folder is listed again");
  g_assert_cmpuint (g_list_model_get_n_items (ms_runs_library_get_entries (lib)), ==, 3);
  /* The damaged file is dated by its modification time: newest of all. */
  g_autoptr (MsRunsEntry) newest = NULL;
  for (guint i = 0; !newest || ms_runs_entry_get_reason (newest); i++) {
    g_clear_object (&newest);
    newest = g_list_model_get_item (ms_runs_library_get_entries (lib), i);
  }
  g_autofree char *newest_path = g_file_get_path (ms_runs_entry_get_file (newest));
  const char *newest_name = ms_runs_entry_get_name (newest);
  gpointer args[] = { dialog, (gpointer) newest_name };
  ms_test_wait_until (shows_label, args, "the newest run's row shows");
  check_row_icons (dialog);

  /* Open: the run's file; the damaged file is refused with its reason. */
  activate (dialog, "recent.open", newest_path);
  g_assert_cmpstr (opened, ==, newest_path);
  g_clear_pointer (&opened, g_free);
  activate (dialog, "recent.open", damaged);
  g_assert_null (opened);
  g_assert_nonnull (strstr (ms_test_get_string (dialog, "toast-text"), "damaged"));

  /* Renamed: the files follow. */
  activate (dialog, "recent.rename", newest_path);
  ms_test_wait_until (ms_test_has_question, NULL, "Rename asks for the name");
  AdwMessageDialog *question = ms_test_find_question ();
  GtkEditable *entry = GTK_EDITABLE (adw_message_dialog_get_extra_child (question));
  g_assert_cmpstr (gtk_editable_get_text (entry), ==, newest_name);
  gtk_editable_set_text (entry, "after the driver update");
  g_assert_true (ms_test_click_button (GTK_WIDGET (question), "_Rename"));
  g_autofree char *renamed = g_build_filename (folder, "after the driver update-samples.csv", NULL);
  g_assert_true (g_file_test (renamed, G_FILE_TEST_IS_REGULAR));
  g_assert_false (g_file_test (newest_path, G_FILE_TEST_EXISTS));
  ms_test_wait_until (is_done_loading, lib, "the folder is listed after the rename");

  /* Delete, then Undo. */
  activate (dialog, "recent.delete", renamed);
  g_assert_false (g_file_test (renamed, G_FILE_TEST_EXISTS));
  g_assert_cmpuint (g_list_model_get_n_items (ms_runs_library_get_entries (lib)), ==, 2);
  g_assert_nonnull (strstr (ms_test_get_string (dialog, "toast-text"), "deleted"));
  undo (dialog, 1);
  g_assert_true (g_file_test (renamed, G_FILE_TEST_IS_REGULAR));
  ms_test_wait_until (is_done_loading, lib, "the folder is listed after the undo");
  g_assert_cmpuint (g_list_model_get_n_items (ms_runs_library_get_entries (lib)), ==, 3);

  /* Deleted with the dialog closed before the undo ends: aside until the
   * library purges (at quit). */
  activate (dialog, "recent.delete", renamed);
  g_object_add_weak_pointer (G_OBJECT (dialog), (gpointer *) &dialog);
  gtk_window_destroy (GTK_WINDOW (dialog));
  g_assert_null (dialog);
  g_assert_false (g_file_test (renamed, G_FILE_TEST_EXISTS));
  ms_runs_library_purge_all (lib);
  g_autofree char *trash = g_build_filename (folder, ".trash", NULL);
  g_assert_false (g_file_test (trash, G_FILE_TEST_EXISTS));
}

/* Delete X, rename another run to X, delete that too: each toast's undo
 * and dismissal acts on its own delete, never on the other. */
static void
test_delete_same_name_twice (void)
{
  g_autofree char *own = g_build_filename (folder, "twice", NULL);
  g_autoptr (MsRunsLibrary) lib = ms_runs_library_new (own);
  keep_copy (lib, "2026-11-22T10:00:00Z");
  keep_copy (lib, "2026-11-22T11:00:00Z");
  MsRecentRuns *dialog = ms_recent_runs_new (lib);
  gtk_window_present (GTK_WINDOW (dialog));
  ms_test_wait_until (is_done_loading, lib, "the folder is listed");
  g_assert_cmpuint (g_list_model_get_n_items (ms_runs_library_get_entries (lib)), ==, 2);
  g_autoptr (MsRunsEntry) x = g_list_model_get_item (ms_runs_library_get_entries (lib), 0);
  g_autoptr (MsRunsEntry) y = g_list_model_get_item (ms_runs_library_get_entries (lib), 1);
  g_autofree char *x_path = g_file_get_path (ms_runs_entry_get_file (x));
  g_autofree char *y_path = g_file_get_path (ms_runs_entry_get_file (y));
  g_autofree char *x_bytes = NULL;
  g_assert_true (g_file_get_contents (x_path, &x_bytes, NULL, NULL));

  activate (dialog, "recent.delete", x_path);
  g_assert_true (ms_runs_library_rename (lib, y, ms_runs_entry_get_name (x), NULL));
  ms_test_wait_until (is_done_loading, lib, "the folder is listed after the rename");
  activate (dialog, "recent.delete", x_path);
  g_assert_false (g_file_test (x_path, G_FILE_TEST_EXISTS));
  undo (dialog, 1);
  g_autofree char *back = NULL;
  g_assert_true (g_file_get_contents (x_path, &back, NULL, NULL));
  g_assert_cmpstr (back, ==, x_bytes);
  g_assert_false (g_file_test (y_path, G_FILE_TEST_EXISTS));
  g_object_add_weak_pointer (G_OBJECT (dialog), (gpointer *) &dialog);
  gtk_window_destroy (GTK_WINDOW (dialog));
  g_assert_null (dialog);
}

/* A file whose name is not UTF-8 in the runs folder: listed, shown with a
 * readable name, and every row action works on it (no critical warning:
 * the tests run with G_DEBUG=fatal-criticals). */
static void
test_non_utf8_name (void)
{
  g_autofree char *own = g_build_filename (folder, "latin1", NULL);
  g_autoptr (MsRunsLibrary) lib = ms_runs_library_new (own);
  keep_copy (lib, "2026-11-22T10:00:00Z");
  ms_test_wait_until (is_done_loading, lib, "the folder is listed");
  ms_runs_library_reload (lib);
  ms_test_wait_until (is_done_loading, lib, "the folder is listed again");
  g_autoptr (MsRunsEntry) kept = g_list_model_get_item (ms_runs_library_get_entries (lib), 0);
  g_autofree char *kept_path = g_file_get_path (ms_runs_entry_get_file (kept));
  g_autofree char *latin1 = g_build_filename (own, "caf\xe9-samples.csv", NULL);
  g_assert_cmpint (g_rename (kept_path, latin1), ==, 0);

  MsRecentRuns *dialog = ms_recent_runs_new (lib);
  char *opened = NULL;
  g_signal_connect (dialog, "open", G_CALLBACK (on_open), &opened);
  gtk_window_present (GTK_WINDOW (dialog));
  ms_test_wait_until (is_done_loading, lib, "the folder is listed with the Latin-1 name");
  gpointer args[] = { dialog, (gpointer) "caf\xef\xbf\xbd" };
  ms_test_wait_until (shows_label, args, "the row shows a readable name");
  activate (dialog, "recent.open", latin1);
  g_assert_cmpstr (opened, ==, latin1);
  g_free (opened);
  activate (dialog, "recent.delete", latin1);
  g_assert_false (g_file_test (latin1, G_FILE_TEST_EXISTS));
  undo (dialog, 1);
  g_assert_true (g_file_test (latin1, G_FILE_TEST_IS_REGULAR));
  ms_test_wait_until (is_done_loading, lib, "the folder is listed after the undo");
  activate (dialog, "recent.rename", latin1);
  ms_test_wait_until (ms_test_has_question, NULL, "Rename asks for the name");
  AdwMessageDialog *question = ms_test_find_question ();
  gtk_editable_set_text (GTK_EDITABLE (adw_message_dialog_get_extra_child (question)), "cafe");
  g_assert_true (ms_test_click_button (GTK_WIDGET (question), "_Rename"));
  g_autofree char *renamed = g_build_filename (own, "cafe-samples.csv", NULL);
  g_assert_true (g_file_test (renamed, G_FILE_TEST_IS_REGULAR));
  g_object_add_weak_pointer (G_OBJECT (dialog), (gpointer *) &dialog);
  gtk_window_destroy (GTK_WINDOW (dialog));
  g_assert_null (dialog);
}

static gboolean
shows_empty (gpointer stack)
{
  return g_strcmp0 (gtk_stack_get_visible_child_name (stack), "empty") == 0;
}

static GtkStack *
find_stack (GtkWidget *widget)
{
  if (GTK_IS_STACK (widget))
    return GTK_STACK (widget);
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c)) {
    GtkStack *found = find_stack (c);
    if (found)
      return found;
  }
  return NULL;
}

static void
test_empty (void)
{
  g_autofree char *none = g_build_filename (folder, "no such folder", NULL);
  g_autoptr (MsRunsLibrary) lib = ms_runs_library_new (none);
  MsRecentRuns *dialog = ms_recent_runs_new (lib);
  gtk_window_present (GTK_WINDOW (dialog));
  ms_test_wait_until (shows_empty, find_stack (GTK_WIDGET (dialog)), "the empty page shows");
  g_object_add_weak_pointer (G_OBJECT (dialog), (gpointer *) &dialog);
  gtk_window_destroy (GTK_WINDOW (dialog));
  g_assert_null (dialog);
}

static gboolean
partial_shown (gpointer dialog)
{
  GtkWidget *badge = ms_test_find_label (dialog, "Partial");
  return badge && gtk_widget_get_visible (badge);
}

/* A run stopped part-way is marked: a cell kept partial, or fewer cells
 * than its header planned; a finished run is not. */
static void
test_partial (void)
{
  g_autofree char *own = g_build_filename (folder, "partial", NULL);
  g_autoptr (MsRunsLibrary) lib = ms_runs_library_new (own);
  g_autoptr (GPtrArray) runs = ms_test_reference_runs ();
  MsResults *r = ms_run_get_results (runs->pdata[0]);
  g_snprintf (r->date, sizeof r->date, "2026-11-22T10:00:00Z");
  g_assert_true (ms_runs_library_keep (lib, r, NULL));
  MsCellStatus was = r->cells[3].status;
  r->cells[3].status = MS_CELL_PARTIAL;
  g_snprintf (r->date, sizeof r->date, "2026-11-22T11:00:00Z");
  g_assert_true (ms_runs_library_keep (lib, r, NULL));
  r->cells[3].status = was;
  size_t n = r->n_cells;
  r->n_cells = n / 2;
  g_snprintf (r->date, sizeof r->date, "2026-11-22T12:00:00Z");
  g_assert_true (ms_runs_library_keep (lib, r, NULL));
  r->n_cells = n;
  ms_test_wait_until (is_done_loading, lib, "the folder is listed");

  MsRecentRuns *dialog = ms_recent_runs_new (lib);
  gtk_window_present (GTK_WINDOW (dialog));
  ms_test_wait_until (is_done_loading, lib, "the folder is listed again");
  g_assert_cmpuint (g_list_model_get_n_items (ms_runs_library_get_entries (lib)), ==, 3);
  /* Newest first: cut short, then the partial cell, then the whole run. */
  gboolean expected[] = { TRUE, TRUE, FALSE };
  for (guint i = 0; i < 3; i++) {
    g_autoptr (MsRunsEntry) entry = g_list_model_get_item (ms_runs_library_get_entries (lib), i);
    g_assert_cmpint (ms_runs_entry_get_stopped (entry), ==, expected[i]);
  }
  ms_test_wait_until (partial_shown, dialog, "the stopped runs are marked");
  g_object_ref (dialog);
  gtk_window_destroy (GTK_WINDOW (dialog));
  g_assert_finalize_object (dialog);
}

/* The first label under root whose text contains part. */
static GtkWidget *
find_label_containing (GtkWidget *root, const char *part)
{
  if (GTK_IS_LABEL (root) && strstr (gtk_label_get_text (GTK_LABEL (root)), part))
    return root;
  for (GtkWidget *c = gtk_widget_get_first_child (root); c; c = gtk_widget_get_next_sibling (c)) {
    GtkWidget *found = find_label_containing (c, part);
    if (found)
      return found;
  }
  return NULL;
}

/* Whether some label under root reads text and is shown. */
static gboolean
shows_visible_label (GtkWidget *root, const char *text)
{
  if (GTK_IS_LABEL (root) && gtk_widget_get_visible (root) &&
      g_strcmp0 (gtk_label_get_text (GTK_LABEL (root)), text) == 0)
    return TRUE;
  for (GtkWidget *c = gtk_widget_get_first_child (root); c; c = gtk_widget_get_next_sibling (c))
    if (shows_visible_label (c, text))
      return TRUE;
  return FALSE;
}

/* The row whose facts say its completeness is unknown, its Partial badge
 * (beside the name, above the facts) hidden. */
static gboolean
completeness_unknown_shown (gpointer dialog)
{
  GtkWidget *facts = find_label_containing (dialog, "completeness unknown");
  if (!facts || !gtk_widget_get_visible (facts))
    return FALSE;
  GtkWidget *title = gtk_widget_get_first_child (gtk_widget_get_parent (facts));
  GtkWidget *badge = gtk_widget_get_next_sibling (gtk_widget_get_first_child (title));
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (badge)), ==, "Partial");
  /* The other row, whose cell stopped, is marked. */
  return !gtk_widget_get_visible (badge) && shows_visible_label (dialog, "Partial");
}

/* A finished run is judged by its own plan, never the default one: a run
 * of two sizes is whole with its sidecar; without one (its settings
 * unknown) its completeness is unknown, not "Partial", while a cell kept
 * partial still says it stopped. */
static void
test_no_sidecar (void)
{
  g_autofree char *own = g_build_filename (folder, "no-sidecar", NULL);
  g_autoptr (MsRunsLibrary) lib = ms_runs_library_new (own);
  g_autoptr (GPtrArray) runs = ms_test_reference_runs ();
  MsResults *r = ms_run_get_results (runs->pdata[0]);
  /* The cells are size-major: the first sizes' cells are a smaller plan. */
  int max_exp = r->sweep.max_exp, last = r->sweep.min_exp + r->sweep.step;
  size_t n = r->n_cells, k = 0;
  while (k < n && r->cells[k].exponent <= last)
    k++;
  for (size_t i = k; i < n; i++)
    g_assert_cmpint (r->cells[i].exponent, >, last);
  g_assert_cmpuint (k, <, n);
  r->sweep.max_exp = last;
  r->n_cells = k;
  g_snprintf (r->date, sizeof r->date, "2026-11-22T10:00:00Z");
  g_assert_true (ms_runs_library_keep (lib, r, NULL));
  MsCellStatus was = r->cells[0].status;
  r->cells[0].status = MS_CELL_PARTIAL;
  g_snprintf (r->date, sizeof r->date, "2026-11-22T11:00:00Z");
  g_assert_true (ms_runs_library_keep (lib, r, NULL));
  r->cells[0].status = was;
  r->sweep.max_exp = max_exp;
  r->n_cells = n;
  ms_test_wait_until (is_done_loading, lib, "the folder is listed");
  g_assert_cmpuint (g_list_model_get_n_items (ms_runs_library_get_entries (lib)), ==, 2);
  /* Newest first (the sidecars' dates): the partial cell, then the whole
   * run. Without the sidecars the files' times order them, which may be
   * the same second: found by path below. */
  char *path[2];
  for (guint i = 0; i < 2; i++) {
    g_autoptr (MsRunsEntry) entry = g_list_model_get_item (ms_runs_library_get_entries (lib), i);
    path[i] = g_file_get_path (ms_runs_entry_get_file (entry));
  }
  MsRunsEntry *whole = ms_runs_library_find (lib, path[1]);
  g_assert_false (ms_runs_entry_get_stopped (whole));
  g_assert_false (ms_runs_entry_get_completeness_unknown (whole));

  /* Both sidecars gone. */
  for (guint i = 0; i < 2; i++) {
    char meta[4096];
    g_assert_true (ms_meta_sidecar_path (path[i], meta, sizeof meta));
    g_assert_cmpint (g_unlink (meta), ==, 0);
  }
  ms_runs_library_reload (lib);
  ms_test_wait_until (is_done_loading, lib, "the folder is listed again");
  g_assert_cmpuint (g_list_model_get_n_items (ms_runs_library_get_entries (lib)), ==, 2);
  MsRunsEntry *partial = ms_runs_library_find (lib, path[0]);
  MsRunsEntry *unknown = ms_runs_library_find (lib, path[1]);
  g_assert_nonnull (partial);
  g_assert_nonnull (unknown);
  g_free (path[0]);
  g_free (path[1]);
  g_assert_true (ms_runs_entry_get_stopped (partial));
  g_assert_false (ms_runs_entry_get_stopped (unknown));
  g_assert_true (ms_runs_entry_get_completeness_unknown (unknown));
  g_assert_false (ms_runs_entry_get_completeness_unknown (partial));

  /* The partial run is marked; the other says its completeness is
   * unknown and is not. */
  MsRecentRuns *dialog = ms_recent_runs_new (lib);
  gtk_window_present (GTK_WINDOW (dialog));
  ms_test_wait_until (completeness_unknown_shown, dialog,
                      "completeness unknown, not Partial; the stopped run marked");
  g_object_ref (dialog);
  gtk_window_destroy (GTK_WINDOW (dialog));
  g_assert_finalize_object (dialog);
}

int
main (int argc, char **argv)
{
  ms_widget_test_init (&argc, &argv);
  folder = ms_test_tmp_path ("runs");
  g_test_add_func ("/recent-runs/dialog", test_dialog);
  g_test_add_func ("/recent-runs/empty", test_empty);
  g_test_add_func ("/recent-runs/delete-same-name-twice", test_delete_same_name_twice);
  g_test_add_func ("/recent-runs/non-utf8-name", test_non_utf8_name);
  g_test_add_func ("/recent-runs/partial", test_partial);
  g_test_add_func ("/recent-runs/no-sidecar", test_no_sidecar);
  return g_test_run ();
}
