/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-timeline-rows.c: timelines on one time axis. Each row is a copy of one
 * repetition's events, moved so that every row's data movement starts at
 * the same time; the rows then share one time window. */
#include <glib/gi18n.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ms-timeline-rows.h"
#include "ms-lesson-caption.h"

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

/* Whether ev is the CPU's check of the result in the two rows the host
 * stores lesson compares it in (write-combined inputs after streamed
 * stores, the result in ordinary or in write-combined memory): reading
 * write-combined memory is half of its finding, so the check is drawn
 * with the copies there. */
static gboolean
checks_result (const MsCell *cell, const MsEvent *ev)
{
  return ev->phase == MS_PHASE_VERIFY && cell->mode == MS_MODE_WRITE_COMBINED &&
         g_str_has_prefix (cell->variant, "stores=streamed");
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
    if (moves_data (cell, &cell->events[i]) || checks_result (cell, &cell->events[i])) {
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
  return moves_data (cell, ev) || checks_result (cell, ev) || ev->phase == MS_PHASE_HOST_FUNC ||
         ev->phase == MS_PHASE_CALL;
}

const MsCell *
ms_timeline_rows_cell (const MsTimelineRows *rows, int i)
{
  return rows->setup_shown || rows->work[i].n_events == 0 ? &rows->cells[i] : &rows->work[i];
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
  ms_caption_time (rows->drawn_us[i], drawn, sizeof drawn);
  if (!(rows->median_us[i] > 0))
    /* Translators: a timeline row's title and how long the repetition
     * drawn took, measured with timers, e.g. "Pinned · 4 MiB per vector ·
     * drawn: a repetition with timers, 1.37 ms". */
    return g_strdup_printf (C_("timeline row", "%s · drawn: a repetition with timers, %s"), what,
                            drawn);
  ms_caption_time (rows->median_us[i], median, sizeof median);
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
  if (length == MS_ROWS_TITLE_TINY)
    /* Translators: a timeline row's title at a lesson pane's size: its
     * name and its median end-to-end time without timers (the caption's
     * figure), e.g. "one queue, depth-first: 888 µs". */
    return g_strdup_printf (C_("timeline row", "%s: %s"), what, median);
  if (compact)
    /* Translators: a timeline row's title where room is short: its
     * median end-to-end time without timers (the caption's figure), then
     * how long the typical repetition drawn took with timers, e.g.
     * "depth-first: 888 µs median · timed: 1.47 ms". */
    return g_strdup_printf (C_("timeline row", "%s: %s median · timed: %s"), what, median,
                            drawn);
  /* Translators: a timeline row's title: its median end-to-end time
   * without timers (the caption's figure), then what the bars are and how
   * long that repetition took, e.g. "depth-first: 888 µs end to end
   * (median) · drawn: a typical repetition with timers, 1.47 ms". */
  return g_strdup_printf (C_("timeline row",
                             "%s: %s end to end (median) · drawn: a typical repetition with "
                             "timers, %s"),
                          what, median, drawn);
}

char *
ms_timeline_rows_title (const MsTimelineRows *rows, int i, MsRowsTitle length)
{
  char *title = title_figures (rows, i, length);
  const MsCell *cell = &rows->cells[i];
  const MsStat *check = &cell->stats.phase[MS_PHASE_VERIFY];
  MsEvent verify = { .phase = MS_PHASE_VERIFY };
  if (!checks_result (cell, &verify) || check->n <= 0 || !(check->median > 0))
    return title;
  /* The check's bar is drawn after the copies: its median, as the caption
   * gives it, so that the row's figure is not read as the whole bar. */
  char took[32];
  ms_caption_time (check->median, took, sizeof took);
  char *with = length == MS_ROWS_TITLE_LONG
                 /* Translators: appended to a timeline row's title: the
                  * median of the CPU's check of the result, drawn after
                  * the copies, e.g. " · then the CPU checks the result:
                  * 4.40 ms (median)". */
                 ? g_strdup_printf (C_ ("timeline row", "%s · then the CPU checks the result: "
                                                        "%s (median)"),
                                    title, took)
                 : length == MS_ROWS_TITLE_SHORT
                 /* Translators: the same where room is short, e.g. " · CPU
                  * check: 4.40 ms". */
                 ? g_strdup_printf (C_ ("timeline row", "%s · CPU check: %s"), title, took)
                 /* Translators: the same at a lesson pane's size, e.g.
                  * "streamed stores: 996 µs · check 4.40 ms". */
                 : g_strdup_printf (C_ ("timeline row", "%s · check %s"), title, took);
  g_free (title);
  return with;
}

gboolean
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
  /* The axis reads from 0 where the window opens. */
  win->origin_us = win->t0;
}

/* Lanes in a row get this height at least when the room allows; below
 * it the titles go short and the lanes as thin as
 * MS_TIMELINE_ROWS_MIN_LANE_PX, and every row is still drawn. */
#define ROOMY_LANE_PX 6.0

/* Whether every row gets lanes of min_lane at least in room (the last row
 * extra more, for its time labels). */
static gboolean
rows_fit (cairo_t *cr, const MsTimelineRows *rows, char *const *titles, const MsChartStyle *st,
          double width, double room, double extra, double min_lane)
{
  double row_h = (room - extra) / rows->n;
  for (int i = 0; i < rows->n; i++) {
    MsTimelineParts parts = { TRUE, i < rows->n - 1, .min_lane_px = min_lane };
    if (ms_timeline_measure (cr, ms_timeline_rows_cell (rows, i), 0, st, width,
                             row_h + (i == rows->n - 1 ? extra : 0), titles[i], &parts,
                             NULL) < min_lane)
      return FALSE;
  }
  return TRUE;
}

/* Whether the rows fit room with titles, less hints under the legend in
 * the order they go (the notch's line, then the host lane's, with
 * all_go the rest), and lanes of lane px: the hints and the legend's
 * height go to *hints and *legend_h. */
static gboolean
fit_hints (cairo_t *cr, const MsTimelineRows *rows, char **titles, const MsChartStyle *st,
           double width, double room, double extra, const gboolean seen[MS_PHASE_COUNT],
           guint all, gboolean all_go, double lane, guint *hints, double *legend_h)
{
  static const guint dropped[] = { 0, MS_TIMELINE_HINT_CUT, MS_TIMELINE_HINT_HOST, ~0u };
  *hints = all;
  for (guint k = 0; k < G_N_ELEMENTS (dropped) - !all_go; k++) {
    *hints &= ~dropped[k];
    *legend_h = ms_timeline_draw_legend (cr, st, seen, 0, width, *hints, FALSE);
    if (rows_fit (cr, rows, titles, st, width, room - *legend_h, extra, lane))
      return TRUE;
  }
  return FALSE;
}

/* The titles and the hints under the legend that leave every row lanes of
 * ROOMY_LANE_PX: the long titles with every hint first, then fewer hints,
 * then the same with short titles; then lanes of
 * MS_TIMELINE_ROWS_MIN_LANE_PX with short titles, then (a lesson pane)
 * with the name and the median alone, every hint and the note under the
 * legend (*note_h) going last. Returns the titles' length. */
static MsRowsTitle
fit_rows (cairo_t *cr, const MsTimelineRows *rows, char **titles[MS_ROWS_TITLE_N],
          const MsChartStyle *st, double width, double height, double extra,
          const gboolean seen[MS_PHASE_COUNT], guint *hints, double *legend_h, double *note_h)
{
  const guint all = *hints;
  const double note = *note_h;
  for (int thin = 0; thin < 2; thin++)
    for (int t = thin; t <= thin + 1; t++)
      for (int with_note = 1; with_note >= (t == MS_ROWS_TITLE_TINY ? 0 : 1); with_note--) {
        double lane = thin ? MS_TIMELINE_ROWS_MIN_LANE_PX : ROOMY_LANE_PX;
        *note_h = with_note ? note : 0;
        if (fit_hints (cr, rows, titles[t], st, width, height - *note_h, extra, seen, all,
                       t == MS_ROWS_TITLE_TINY, lane, hints, legend_h))
          return t;
      }
  return MS_ROWS_TITLE_TINY;
}

/* The line under the legend where the timers rank the rows otherwise than
 * the medians do, or NULL. */
static const char *
reorder_note (const MsTimelineRows *rows)
{
  if (!ms_timeline_rows_timers_reorder (rows))
    return NULL;
  return _("The timers slow the drawn repetitions unevenly: compare the rows by the medians "
           "without timers (first in each title, as in the caption), not by the bars.");
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
  double label_h;
  ms_draw_text (cr, "0", 0, 0, fs, -1, 0, FALSE, NULL, &label_h);
  const char *note = reorder_note (rows);
  double extra = label_h + fs * 0.6;
  double below = ms_timeline_draw_legend (cr, style, seen, 0, width, 0, FALSE) +
                 (note ? ms_draw_text_wrapped (cr, note, fs, 0, fs, width - 2 * fs, FALSE, FALSE)
                       : 0);
  /* A little over the least lane, for rounding. */
  const double lane = MS_TIMELINE_ROWS_MIN_LANE_PX + 0.5;
  double lo = 0, hi = 8192;
  if (rows_fit (cr, rows, titles, style, width, hi, extra, lane))
    while (hi - lo > 1) {
      double mid = floor ((lo + hi) / 2);
      if (rows_fit (cr, rows, titles, style, width, mid, extra, lane))
        hi = mid;
      else
        lo = mid;
    }
  for (int i = 0; i < rows->n; i++)
    g_free (titles[i]);
  return hi + below;
}

/* The rows share one time axis: only the last shows the times, and one
 * legend under all of them names the phases of every row. Each row is as
 * tall as its lanes want, so that the rows and the legend stay together. */
void
ms_timeline_rows_draw (cairo_t *cr, const MsTimelineRows *rows, const MsTimeWindow *win,
                       const MsChartStyle *style, double width, double height,
                       MsTimelineLayout *layouts)
{
  if (rows->n == 0) {
    ms_timeline_draw (cr, NULL, 0, win, style, width, height, NULL, layouts);
    return;
  }
  const double fs = ms_style_font_size (style);
  gboolean seen[MS_PHASE_COUNT] = { FALSE };
  guint hints = 0;
  char *all_titles[MS_ROWS_TITLE_N][MS_TIMELINE_MAX_ROWS];
  char **titles[MS_ROWS_TITLE_N] = { all_titles[0], all_titles[1], all_titles[2] };
  for (int i = 0; i < rows->n; i++) {
    gboolean row_seen[MS_PHASE_COUNT];
    ms_timeline_seen_in (ms_timeline_rows_cell (rows, i), 0, NULL, win, row_seen);
    for (int p = 0; p < MS_PHASE_COUNT; p++)
      seen[p] = seen[p] || row_seen[p];
    hints |= ms_timeline_hints (ms_timeline_rows_cell (rows, i), 0, NULL, win);
    for (MsRowsTitle t = 0; t < MS_ROWS_TITLE_N; t++)
      all_titles[t][i] = ms_timeline_rows_title (rows, i, t);
  }
  double label_h, legend_h = 0;
  ms_draw_text (cr, "0", 0, 0, fs, -1, 0, FALSE, NULL, &label_h);
  double extra = label_h + fs * 0.6; /* the last row's time labels */
  const char *note = reorder_note (rows);
  double note_h = note ? ms_draw_text_wrapped (cr, note, fs, 0, fs, width - 2 * fs, FALSE,
                                               FALSE)
                       : 0;
  MsRowsTitle length = fit_rows (cr, rows, titles, style, width, height, extra, seen, &hints,
                                 &legend_h, &note_h);
  if (note_h == 0)
    note = NULL;
  double row_h = floor ((height - legend_h - note_h - extra - 1) / rows->n), y = 0;
  /* Past the least lane, the lanes share what there is rather than push
   * the last row's times into the legend (a widget asks for more). */
  double min_lane = rows_fit (cr, rows, titles[length], style, width,
                              height - legend_h - note_h, extra, MS_TIMELINE_ROWS_MIN_LANE_PX)
                      ? MS_TIMELINE_ROWS_MIN_LANE_PX
                      : 1;
  for (int i = 0; i < rows->n; i++) {
    const MsCell *cell = ms_timeline_rows_cell (rows, i);
    MsTimelineParts parts = { TRUE, i < rows->n - 1, !(hints & MS_TIMELINE_HINT_CUT), TRUE,
                              min_lane };
    double h = round (row_h + (i == rows->n - 1 ? extra : 0));
    h -= ms_timeline_spare_height (cr, cell, 0, win, style, width, h, titles[length][i], &parts);
    cairo_save (cr);
    cairo_translate (cr, 0, round (y));
    cairo_rectangle (cr, 0, 0, width, h);
    cairo_clip (cr);
    ms_timeline_draw_parts (cr, cell, 0, win, style, width, h, titles[length][i], &parts,
                            layouts ? &layouts[i] : NULL);
    cairo_restore (cr);
    y += h;
  }
  for (int i = 0; i < rows->n; i++)
    for (MsRowsTitle t = 0; t < MS_ROWS_TITLE_N; t++)
      g_free (all_titles[t][i]);
  cairo_save (cr);
  cairo_rectangle (cr, 0, round (y), width, height - round (y));
  cairo_clip (cr);
  ms_draw_background (cr, style);
  cairo_restore (cr);
  ms_timeline_draw_legend (cr, style, seen, y, width, hints, TRUE);
  if (note) {
    ms_set_color (cr, &style->fg, 0.85);
    ms_draw_text_wrapped (cr, note, fs, y + legend_h, fs, width - 2 * fs, FALSE, TRUE);
  }
}
