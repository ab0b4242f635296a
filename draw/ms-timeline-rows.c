/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-timeline-rows.c: timelines on one time axis. Each row is a copy of one
 * repetition's events, moved so that every row's data movement starts at
 * the same time; the rows then share one time window. */
#include <glib/gi18n.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ms-timeline-rows.h"
#include "ms-lessons.h"
#include "ms-engine.h"

void
ms_timeline_rows_init (MsTimelineRows *rows)
{
  memset (rows, 0, sizeof *rows);
}

void
ms_timeline_rows_clear (MsTimelineRows *rows)
{
  for (int i = 0; i < rows->n; i++) {
    ms_cell_clear (&rows->cells[i]);
    ms_cell_clear (&rows->work[i]);
    g_free (rows->titles[i]);
  }
  ms_timeline_rows_init (rows);
}

/* Start and end of an event on the host and, when it ran on a stream, on
 * the GPU. */
static void
event_span (const MsEvent *ev, double *start, double *end)
{
  *start = ev->host_start_us;
  *end = ev->host_start_us + ev->host_us;
  if (ev->gpu_us >= 0 && isfinite (ev->gpu_start_us)) {
    *start = MIN (*start, ev->gpu_start_us);
    *end = MAX (*end, ev->gpu_start_us + ev->gpu_us);
  }
}

static void
shift_events (MsCell *cell, double delta)
{
  for (size_t i = 0; i < cell->n_events; i++) {
    cell->events[i].host_start_us += delta;
    if (cell->events[i].gpu_us >= 0)
      cell->events[i].gpu_start_us += delta;
  }
}

/* Where the row's movement starts and ends (its whole extent when nothing
 * moves data, as in the host mode). */
/* Whether ev moves the data the row is about. The managed lesson's
 * resident pages are made so by a first kernel, recorded as a prefetch
 * before the timed window: setup, hidden with init and verify. */
static gboolean
moves_data (const MsCell *cell, const MsEvent *ev)
{
  if (ev->phase == MS_PHASE_PREFETCH && strstr (cell->variant, "touch=resident"))
    return FALSE;
  return ms_phase_moves_data (ev->phase);
}

static void
movement (const MsCell *cell, double *t0, double *t1)
{
  double lo = INFINITY, hi = -INFINITY, all_lo = INFINITY, all_hi = -INFINITY;
  for (size_t i = 0; i < cell->n_events; i++) {
    double s, e;
    event_span (&cell->events[i], &s, &e);
    all_lo = MIN (all_lo, s);
    all_hi = MAX (all_hi, e);
    if (moves_data (cell, &cell->events[i])) {
      lo = MIN (lo, s);
      hi = MAX (hi, e);
    }
  }
  *t0 = isfinite (lo) ? lo : all_lo;
  *t1 = isfinite (hi) ? hi : all_hi;
}

/* The span of the row's work: its data movement and the host functions
 * and calls among it (a slow host function is a row's work too), not the
 * setup or verification around it. FALSE when it has none. */
static gboolean
work_span (const MsCell *cell, double *t0, double *t1)
{
  *t0 = INFINITY;
  *t1 = -INFINITY;
  for (size_t i = 0; i < cell->n_events; i++) {
    MsPhase phase = cell->events[i].phase;
    double s, e;
    if (!moves_data (cell, &cell->events[i]) && phase != MS_PHASE_HOST_FUNC
        && phase != MS_PHASE_CALL)
      continue;
    event_span (&cell->events[i], &s, &e);
    *t0 = MIN (*t0, s);
    *t1 = MAX (*t1, e);
  }
  return isfinite (*t0) && *t1 > *t0;
}

/* What a row draws while setup and verification are hidden: its copies,
 * kernels and prefetches, registering, host functions and calls. */
static gboolean
is_work (const MsCell *cell, const MsEvent *ev)
{
  return moves_data (cell, ev) || ev->phase == MS_PHASE_HOST_FUNC ||
         ev->phase == MS_PHASE_CALL;
}

const MsCell *
ms_timeline_rows_cell (const MsTimelineRows *rows, int i)
{
  return rows->setup_shown || rows->work[i].n_events == 0 ? &rows->cells[i] : &rows->work[i];
}

/* Which repetition row i draws, in words: the only one with timers, the
 * one nearest the median (ms_timeline_rows_typical_rep), or another a
 * caller chose; short where room is short. */
static char *
drawn_which (const MsTimelineRows *rows, int i, gboolean compact)
{
  int k = rows->rep_k[i], n = rows->rep_n[i];
  if (n <= 1)
    return g_strdup (compact ? C_ ("timeline row", "the only timed repetition")
                             : C_ ("timeline row", "the only repetition with timers"));
  if (rows->rep_typical[i])
    return compact
             /* Translators: which repetition a row draws, e.g.
              * "repetition 3 of 5, nearest the median". */
             ? g_strdup_printf (C_ ("timeline row", "repetition %d of %d, nearest the median"), k,
                                n)
             /* Translators: which repetition a row draws, e.g.
              * "repetition 3 of 5 with timers, the one closest to the
              * median". */
             : g_strdup_printf (C_ ("timeline row", "repetition %d of %d with timers, the one "
                                                    "closest to the median"),
                                k, n);
  return compact ? g_strdup_printf (C_ ("timeline row", "repetition %d of %d"), k, n)
                 : g_strdup_printf (C_ ("timeline row", "repetition %d of %d with timers"), k, n);
}

static char *
title_figures (const MsTimelineRows *rows, int i, MsRowsTitle length)
{
  const char *what = rows->titles[i] ? rows->titles[i] : "";
  char median[32], drawn[32];
  /* A row that moves nothing (the host mode) has no such total. */
  if (!(rows->drawn_us[i] > 0))
    return g_strdup (what);
  /* As the captions write times, so that a figure reads the same in both. */
  const char *(*words) (double, char *, size_t) = rows->time_words ? rows->time_words
                                                                    : ms_caption_time;
  words (rows->drawn_us[i], drawn, sizeof drawn);
  if (!(rows->median_us[i] > 0))
    /* Translators: a timeline row's title and how long the repetition
     * drawn took, measured with timers, e.g. "Pinned · 4 MiB per vector ·
     * drawn: a repetition with timers, 1.37 ms". */
    return g_strdup_printf (C_("timeline row", "%s · drawn: a repetition with timers, %s"), what,
                            drawn);
  words (rows->median_us[i], median, sizeof median);
  /* Short, a title of three parts or more (mode · size · setting) keeps
   * its first and last: the size is the same in every row. */
  g_auto (GStrv) parts = g_strsplit (what, " · ", -1);
  guint n_parts = g_strv_length (parts);
  gboolean compact = length != MS_ROWS_TITLE_LONG;
  g_autofree char *brief = compact && n_parts >= 3
                             ? g_strdup_printf ("%s · %s", parts[0], parts[n_parts - 1])
                             : NULL;
  if (brief)
    what = brief;
  if (length == MS_ROWS_TITLE_TINY && rows->figure_name)
    /* Translators: as the next, where the lesson's figure is not the
     * time end to end, e.g. "With priority · shown: one repetition
     * timing each launch and kernel, which adds time: median wait
     * 17.9 µs; without timers 16.4 µs". The medians without timers are
     * the picture's own, above the rows; a class asked what the timers
     * were and why the drawn wait was not the headline's. */
    return g_strdup_printf (C_ ("timeline row", "%s · shown: one repetition timing each launch "
                                                "and kernel, which adds time: median %s %s; "
                                                "without timers %s"),
                            what, rows->figure_name, drawn, median);
  if (length == MS_ROWS_TITLE_TINY)
    /* Translators: a timeline row's title at a lesson pane's size: its
     * name, its median end-to-end time without timers (the caption's
     * figure) and how long the repetition drawn took with timers, e.g.
     * "one queue, depth-first: median 888 µs · drawn 1.49 ms". Without
     * the second figure the bars seemed to contradict the first; called
     * "timed", a 7.43 ms bar under "7.24 ms · timed 7.51 ms" still read
     * as a part longer than its whole. */
    /* "drawn" beside "median" went unexplained on a slide: the bars are
     * one repetition, said so. */
    return g_strdup_printf (C_ ("timeline row", "%s: median %s · shown: one repetition, %s"), what,
                            median, drawn);
  g_autofree char *which = drawn_which (rows, i, compact);
  if (compact)
    /* Translators: a timeline row's title where room is short: its
     * median end-to-end time without timers (the caption's figure), then
     * which repetition is drawn and how long it took with timers, e.g.
     * "depth-first: 888 µs median · drawn repetition 3 of 5, nearest the
     * median: 1.47 ms". */
    return g_strdup_printf (C_ ("timeline row", "%s: %s median · drawn %s: %s"), what, median,
                            which, drawn);
  if (rows->figure_name)
    /* Translators: a timeline row's title when the lesson's figure is not
     * the time end to end: what the figure is and its median without
     * timers, then which repetition is drawn and the same figure in it,
     * e.g. "Without priority: median wait 1.17 ms ·
     * drawn: the only repetition with timers, 1.17 ms". */
    return g_strdup_printf (C_ ("timeline row", "%s: median %s %s · drawn: %s, %s"), what,
                            rows->figure_name, median, which, drawn);
  /* Translators: a timeline row's title: its median end-to-end time
   * without timers (the caption's figure), then which repetition the bars
   * are and how long it took, e.g. "depth-first: 888 µs end to end
   * (median) · drawn: repetition 3 of 5 with timers, the one closest to
   * the median, 1.47 ms". */
  return g_strdup_printf (C_ ("timeline row", "%s: %s end to end (median) · drawn: %s, %s"), what,
                          median, which, drawn);
}

/* The host time of row i's register calls, which its bars draw as work
 * and neither figure of its title counts; 0: none. */
static double
register_us (const MsTimelineRows *rows, int i)
{
  double us = 0;
  for (size_t k = 0; k < rows->cells[i].n_events; k++)
    if (rows->cells[i].events[k].phase == MS_PHASE_REGISTER)
      us += MAX (0, rows->cells[i].events[k].host_us);
  return us;
}

char *
ms_timeline_rows_title (const MsTimelineRows *rows, int i, MsRowsTitle length)
{
  char *title = title_figures (rows, i, length);
  double reg = register_us (rows, i);
  if (!(reg > 0) || length == MS_ROWS_TITLE_TINY)
    return title;
  /* Said, or a row titled "278 µs" ran 1.5 ms across the axis. */
  char t[32];
  ms_caption_time (reg, t, sizeof t);
  /* Translators: after a timeline row's title, e.g. "... · the register
   * call drawn before the copies, 1.28 ms, is in neither figure". */
  char *with = g_strdup_printf (C_ ("timeline row", "%s · the register call drawn before the "
                                                    "copies, %s, is in neither figure"),
                                title, t);
  g_free (title);
  return with;
}

/* Whether the bars drawn (with timers) order two rows the other way round
 * from their medians without timers; the drawing then says so. */
static gboolean
ms_timeline_rows_timers_reorder (const MsTimelineRows *rows)
{
  /* A difference under 2 % either way is no order. */
  for (int i = 0; i < rows->n; i++)
    for (int j = i + 1; j < rows->n; j++) {
      double m = rows->median_us[i] / rows->median_us[j];
      double d = rows->drawn_us[i] / rows->drawn_us[j];
      /* Ranked the other way, or tied by the medians but not by the bars. */
      if (rows->median_us[j] > 0 && rows->drawn_us[j] > 0 &&
          ((m < 0.98 && d > 1.02) || (m > 1.02 && d < 0.98) ||
           (fabs (m - 1) < 0.02 && fabs (d - 1) > 0.05)))
        return TRUE;
    }
  return FALSE;
}

static void
align (MsTimelineRows *rows)
{
  double lead = 0;
  for (int i = 0; i < rows->n; i++)
    lead = MAX (lead, rows->lead[i]);
  rows->move_t0 = lead;
  rows->move_t1 = lead;
  rows->total_us = 0;
  for (int i = 0; i < rows->n; i++) {
    double want = lead - rows->lead[i];
    shift_events (&rows->cells[i], want - rows->shift[i]);
    shift_events (&rows->work[i], want - rows->shift[i]);
    rows->shift[i] = want;
    double t0, t1;
    movement (&rows->cells[i], &t0, &t1);
    rows->move_t1 = MAX (rows->move_t1, t1);
    rows->total_us = MAX (rows->total_us, ms_timeline_extent (&rows->cells[i], 0));
  }
}

int
ms_timeline_rows_typical_rep (const MsCell *cell)
{
  if (cell->n_reps <= 0)
    return -1;
  g_autofree int *reps = g_new (int, cell->n_reps);
  int n = ms_cell_timeline_reps (cell, reps, cell->n_reps), best = -1;
  double best_gap = INFINITY;
  /* The figure the title quotes the median of, end to end; drawn with
   * timers, against the median without. */
  double median = cell->stats.e2e.median;
  for (int i = 0; i < n && cell->e2e_instr_us && median > 0; i++) {
    double figure = cell->e2e_instr_us[reps[i]];
    if (figure > 0 && fabs (figure - median) < best_gap) {
      best_gap = fabs (figure - median);
      best = reps[i];
    }
  }
  return best;
}

gboolean
ms_timeline_rows_add_typical (MsTimelineRows *rows, const MsCell *cell, const char *title)
{
  int rep = ms_timeline_rows_typical_rep (cell);
  return ms_timeline_rows_add (rows, cell, rep >= 0 ? rep : ms_cell_timeline_rep (cell, 0), title);
}

/* Where rep stands among the repetitions of cell with events: the k-th
 * (from 1) of n. */
static void
rep_place (const MsCell *cell, int rep, int *k, int *n)
{
  g_autofree int *reps = g_new (int, MAX (cell->n_reps, 1));
  *n = ms_cell_timeline_reps (cell, reps, cell->n_reps);
  *k = 0;
  for (int i = 0; i < *n; i++)
    if (reps[i] == rep)
      *k = i + 1;
}

gboolean
ms_timeline_rows_add (MsTimelineRows *rows, const MsCell *cell, int rep, const char *title)
{
  if (rows->n >= MS_TIMELINE_MAX_ROWS || !cell)
    return FALSE;
  size_t n = 0;
  for (size_t i = 0; i < cell->n_events; i++)
    n += cell->events[i].rep == rep;
  if (n == 0)
    return FALSE;
  MsCell *row = &rows->cells[rows->n];
  *row = *cell;
  row->e2e_us = NULL;
  row->e2e_instr_us = NULL;
  row->n_reps = 0;
  row->copies = NULL; /* the cell's own: a row draws events only */
  row->n_copies = 0;
  row->rounds = NULL;
  row->n_rounds = 0;
  row->events = malloc (n * sizeof (MsEvent));
  row->n_events = 0;
  double first = INFINITY;
  for (size_t i = 0; i < cell->n_events; i++) {
    if (cell->events[i].rep != rep)
      continue;
    MsEvent ev = cell->events[i];
    double s, e;
    ev.rep = 0;
    event_span (&ev, &s, &e);
    first = MIN (first, s);
    row->events[row->n_events++] = ev;
  }
  /* The row starts at 0 with its first event. */
  shift_events (row, -first);
  MsCell *work = &rows->work[rows->n];
  *work = *row;
  work->events = malloc (row->n_events * sizeof (MsEvent));
  work->n_events = 0;
  for (size_t i = 0; i < row->n_events; i++)
    if (is_work (row, &row->events[i]))
      work->events[work->n_events++] = row->events[i];
  double t0, t1;
  rows->median_us[rows->n] = cell->stats.e2e.median > 0 ? cell->stats.e2e.median : 0;
  /* The repetition's own end-to-end time with timers, else the span of
   * its work as drawn. */
  if (cell->e2e_instr_us && rep < cell->n_reps && cell->e2e_instr_us[rep] > 0)
    rows->drawn_us[rows->n] = cell->e2e_instr_us[rep];
  else
    rows->drawn_us[rows->n] = work_span (row, &t0, &t1) ? t1 - t0 : 0;
  movement (row, &t0, &t1);
  rows->lead[rows->n] = t0;
  rows->shift[rows->n] = 0;
  rows->titles[rows->n] = g_strdup (title);
  rep_place (cell, rep, &rows->rep_k[rows->n], &rows->rep_n[rows->n]);
  rows->rep_typical[rows->n] = rep == ms_timeline_rows_typical_rep (cell);
  rows->n++;
  align (rows);
  return TRUE;
}

void
ms_timeline_rows_window (MsTimelineRows *rows, gboolean expand, MsTimeWindow *win)
{
  rows->setup_shown = expand;
  ms_time_window_reset (win, rows->total_us);
  if (expand || rows->n == 0) {
    ms_time_window_end_after (win, win->total_us);
    return;
  }
  double margin = (rows->move_t1 - rows->move_t0) * 0.03;
  win->t0 = MAX (0, rows->move_t0 - margin);
  win->t1 = MIN (win->total_us, rows->move_t1 + margin);
  if (!(win->t1 > win->t0)) {
    ms_time_window_reset (win, rows->total_us);
    ms_time_window_end_after (win, win->total_us);
    return;
  }
  /* Bars that start in the window end in it too. */
  double end = win->t1;
  for (int i = 0; i < rows->n; i++)
    end = MAX (end, ms_timeline_bars_end (&rows->cells[i], 0, NULL, win->t1));
  if (end > win->t1)
    ms_time_window_end_after (win, end);
  /* The axis reads from 0 where the rows' data movement starts, not
   * where the window opens a margin before it: read against the axis, a
   * row's last bar then ends at its drawn time (pinned's 275 µs read as
   * 318 µs, 3 % of the pageable row's 1.83 ms later). */
  win->origin_us = MIN (rows->move_t0, win->t1);
}

/* Lanes in a row get this height at least when the room allows; below
 * it the titles go short, then tight, and the lanes as thin as
 * MS_TIMELINE_ROWS_MIN_LANE_PX, and every row is still drawn. */
#define ROOMY_LANE_PX 6.0
/* Lanes this many font sizes tall carry their bars' labels and their
 * names: a projected lesson gives its rows' titles up (the name and the
 * median alone) before it gives up those. */
#define LABELLED_LANE_FS 1.3

/* The parts of row i: the legend under all rows, the times under the
 * last. */
static MsTimelineParts
row_parts (const MsTimelineRows *rows, int i, gboolean tight)
{
  return (MsTimelineParts) { .no_legend = TRUE,
                             .no_time_labels = i < rows->n - 1,
                             .drop_empty_lanes = TRUE,
                             .min_lane_px = 1,
                             .tight = tight,
                             .no_bar_rates = rows->rates_in_titles,
                             .name_slivers = rows->name_slivers };
}

/* The lanes' height that every row gets in room (their frames in
 * fixed[], which may be NULL): all rows' lanes are alike, so that a lane
 * reads the same in each row. */
static double
shared_lane (cairo_t *cr, const MsTimelineRows *rows, const MsTimeWindow *win,
             char *const *titles, const MsChartStyle *st, double width, double room,
             gboolean tight, double *fixed)
{
  double fixed_h = 0;
  int lanes = 0;
  for (int i = 0; i < rows->n; i++) {
    MsTimelineParts parts = row_parts (rows, i, tight);
    MsTimelineFrame f = { 0 };
    ms_timeline_frame (cr, ms_timeline_rows_cell (rows, i), 0, win, st, width, titles[i], &parts,
                       &f);
    fixed_h += f.fixed_h;
    lanes += f.n_lanes;
    if (fixed)
      fixed[i] = f.fixed_h;
  }
  return lanes ? (room - fixed_h) / lanes : 0;
}

/* How the rows are drawn: their titles, tight or not, the hints and the
 * note kept under the legend. */
typedef struct {
  MsRowsTitle length;
  gboolean tight;
  guint hints;
  double legend_h, note_h;
} RowsFit;

/* Whether the rows fit room with titles and lanes of lane px, less hints
 * under the legend in the order they go (the notch's line, then the host
 * lane's, with all_go the rest); the hints kept and the legend's height
 * go to fit. */
static gboolean
fit_hints (cairo_t *cr, const MsTimelineRows *rows, const MsTimeWindow *win, char **titles,
           const MsChartStyle *st, double width, double room,
           const gboolean seen[MS_PHASE_COUNT], guint all, gboolean all_go, double lane,
           RowsFit *fit)
{
  static const guint dropped[]
      = { 0, MS_TIMELINE_HINT_CUT, MS_TIMELINE_HINT_HOST | MS_TIMELINE_HINT_SPECKS, ~0u };
  fit->hints = all;
  for (guint k = 0; k < G_N_ELEMENTS (dropped) - !all_go; k++) {
    fit->hints &= ~dropped[k];
    fit->legend_h = ms_timeline_draw_legend (cr, st, seen, 0, width, fit->hints, FALSE);
    if (shared_lane (cr, rows, win, titles, st, width, room - fit->legend_h, fit->tight, NULL)
        >= lane)
      return TRUE;
  }
  return FALSE;
}

/* The titles and the hints under the legend that leave every row lanes
 * tall enough for labels: the long titles with every hint first (on a
 * slide, the tiny ones), then
 * fewer hints, then short titles, then (a lesson pane) the name and the
 * median alone; then lanes of ROOMY_LANE_PX with short titles; then lanes
 * of MS_TIMELINE_ROWS_MIN_LANE_PX with short titles, then tiny ones, then
 * those tight; every hint and the note under the legend going last. The
 * phase swatches always stay: where bars are too thin for labels they
 * name the colours. */
static void
fit_rows (cairo_t *cr, const MsTimelineRows *rows, const MsTimeWindow *win,
          char **titles[MS_ROWS_TITLE_N], const MsChartStyle *st, double width, double height,
          const gboolean seen[MS_PHASE_COUNT], guint all, double note, RowsFit *fit)
{
  enum { LABELLED, ROOMY, THIN };
  static const struct {
    MsRowsTitle length;
    int lane;
    gboolean tight, note;
  } steps[] = {
    { MS_ROWS_TITLE_LONG, LABELLED, FALSE, TRUE }, { MS_ROWS_TITLE_SHORT, LABELLED, FALSE, TRUE },
    { MS_ROWS_TITLE_TINY, LABELLED, FALSE, TRUE }, { MS_ROWS_TITLE_SHORT, ROOMY, FALSE, TRUE },
    { MS_ROWS_TITLE_SHORT, THIN, FALSE, TRUE },    { MS_ROWS_TITLE_TINY, THIN, FALSE, TRUE },
    { MS_ROWS_TITLE_TINY, THIN, TRUE, TRUE },      { MS_ROWS_TITLE_TINY, THIN, TRUE, FALSE },
  };
  const double lanes[] = { LABELLED_LANE_FS * ms_style_font_size (st), ROOMY_LANE_PX,
                           MS_TIMELINE_ROWS_MIN_LANE_PX };
  /* A slide starts at the name and its two figures: a title of two lines
   * ("… · drawn: repetition 2 of 3 with timers, the one closest to the
   * median, 275 µs") over every row buried the figure the takeaway
   * quotes; a larger view has room to say which repetition. */
  *fit = (RowsFit) { MS_ROWS_TITLE_TINY, TRUE, 0, 0, 0 };
  guint first = 0;
  while (ms_draw_is_slide (st, height) && steps[first].length != MS_ROWS_TITLE_TINY)
    first++;
  for (guint k = first; k < G_N_ELEMENTS (steps); k++) {
    double lane = lanes[steps[k].lane];
    fit->length = steps[k].length;
    fit->tight = steps[k].tight;
    fit->note_h = steps[k].note ? note : 0;
    if (fit_hints (cr, rows, win, titles[fit->length], st, width, height - fit->note_h, seen,
                   all, fit->length == MS_ROWS_TITLE_TINY, lane, fit))
      return;
  }
  /* None fits: the lanes share what there is. */
  fit->hints = 0;
  fit->legend_h = ms_timeline_draw_legend (cr, st, seen, 0, width, 0, FALSE);
}

/* The line under the legend, or NULL: where the timers rank the rows
 * otherwise than the medians do, to go by the medians. */
static char *
rows_note (const MsTimelineRows *rows)
{
  return ms_timeline_rows_timers_reorder (rows)
           ? g_strdup (_ ("The timers slow the drawn repetitions unevenly: compare the rows by "
                          "the medians without timers (first in each title, as in the caption), "
                          "not by the bars."))
           : NULL;
}

double
ms_timeline_rows_least_height (cairo_t *cr, const MsTimelineRows *rows,
                               const MsChartStyle *style, double width)
{
  if (rows->n == 0 || width <= 0)
    return 0;
  const double fs = ms_style_font_size (style);
  gboolean seen[MS_PHASE_COUNT] = { FALSE };
  char *titles[MS_TIMELINE_MAX_ROWS];
  for (int i = 0; i < rows->n; i++) {
    gboolean row_seen[MS_PHASE_COUNT];
    ms_timeline_measure (cr, ms_timeline_rows_cell (rows, i), 0, style, width, 1000, NULL,
                         &(MsTimelineParts){ TRUE, TRUE }, row_seen);
    for (int p = 0; p < MS_PHASE_COUNT; p++)
      seen[p] = seen[p] || row_seen[p];
    titles[i] = ms_timeline_rows_title (rows, i, MS_ROWS_TITLE_SHORT);
  }
  g_autofree char *note = rows_note (rows);
  double below = ms_timeline_draw_legend (cr, style, seen, 0, width, 0, FALSE) +
                 (note ? ms_draw_text_wrapped (cr, note, fs, 0, fs, width - 2 * fs, FALSE, FALSE)
                       : 0);
  double frames = 0;
  int lanes = 0;
  for (int i = 0; i < rows->n; i++) {
    MsTimelineFrame f = { 0 };
    MsTimelineParts parts = row_parts (rows, i, FALSE);
    ms_timeline_frame (cr, ms_timeline_rows_cell (rows, i), 0, NULL, style, width, titles[i],
                       &parts, &f);
    frames += f.fixed_h;
    lanes += f.n_lanes;
    g_free (titles[i]);
  }
  /* A little over the least lane, for rounding. */
  return ceil (frames + (MS_TIMELINE_ROWS_MIN_LANE_PX + 0.5) * lanes + below);
}

/* The phases every row shows in win, the hints they need and each row's
 * titles. */
static void
rows_seen (const MsTimelineRows *rows, const MsTimeWindow *win, gboolean seen[MS_PHASE_COUNT],
           guint *hints, char **titles[MS_ROWS_TITLE_N])
{
  memset (seen, 0, MS_PHASE_COUNT * sizeof (gboolean));
  *hints = 0;
  for (int i = 0; i < rows->n; i++) {
    gboolean row_seen[MS_PHASE_COUNT];
    ms_timeline_seen_in (ms_timeline_rows_cell (rows, i), 0, NULL, win, row_seen);
    for (int p = 0; p < MS_PHASE_COUNT; p++)
      seen[p] = seen[p] || row_seen[p];
    *hints |= ms_timeline_hints (ms_timeline_rows_cell (rows, i), 0, NULL, win);
    for (MsRowsTitle t = 0; t < MS_ROWS_TITLE_N; t++)
      titles[t][i] = ms_timeline_rows_title (rows, i, t);
  }
}

/* The rows share one time axis: only the last shows the times, and one
 * legend under all of them names the phases of every row. Every row's
 * lanes are as tall as the others' and its label column as wide, so that
 * the same time is the same x in each; the rows and the legend stay
 * together. */
static void rows_draw (cairo_t *cr, const MsTimelineRows *rows, const MsTimeWindow *win,
                       const MsChartStyle *style, double width, double height,
                       MsTimelineLayout *layouts);

/* A lesson's timelines projected: no word smaller than the body size
 * (ms_draw_set_least_text, as a lesson's own picture); a label that
 * fits its bar only smaller goes beside it or is left out, as any label
 * too long for its bar. */
void
ms_timeline_rows_draw (cairo_t *cr, const MsTimelineRows *rows, const MsTimeWindow *win,
                       const MsChartStyle *style, double width, double height,
                       MsTimelineLayout *layouts)
{
  MsLeastSizes least = ms_draw_slide_sizes_begin (cr, style, height);
  rows_draw (cr, rows, win, style, width, height, layouts);
  ms_draw_slide_sizes_end (cr, least);
}

static void
rows_draw (cairo_t *cr, const MsTimelineRows *rows, const MsTimeWindow *win,
           const MsChartStyle *style, double width, double height, MsTimelineLayout *layouts)
{
  if (rows->n == 0) {
    ms_timeline_draw (cr, NULL, 0, win, style, width, height, NULL, layouts);
    return;
  }
  const double fs = ms_style_font_size (style);
  gboolean seen[MS_PHASE_COUNT];
  guint hints;
  char *all_titles[MS_ROWS_TITLE_N][MS_TIMELINE_MAX_ROWS];
  char **titles[MS_ROWS_TITLE_N] = { all_titles[0], all_titles[1], all_titles[2] };
  rows_seen (rows, win, seen, &hints, titles);
  g_autofree char *note = rows_note (rows);
  double note_h = note ? ms_draw_text_wrapped (cr, note, fs, 0, fs, width - 2 * fs, FALSE,
                                               FALSE)
                       : 0;
  RowsFit fit;
  fit_rows (cr, rows, win, titles, style, width, height, seen, hints, note_h, &fit);
  if (fit.note_h == 0)
    g_clear_pointer (&note, g_free);
  double fixed[MS_TIMELINE_MAX_ROWS], label_w = 0;
  char **shown = titles[fit.length];
  double lane = shared_lane (cr, rows, win, shown, style, width,
                             height - fit.legend_h - fit.note_h - 1, fit.tight, fixed);
  /* No taller than one timeline's lanes; thin ones on whole pixels, so
   * that each keeps its pixel of gap. */
  lane = MAX (1, MIN (lane, fs * 5));
  if (lane < fs)
    lane = floor (lane);
  for (int i = 0; i < rows->n; i++) {
    MsTimelineParts parts = row_parts (rows, i, fit.tight);
    MsTimelineFrame f = { 0 };
    parts.lane_px = lane;
    ms_timeline_frame (cr, ms_timeline_rows_cell (rows, i), 0, win, style, width, shown[i],
                       &parts, &f);
    label_w = MAX (label_w, f.label_w);
  }
  double y = 0;
  for (int i = 0; i < rows->n; i++) {
    const MsCell *cell = ms_timeline_rows_cell (rows, i);
    MsTimelineParts parts = row_parts (rows, i, fit.tight);
    MsTimelineFrame f = { 0 };
    parts.no_cut_marks = !(fit.hints & MS_TIMELINE_HINT_CUT);
    parts.lane_px = lane;
    parts.label_px = label_w;
    ms_timeline_frame (cr, cell, 0, win, style, width, shown[i], &parts, &f);
    double h = fixed[i] + f.n_lanes * lane;
    cairo_save (cr);
    cairo_translate (cr, 0, y);
    cairo_rectangle (cr, 0, 0, width, h);
    cairo_clip (cr);
    ms_timeline_draw_parts (cr, cell, 0, win, style, width, h, shown[i], &parts,
                            layouts ? &layouts[i] : NULL);
    cairo_restore (cr);
    y += h;
  }
  for (int i = 0; i < rows->n; i++)
    for (MsRowsTitle t = 0; t < MS_ROWS_TITLE_N; t++)
      g_free (all_titles[t][i]);
  cairo_save (cr);
  cairo_rectangle (cr, 0, y, width, height - y);
  cairo_clip (cr);
  ms_draw_background (cr, style);
  cairo_restore (cr);
  ms_timeline_draw_legend (cr, style, seen, y, width, fit.hints, TRUE);
  if (note) {
    ms_set_color (cr, &style->fg, 0.85);
    ms_draw_text_wrapped (cr, note, fs, y + fit.legend_h, fs, width - 2 * fs, FALSE, TRUE);
  }
}
