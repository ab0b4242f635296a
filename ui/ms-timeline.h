/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-timeline.h: one repetition of one cell as lanes (host, then one per
 * stream). Drawing takes a cairo_t; the zoom/pan state and hit testing need
 * no widget. */
#pragma once

#include "memsweep.h"
#include "ms-breakdown.h"
#include "ms-draw.h"

G_BEGIN_DECLS

/* The visible time window in µs; zooming keeps the point under the cursor. */
typedef struct {
  double total_us; /* extent of the data */
  double t0, t1;   /* visible window */
} MsTimeWindow;

void ms_time_window_reset (MsTimeWindow *w, double total_us);
void ms_time_window_zoom (MsTimeWindow *w, double factor, double anchor_us);
void ms_time_window_pan (MsTimeWindow *w, double delta_us);

typedef struct {
  double x, y, w, h;
  const MsEvent *event;
  gboolean host_part; /* the host's view of a stream operation */
} MsTimelineBar;

typedef struct _MsTimelineIndex MsTimelineIndex;

typedef struct {
  double plot_x, plot_y, plot_w, plot_h;
  GArray *bars; /* MsTimelineBar; bars under a pixel wide merged per lane */
  MsTimelineIndex *index; /* private: the repetition's events by start */
} MsTimelineLayout;

void ms_timeline_layout_init (MsTimelineLayout *l);
void ms_timeline_layout_clear (MsTimelineLayout *l);
/* Drops the index kept between draws. The next draw notices a different
 * cell or repetition by itself; call this when a cell's events were
 * replaced in place. */
void ms_timeline_layout_forget_cell (MsTimelineLayout *l);

/* Extent in µs of repetition rep of cell (0 when it has none). */
double ms_timeline_extent (const MsCell *cell, int rep);

/* A host operation "blocked" when the call took about as long as the GPU
 * work it issued: pageable copies, synchronous copies. */
gboolean ms_event_blocked_host (const MsEvent *ev);

void ms_timeline_draw (cairo_t *cr, const MsCell *cell, int rep, const MsTimeWindow *win,
                       const MsChartStyle *style, double width, double height, const char *title,
                       MsTimelineLayout *layout);
const MsTimelineBar *ms_timeline_layout_hit (const MsTimelineLayout *l, double x, double y);

G_END_DECLS
