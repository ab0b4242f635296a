/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-time-window.c: which span of a repetition a timeline shows: the
 * window's zoom and pan, a repetition's extent, where the data movement
 * lies (the window opens on it), and which phases the window holds. The
 * drawing is ms-timeline.c's. */
#include "ms-timeline-index.h"
#include "ms-timeline.h"

#include <string.h>
void
ms_time_window_reset (MsTimeWindow *w, double total_us)
{
  w->total_us = total_us > 0 ? total_us : 1;
  w->t0 = 0;
  w->t1 = w->total_us;
  w->origin_us = 0;
}

static void
clamp_window (MsTimeWindow *w)
{
  double span = w->t1 - w->t0;
  double max_span = w->total_us * 1.05;
  if (span > max_span)
    span = max_span;
  if (span < 0.05) /* 50 ns: below the event resolution */
    span = 0.05;
  if (w->t0 < 0)
    w->t0 = 0;
  if (w->t0 + span > max_span)
    w->t0 = MAX (0, max_span - span);
  w->t1 = w->t0 + span;
}

void
ms_time_window_zoom (MsTimeWindow *w, double factor, double anchor_us)
{
  if (!(factor > 0))
    return;
  w->t0 = anchor_us - (anchor_us - w->t0) / factor;
  w->t1 = anchor_us + (w->t1 - anchor_us) / factor;
  clamp_window (w);
}

void
ms_time_window_pan (MsTimeWindow *w, double delta_us)
{
  w->t0 += delta_us;
  w->t1 += delta_us;
  clamp_window (w);
}

double
ms_timeline_extent (const MsCell *cell, int rep)
{
  return ms_timeline_rep_extent (cell, rep, NULL);
}

gboolean
ms_phase_moves_data (MsPhase phase)
{
  /* Registering is paid in every repetition of the registered mode, before
   * its copies: a window that cut it would draw a 600 µs call as a sliver.
   * (Unregistering comes after verification, which a class need not see.) */
  return phase == MS_PHASE_PREFETCH || phase == MS_PHASE_H2D || phase == MS_PHASE_KERNEL ||
         phase == MS_PHASE_D2H || phase == MS_PHASE_LAUNCH || phase == MS_PHASE_REGISTER;
}

/* From the first start to the last end of repetition rep's events (only
 * those that move data when moving), host and GPU times alike;
 * G_MAXDOUBLE, -G_MAXDOUBLE when it has none. */
static void
rep_span (const MsCell *cell, int rep, const MsRepMap *reps, gboolean moving, double *t0,
          double *t1)
{
  size_t first, end;
  ms_rep_map_bounds (reps, cell, rep, &first, &end);
  *t0 = G_MAXDOUBLE;
  *t1 = -G_MAXDOUBLE;
  for (size_t i = first; i < end; i++) {
    const MsEvent *ev = &cell->events[i];
    if (ev->rep != rep || (moving && !ms_phase_moves_data (ev->phase)))
      continue;
    *t0 = MIN (*t0, ev->host_start_us);
    *t1 = MAX (*t1, ev->host_start_us + ev->host_us);
    if (ev->gpu_us >= 0) {
      *t0 = MIN (*t0, ev->gpu_start_us);
      *t1 = MAX (*t1, ev->gpu_start_us + ev->gpu_us);
    }
  }
}

double
ms_timeline_rep_extent (const MsCell *cell, int rep, const MsRepMap *reps)
{
  double t0, t1;
  rep_span (cell, rep, reps, FALSE, &t0, &t1);
  return MAX (0, t1);
}

gboolean
ms_timeline_movement_span (const MsCell *cell, int rep, const MsRepMap *reps, double *t0,
                           double *t1)
{
  rep_span (cell, rep, reps, TRUE, t0, t1);
  return *t1 > *t0;
}

double
ms_timeline_bars_end (const MsCell *cell, int rep, const MsRepMap *reps, double t1)
{
  double end = t1;
  size_t first, last;
  ms_rep_map_bounds (reps, cell, rep, &first, &last);
  for (size_t i = first; i < last; i++) {
    const MsEvent *ev = &cell->events[i];
    /* Verification and the like can take ten times the copies: they are
     * cut at the frame (and marked so) rather than squeeze the movement. */
    if (ev->rep != rep || !ms_phase_moves_data (ev->phase))
      continue;
    if (ev->host_start_us < t1)
      end = MAX (end, ev->host_start_us + ev->host_us);
    if (ev->gpu_us >= 0 && ev->gpu_start_us < t1)
      end = MAX (end, ev->gpu_start_us + ev->gpu_us);
  }
  return end;
}

void
ms_time_window_end_after (MsTimeWindow *win, double t_end)
{
  double t1 = t_end + (t_end - win->t0) * 0.02;
  win->t1 = MIN (t1, win->t0 + win->total_us * 1.05);
}

static gboolean
overlaps (double start, double len, const MsTimeWindow *win)
{
  return start < win->t1 && start + len > win->t0;
}

void
ms_timeline_seen_in (const MsCell *cell, int rep, const MsRepMap *reps, const MsTimeWindow *win,
                     gboolean seen[MS_PHASE_COUNT])
{
  size_t first, last;
  memset (seen, 0, sizeof (gboolean) * MS_PHASE_COUNT);
  ms_rep_map_bounds (reps, cell, rep, &first, &last);
  for (size_t i = first; i < last; i++) {
    const MsEvent *ev = &cell->events[i];
    if (ev->rep != rep || (unsigned) ev->phase >= MS_PHASE_COUNT)
      continue;
    gboolean host = overlaps (ev->host_start_us, ev->host_us, win);
    gboolean gpu = ev->gpu_us >= 0 && overlaps (ev->gpu_start_us, ev->gpu_us, win);
    /* A kernel's host part is drawn as its launch: keyed "kernel" only where its bar shows. */
    gboolean launch = ms_timeline_event_launch (ev);
    if (gpu || (host && !launch))
      seen[ev->phase] = TRUE;
    if (host && launch)
      seen[MS_PHASE_LAUNCH] = TRUE;
  }
}

void
ms_time_window_open (MsTimeWindow *win, const MsCell *cell, int rep, const MsRepMap *reps,
                     gboolean all_phases)
{
  double t0, t1;
  ms_time_window_reset (win, cell ? ms_timeline_rep_extent (cell, rep, reps) : 0);
  if (all_phases || !ms_timeline_movement_span (cell, rep, reps, &t0, &t1)) {
    /* From the repetition's first event (its events count from the run's
     * start): the run before it is empty. */
    rep_span (cell, rep, reps, FALSE, &t0, &t1);
    win->origin_us = t0 < G_MAXDOUBLE ? MAX (0, t0) : 0;
    win->t0 = win->origin_us;
    ms_time_window_end_after (win, win->total_us);
    return;
  }
  double margin = (t1 - t0) * 0.04;
  win->t0 = MAX (0, t0 - margin);
  win->t1 = MIN (win->total_us, t1 + margin);
  double end = ms_timeline_bars_end (cell, rep, reps, win->t1);
  if (end > win->t1)
    ms_time_window_end_after (win, end);
  ms_time_window_pan (win, 0);
  win->origin_us = win->t0;
}
