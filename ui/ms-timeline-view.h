/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-timeline-view.h: the timeline of one repetition, with zoom and pan. */
#pragma once

#include <gtk/gtk.h>

#include "memsweep.h"
#include "ms-timeline.h"

G_BEGIN_DECLS

#define MS_TYPE_TIMELINE_VIEW (ms_timeline_view_get_type ())
G_DECLARE_FINAL_TYPE (MsTimelineView, ms_timeline_view, MS, TIMELINE_VIEW, GtkWidget)

/* Properties: "title" (read-only, set with the cell), "zoomed" (read-only:
 * the window shows less than the whole repetition), and the text-scale /
 * line-scale / high-contrast of ms-views.h. */
GtkWidget *ms_timeline_view_new (void);
/* Shows repetition `rep` of `cell` (NULL: nothing), one of the cells of
 * `run` (from ms-run.h), at full extent. The view holds the run, not a copy
 * of the cell. */
void ms_timeline_view_set_cell (MsTimelineView *self, const MsResults *run, const MsCell *cell,
                                int rep, const char *title);
const char *ms_timeline_view_get_title (MsTimelineView *self);
gboolean ms_timeline_view_get_zoomed (MsTimelineView *self);
void ms_timeline_view_zoom (MsTimelineView *self, double factor);
void ms_timeline_view_reset_zoom (MsTimelineView *self);
const MsTimeWindow *ms_timeline_view_get_window (MsTimelineView *self);

G_END_DECLS
