/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-profiling.c: the app's profiling hooks (see ms-profiling.h). */
#include "ms-profiling.h"

#include <adwaita.h>
#include <stdio.h>
#include <sys/resource.h>

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
  /* The same in the main thread's CPU time, which a busy machine's
   * preemption does not stretch. */
  gint64 last_tick_cpu, frame_start_cpu, frames_cpu, frames_cpu_at_tick;
  gint64 longest_work_cpu, opening_work_cpu;
  gint64 view_work, view_work_cpu; /* the longest while the view shown now was asked for */
  /* The longest block of any kind, frames included, in CPU time: in all,
   * until the last file was drawn, and for the view shown now. */
  gint64 longest_block_cpu, opening_block_cpu, view_block_cpu;
  gint64 last_drawn;
  /* The longest frame from the first frame's end, and what it drew: the
   * stall less the work is drawing (GTK's renderer). */
  gint64 longest_frame, longest_frame_cpu;
  char longest_frame_what[64];
  guint n_drawn;
  guint quit_ms;
  guint dwell_ms;     /* on each view before the next */
  gboolean first_view_shown;
  int next_view;      /* before quitting, every page of the view stack is shown in turn */
  gint64 view_asked;
  GtkWindow *window;
  AdwViewStack *stack; /* the window's views, found when it is realized */
} MsProbe;

static MsProbe *probe;

/* µs of CPU the calling thread has used. */
static gint64
thread_cpu_us (void)
{
  struct rusage u;
  if (getrusage (RUSAGE_THREAD, &u) != 0)
    return 0;
  return (u.ru_utime.tv_sec + u.ru_stime.tv_sec) * G_USEC_PER_SEC + u.ru_utime.tv_usec
         + u.ru_stime.tv_usec;
}

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
  gint64 now = g_get_monotonic_time (), cpu = thread_cpu_us ();
  if (probe->first_frame && probe->last_tick) {
    gint64 gap = now - probe->last_tick;
    probe->longest_stall = MAX (probe->longest_stall, gap);
    gint64 work = gap - (probe->frames_us - probe->frames_at_tick);
    gint64 work_cpu = cpu - probe->last_tick_cpu - (probe->frames_cpu - probe->frames_cpu_at_tick);
    probe->longest_work = MAX (probe->longest_work, work);
    probe->longest_work_cpu = MAX (probe->longest_work_cpu, work_cpu);
    probe->view_work = MAX (probe->view_work, work);
    probe->view_work_cpu = MAX (probe->view_work_cpu, work_cpu);
    /* Blocks from the first frame's end: the first frame is timed apart. */
    if (probe->last_tick >= probe->first_frame) {
      probe->longest_block_cpu = MAX (probe->longest_block_cpu, cpu - probe->last_tick_cpu);
      probe->view_block_cpu = MAX (probe->view_block_cpu, cpu - probe->last_tick_cpu);
    }
  }
  probe->last_tick = now;
  probe->last_tick_cpu = cpu;
  probe->frames_at_tick = probe->frames_us;
  probe->frames_cpu_at_tick = probe->frames_cpu;
  return G_SOURCE_CONTINUE;
}

static guint
n_views (void)
{
  if (!probe->stack)
    return 0;
  g_autoptr (GtkSelectionModel) pages = adw_view_stack_get_pages (probe->stack);
  return g_list_model_get_n_items (G_LIST_MODEL (pages));
}

/* The longest blocks from asking for the view shown now until leaving it. */
static void
print_view_work (void)
{
  const char *name = adw_view_stack_get_visible_child_name (probe->stack);
  fprintf (stderr, "probe: view-work name=%s work-ms=%.1f work-cpu-ms=%.1f block-cpu-ms=%.1f\n",
           name ? name : "", probe->view_work / 1000.0, probe->view_work_cpu / 1000.0,
           probe->view_block_cpu / 1000.0);
}

/* Shows the next page once the previous one is drawn, and says how long it
 * took and the longest main-loop block meanwhile (showing a page maps it
 * outside any frame); FALSE when all are shown. */
static gboolean
show_next_view (gint64 now)
{
  if (probe->view_asked) {
    const char *name = adw_view_stack_get_visible_child_name (probe->stack);
    fprintf (stderr, "probe: view-drawn-ms=%.1f view=%d name=%s\n",
             (now - probe->view_asked) / 1000.0, probe->next_view, name ? name : "");
    fprintf (stderr, "probe: view-shown name=%s\n", name ? name : "");
    probe->last_drawn = now;
    probe->view_asked = 0;
  }
  if (probe->next_view == 0 && !probe->first_view_shown) {
    const char *name = adw_view_stack_get_visible_child_name (probe->stack);
    fprintf (stderr, "probe: view-shown name=%s\n", name ? name : "");
    probe->first_view_shown = TRUE;
    probe->last_drawn = now;
  }
  /* Time to look at it (MEMSWEEP_PROBE_DWELL_MS), for screenshots. */
  if (now - probe->last_drawn < probe->dwell_ms * (gint64) 1000)
    return TRUE;
  if (probe->next_view == 0) {
    probe->opening_work = probe->longest_work;
    probe->opening_work_cpu = probe->longest_work_cpu;
    probe->opening_block_cpu = probe->longest_block_cpu;
  }
  if (probe->next_view > 0)
    print_view_work ();
  if ((guint) ++probe->next_view >= n_views ())
    return FALSE;
  probe->view_work = probe->view_work_cpu = probe->view_block_cpu = 0;
  probe->view_asked = g_get_monotonic_time ();
  g_autoptr (GtkSelectionModel) pages = adw_view_stack_get_pages (probe->stack);
  gtk_selection_model_select_item (pages, probe->next_view, TRUE);
  return TRUE;
}

static void
maybe_quit (gint64 now)
{
  if (!probe->quit_ms || g_hash_table_size (probe->asked) > 0 || g_hash_table_size (probe->added) > 0)
    return;
  if ((guint) probe->next_view < n_views () && show_next_view (now))
    return;
  gint64 since = MAX (probe->first_frame, probe->last_drawn);
  if (now - since < probe->quit_ms * (gint64) 1000)
    return;
  fprintf (stderr,
           "probe: summary files=%u longest-stall-ms=%.1f longest-work-ms=%.1f "
           "longest-work-cpu-ms=%.1f opening-work-cpu-ms=%.1f opening-work-ms=%.1f "
           "longest-block-cpu-ms=%.1f opening-block-cpu-ms=%.1f longest-frame-ms=%.1f "
           "longest-frame-cpu-ms=%.1f longest-frame=%s\n",
           probe->n_drawn, probe->longest_stall / 1000.0, probe->longest_work / 1000.0,
           probe->longest_work_cpu / 1000.0, probe->opening_work_cpu / 1000.0,
           probe->opening_work / 1000.0, probe->longest_block_cpu / 1000.0,
           probe->opening_block_cpu / 1000.0, probe->longest_frame / 1000.0,
           probe->longest_frame_cpu / 1000.0,
           probe->longest_frame_what[0] ? probe->longest_frame_what : "none");
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
  if (!probe->frame_start) {
    probe->frame_start = g_get_monotonic_time ();
    probe->frame_start_cpu = thread_cpu_us ();
  }
}

/* What a frame drew: the files just opened, a view just asked for, or
 * neither (a view's later frames, the toasts' animations). */
static void
note_frame (gint64 us, gint64 cpu_us)
{
  if (!probe->first_frame || us <= probe->longest_frame)
    return;
  probe->longest_frame = us;
  probe->longest_frame_cpu = cpu_us;
  const char *view = probe->stack ? adw_view_stack_get_visible_child_name (probe->stack) : NULL;
  if (g_hash_table_size (probe->added) > 0)
    g_snprintf (probe->longest_frame_what, sizeof probe->longest_frame_what, "files-opened");
  else
    g_snprintf (probe->longest_frame_what, sizeof probe->longest_frame_what, "%s-%s",
                probe->view_asked ? "view-shown" : "view-later", view ? view : "");
}

static void
on_after_paint (GdkFrameClock *clock, gpointer data)
{
  gint64 now = g_get_monotonic_time ();
  if (probe->frame_start) {
    gint64 cpu = thread_cpu_us () - probe->frame_start_cpu;
    probe->frames_us += now - probe->frame_start;
    probe->frames_cpu += cpu;
    note_frame (now - probe->frame_start, cpu);
  }
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

static AdwViewStack *
find_view_stack (GtkWidget *widget)
{
  if (ADW_IS_VIEW_STACK (widget))
    return ADW_VIEW_STACK (widget);
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c)) {
    AdwViewStack *found = find_view_stack (c);
    if (found)
      return found;
  }
  return NULL;
}

static void
on_realize (GtkWidget *widget)
{
  probe->stack = find_view_stack (widget);
  GdkFrameClock *clock = gtk_widget_get_frame_clock (widget);
  g_signal_connect (clock, "update", G_CALLBACK (on_frame_start), NULL);
  g_signal_connect (clock, "layout", G_CALLBACK (on_frame_start), NULL);
  g_signal_connect (clock, "paint", G_CALLBACK (on_frame_start), NULL);
  g_signal_connect (clock, "after-paint", G_CALLBACK (on_after_paint), NULL);
  if (probe->quit_ms)
    gtk_widget_add_tick_callback (widget, on_idle_frame, NULL, NULL);
}

void
ms_profiling_watch_window (GtkWindow *window)
{
  if (!probe_enabled () || probe)
    return;
  probe = g_new0 (MsProbe, 1);
  probe->asked = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  probe->added = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  probe->window = window;
  const char *quit = g_getenv ("MEMSWEEP_PROBE_QUIT_MS");
  probe->quit_ms = quit ? (guint) g_ascii_strtoull (quit, NULL, 10) : 0;
  const char *dwell = g_getenv ("MEMSWEEP_PROBE_DWELL_MS");
  probe->dwell_ms = dwell ? (guint) g_ascii_strtoull (dwell, NULL, 10) : 0;
  g_signal_connect (window, "realize", G_CALLBACK (on_realize), NULL);
  g_timeout_add_full (G_PRIORITY_HIGH, 1, on_tick, NULL, NULL);
}

void
ms_profiling_open_asked (const char *path)
{
  if (!probe)
    return;
  g_hash_table_insert (probe->asked, g_strdup (path),
                       GSIZE_TO_POINTER ((gsize) g_get_monotonic_time ()));
}

void
ms_profiling_open_added (const char *path, const char *error)
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
ms_profiling_lesson_finished (GtkWindow *window, const char *name, const char *source,
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
