/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-window.h: the main window. */
#pragma once

#include <adwaita.h>

#include "ms-session.h"

#include "memsweep.h"

G_BEGIN_DECLS

#define MS_TYPE_WINDOW (ms_window_get_type ())
G_DECLARE_FINAL_TYPE (MsWindow, ms_window, MS, WINDOW, AdwApplicationWindow)

typedef enum {
  MS_VIEW_BANDWIDTH,
  MS_VIEW_TIME,
  MS_VIEW_TIMELINE,
  MS_VIEW_BREAKDOWN,
  MS_VIEW_TABLE,
  MS_VIEW_COMPARE,
  MS_VIEW_DEVICES,
  MS_VIEW_LESSONS,
  MS_VIEW_COUNT
} MsViewKind;

/* Properties: "presentation" (settings hidden, fullscreen, larger text and
 * lines), "text-scale", "line-scale", "high-contrast" (bound to every view),
 * "view" (an MsViewKind), "run-blocker" (read-only:
 * why Run is disabled, the settings' validation message, no GPU, ..., or
 * NULL), "toast-text" (read-only; the plain text of the newest toast),
 * "painted" (read-only: the first frame is drawn) and "session" (what the
 * window works on: its runs, devices and sweep settings). */
MsWindow *ms_window_new (AdwApplication *app);

/* Reads a samples CSV off the main thread and adds it as a comparison run;
 * errors show as a toast naming the file. Before the window's first frame
 * the file waits for it. (ms-window-files.c) */
void ms_window_open_file (MsWindow *self, GFile *file);
/* Synchronous variant for tests: FALSE with error, data unchanged. */
gboolean ms_window_load_path (MsWindow *self, const char *path, GError **error);
/* Starts a sweep as soon as device discovery has finished (--run). */
void ms_window_run_when_ready (MsWindow *self);
/* Shows the Lessons page on the lesson called name ("duplex"), once device
 * discovery has ended; with run, starts the card's Run too (--lesson).
 * FALSE when no lesson has that name. (ms-window-pages.c) */
gboolean ms_window_open_lesson (MsWindow *self, const char *name, gboolean run);
void ms_window_set_view (MsWindow *self, MsViewKind view);
MsViewKind ms_window_get_view (MsWindow *self);
/* Closes the session's run at index (from 0, in the order they came) as
 * its Close button does; FALSE for an index out of range, or for the run a
 * sweep is filling while it runs. */
gboolean ms_window_close_run (MsWindow *self, guint index);
/* Closes every run but the sweep's, with an undo toast (its Undo button puts them back where they
 * were); the toast, NULL where none closed. */
AdwToast *ms_window_close_runs (MsWindow *self);
/* Exports through the engine / the chart drawing, without dialogs.
 * ms_window_export_csv writes the run Export CSV offers first (the live
 * sweep, else the newest run); ms_window_export_run_csv the run at index. */
gboolean ms_window_export_csv (MsWindow *self, const char *path, gboolean summary,
                               GError **error);
gboolean ms_window_export_run_csv (MsWindow *self, guint index, const char *path,
                                   gboolean summary, GError **error);
/* The drawing of the page in front (ms_page_get_drawing) with its caption,
 * and what the page writes beside it; FALSE with G_IO_ERROR_NOT_FOUND and
 * the page's reason when it has nothing to draw. */
gboolean ms_window_export_chart (MsWindow *self, const char *path, int width, int height,
                                 GError **error);
/* Every run shown as a PDF report, or HTML when path ends in .html. */
gboolean ms_window_export_report (MsWindow *self, const char *path, GError **error);
/* Export Handout: the Lessons page's lesson shown, with its run, as a
 * one-page PDF (ms_report_write_handout); FALSE with an error when that
 * page is not in front or shows no lesson's run. */
gboolean ms_window_export_handout (MsWindow *self, const char *path, GError **error);

G_END_DECLS
