/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench-empty-window: the floor under memsweep-gtk's first frame on this
 * machine. An AdwApplicationWindow with a header bar and a label, nothing
 * of memsweep's: prints the main thread's CPU time when the application
 * starts, when it activates (GTK, the display, GL probing and libadwaita's
 * style are ready) and at the first frame, with the wall time from main().
 * Run under a display, e.g.
 *   xvfb-run -a -s "-screen 0 1600x1000x24" build/bench/bench-empty-window
 * with GSK_RENDERER=cairo or GDK_DEBUG=gl-disable to compare renderers. */
#define _GNU_SOURCE
#include <adwaita.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

static gint64 main_start_us;

static double
thread_cpu_ms (void)
{
  struct rusage u;
  getrusage (RUSAGE_THREAD, &u);
  return (u.ru_utime.tv_sec + u.ru_stime.tv_sec) * 1e3
         + (u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1e-3;
}

static double activate_cpu_ms;

static void
on_after_paint (GdkFrameClock *clock, gpointer data)
{
  printf ("empty window: activate at %.1f ms CPU, first frame at %.1f ms CPU, %.1f ms wall "
          "after main()\n",
          activate_cpu_ms, thread_cpu_ms (), (g_get_monotonic_time () - main_start_us) * 1e-3);
  exit (0);
}

static void
on_activate (GApplication *app)
{
  activate_cpu_ms = thread_cpu_ms ();
  GtkWidget *window = adw_application_window_new (GTK_APPLICATION (app));
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  gtk_box_append (GTK_BOX (box), adw_header_bar_new ());
  gtk_box_append (GTK_BOX (box), gtk_label_new ("memsweep"));
  adw_application_window_set_content (ADW_APPLICATION_WINDOW (window), box);
  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 800);
  gtk_window_present (GTK_WINDOW (window));
  g_signal_connect (gtk_widget_get_frame_clock (window), "after-paint",
                    G_CALLBACK (on_after_paint), NULL);
}

int
main (int argc, char *argv[])
{
  main_start_us = g_get_monotonic_time ();
  g_autoptr (AdwApplication) app
    = adw_application_new ("io.github.memsweep.EmptyWindow", G_APPLICATION_NON_UNIQUE);
  g_signal_connect (app, "activate", G_CALLBACK (on_activate), NULL);
  return g_application_run (G_APPLICATION (app), argc, argv);
}
