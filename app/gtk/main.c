/* SPDX-License-Identifier: GPL-3.0-or-later */
/* memsweep-gtk: the desktop app. */
#include <glib/gi18n.h>
#include <gtk/gtk.h>
#include <locale.h>
#include <stdio.h>
#include <sys/resource.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ms-application.h"
#include "ms-atomic-file.h"
#include "ms-i18n.h"

/* MEMSWEEP_FIRST_FRAME=1: print when the window was built, mapped and
 * first drawn, from process start (kernel start time, 10 ms resolution)
 * and from main(), with the main thread's CPU time: for the benchmark in
 * the README and bench/bench-app-open.sh; MEMSWEEP_FIRST_FRAME=exit also
 * ends the process there. On a busy machine the wall times
 * grow with the load, the CPU times much less. */
static gint64 main_start_us;

static double
thread_cpu_ms (void)
{
  struct rusage u;
  if (getrusage (RUSAGE_THREAD, &u) != 0)
    return -1;
  return (u.ru_utime.tv_sec + u.ru_stime.tv_sec) * 1e3
         + (u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1e-3;
}

static void
print_milestone (const char *what)
{
  fprintf (stderr, "memsweep-gtk: %s %.1f ms after main(), main thread CPU %.1f ms\n", what,
           (g_get_monotonic_time () - main_start_us) * 1e-3, thread_cpu_ms ());
}

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
  print_milestone ("first frame drawn");
  fprintf (stderr, "memsweep-gtk: first frame %.1f ms after process start, %.1f ms after main()\n",
           since_process_start_ms (), (g_get_monotonic_time () - main_start_us) * 1e-3);
  /* For profiling the launch alone. */
  if (g_strcmp0 (g_getenv ("MEMSWEEP_FIRST_FRAME"), "exit") == 0)
    _exit (0);
}

static void
on_window_mapped (GtkWidget *window)
{
  print_milestone ("window mapped");
  GdkFrameClock *clock = gtk_widget_get_frame_clock (window);
  if (clock)
    g_signal_connect (clock, "after-paint", G_CALLBACK (on_after_paint), NULL);
}

static void
on_window_added (GtkApplication *app, GtkWindow *window)
{
  print_milestone ("window built");
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
  /* A signal that ends the app mid-export leaves no temporary file. */
  ms_atomic_file_clean_up_on_signals ();
  g_autoptr (MsApplication) app = ms_application_new ();
  if (g_getenv ("MEMSWEEP_FIRST_FRAME"))
    g_signal_connect (app, "window-added", G_CALLBACK (on_window_added), NULL);
  return g_application_run (G_APPLICATION (app), argc, argv);
}
