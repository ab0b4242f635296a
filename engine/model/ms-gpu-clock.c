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

/* How one kind of cell is aligned: how far an event starts before the
 * call that issued it (0 when it has none or does not count), which
 * events move with their repetition's lag, and how. */
typedef struct {
  double (*lead) (const MsEvent *events, size_t n_events, const MsEvent *ev,
                 MsGpuClockIssuer issuer);
  bool (*moves) (const MsEvent *ev);
  void (*shift) (MsEvent *ev, double lag);
  MsGpuClockIssuer issuer;
} AlignRule;

/* Repetitions are handled a window at a time, so that no allocation can
 * fail and a file's repetitions may come in any order. Every lead is
 * measured before anything moves: the lags are final. */
#define WINDOW 256

/* The window of repetitions from base among events[lo..hi). */
static void
align_window (MsEvent *events, size_t n_events, size_t lo, size_t hi, int base,
              const AlignRule *rule)
{
  double lag[WINDOW] = { 0 };
  bool any = false;
  for (size_t i = lo; i < hi; i++) {
    int slot = events[i].rep - base;
    if (slot < 0 || slot >= WINDOW)
      continue;
    double lead = rule->lead (events, n_events, &events[i], rule->issuer);
    if (lead > lag[slot]) {
      lag[slot] = lead;
      any = any || lead > MS_GPU_CLOCK_RESOLUTION_US;
    }
  }
  for (size_t i = lo; any && i < hi; i++) {
    MsEvent *ev = &events[i];
    int slot = ev->rep - base;
    if (slot >= 0 && slot < WINDOW && lag[slot] > MS_GPU_CLOCK_RESOLUTION_US && rule->moves (ev))
      rule->shift (ev, lag[slot]);
  }
}

/* Events in repetition order (as files and runs keep them) are looked at
 * once, a window's run of them at a time; in any other order each window
 * looks at them all. The whole look per window made this a tenth of
 * `show`'s time on a 10^7-row file, whose cells have 10^5 repetitions. */
static void
align_by (MsEvent *events, size_t n_events, const AlignRule *rule)
{
  int max_rep = -1;
  bool in_order = true;
  for (size_t i = 0; i < n_events; i++) {
    if (events[i].rep > max_rep && rule->moves (&events[i]))
      max_rep = events[i].rep;
    in_order = in_order && (i == 0 || events[i].rep >= events[i - 1].rep);
  }
  size_t lo = 0, hi = n_events;
  for (int base = 0; base <= max_rep; base += WINDOW) {
    if (in_order) {
      while (lo < n_events && events[lo].rep < base)
        lo++;
      for (hi = lo; hi < n_events && events[hi].rep - base < WINDOW; hi++)
        ;
    }
    align_window (events, n_events, lo, hi, base, rule);
  }
}

static double
issued_lead (const MsEvent *events, size_t n_events, const MsEvent *ev, MsGpuClockIssuer issuer)
{
  (void) events, (void) n_events, (void) issuer;
  return ms_gpu_clock_event_issued (ev) ? ev->host_start_us - ev->gpu_start_us : 0;
}

static void
shift_gpu_start (MsEvent *ev, double lag)
{
  ev->gpu_start_us += lag;
}

void
ms_gpu_clock_align (MsEvent *events, size_t n_events)
{
  static const AlignRule rule = { issued_lead, shifts_with_lag, shift_gpu_start, NULL };
  align_by (events, n_events, &rule);
}

/* ---- kernels seen only on the GPU, and the launches that issued them ---- */

bool
ms_gpu_clock_gpu_only_kernel (const MsEvent *ev)
{
  return ev->phase == MS_PHASE_KERNEL && ev->lane != MS_LANE_HOST && ev->host_us <= 0 &&
         ev->gpu_start_us >= 0;
}

const MsEvent *
ms_gpu_clock_host_event (const MsEvent *events, size_t n_events, int rep, MsPhase phase, int chunk)
{
  for (size_t i = 0; i < n_events; i++) {
    const MsEvent *ev = &events[i];
    if (ev->rep == rep && ev->lane == MS_LANE_HOST && ev->phase == phase && ev->chunk == chunk &&
        ev->gpu_start_us < 0)
      return ev;
  }
  return NULL;
}

/* How far kernel starts before the host event that issued it; 0 when it
 * has none. */
static double
kernel_lead (const MsEvent *events, size_t n_events, const MsEvent *kernel,
             MsGpuClockIssuer issuer)
{
  if (!ms_gpu_clock_gpu_only_kernel (kernel))
    return 0;
  const MsEvent *by = issuer (events, n_events, kernel);
  return by ? by->host_start_us - kernel->gpu_start_us : 0;
}

double
ms_gpu_clock_kernel_lag (const MsEvent *events, size_t n_events, MsGpuClockIssuer issuer, int rep)
{
  double lag = 0;
  for (size_t i = 0; i < n_events; i++)
    if (events[i].rep == rep) {
      double lead = kernel_lead (events, n_events, &events[i], issuer);
      lag = lead > lag ? lead : lag;
    }
  return lag;
}

static void
shift_kernel (MsEvent *ev, double lag)
{
  double mirror = ev->host_start_us - ev->gpu_start_us;
  ev->gpu_start_us += lag;
  /* A host start of 0 is the files' "none" (no negative allowed), not a
   * time. */
  if (mirror <= MS_GPU_CLOCK_RESOLUTION_US && mirror >= -MS_GPU_CLOCK_RESOLUTION_US)
    ev->host_start_us = ev->gpu_start_us;
}

void
ms_gpu_clock_align_kernels (MsEvent *events, size_t n_events, MsGpuClockIssuer issuer)
{
  const AlignRule rule = { kernel_lead, ms_gpu_clock_gpu_only_kernel, shift_kernel, issuer };
  align_by (events, n_events, &rule);
}
