/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-app-settings.c: saved settings are input like any file: a window
 * size edited by hand to a value GtkWindow refuses (-5) opens the window at
 * the default size, without a warning (gtk_test_init makes warnings fatal).
 * Runs on a keyfile backend in a folder of its own. */

#include "ms-app-test.h"

static gboolean done;

static void
on_activate (GApplication *app)
{
  GtkWindow *win = gtk_application_get_active_window (GTK_APPLICATION (app));
  g_assert_nonnull (win);
  int width, height;
  gtk_window_get_default_size (win, &width, &height);
  g_assert_cmpint (width, ==, 1280);
  g_assert_cmpint (height, ==, 820);
  gtk_window_close (win);
  done = TRUE;
}

int
main (int argc, char **argv)
{
  ms_test_tmp_folder ("config/glib-2.0/settings");
  const char *keyfile = ms_test_tmp_path ("config/glib-2.0/settings/keyfile");
  g_assert_true (g_file_set_contents (keyfile,
                                      "[io/github/memsweep/Memsweep]\n"
                                      "window-width=-7\n"
                                      "window-height=-5\n",
                                      -1, NULL));
  g_setenv ("XDG_CONFIG_HOME", ms_test_tmp_path ("config"), TRUE);
  g_setenv ("GSETTINGS_BACKEND", "keyfile", TRUE);
  gtk_test_init (&argc, &argv, NULL);
  ms_test_app_run_checked (on_activate, &done);
  return 0;
}
