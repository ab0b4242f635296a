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
  /* Where the axis reads 0: the start of what was opened (a repetition
   * or its data movement), not the run's clock. */
  double origin_us;
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

/* Where each repetition's events lie in a cell, found in one pass over its
 * events: made once per cell, in steps for a large one, and shared by
 * whatever shows its repetitions (reference counted). */
typedef struct _MsRepMap MsRepMap;

MsRepMap *ms_rep_map_new (const MsCell *cell);
MsRepMap *ms_rep_map_ref (MsRepMap *m);
void ms_rep_map_unref (MsRepMap *m);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (MsRepMap, ms_rep_map_unref)
/* Reads on from where it stopped until all is read (TRUE) or the
 * monotonic clock passes deadline_us (FALSE; 0: no deadline). */
gboolean ms_rep_map_fill (MsRepMap *m, const MsCell *cell, gint64 deadline_us);
gboolean ms_rep_map_complete (const MsRepMap *m);
/* The map was made for this cell (its events' address, count and a few
 * events compared: a cell replaced at the same address is noticed). */
gboolean ms_rep_map_matches (const MsRepMap *m, const MsCell *cell);
/* Repetition rep's events lie in [first, end), mixed with others' where
 * the repetitions are interleaved; 0, 0 when it has none. */
void ms_rep_map_range (const MsRepMap *m, int rep, size_t *first, size_t *end);
/* The events to read for repetition rep: its range when m is complete and
 * of this cell, else all of them; 0, 0 without a cell. */
void ms_rep_map_bounds (const MsRepMap *m, const MsCell *cell, int rep, size_t *first, size_t *end);

typedef struct {
  double plot_x, plot_y, plot_w, plot_h;
  GArray *bars;           /* MsTimelineBar; bars under a pixel wide merged per lane */
  MsTimelineIndex *index; /* private: the repetition's events by start */
  MsRepMap *reps;         /* the cell's repetitions when known, else found by the next draw */
} MsTimelineLayout;

void ms_timeline_layout_init (MsTimelineLayout *l);
void ms_timeline_layout_clear (MsTimelineLayout *l);
/* Drops the index kept between draws. The next draw notices a different
 * cell or repetition by itself; call this when a cell's events were
 * replaced in place. */
void ms_timeline_layout_forget_cell (MsTimelineLayout *l);
/* The map of the cell drawn next, complete (held), or NULL. */
void ms_timeline_layout_set_reps (MsTimelineLayout *l, MsRepMap *reps);

/* Extent in µs of repetition rep of cell (0 when it has none). */
double ms_timeline_extent (const MsCell *cell, int rep);
/* The same, reading only the repetition's events when reps allows. */
double ms_timeline_rep_extent (const MsCell *cell, int rep, const MsRepMap *reps);
/* Whether a phase is the data movement a timeline opens on: the copies,
 * prefetches, the kernel and its launch, and the registering a mode pays
 * in every repetition (not allocation, initialisation, verification or
 * free). */
gboolean ms_phase_moves_data (MsPhase phase);
/* The span in µs of repetition rep's data movement, host and GPU, reading
 * only the repetition's events when reps allows; FALSE when it has none. */
gboolean ms_timeline_movement_span (const MsCell *cell, int rep, const MsRepMap *reps, double *t0,
                                    double *t1);
/* win over repetition rep of cell, open on its data movement with a small
 * margin (initialisation and verification can take ten times longer than
 * the copies), or with all_phases (or nothing moving) on the whole of it.
 * The view, `memsweep plot` and the report open timelines this way. */
void ms_time_window_open (MsTimeWindow *win, const MsCell *cell, int rep, const MsRepMap *reps,
                          gboolean all_phases);
/* The end of the last bar (host or GPU) of repetition rep that starts
 * before t1: a window that ends there cuts no bar at its frame. */
double ms_timeline_bars_end (const MsCell *cell, int rep, const MsRepMap *reps, double t1);
/* win ending a little after t_end (2 % of its span), within what
 * ms_time_window_zoom allows. */
void ms_time_window_end_after (MsTimeWindow *win, double t_end);
/* The phases with a bar in win (what the legend then lists). */
void ms_timeline_seen_in (const MsCell *cell, int rep, const MsRepMap *reps,
                          const MsTimeWindow *win, gboolean seen[MS_PHASE_COUNT]);
/* Draws the title and a line of text where the lanes go. */
void ms_timeline_draw_message (cairo_t *cr, const MsChartStyle *style, double width, double height,
                               const char *title, const char *message);

void ms_timeline_draw (cairo_t *cr, const MsCell *cell, int rep, const MsTimeWindow *win,
                       const MsChartStyle *style, double width, double height, const char *title,
                       MsTimelineLayout *layout);

/* What a timeline leaves out when it is one of several on one time axis
 * (ms-timeline-rows.c): the legend, drawn once under them all, and the
 * time labels of each row but the last. */
typedef struct {
  gboolean no_legend;
  gboolean no_time_labels;
  /* With no_legend: the shared legend has no line for the notch, so none
   * is drawn. */
  gboolean no_cut_marks;
  /* Leave out the lanes with no bar in the window (a stack of timelines,
   * where every lane costs the others height). */
  gboolean drop_empty_lanes;
  /* The thinnest lane drawn (0: 6 px, one timeline's least). */
  double min_lane_px;
  /* The lanes' height (0: their share of the room) and the label
   * column's width (0: what the lanes' names need): rows of one picture
   * set both alike, so that their lanes and times line up. */
  double lane_px, label_px;
  /* Less space around the title and under the lanes, the title at the
   * text size: a stack of rows where room is short. */
  gboolean tight;
  /* The copy bars say their bytes and time, not their rate: the title
   * quotes the median's rate, and the drawn repetition's one figure off
   * it (8.4 GB/s under a headline's 8.3) read as a contradiction. */
  gboolean no_bar_rates;
  /* A bar with no room for its name beside it on its lane (a kernel
   * between a prefetch and a copy, a thin sliver) is named in free room
   * above or below, with a leader: for a few bars, where each matters. */
  gboolean name_slivers;
} MsTimelineParts;

void ms_timeline_draw_parts (cairo_t *cr, const MsCell *cell, int rep, const MsTimeWindow *win,
                             const MsChartStyle *style, double width, double height,
                             const char *title, const MsTimelineParts *parts,
                             MsTimelineLayout *layout);
/* The lines under the phase swatches: what pale copy bars, the host
 * lane's looks, a d2h drawn on the host lane alone and a notched bar
 * mean. */
enum {
  MS_TIMELINE_HINT_HATCHED = 1 << 0,   /* an asynchronous call on the host lane */
  MS_TIMELINE_HINT_WAITED = 1 << 1,    /* a pale copy */
  MS_TIMELINE_HINT_CUT = 1 << 2,       /* a notched bar */
  MS_TIMELINE_HINT_OUTLINED = 1 << 3,  /* a call that blocked the host */
  MS_TIMELINE_HINT_HOST_READ = 1 << 4, /* d2h on the host lane alone: the CPU reads */
  MS_TIMELINE_HINT_ONE_STREAM = 1 << 5, /* a pale wait on the one stream of several lanes */
  MS_TIMELINE_HINT_SPECKS = 1 << 6,     /* asynchronous calls too short to show hatching */
  MS_TIMELINE_HINT_HOST = MS_TIMELINE_HINT_HATCHED | MS_TIMELINE_HINT_OUTLINED,
};
/* The phase swatches for the phases seen, from y across width, then the
 * lines of hints (MS_TIMELINE_HINT_*); only measured unless draw. Returns
 * the height. */
double ms_timeline_draw_legend (cairo_t *cr, const MsChartStyle *style,
                                const gboolean seen[MS_PHASE_COUNT], double y, double width,
                                guint hints, gboolean draw);
/* The hints repetition rep of cell needs in win, each for a look drawn
 * there: hatched and outlined host calls, the copies' waits where a copy
 * waited, the notch where a bar is cut at the window's end. */
guint ms_timeline_hints (const MsCell *cell, int rep, const MsRepMap *reps,
                         const MsTimeWindow *win);
/* The lanes' height that repetition rep of cell gets in width x height
 * (before the minimum a drawing keeps), and the phases it shows (seen may
 * be NULL); 0 for nothing to draw. */
double ms_timeline_measure (cairo_t *cr, const MsCell *cell, int rep, const MsChartStyle *style,
                            double width, double height, const char *title,
                            const MsTimelineParts *parts, gboolean seen[MS_PHASE_COUNT]);
/* What a timeline takes besides its lanes: the height of its title,
 * gaps, time labels and legend (whole pixels), how many lanes it draws
 * and the width of its label column. */
typedef struct {
  double fixed_h;
  int n_lanes;
  double label_w;
} MsTimelineFrame;

/* The frame of repetition rep of cell in width, its lanes in win (NULL:
 * all of them) as parts ask; FALSE for nothing to draw. The label
 * column is that of lanes of parts->lane_px. */
gboolean ms_timeline_frame (cairo_t *cr, const MsCell *cell, int rep, const MsTimeWindow *win,
                            const MsChartStyle *style, double width, const char *title,
                            const MsTimelineParts *parts, MsTimelineFrame *frame);
const MsTimelineBar *ms_timeline_layout_hit (const MsTimelineLayout *l, double x, double y);

G_END_DECLS
