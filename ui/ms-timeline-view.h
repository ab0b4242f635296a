/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-timeline-view.h: the timeline of one repetition, with zoom and pan. */
#pragma once

#include <gtk/gtk.h>

#include "ms-chart-view.h"

#include "memsweep.h"
#include "ms-run.h"
#include "ms-drawing.h"

G_BEGIN_DECLS

#define MS_TYPE_TIMELINE_VIEW (ms_timeline_view_get_type ())
G_DECLARE_FINAL_TYPE (MsTimelineView, ms_timeline_view, MS, TIMELINE_VIEW, MsChartView)

/* Properties: "title" (read-only, set with the cell), "zoomed" (read-only:
 * the window shows less than the whole repetition), "show-setup" (FALSE:
 * a cell opens on its data movement, allocation, initialisation and
 * verification left outside the window; TRUE: on the whole repetition),
 * "empty-text" (what it says while no cell is shown: what to choose), and
 * the text-scale / line-scale / high-contrast of MsChartView. Signal
 * "window-changed": the visible window moved. Keys when focused: Left and
 * Right pan, Home and End go to either end, + and - zoom around the pointer
 * (or the time last pointed at), 0 resets, A switches between the data
 * movement and all phases (show-setup). */
/* Shows repetition `rep` of `cell` (NULL: nothing), one of the cells of
 * `run`, at full extent. The view holds the run, not a copy
 * of the cell. A cell of many events is indexed in idle slices first (the
 * view says so; the window is set, and "window-changed" emitted, once it
 * is done): the main loop is never held for long. */
void ms_timeline_view_set_cell (MsTimelineView *self, MsRun *run, const MsCell *cell,
                                int rep, const char *title);
const char *ms_timeline_view_get_title (MsTimelineView *self);
/* Draws what the view shows (the cell's repetition in the window shown,
 * its title, the run's name under it) into width x height: the export. */
void ms_timeline_view_draw (MsTimelineView *self, cairo_t *cr, const MsChartStyle *style,
                            double width, double height);
/* Zooms around the pointer, else the time last pointed at, else the middle. */
void ms_timeline_view_zoom (MsTimelineView *self, double factor);
void ms_timeline_view_pan (MsTimelineView *self, double delta_us);
void ms_timeline_view_center_on (MsTimelineView *self, double t_us);
/* Back to the data movement (or the whole repetition with show-setup). */
void ms_timeline_view_reset_zoom (MsTimelineView *self);
/* The tooltip of an event's bar, as Pango markup. */
char *ms_timeline_view_describe_event (const MsEvent *ev, gboolean host_part);
/* The cell and repetition shown (NULL: none). */
const MsCell *ms_timeline_view_get_cell (MsTimelineView *self, int *rep);
const MsTimeWindow *ms_timeline_view_get_window (MsTimelineView *self);
/* Where the repetition shown lies in its cell's events ([first, end), with
 * other repetitions' events where they interleave); FALSE while a large
 * cell is still being indexed ("window-changed" follows) or with none. */
gboolean ms_timeline_view_get_rep_range (MsTimelineView *self, size_t *first, size_t *end);

G_END_DECLS
