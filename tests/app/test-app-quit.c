/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-app-quit.c: the app never loses a measured run (issue: quitting
 * mid-sweep). Under Xvfb, with the CPU baseline (the mode every machine
 * can run) and a runs library of its own:
 * - a runs folder that cannot be written: the failure is shown once, with
 *   the export offered; closing then asks before the runs are lost;
 * - a window without a sweep closes without a question;
 * - Ctrl+Q mid-sweep asks; Keep Running keeps measuring (what was measured
 *   so far is already in the library); Stop and Quit ends the sweep, keeps
 *   every cell it measured and quits. */
#include <glib/gstdio.h>
#include <adwaita.h>

#include "memsweep.h"
#include "ms-application.h"
#include "ms-runs-library.h"
#include "ms-app-test.h"
#include "ms-window.h"
#include "model/ms-results.h"
#include "lessons/ms-run-read.h"

static const char *runs_folder;
static guint failure_toasts;
static size_t final_cells;
static gboolean done;

static gboolean
has_cells (gpointer win)
{
  const MsResults *live = ms_test_window_live (win);
  return live && live->n_cells >= 2;
}

static gboolean
has_no_question (gpointer unused)
{
  return ms_test_find_question () == NULL;
}

static void
answer (const char *label)
{
  g_assert_true (ms_test_click_button (ms_test_find_question (), label));
}

static void
on_toast_text (MsWindow *win)
{
  const char *text = ms_test_get_string (win, "toast-text");
  if (text && g_str_has_prefix (text, "Runs cannot be kept"))
    failure_toasts++;
}

/* The kept samples files, read back; sorted by name. */
static GPtrArray *
kept_runs (void)
{
  GPtrArray *runs = g_ptr_array_new_with_free_func ((GDestroyNotify) ms_results_free);
  g_autoptr (GDir) dir = g_dir_open (runs_folder, 0, NULL);
  for (const char *name; dir && (name = g_dir_read_name (dir));) {
    if (!g_str_has_suffix (name, "-samples.csv"))
      continue;
    g_autofree char *path = g_build_filename (runs_folder, name, NULL);
    char err[512];
    MsResults *r = ms_run_read_samples (path, err, sizeof err);
    if (!r)
      g_error ("a kept run does not read back: %s", err);
    g_ptr_array_add (runs, r);
  }
  return runs;
}

static gboolean
is_written (gpointer unused)
{
  return !ms_runs_library_is_writing (ms_runs_library_get_default ());
}

static void
sweep_to_end (MsWindow *win)
{
  g_action_group_activate_action (G_ACTION_GROUP (win), "run", NULL);
  g_assert_true (ms_test_window_sweeping (win));
  ms_test_wait_until (ms_test_is_not_sweeping, win, "the sweep ends");
  ms_test_wait_until (is_written, NULL, "the sweep's run is written");
}

/* The runs folder's place is taken by a file: writes fail. */
static void
check_write_failure (MsWindow *win)
{
  g_autofree char *parent = g_path_get_dirname (runs_folder);
  g_assert_cmpint (g_mkdir_with_parents (parent, 0755), ==, 0);
  g_assert_true (g_file_set_contents (runs_folder, "in the way\n", -1, NULL));
  g_signal_connect (win, "notify::toast-text", G_CALLBACK (on_toast_text), NULL);
  sweep_to_end (win);
  g_assert_cmpuint (failure_toasts, ==, 1);
  g_assert_nonnull (strstr (ms_test_get_string (win, "toast-text"), "export"));
  g_assert_nonnull (ms_runs_library_get_write_error (ms_runs_library_get_default ()));
  /* Shown once: the next failure says nothing new. The runs stay. */
  sweep_to_end (win);
  g_assert_cmpuint (failure_toasts, ==, 1);
  g_assert_cmpuint (ms_test_window_n_runs (win), ==, 2);
  /* Closing now would lose them: it asks, and Cancel keeps the window. */
  gtk_window_close (GTK_WINDOW (win));
  ms_test_wait_until (ms_test_has_question, NULL, "closing asks about the runs not kept");
  answer ("_Cancel");
  ms_test_wait_until (has_no_question, NULL, "the question goes");
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (win)));

  /* Room again: the next sweep is kept and the error is gone. */
  g_assert_cmpint (g_unlink (runs_folder), ==, 0);
  sweep_to_end (win);
  g_assert_null (ms_runs_library_get_write_error (ms_runs_library_get_default ()));
  g_autoptr (GPtrArray) kept = kept_runs ();
  g_assert_cmpuint (kept->len, ==, 1);
  const MsResults *live = ms_test_window_live (win);
  g_assert_cmpuint (((MsResults *) kept->pdata[0])->n_cells, ==, live->n_cells);
}

/* A window with no sweep closes without a question. */
static void
check_quiet_close (GApplication *app)
{
  MsWindow *other = ms_window_new (ADW_APPLICATION (app));
  gtk_window_present (GTK_WINDOW (other));
  g_object_add_weak_pointer (G_OBJECT (other), (gpointer *) &other);
  gtk_window_close (GTK_WINDOW (other));
  ms_test_wait_until (ms_test_is_null, &other, "a window without a sweep closes at once");
  g_assert_null (ms_test_find_question ());
}

static void
on_sweeping (MsSession *session)
{
  MsRun *live = ms_session_get_live_run (session);
  if (!ms_session_get_sweeping (session) && live)
    final_cells = ms_run_get_results (live)->n_cells;
}

static void
check_quit_during_sweep (GApplication *app, MsWindow *win)
{
  /* A sweep long enough to be quit in the middle. */
  g_autoptr (GSettings) settings = g_settings_new (MS_APPLICATION_ID);
  g_settings_set_int (settings, "max-exp", 24);
  g_settings_set_int (settings, "reps", 400);
  g_action_group_activate_action (G_ACTION_GROUP (win), "run", NULL);
  ms_test_wait_until (has_cells, win, "the long sweep measures two cells");

  g_action_group_activate_action (G_ACTION_GROUP (app), "quit", NULL);
  ms_test_wait_until (ms_test_has_question, NULL, "Ctrl+Q asks whether to stop the sweep");
  /* Asking kept what was measured so far. */
  g_autoptr (GPtrArray) so_far = kept_runs ();
  g_assert_cmpuint (so_far->len, ==, 2);
  answer ("_Keep Running");
  ms_test_wait_until (has_no_question, NULL, "the question goes once answered");
  g_assert_true (ms_test_window_sweeping (win));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (win)));

  g_signal_connect (ms_test_window_session (win), "notify::sweeping", G_CALLBACK (on_sweeping),
                    NULL);
  g_action_group_activate_action (G_ACTION_GROUP (app), "quit", NULL);
  ms_test_wait_until (ms_test_has_question, NULL, "Ctrl+Q asks again");
  answer ("_Stop and Quit");
  done = TRUE; /* the rest is checked once the application has quit */
}

static void
on_activate (GApplication *app)
{
  MsWindow *win = MS_WINDOW (gtk_application_get_active_window (GTK_APPLICATION (app)));
  ms_test_wait_until (ms_test_can_run, win, "device discovery ends and Run is enabled");
  check_write_failure (win);
  check_quiet_close (app);
  check_quit_during_sweep (app, win);
}

static void
test_quit_keeps_runs (void)
{
  ms_test_app_set_host_sweep (14, 50);
  ms_test_app_run_checked (on_activate, &done);

  /* Quit: the stopped sweep is kept with every cell it had at its end. */
  g_autoptr (GPtrArray) kept = kept_runs ();
  g_assert_cmpuint (kept->len, ==, 2);
  g_assert_cmpuint (final_cells, >=, 2);
  gboolean found = FALSE;
  for (guint i = 0; i < kept->len; i++)
    found |= ((MsResults *) kept->pdata[i])->n_cells == final_cells &&
             ((MsResults *) kept->pdata[i])->sweep.max_exp == 24;
  g_assert_true (found);
}

int
main (int argc, char **argv)
{
  /* Before anything asks GLib for the data folder (it is kept). */
  runs_folder = ms_test_app_data_home ();
  gtk_test_init (&argc, &argv, NULL);
  g_test_add_func ("/app/quit-keeps-runs", test_quit_keeps_runs);
  return g_test_run ();
}
