/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-timeline-rows.h: two to five timelines (modes, runs or variants)
 * stacked on one time axis, aligned where their data movement starts, so
 * that pageable and pinned, or depth-first and breadth-first, compare at a
 * glance. Drawn row by row with ms_timeline_draw; no widgets. */
#pragma once

#include "ms-timeline.h"

G_BEGIN_DECLS

#define MS_TIMELINE_MAX_ROWS 5
/* The thinnest lane of a stack of rows: a projected lesson shows all of
 * its rows with thin lanes rather than leave one out. */
#define MS_TIMELINE_ROWS_MIN_LANE_PX 3.0

typedef struct {
  int n;
  MsCell cells[MS_TIMELINE_MAX_ROWS]; /* one repetition each, as repetition 0, aligned */
  /* The same without setup and verification (allocation, init, verify,
   * unregister, free): what a row draws while those are hidden, so that a
   * 1 ms verification never fills a row that is about its copies. */
  MsCell work[MS_TIMELINE_MAX_ROWS];
  char *titles[MS_TIMELINE_MAX_ROWS];
  /* The figure a caption quotes, the cell's end-to-end median without
   * timers (0: unknown), and how long the repetition drawn, measured with
   * timers, took: a row's title gives both, so that the bars are never
   * read as the caption's figure. */
  double median_us[MS_TIMELINE_MAX_ROWS], drawn_us[MS_TIMELINE_MAX_ROWS];
  /* Which repetition row i draws: the k-th (from 1) of the n with events,
   * and whether it is the typical one (ms_timeline_rows_typical_rep); the
   * title says so. */
  int rep_k[MS_TIMELINE_MAX_ROWS], rep_n[MS_TIMELINE_MAX_ROWS];
  gboolean rep_typical[MS_TIMELINE_MAX_ROWS];
  /* What that figure is where it is not the time end to end (a lesson
   * whose figure is a wait), e.g. "wait"; NULL: end
   * to end. Not owned. */
  const char *figure_name;
  /* How the titles write times (NULL: ms_caption_time), as the lesson's
   * line does: priority's waits to a tenth of a µs. */
  const char *(*time_words) (double us, char *buf, size_t len);
  /* The titles quote the median copy rate (a lesson compared by it): the
   * bars leave theirs out (MsTimelineParts.no_bar_rates). */
  gboolean rates_in_titles;
  /* Bars with no room for a name on their lane are named above or below
   * (MsTimelineParts.name_slivers). */
  gboolean name_slivers;
  gboolean setup_shown; /* as the last ms_timeline_rows_window asked */
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
/* The repetition a picture of one repetition of cell draws, the one rule
 * of every lesson's picture: of those with events, the one whose figure
 * lies closest to the median its row's title and the caption quote (the
 * time end to end, with timers against the median without). -1 when no
 * repetition has both events and that time. */
int ms_timeline_rows_typical_rep (const MsCell *cell);
/* Adds that repetition of cell as the next row (ms_timeline_rows_add);
 * where no repetition has the figure, the first with events. */
gboolean ms_timeline_rows_add_typical (MsTimelineRows *rows, const MsCell *cell,
                                       const char *title);
/* The window that opens on the data movement, setup and verification not
 * drawn, or with expand the whole extent with them; its times read from 0
 * at its start. */
void ms_timeline_rows_window (MsTimelineRows *rows, gboolean expand, MsTimeWindow *win);
/* The cell row i draws: with setup and verification or without, as the
 * last window asked. */
const MsCell *ms_timeline_rows_cell (const MsTimelineRows *rows, int i);
/* How much a row's title says: all, short where room is short, or at a
 * lesson pane's size only the row's name and the caption's figure. */
typedef enum {
  MS_ROWS_TITLE_LONG,
  MS_ROWS_TITLE_SHORT,
  MS_ROWS_TITLE_TINY,
  MS_ROWS_TITLE_N,
} MsRowsTitle;

/* Row i's title with its figures, as drawn (free it). */
char *ms_timeline_rows_title (const MsTimelineRows *rows, int i, MsRowsTitle length);
/* The least height that draws every row in width with lanes of
 * MS_TIMELINE_ROWS_MIN_LANE_PX, its titles short, the legend and notes
 * under them: what a widget asks for (more gives the lanes more). */
double ms_timeline_rows_least_height (cairo_t *cr, const MsTimelineRows *rows,
                                      const MsChartStyle *style, double width);
/* Draws the rows one under another into width x height, all in win, the
 * times under the last and one legend under all; every row is drawn, its
 * lanes as thin as MS_TIMELINE_ROWS_MIN_LANE_PX where room is short.
 * layouts (n entries, or NULL) receive each row's bars in the row's own
 * coordinates (none for a row left out). */
void ms_timeline_rows_draw (cairo_t *cr, const MsTimelineRows *rows, const MsTimeWindow *win,
                            const MsChartStyle *style, double width, double height,
                            MsTimelineLayout *layouts);

G_END_DECLS
