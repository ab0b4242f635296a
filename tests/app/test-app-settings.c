/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-app-settings.c: saved settings are input like any file: a window
 * size edited by hand to a value GtkWindow refuses (-5) opens the window at
 * the default size, without a warning (gtk_test_init makes warnings fatal).
 * Runs on a keyfile backend in a folder of its own. */
#include <glib/gstdio.h>

#include "ms-application.h"
#include "ms-window.h"

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
  g_autofree char *config = g_dir_make_tmp ("memsweep-settings-XXXXXX", NULL);
  g_autofree char *folder = g_build_filename (config, "glib-2.0", "settings", NULL);
  g_autofree char *keyfile = g_build_filename (folder, "keyfile", NULL);
  g_assert_cmpint (g_mkdir_with_parents (folder, 0700), ==, 0);
  g_assert_true (g_file_set_contents (keyfile,
                                      "[io/github/memsweep/Memsweep]\n"
                                      "window-width=-7\n"
                                      "window-height=-5\n",
                                      -1, NULL));
  g_setenv ("XDG_CONFIG_HOME", config, TRUE);
  g_setenv ("GSETTINGS_BACKEND", "keyfile", TRUE);
  gtk_test_init (&argc, &argv, NULL);
  g_autoptr (MsApplication) app = ms_application_new ();
  g_application_set_flags (G_APPLICATION (app), G_APPLICATION_NON_UNIQUE);
  g_signal_connect_after (app, "activate", G_CALLBACK (on_activate), NULL);
  char *args[] = { argv[0], NULL };
  int rc = g_application_run (G_APPLICATION (app), 1, args);
  g_assert_cmpint (rc, ==, 0);
  g_assert_true (done);
  g_autofree char *cmd = g_strdup_printf ("rm -rf %s", config);
  g_assert_cmpint (system (cmd), ==, 0);
  return 0;
}
