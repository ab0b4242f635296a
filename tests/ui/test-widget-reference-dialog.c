/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-widget-reference-dialog.c: the Reference Runs dialog over a folder
 * of its own: the file names read as GPU and kind, one group per GPU with
 * one row per kind, Open disabled until a run is ticked, the runs ticked
 * opened in listed order (a name that is not UTF-8 too), the empty page,
 * and the dialog finalised. */

#include "ms-lesson-caption.h"
#include "ms-reference-dialog.h"
#include "ms-reference-runs.h"
#include "ms-tmp-test.h"
#include "ms-widget-test.h"

static void
test_describe (void)
{
  struct {
    const char *file, *gpu, *title;
    MsReferenceKind kind;
  } cases[] = {
    { "h100-default-samples.csv", "h100", "Default sweep", MS_REFERENCE_DEFAULT },
    { "h200-default-2-samples.csv", "h200", "Default sweep, run 2", MS_REFERENCE_DEFAULT },
    { "h100-default-x-samples.csv", "h100", "default-x", MS_REFERENCE_OTHER },
    { "h100-large-samples.csv", "h100", "large", MS_REFERENCE_OTHER },
    { "h100-lesson-no-such-lesson-samples.csv", "h100", "lesson-no-such-lesson",
      MS_REFERENCE_OTHER },
    { "lonely-samples.csv", "", "lonely", MS_REFERENCE_OTHER },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
    g_autofree char *gpu = NULL, *title = NULL;
    g_assert_cmpint (ms_reference_run_describe (cases[i].file, &gpu, &title), ==, cases[i].kind);
    g_assert_cmpstr (gpu, ==, cases[i].gpu);
    g_assert_cmpstr (title, ==, cases[i].title);
  }
  /* A lesson is named by its card's title, never by its file. */
  g_autofree char *gpu = NULL, *title = NULL;
  g_assert_cmpint (ms_reference_run_describe ("h100-lesson-reuse-samples.csv", &gpu, &title), ==,
                   MS_REFERENCE_LESSON);
  g_assert_cmpstr (title, ==, ms_lesson_topic (MS_TOPIC_REUSE)->title);
}

static void
touch (const char *dir, const char *name)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_assert_true (g_file_set_contents (path, "", 0, NULL));
}

/* The widgets of type under widget, in order. */
static void
collect (GtkWidget *widget, GType type, GPtrArray *found)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (widget, type))
    g_ptr_array_add (found, widget);
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    collect (c, type, found);
}

static GPtrArray *
find_all (gpointer widget, GType type)
{
  GPtrArray *found = g_ptr_array_new ();
  collect (widget, type, found);
  return found;
}

static void
on_open (MsReferenceDialog *dialog, char **paths, char ***opened)
{
  g_strfreev (*opened);
  *opened = g_strdupv (paths);
}

/* Return on widget, as the dialog's key controllers see it first (capture); whether one took it. */
static gboolean
press_return_on (gpointer dialog, GtkWidget *widget)
{
  gtk_root_set_focus (GTK_ROOT (dialog), widget);
  g_assert_true (gtk_root_get_focus (GTK_ROOT (dialog)) == widget);
  g_autoptr (GListModel) controllers = gtk_widget_observe_controllers (GTK_WIDGET (dialog));
  gboolean handled = FALSE;
  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++) {
    g_autoptr (GObject) c = g_list_model_get_item (controllers, i);
    gboolean now = FALSE;
    if (GTK_IS_EVENT_CONTROLLER_KEY (c))
      g_signal_emit_by_name (c, "key-pressed", GDK_KEY_Return, 0, 0, &now);
    handled |= now;
  }
  return handled;
}

static void
test_dialog (void)
{
  const char *dir = ms_test_tmp_path ("reference");
  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  touch (dir, "h100-default-samples.csv");
  touch (dir, "h100-default-1-samples.csv");
  touch (dir, "h100-lesson-reuse-samples.csv");
  touch (dir, "h100-large-samples.csv");
  touch (dir, "h200-default-samples.csv");
  touch (dir, "h200-lesson-r\xe9use-samples.csv");
  touch (dir, "h100-default-summary.csv"); /* not a run of its own */

  MsReferenceDialog *dialog = ms_reference_dialog_new (dir);
  char **opened = NULL;
  g_signal_connect (dialog, "open", G_CALLBACK (on_open), &opened);
  gtk_window_present (GTK_WINDOW (dialog));

  g_autoptr (GPtrArray) groups = find_all (dialog, ADW_TYPE_PREFERENCES_GROUP);
  g_assert_cmpuint (groups->len, ==, 2);
  g_assert_cmpstr (adw_preferences_group_get_title (groups->pdata[0]), ==, "H100");
  g_assert_cmpstr (adw_preferences_group_get_title (groups->pdata[1]), ==, "H200");
  /* H100: default sweeps, lessons, other; H200: default sweeps, other (a
   * lesson name no lesson has). */
  g_autoptr (GPtrArray) kinds = find_all (dialog, ADW_TYPE_EXPANDER_ROW);
  g_assert_cmpuint (kinds->len, ==, 5);
  g_assert_cmpstr (adw_preferences_row_get_title (kinds->pdata[0]), ==, "Default sweeps");
  g_assert_cmpstr (adw_expander_row_get_subtitle (kinds->pdata[0]), ==, "2 runs");
  g_assert_cmpstr (adw_preferences_row_get_title (kinds->pdata[1]), ==, "Lessons");
  g_assert_cmpstr (adw_preferences_row_get_title (kinds->pdata[2]), ==, "Other sweeps");
  g_assert_cmpstr (adw_preferences_row_get_title (kinds->pdata[4]), ==, "Other sweeps");

  /* Nothing ticked: Open does nothing. */
  g_autoptr (GPtrArray) checks = find_all (dialog, GTK_TYPE_CHECK_BUTTON);
  g_assert_cmpuint (checks->len, ==, 6);
  GtkWidget *open = NULL;
  g_autoptr (GPtrArray) buttons = find_all (dialog, GTK_TYPE_BUTTON);
  for (guint i = 0; i < buttons->len; i++)
    if (g_strcmp0 (gtk_actionable_get_action_name (buttons->pdata[i]), "reference.open") == 0)
      open = buttons->pdata[i];
  g_assert_nonnull (open);
  g_assert_false (gtk_widget_is_sensitive (open));
  gtk_widget_activate_action (GTK_WIDGET (dialog), "reference.open", NULL);
  g_assert_null (opened);

  /* Ticked by activating their rows (Space or Enter on the row): opened
   * in listed order, the dialog closes. */
  g_object_ref (dialog);
  gtk_widget_activate (gtk_widget_get_ancestor (checks->pdata[5], ADW_TYPE_ACTION_ROW));
  gtk_widget_activate (gtk_widget_get_ancestor (checks->pdata[0], ADW_TYPE_ACTION_ROW));
  g_assert_cmpuint (ms_test_get_uint (dialog, "n-chosen"), ==, 2);
  g_assert_true (gtk_widget_is_sensitive (open));
  /* Return on a row not ticked is left to the row (it ticks it); on a ticked run's row it opens
   * what is ticked, as the default does (it unticked it), the run still ticked. */
  g_assert_false (press_return_on (dialog, gtk_widget_get_ancestor (checks->pdata[1],
                                                                    ADW_TYPE_ACTION_ROW)));
  g_assert_null (opened);
  g_assert_true (press_return_on (dialog, gtk_widget_get_ancestor (checks->pdata[0],
                                                                   ADW_TYPE_ACTION_ROW)));
  g_assert_true (gtk_check_button_get_active (checks->pdata[0]));
  g_assert_cmpuint (ms_test_get_uint (dialog, "n-chosen"), ==, 2);
  g_assert_nonnull (opened);
  g_assert_cmpuint (g_strv_length (opened), ==, 2);
  g_autofree char *first = g_build_filename (dir, "h100-default-samples.csv", NULL);
  g_autofree char *second = g_build_filename (dir, "h200-lesson-r\xe9use-samples.csv", NULL);
  g_assert_cmpstr (opened[0], ==, first);
  g_assert_cmpstr (opened[1], ==, second);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (dialog)));
  g_strfreev (opened);
  gtk_window_destroy (GTK_WINDOW (dialog));
  g_assert_finalize_object (dialog);
}

static void
test_empty (void)
{
  MsReferenceDialog *dialog = ms_reference_dialog_new (NULL);
  gtk_window_present (GTK_WINDOW (dialog));
  g_autoptr (GPtrArray) stacks = find_all (dialog, GTK_TYPE_STACK);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (stacks->pdata[0]), ==, "empty");
  g_object_ref (dialog);
  gtk_window_destroy (GTK_WINDOW (dialog));
  g_assert_finalize_object (dialog);
}

int
main (int argc, char **argv)
{
  ms_widget_test_init (&argc, &argv);
  g_test_add_func ("/reference-dialog/describe", test_describe);
  g_test_add_func ("/reference-dialog/dialog", test_dialog);
  g_test_add_func ("/reference-dialog/empty", test_empty);
  return g_test_run ();
}
