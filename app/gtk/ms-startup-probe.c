/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-startup-probe.c: memsweep-gtk's start-up milestones (see
 * ms-startup-probe.h); built with -Dprofiling=true only. */
#include "ms-startup-probe.h"

#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

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

void
ms_startup_probe_watch (GApplication *app, gint64 main_start)
{
  if (!g_getenv ("MEMSWEEP_FIRST_FRAME"))
    return;
  main_start_us = main_start;
  g_signal_connect (app, "window-added", G_CALLBACK (on_window_added), NULL);
}
