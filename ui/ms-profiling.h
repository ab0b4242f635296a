/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-profiling.h: with MEMSWEEP_PROBE=1, measures the window's responsiveness
 * and prints to stderr: the first frame (wall clock, for scripts that time
 * the launch), open-to-drawn time per file, and from the first frame on the
 * longest main-loop stall, and the longest less the frames drawn in it (the
 * work that is not drawing), in wall-clock time and in the main thread's
 * CPU time (which preemption on a busy machine does not stretch), both in
 * all and until the last file was drawn, and the longest block of any kind
 * (frames included) in CPU time, and the longest frame with what it drew
 * (the files just opened, or the view shown). With MEMSWEEP_PROBE_QUIT_MS=N the
 * application shows every page of its view stack in turn once the files are
 * drawn (printing the time each takes to draw and the longest block while
 * it is shown), staying MEMSWEEP_PROBE_DWELL_MS on each (0 by default; for
 * screenshots), quits N ms later, and prints a summary line first. Does
 * nothing without the variable.
 *
 * Built only with -Dprofiling=true (MS_PROFILING); otherwise these are
 * empty and the shipped app reads none of these variables. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#ifdef MS_PROFILING
void ms_profiling_watch_window (GtkWindow *window);
/* A file's load was asked for, and its run was added to the views (or
 * `error` shown instead). */
void ms_profiling_open_asked (const char *path);
void ms_profiling_open_added (const char *path, const char *error);
/* A lesson card's run ended: with MEMSWEEP_PROBE set, prints one line to
 * stdout, "lesson NAME: done (SOURCE), caption: ..." (SOURCE: "measured" or
 * "reference run", " on DEVICE, DATE") or "lesson NAME: failed: ...", and with MEMSWEEP_QUIT_AFTER_LESSON=1 quits the application. */
void ms_profiling_lesson_finished (GtkWindow *window, const char *name, const char *source,
                               const char *caption, const char *error);
#else
static inline void
ms_profiling_watch_window (GtkWindow *window)
{
}

static inline void
ms_profiling_open_asked (const char *path)
{
}

static inline void
ms_profiling_open_added (const char *path, const char *error)
{
}

static inline void
ms_profiling_lesson_finished (GtkWindow *window, const char *name, const char *source,
                          const char *caption, const char *error)
{
}
#endif

G_END_DECLS
