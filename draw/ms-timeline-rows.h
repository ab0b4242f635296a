/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-timeline-rows.h: two to four timelines (modes, runs or variants)
 * stacked on one time axis, aligned where their data movement starts, so
 * that pageable and pinned, or depth-first and breadth-first, compare at a
 * glance. Drawn row by row with ms_timeline_draw; no widgets. */
#pragma once

#include "ms-timeline.h"

G_BEGIN_DECLS

#define MS_TIMELINE_MAX_ROWS 4

typedef struct {
  int n;
  MsCell cells[MS_TIMELINE_MAX_ROWS]; /* one repetition each, as repetition 0, aligned */
  char *titles[MS_TIMELINE_MAX_ROWS];
  double move_t0, move_t1; /* the data movement of every row, on the shared axis */
  double total_us;         /* the longest row */
  /* Private: how far each row's movement starts after its first event,
   * and the shift applied to line it up. */
  double lead[MS_TIMELINE_MAX_ROWS], shift[MS_TIMELINE_MAX_ROWS];
} MsTimelineRows;

void ms_timeline_rows_init (MsTimelineRows *rows);
void ms_timeline_rows_clear (MsTimelineRows *rows);
/* Adds repetition rep of cell as the next row (FALSE when full or the cell
 * has no events of rep). Rows are aligned again on every add: the start of
 * each row's data movement (to-device, prefetch, kernel, to-host) lands at
 * the same time, the latest such start of any row. */
gboolean ms_timeline_rows_add (MsTimelineRows *rows, const MsCell *cell, int rep,
                               const char *title);
/* The window that opens on the data movement (init and verify collapsed),
 * or with expand the whole extent. */
void ms_timeline_rows_window (const MsTimelineRows *rows, gboolean expand, MsTimeWindow *win);
/* Draws the rows one under another into width x height, all in win, the
 * times under the last and one legend under all; rows that would get
 * lanes thinner than 6 px are left out, with a line that says so.
 * layouts (n entries, or NULL) receive each row's bars in the row's own
 * coordinates (none for a row left out). */
void ms_timeline_rows_draw (cairo_t *cr, const MsTimelineRows *rows, const MsTimeWindow *win,
                            const MsChartStyle *style, double width, double height,
                            MsTimelineLayout *layouts);

G_END_DECLS
