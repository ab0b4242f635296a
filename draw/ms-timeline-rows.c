/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-timeline-rows.c: timelines on one time axis. Each row is a copy of one
 * repetition's events, moved so that every row's data movement starts at
 * the same time; the rows then share one time window. */
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

static gboolean
moves_data (MsPhase phase)
{
  return phase == MS_PHASE_H2D || phase == MS_PHASE_D2H || phase == MS_PHASE_KERNEL ||
         phase == MS_PHASE_PREFETCH || phase == MS_PHASE_LAUNCH;
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
    if (moves_data (cell->events[i].phase)) {
      lo = MIN (lo, s);
      hi = MAX (hi, e);
    }
  }
  *t0 = isfinite (lo) ? lo : all_lo;
  *t1 = isfinite (hi) ? hi : all_hi;
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
  if (expand || rows->n == 0)
    return;
  double margin = (rows->move_t1 - rows->move_t0) * 0.03;
  win->t0 = MAX (0, rows->move_t0 - margin);
  win->t1 = MIN (win->total_us, rows->move_t1 + margin);
  if (!(win->t1 > win->t0))
    ms_time_window_reset (win, rows->total_us);
}

void
ms_timeline_rows_draw (cairo_t *cr, const MsTimelineRows *rows, const MsTimeWindow *win,
                       const MsChartStyle *style, double width, double height,
                       MsTimelineLayout *layouts)
{
  if (rows->n == 0) {
    ms_timeline_draw (cr, NULL, 0, win, style, width, height, NULL, layouts);
    return;
  }
  double row_h = height / rows->n;
  for (int i = 0; i < rows->n; i++) {
    cairo_save (cr);
    cairo_translate (cr, 0, round (i * row_h));
    cairo_rectangle (cr, 0, 0, width, round (row_h));
    cairo_clip (cr);
    ms_timeline_draw (cr, &rows->cells[i], 0, win, style, width, round (row_h), rows->titles[i],
                      layouts ? &layouts[i] : NULL);
    cairo_restore (cr);
  }
}
