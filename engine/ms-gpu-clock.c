/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-gpu-clock.c: a repetition's GPU times placed on its host clock
 * (ms-gpu-clock.h). */
#include "ms-gpu-clock.h"

bool
ms_gpu_clock_event_issued (const MsEvent *ev)
{
  if (ev->lane == MS_LANE_HOST || ev->host_us <= 0 || ev->gpu_start_us < 0 || ev->gpu_us < 0)
    return false;
  /* The phases a call enqueues; a host function, a verification or a
   * wait would have a host part that need not precede its GPU part. */
  switch (ev->phase) {
  case MS_PHASE_H2D:
  case MS_PHASE_KERNEL:
  case MS_PHASE_D2H:
  case MS_PHASE_PREFETCH:
    return true;
  default:
    return false;
  }
}

/* Whether ev's GPU start moves with its repetition's lag: steps seen
 * only on the GPU take their GPU start as their host start, and keep it. */
static bool
shifts_with_lag (const MsEvent *ev)
{
  return ev->gpu_start_us >= 0 && ev->host_us > 0;
}

double
ms_gpu_clock_lag (const MsEvent *events, size_t n_events, int rep)
{
  double lag = 0;
  for (size_t i = 0; i < n_events; i++) {
    const MsEvent *ev = &events[i];
    if (ev->rep == rep && ms_gpu_clock_event_issued (ev) &&
        ev->host_start_us - ev->gpu_start_us > lag)
      lag = ev->host_start_us - ev->gpu_start_us;
  }
  return lag;
}

/* Repetitions are handled a window at a time, so that no allocation can
 * fail and a file's repetitions may come in any order. */
#define WINDOW 256

void
ms_gpu_clock_align (MsEvent *events, size_t n_events)
{
  int max_rep = -1;
  for (size_t i = 0; i < n_events; i++)
    if (events[i].rep > max_rep && ms_gpu_clock_event_issued (&events[i]))
      max_rep = events[i].rep;
  for (int base = 0; base <= max_rep; base += WINDOW) {
    double lag[WINDOW] = { 0 };
    bool any = false;
    for (size_t i = 0; i < n_events; i++) {
      const MsEvent *ev = &events[i];
      int slot = ev->rep - base;
      if (slot < 0 || slot >= WINDOW || !ms_gpu_clock_event_issued (ev))
        continue;
      double lead = ev->host_start_us - ev->gpu_start_us;
      if (lead > lag[slot]) {
        lag[slot] = lead;
        any = any || lead > MS_GPU_CLOCK_RESOLUTION_US;
      }
    }
    if (!any)
      continue;
    for (size_t i = 0; i < n_events; i++) {
      MsEvent *ev = &events[i];
      int slot = ev->rep - base;
      if (slot >= 0 && slot < WINDOW && lag[slot] > MS_GPU_CLOCK_RESOLUTION_US &&
          shifts_with_lag (ev))
        ev->gpu_start_us += lag[slot];
    }
  }
}
