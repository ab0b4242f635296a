/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-timeline-rows.c: timelines on one time axis. Each row is a copy of one
 * repetition's events, moved so that every row's data movement starts at
 * the same time; the rows then share one time window. */
#include <glib/gi18n.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ms-timeline-rows.h"

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
static void
movement (const MsCell *cell, double *t0, double *t1)
{
  double lo = INFINITY, hi = -INFINITY, all_lo = INFINITY, all_hi = -INFINITY;
  for (size_t i = 0; i < cell->n_events; i++) {
    double s, e;
    event_span (&cell->events[i], &s, &e);
    all_lo = MIN (all_lo, s);
    all_hi = MAX (all_hi, e);
    if (ms_phase_moves_data (cell->events[i].phase)) {
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
    if (!ms_phase_moves_data (phase) && phase != MS_PHASE_HOST_FUNC && phase != MS_PHASE_CALL)
      continue;
    event_span (&cell->events[i], &s, &e);
    *t0 = MIN (*t0, s);
    *t1 = MAX (*t1, e);
  }
  return isfinite (*t0) && *t1 > *t0;
}

/* The row's title with its total: how long its work took, from its
 * first copy (or launch) to its last bar, so that which row finishes
 * first is read, not measured off the axis. */
static char *
row_title (const MsTimelineRows *rows, int i)
{
  double t0, t1;
  char took[32];
  /* A row that moves nothing (the host mode) has no such total. */
  if (!work_span (&rows->cells[i], &t0, &t1))
    return g_strdup (rows->titles[i]);
  ms_format_time_us (t1 - t0, took, sizeof took);
  /* Translators: a timeline row's title and how long its data movement
   * took from its start (rows on one axis start it together), e.g.
   * "Pinned · 4 MiB per vector · all done in 1.37 ms". */
  return g_strdup_printf (C_("timeline row", "%s · all done in %s"),
                          rows->titles[i] ? rows->titles[i] : "", took);
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
  double t0, t1;
  movement (row, &t0, &t1);
  rows->lead[rows->n] = t0;
  rows->shift[rows->n] = 0;
  rows->titles[rows->n] = g_strdup (title);
  rows->n++;
  align (rows);
  return TRUE;
}

void
ms_timeline_rows_window (const MsTimelineRows *rows, gboolean expand, MsTimeWindow *win)
{
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
}

/* Lanes in a row never get thinner than this: the rows that would go
 * under it are left out (and said so) rather than drawn as stripes. */
#define MIN_ROW_LANE_PX 6.0

/* How many rows fit, from the first, with lanes of MIN_ROW_LANE_PX at
 * least when each gets row_h (the last extra more, for its time labels). */
static int
rows_that_fit (cairo_t *cr, const MsTimelineRows *rows, char *const *titles,
               const MsChartStyle *st, double width, double room, double extra)
{
  for (int n = rows->n; n > 1; n--) {
    double row_h = (room - extra) / n;
    gboolean fits = TRUE;
    for (int i = 0; i < n && fits; i++) {
      MsTimelineParts parts = { TRUE, i < n - 1 };
      fits = ms_timeline_measure (cr, &rows->cells[i], 0, st, width,
                                  row_h + (i == n - 1 ? extra : 0), titles[i], &parts,
                                  NULL) >= MIN_ROW_LANE_PX;
    }
    if (fits)
      return n;
  }
  return MIN (rows->n, 1);
}

/* The rows that fit over the legend and its hints: the notch's line goes
 * first when rows would be left out (and the notches with it: a legend
 * names the looks drawn), then the host lane's; then, with a line that
 * says so, the rows. Returns the rows; *left_out is the line or NULL. */
static int
fit_rows (cairo_t *cr, const MsTimelineRows *rows, char *const *titles, const MsChartStyle *st,
          double width, double height, double extra, const gboolean seen[MS_PHASE_COUNT],
          guint *hints, double *legend_h, double *note_h, char **left_out)
{
  const double fs = ms_style_font_size (st);
  /* Last, the host lane's line: a row of the lesson weighs more than the
   * key to its host calls. */
  static const guint dropped[] = { 0, MS_TIMELINE_HINT_CUT, MS_TIMELINE_HINT_HOST };
  int n = 0;
  for (guint k = 0; k < G_N_ELEMENTS (dropped) && n < rows->n; k++) {
    *hints &= ~dropped[k];
    *legend_h = ms_timeline_draw_legend (cr, st, seen, 0, width, *hints, FALSE);
    n = rows_that_fit (cr, rows, titles, st, width, height - *legend_h, extra);
  }
  *left_out = n < rows->n ? g_strdup_printf (ngettext ("%d more timeline needs a taller window",
                                                       "%d more timelines need a taller window",
                                                       rows->n - n),
                                             rows->n - n)
                          : NULL;
  *note_h = *left_out ? ms_draw_text_wrapped (cr, *left_out, fs, 0, fs * 0.9, width - 2 * fs,
                                              FALSE, FALSE)
                      : 0;
  if (*left_out)
    n = rows_that_fit (cr, rows, titles, st, width, height - *legend_h - *note_h, extra);
  return n;
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
  char *titles[MS_TIMELINE_MAX_ROWS];
  for (int i = 0; i < rows->n; i++) {
    gboolean row_seen[MS_PHASE_COUNT];
    ms_timeline_seen_in (&rows->cells[i], 0, NULL, win, row_seen);
    for (int p = 0; p < MS_PHASE_COUNT; p++)
      seen[p] = seen[p] || row_seen[p];
    hints |= ms_timeline_hints (&rows->cells[i], 0, NULL, win);
    titles[i] = row_title (rows, i);
  }
  double label_h, legend_h = 0, note_h = 0;
  ms_draw_text (cr, "0", 0, 0, fs, -1, 0, FALSE, NULL, &label_h);
  double extra = label_h + fs * 0.6; /* the last row's time labels */
  g_autofree char *left_out = NULL;
  int n = fit_rows (cr, rows, titles, style, width, height, extra, seen, &hints, &legend_h,
                    &note_h, &left_out);
  double row_h = (height - legend_h - note_h - extra) / n, y = 0;
  for (int i = 0; i < n; i++) {
    MsTimelineParts parts = { TRUE, i < n - 1, !(hints & MS_TIMELINE_HINT_CUT), TRUE };
    double h = round (row_h + (i == n - 1 ? extra : 0));
    h -= ms_timeline_spare_height (cr, &rows->cells[i], 0, win, style, width, h, titles[i],
                                   &parts);
    cairo_save (cr);
    cairo_translate (cr, 0, round (y));
    cairo_rectangle (cr, 0, 0, width, h);
    cairo_clip (cr);
    ms_timeline_draw_parts (cr, &rows->cells[i], 0, win, style, width, h, titles[i], &parts,
                            layouts ? &layouts[i] : NULL);
    cairo_restore (cr);
    y += h;
  }
  for (int i = n; layouts && i < rows->n; i++)
    g_array_set_size (layouts[i].bars, 0);
  for (int i = 0; i < rows->n; i++)
    g_free (titles[i]);
  cairo_save (cr);
  cairo_rectangle (cr, 0, round (y), width, height - round (y));
  cairo_clip (cr);
  ms_draw_background (cr, style);
  cairo_restore (cr);
  ms_timeline_draw_legend (cr, style, seen, y, width, hints, TRUE);
  if (left_out) {
    ms_set_color (cr, &style->fg, 0.7);
    ms_draw_text_wrapped (cr, left_out, fs, y + legend_h, fs * 0.9, width - 2 * fs, FALSE, TRUE);
  }
}
