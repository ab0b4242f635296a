/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-timeline-page.h: the timeline page: run, mode, size and repetition
 * pickers, zoom buttons and the timeline. */
#pragma once

#include <gtk/gtk.h>

#include "ms-page.h"

#include "ms-timeline-view.h"

G_BEGIN_DECLS

#define MS_TYPE_TIMELINE_PAGE (ms_timeline_page_get_type ())
G_DECLARE_FINAL_TYPE (MsTimelinePage, ms_timeline_page, MS, TIMELINE_PAGE, MsPage)

/* Properties: "mode" (an MsMode), "exponent" (-1: no size), "repetition"
 * (from 1). Action "timeline.zoom" (i): in (1), out (-1), whole (0). */
/* The cell shown and its repetition (from 0), or NULL. */
const MsCell *ms_timeline_page_get_cell (MsTimelinePage *self, int *rep);
void ms_timeline_page_zoom (MsTimelinePage *self, int direction);

G_END_DECLS
