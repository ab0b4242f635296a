/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-timeline-overview.h: a strip with the whole repetition of the cell a
 * timeline view shows, the view's window marked on it; a click or a drag
 * moves the view there. */
#pragma once

#include "ms-timeline-view.h"

G_BEGIN_DECLS

#define MS_TYPE_TIMELINE_OVERVIEW (ms_timeline_overview_get_type ())
G_DECLARE_FINAL_TYPE (MsTimelineOverview, ms_timeline_overview, MS, TIMELINE_OVERVIEW, GtkWidget)

/* Property "view": the MsTimelineView it follows and moves. */

G_END_DECLS
