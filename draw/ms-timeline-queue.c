/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-timeline-queue.c: copies that waited (ms-timeline-queue.h). */
#include <math.h>
#include <string.h>

#include "ms-engine.h"
#include "ms-timeline-queue.h"

/* Above this many copies in a repetition the check is left out: a
 * timeline of a million events draws every frame. */
#define MAX_COPIES_CHECKED 100000

gboolean
ms_phase_is_copy (MsPhase phase)
{
  return phase == MS_PHASE_H2D || phase == MS_PHASE_D2H;
}

static double
event_end (const MsEvent *ev)
{
  return ev->gpu_start_us + ev->gpu_us;
}

static int
by_end (gconstpointer a, gconstpointer b, gpointer events)
{
  const MsEvent *const *ev = events;
  double x = event_end (ev[*(const guint *) a]), y = event_end (ev[*(const guint *) b]);
  return (x > y) - (x < y);
}

void
ms_copy_queue_began (const MsEvent *const *events, guint n, double *began)
{
  g_autofree guint *order = g_new (guint, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    order[i] = i;
  g_qsort_with_data (order, (gint) n, sizeof *order, by_end, (gpointer) events);
  double busy = -INFINITY;
  for (guint k = 0; k < n; k++) {
    const MsEvent *ev = events[order[k]];
    double start = ev->gpu_start_us, end = event_end (ev);
    began[order[k]] = CLAMP (busy, start, end);
    busy = MAX (busy, end);
  }
}

/* Repetition rep's GPU bars of phase (any phase: -1) queued behind each
 * other, and one began visibly later than its start says, inside the
 * window. Too many are not checked. */
static gboolean
queue_waited (const MsCell *cell, int rep, const MsRepMap *reps, int phase,
              const MsTimeWindow *win)
{
  size_t first, last;
  ms_rep_map_bounds (reps, cell, rep, &first, &last);
  g_autoptr (GPtrArray) bars = g_ptr_array_new ();
  for (size_t i = first; i < last && bars->len <= MAX_COPIES_CHECKED; i++) {
    const MsEvent *ev = &cell->events[i];
    if (ev->rep == rep && (phase < 0 || ev->phase == (MsPhase) phase) && ev->gpu_us > 0)
      g_ptr_array_add (bars, (gpointer) ev);
  }
  if (bars->len < 2 || bars->len > MAX_COPIES_CHECKED)
    return FALSE;
  g_autofree double *began = g_new (double, bars->len);
  ms_copy_queue_began ((const MsEvent *const *) bars->pdata, bars->len, began);
  double visible = (win->t1 - win->t0) * 0.01;
  for (guint i = 0; i < bars->len; i++) {
    const MsEvent *ev = g_ptr_array_index (bars, i);
    if (began[i] - ev->gpu_start_us > visible && ev->gpu_start_us < win->t1 && began[i] > win->t0)
      return TRUE;
  }
  return FALSE;
}

gboolean
ms_timeline_copies_waited (const MsCell *cell, int rep, const MsRepMap *reps,
                           const MsTimeWindow *win)
{
  return queue_waited (cell, rep, reps, MS_PHASE_H2D, win)
         || queue_waited (cell, rep, reps, MS_PHASE_D2H, win);
}

gboolean
ms_timeline_one_stream (const MsCell *cell)
{
  char stream[16];
  return cell && ms_variant_get (cell->variant, "stream", stream, sizeof stream)
         && strcmp (stream, "legacy") == 0;
}

gboolean
ms_timeline_one_stream_waited (const MsCell *cell, int rep, const MsRepMap *reps,
                               const MsTimeWindow *win)
{
  return ms_timeline_one_stream (cell) && queue_waited (cell, rep, reps, -1, win);
}
