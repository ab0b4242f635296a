/* SPDX-License-Identifier: GPL-3.0-or-later */
/* memsweep-gtk: the desktop app. */
#include <glib/gi18n.h>
#include <gtk/gtk.h>
#include <locale.h>

#include "ms-application.h"
#include "ms-engine.h"
#include "ms-i18n.h"
#include "ms-startup-probe.h"

int
main (int argc, char *argv[])
{
  gint64 main_start_us = g_get_monotonic_time ();
  /* The user's locale and translations (ms_i18n_bind finds the build
   * tree's or the installed catalogue); the engine writes and reads files in the C locale
   * regardless. */
  setlocale (LC_ALL, "");
  ms_i18n_bind ();
  textdomain (GETTEXT_PACKAGE);
  /* A signal that ends the app mid-export leaves no temporary file. */
  ms_atomic_file_clean_up_on_signals ();
  g_autoptr (MsApplication) app = ms_application_new ();
  ms_startup_probe_watch (G_APPLICATION (app), main_start_us);
  return g_application_run (G_APPLICATION (app), argc, argv);
}
