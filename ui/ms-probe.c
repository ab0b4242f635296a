/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-probe.c: responsiveness probe (see ms-probe.h). */
#include "ms-probe.h"

#include <stdio.h>

typedef struct {
  GHashTable *asked;  /* path -> start time (µs, monotonic) */
  GHashTable *added;  /* path -> start time, waiting for their frame */
  gint64 first_frame; /* monotonic µs; 0 before */
  gint64 last_tick;   /* of the high-priority timeout */
  gint64 longest_stall;
  gint64 longest_work;  /* a stall less the frames drawn in it */
  gint64 opening_work;  /* longest_work until the last file was drawn */
  gint64 frame_start;   /* of the frame being drawn, 0 outside one */
  gint64 frames_us;     /* time spent drawing frames, in all */
  gint64 frames_at_tick;
  gint64 last_drawn;
  guint n_drawn;
  guint quit_ms;
  int next_view;      /* before quitting, every view is shown in turn */
  gint64 view_asked;
  GtkWindow *window;
} MsProbe;

#define MS_PROBE_N_VIEWS 5 /* MsViewKind */

static MsProbe *probe;

static gboolean
probe_enabled (void)
{
  const char *env = g_getenv ("MEMSWEEP_PROBE");
  return env && env[0] && g_strcmp0 (env, "0") != 0;
}

/* A timeout at high priority: any gap longer than its period is time the
 * main loop spent elsewhere. */
static gboolean
on_tick (gpointer data)
{
  gint64 now = g_get_monotonic_time ();
  if (probe->first_frame && probe->last_tick) {
    gint64 gap = now - probe->last_tick;
    probe->longest_stall = MAX (probe->longest_stall, gap);
    probe->longest_work = MAX (probe->longest_work, gap - (probe->frames_us - probe->frames_at_tick));
  }
  probe->last_tick = now;
  probe->frames_at_tick = probe->frames_us;
  return G_SOURCE_CONTINUE;
}

/* Shows the next view once the previous one is drawn; FALSE when all are. */
static gboolean
show_next_view (gint64 now)
{
  if (probe->view_asked) {
    fprintf (stderr, "probe: view-drawn-ms=%.1f view=%d\n", (now - probe->view_asked) / 1000.0,
             probe->next_view);
    probe->last_drawn = now;
    probe->view_asked = 0;
  }
  if (probe->next_view == 0)
    probe->opening_work = probe->longest_work;
  if (++probe->next_view >= MS_PROBE_N_VIEWS)
    return FALSE;
  probe->view_asked = g_get_monotonic_time ();
  g_object_set (probe->window, "view", probe->next_view, NULL);
  return TRUE;
}

static void
maybe_quit (gint64 now)
{
  if (!probe->quit_ms || g_hash_table_size (probe->asked) > 0 || g_hash_table_size (probe->added) > 0)
    return;
  if (probe->next_view < MS_PROBE_N_VIEWS && show_next_view (now))
    return;
  gint64 since = MAX (probe->first_frame, probe->last_drawn);
  if (now - since < probe->quit_ms * (gint64) 1000)
    return;
  fprintf (stderr,
           "probe: summary files=%u longest-stall-ms=%.1f longest-work-ms=%.1f "
           "opening-work-ms=%.1f\n",
           probe->n_drawn, probe->longest_stall / 1000.0, probe->longest_work / 1000.0,
           probe->opening_work / 1000.0);
  probe->quit_ms = 0;
  GtkApplication *app = gtk_window_get_application (probe->window);
  if (app)
    g_application_quit (G_APPLICATION (app));
}

/* Frames drawn count apart: their cost is the renderer's (software GL
 * under Xvfb), not work on files. */
static void
on_frame_start (GdkFrameClock *clock, gpointer data)
{
  if (!probe->frame_start)
    probe->frame_start = g_get_monotonic_time ();
}

static void
on_after_paint (GdkFrameClock *clock, gpointer data)
{
  gint64 now = g_get_monotonic_time ();
  if (probe->frame_start)
    probe->frames_us += now - probe->frame_start;
  probe->frame_start = 0;
  if (!probe->first_frame) {
    probe->first_frame = now;
    fprintf (stderr, "probe: first-frame-unix-us=%" G_GINT64_FORMAT "\n", g_get_real_time ());
  }
  GHashTableIter iter;
  gpointer path, start;
  g_hash_table_iter_init (&iter, probe->added);
  while (g_hash_table_iter_next (&iter, &path, &start)) {
    fprintf (stderr, "probe: open-to-drawn-ms=%.1f file=%s\n",
             (now - (gint64) GPOINTER_TO_SIZE (start)) / 1000.0, (char *) path);
    probe->n_drawn++;
    probe->last_drawn = now;
  }
  g_hash_table_remove_all (probe->added);
  maybe_quit (now);
}

/* Frames stop when nothing changes: keep them coming while the probe
 * waits to quit, so that the quit is seen. */
static gboolean
on_idle_frame (GtkWidget *widget, GdkFrameClock *clock, gpointer data)
{
  return probe->quit_ms ? G_SOURCE_CONTINUE : G_SOURCE_REMOVE;
}

static void
on_realize (GtkWidget *widget)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (widget);
  g_signal_connect (clock, "update", G_CALLBACK (on_frame_start), NULL);
  g_signal_connect (clock, "layout", G_CALLBACK (on_frame_start), NULL);
  g_signal_connect (clock, "paint", G_CALLBACK (on_frame_start), NULL);
  g_signal_connect (clock, "after-paint", G_CALLBACK (on_after_paint), NULL);
  if (probe->quit_ms)
    gtk_widget_add_tick_callback (widget, on_idle_frame, NULL, NULL);
}

void
ms_probe_watch_window (GtkWindow *window)
{
  if (!probe_enabled () || probe)
    return;
  probe = g_new0 (MsProbe, 1);
  probe->asked = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  probe->added = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  probe->window = window;
  const char *quit = g_getenv ("MEMSWEEP_PROBE_QUIT_MS");
  probe->quit_ms = quit ? (guint) g_ascii_strtoull (quit, NULL, 10) : 0;
  g_signal_connect (window, "realize", G_CALLBACK (on_realize), NULL);
  g_timeout_add_full (G_PRIORITY_HIGH, 1, on_tick, NULL, NULL);
}

void
ms_probe_open_asked (const char *path)
{
  if (!probe)
    return;
  g_hash_table_insert (probe->asked, g_strdup (path),
                       GSIZE_TO_POINTER ((gsize) g_get_monotonic_time ()));
}

void
ms_probe_open_added (const char *path, const char *error)
{
  gpointer start;
  if (!probe || !g_hash_table_lookup_extended (probe->asked, path, NULL, &start))
    return;
  if (error)
    fprintf (stderr, "probe: open-failed file=%s: %s\n", path, error);
  g_hash_table_insert (probe->added, g_strdup (path), start);
  g_hash_table_remove (probe->asked, path);
  gtk_widget_queue_draw (GTK_WIDGET (probe->window));
}

void
ms_probe_lesson_finished (GtkWindow *window, const char *name, const char *source,
                          const char *caption, const char *error)
{
  if (!probe_enabled ())
    return;
  /* stdout, one line: what a script on a GPU machine waits for. */
  if (error)
    printf ("lesson %s: failed: %s\n", name, error);
  else
    printf ("lesson %s: done (%s), caption: %s\n", name, source, caption ? caption : "");
  fflush (stdout);
  const char *quit = g_getenv ("MEMSWEEP_QUIT_AFTER_LESSON");
  GtkApplication *app = gtk_window_get_application (window);
  if (quit && quit[0] && g_strcmp0 (quit, "0") != 0 && app)
    g_application_quit (G_APPLICATION (app));
}
