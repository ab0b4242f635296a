/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-page.h: the base of the window's pages: a `session` property (bound in
 * the window's template) and a call whenever the session's runs change, so
 * that a page follows the session instead of being handed runs. */
#pragma once

#include <gtk/gtk.h>

#include "ms-drawing.h"
#include "ms-session.h"

G_BEGIN_DECLS

#define MS_TYPE_PAGE (ms_page_get_type ())
G_DECLARE_DERIVABLE_TYPE (MsPage, ms_page, MS, PAGE, GtkWidget)

/* What Export Chart writes of a page: the drawing the page shows, drawn
 * again at the size asked, with its caption under it. */
typedef struct {
  /* Which drawing: "bandwidth", "time", "timeline", "breakdown",
   * "compare", "matrix" (the GPUs page's heat map), "lesson-picture",
   * "lesson-reuse", "lesson-timelines". */
  const char *kind;
  char *title;   /* what it shows, as the page names it */
  char *caption;  /* the lines under it (the runs' device and settings) */
  char *headline; /* the line over it in large type (a lesson's takeaway), or NULL */
  /* The page shows it as a slide: its export keeps the slide's layout,
   * though without the page's header and switcher it has more height. */
  gboolean slide;
  /* Draws it; the page draws what it shows, as it shows it. */
  void (*draw) (MsPage *page, cairo_t *cr, const MsChartStyle *style, double width,
                double height);
  /* Writes what goes beside the picture at path (the Compare page's
   * verdict table as CSV), returning the file written; NULL: nothing. */
  char *(*write_beside) (MsPage *page, const char *path, GError **error);
} MsPageDrawing;

struct _MsPageClass {
  GtkWidgetClass parent_class;

  /* The runs shown changed: added, removed, renamed, or the live run's
   * cells. `runs` holds MsRun references in the session's order (empty
   * without a session); a page may keep it. */
  void (*runs_changed) (MsPage *self, GPtrArray *runs);
  /* Export Chart: fills drawing with what the page shows now, or returns
   * why it has nothing to export (NULL: no vfunc, the page has no chart). */
  char *(*get_drawing) (MsPage *self, MsPageDrawing *drawing);
  /* The names of its template's views that follow the window's text and
   * line scale, space-separated ("matrix_view topology_view"), or NULL. */
  const char *scaled_views;
};

MsSession *ms_page_get_session (MsPage *self);
void ms_page_set_session (MsPage *self, MsSession *session);
/* Connects handler, swapped (it is given the page), to signal of the
 * session the page follows, whichever it is now or later. */
void ms_page_connect_session (MsPage *self, const char *signal, GCallback handler);
/* Binds the "text-scale", "line-scale" and "high-contrast" of each of
 * the page's scaled_views, and of the page where it has them, to those of
 * scale (the window). */
void ms_page_follow_scale (MsPage *self, GObject *scale);
/* The runs as last passed to runs_changed (never NULL). */
GPtrArray *ms_page_get_runs (MsPage *self);
/* Shows runs (MsRun*) as if the session had them: calls
 * runs_changed. The session's runs reach the page this way; a test shows
 * its own. */
void ms_page_show_runs (MsPage *self, GPtrArray *runs);
/* What Export Chart writes of the page (ms_page_drawing_clear it after);
 * FALSE with why_not (free it) when the page exports no drawing now. */
gboolean ms_page_get_drawing (MsPage *self, MsPageDrawing *drawing, char **why_not);
void ms_page_drawing_clear (MsPageDrawing *drawing);
/* The caption of a drawing of runs (MsRun*): each one's device, date and
 * version, then the settings (ms_report_caption); NULL for none. */
char *ms_page_runs_caption (GPtrArray *runs);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (MsPageDrawing, ms_page_drawing_clear)

G_END_DECLS
