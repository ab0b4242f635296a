/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-gpu-clock.c: a repetition's GPU times placed on its host clock
 * (ms-gpu-clock.h). */
#include "ms-gpu-clock.h"
#include "ms-lesson-private.h"

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
  double (*lead) (const MsEvent *events, size_t n_events, const MsEvent *ev, int probe);
  bool (*moves) (const MsEvent *ev);
  void (*shift) (MsEvent *ev, double lag);
  int probe;
} AlignRule;

/* Repetitions are handled a window at a time, so that no allocation can
 * fail and a file's repetitions may come in any order. Every lead is
 * measured before anything moves: the lags are final. */
#define WINDOW 256

static void
align_by (MsEvent *events, size_t n_events, const AlignRule *rule)
{
  int max_rep = -1;
  for (size_t i = 0; i < n_events; i++)
    if (events[i].rep > max_rep && rule->moves (&events[i]))
      max_rep = events[i].rep;
  for (int base = 0; base <= max_rep; base += WINDOW) {
    double lag[WINDOW] = { 0 };
    bool any = false;
    for (size_t i = 0; i < n_events; i++) {
      int slot = events[i].rep - base;
      if (slot < 0 || slot >= WINDOW)
        continue;
      double lead = rule->lead (events, n_events, &events[i], rule->probe);
      if (lead > lag[slot]) {
        lag[slot] = lead;
        any = any || lead > MS_GPU_CLOCK_RESOLUTION_US;
      }
    }
    for (size_t i = 0; any && i < n_events; i++) {
      MsEvent *ev = &events[i];
      int slot = ev->rep - base;
      if (slot >= 0 && slot < WINDOW && lag[slot] > MS_GPU_CLOCK_RESOLUTION_US &&
          rule->moves (ev))
        rule->shift (ev, lag[slot]);
    }
  }
}

static double
issued_lead (const MsEvent *events, size_t n_events, const MsEvent *ev, int probe)
{
  (void) events, (void) n_events, (void) probe;
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
  static const AlignRule rule = { issued_lead, shifts_with_lag, shift_gpu_start, 0 };
  align_by (events, n_events, &rule);
}

/* ---- the probe lessons' launches and kernels ------------------------ */

/* A kernel seen only on the GPU: its host start, where not 0, mirrors its
 * GPU start. */
static bool
gpu_only_kernel (const MsEvent *ev)
{
  return ev->phase == MS_PHASE_KERNEL && ev->lane != MS_LANE_HOST && ev->host_us <= 0 &&
         ev->gpu_start_us >= 0;
}

/* The host-lane event of repetition rep with phase and chunk; NULL when
 * none. */
static const MsEvent *
host_event (const MsEvent *events, size_t n_events, int rep, MsPhase phase, int chunk)
{
  for (size_t i = 0; i < n_events; i++) {
    const MsEvent *ev = &events[i];
    if (ev->rep == rep && ev->lane == MS_LANE_HOST && ev->phase == phase && ev->chunk == chunk &&
        ev->gpu_start_us < 0)
      return ev;
  }
  return NULL;
}

/* lesson-concurrent.cu: launch k issues kernel k, which goes to lane
 * 1 + k % streams as that lane's chunk k / streams; streams is 1 or K.
 * Certain only when every launch and every kernel is there. */
static const MsEvent *
concurrent_issuer (const MsEvent *events, size_t n_events, const MsEvent *kernel)
{
  int kernels = 0, launches = 0, lanes = 0;
  for (size_t i = 0; i < n_events; i++) {
    const MsEvent *ev = &events[i];
    if (ev->rep != kernel->rep)
      continue;
    if (gpu_only_kernel (ev)) {
      kernels++;
      lanes = ev->lane > lanes ? ev->lane : lanes;
    }
    launches += ev->lane == MS_LANE_HOST && ev->phase == MS_PHASE_LAUNCH;
  }
  if (kernels != launches || (lanes != 1 && lanes != kernels))
    return NULL;
  return host_event (events, n_events, kernel->rep, MS_PHASE_LAUNCH,
                     kernel->chunk * lanes + kernel->lane - 1);
}

const MsEvent *
ms_gpu_clock_issuer (const MsEvent *events, size_t n_events, MsProbe probe,
                     const MsEvent *kernel)
{
  if (!gpu_only_kernel (kernel))
    return NULL;
  int rep = kernel->rep, lane = kernel->lane, chunk = kernel->chunk;
  switch (probe) {
  case MS_PROBE_IMPLICIT_SYNC:
    /* Kernel k on lane k + 1: the first launch's, the second launch's,
     * and the operation's own when the call is a kernel launch. */
    if (chunk != 0)
      return NULL;
    if (lane == 1 || lane == 2)
      return host_event (events, n_events, rep, MS_PHASE_LAUNCH, lane - 1);
    return lane == 3 ? host_event (events, n_events, rep, MS_PHASE_CALL, 0) : NULL;
  case MS_PROBE_PRIORITY:
    /* The first launch is the long kernel's (lane 1), launch i + 1 the
     * short kernel i's (lane 2, chunk i). */
    if (lane == 1 && chunk == 0)
      return host_event (events, n_events, rep, MS_PHASE_LAUNCH, 0);
    return lane == 2 ? host_event (events, n_events, rep, MS_PHASE_LAUNCH, chunk + 1) : NULL;
  case MS_PROBE_CONCURRENT:
    return concurrent_issuer (events, n_events, kernel);
  default:
    /* The others time no launch on the host clock beside a kernel on the
     * GPU's (or their GPU-only steps are not kernels). */
    return NULL;
  }
}

/* How far kernel, of a cell of probe, starts before the host event that
 * issued it; 0 when it has none. */
static double
probe_lead (const MsEvent *events, size_t n_events, MsProbe probe, const MsEvent *kernel)
{
  const MsEvent *issuer = ms_gpu_clock_issuer (events, n_events, probe, kernel);
  return issuer ? issuer->host_start_us - kernel->gpu_start_us : 0;
}

double
ms_gpu_clock_probe_lag (const MsEvent *events, size_t n_events, MsProbe probe, int rep)
{
  double lag = 0;
  for (size_t i = 0; i < n_events; i++)
    if (events[i].rep == rep) {
      double lead = probe_lead (events, n_events, probe, &events[i]);
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

static double
kernel_lead (const MsEvent *events, size_t n_events, const MsEvent *ev, int probe)
{
  return probe_lead (events, n_events, (MsProbe) probe, ev);
}

void
ms_gpu_clock_align_probe (MsEvent *events, size_t n_events, MsProbe probe)
{
  if (probe != MS_PROBE_IMPLICIT_SYNC && probe != MS_PROBE_PRIORITY &&
      probe != MS_PROBE_CONCURRENT)
    return;
  const AlignRule rule = { kernel_lead, gpu_only_kernel, shift_kernel, probe };
  align_by (events, n_events, &rule);
}

void
ms_gpu_clock_align_lesson (MsEvent *events, size_t n_events, const char *experiment)
{
  const MsProbeLesson *lesson = experiment && experiment[0] ? ms_probe_lesson_find (experiment)
                                                            : NULL;
  if (lesson)
    ms_gpu_clock_align_probe (events, n_events, lesson->probe);
}
