/* SPDX-License-Identifier: GPL-3.0-or-later */
/* memsweep-gtk: the desktop app. */
#include <glib/gi18n.h>
#include <gtk/gtk.h>
#include <locale.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ms-application.h"
#include "ms-i18n.h"

/* MEMSWEEP_FIRST_FRAME=1: print how long the first frame of the window
 * took, from process start (kernel start time, 10 ms resolution) and from
 * main(). For the benchmark in the README. */
static gint64 main_start_us;

static double
since_process_start_ms (void)
{
  char buf[1024];
  FILE *f = fopen ("/proc/self/stat", "r");
  if (!f)
    return -1;
  size_t n = fread (buf, 1, sizeof buf - 1, f);
  fclose (f);
  buf[n] = '\0';
  /* Field 22 (starttime) counts clock ticks since boot; skip past the
   * command name, which may hold spaces, to field 3. */
  char *p = strrchr (buf, ')');
  unsigned long long start = 0;
  for (int field = 2; p && field < 22; field++)
    p = strchr (p + 1, ' ');
  if (!p || sscanf (p + 1, "%llu", &start) != 1)
    return -1;
  struct timespec now;
  clock_gettime (CLOCK_BOOTTIME, &now);
  double now_ms = now.tv_sec * 1e3 + now.tv_nsec * 1e-6;
  return now_ms - start * 1000.0 / sysconf (_SC_CLK_TCK);
}

static void
on_after_paint (GdkFrameClock *clock, gpointer data)
{
  g_signal_handlers_disconnect_by_func (clock, on_after_paint, data);
  fprintf (stderr, "memsweep-gtk: first frame %.1f ms after process start, %.1f ms after main()\n",
           since_process_start_ms (), (g_get_monotonic_time () - main_start_us) * 1e-3);
}

static void
on_window_mapped (GtkWidget *window)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (window);
  if (clock)
    g_signal_connect (clock, "after-paint", G_CALLBACK (on_after_paint), NULL);
}

static void
on_window_added (GtkApplication *app, GtkWindow *window)
{
  g_signal_connect (window, "map", G_CALLBACK (on_window_mapped), NULL);
}

int
main (int argc, char *argv[])
{
  main_start_us = g_get_monotonic_time ();
  /* The user's locale and translations (MEMSWEEP_LOCALEDIR overrides the
   * installed catalogue); the engine writes and reads files in the C locale
   * regardless. */
  setlocale (LC_ALL, "");
  ms_i18n_bind ();
  textdomain (GETTEXT_PACKAGE);
  g_autoptr (MsApplication) app = ms_application_new ();
  if (g_getenv ("MEMSWEEP_FIRST_FRAME"))
    g_signal_connect (app, "window-added", G_CALLBACK (on_window_added), NULL);
  return g_application_run (G_APPLICATION (app), argc, argv);
}
