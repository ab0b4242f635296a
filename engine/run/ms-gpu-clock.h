/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-gpu-clock.h: placing a repetition's GPU times on its host clock.
 * Defined in ms-gpu-clock.c.
 *
 * An event's host times count from a host-clock origin and its GPU times
 * from a reference CUDA event (or, in the probe lessons, a globaltimer
 * kernel) recorded just after it. The GPU reaches that reference some
 * microseconds after the host origin, so every GPU time of the
 * repetition comes out early by that lag, and a copy would be drawn
 * starting before the call that issued it. GPU work cannot start before
 * its call began: the largest such lead in a repetition is a lower bound
 * of the lag, and adding it to the repetition's GPU starts removes every
 * contradiction (docs/measuring.md). Private to the engine and its
 * tests. */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "memsweep.h"
#include "ms-probe-cells.h"

/* Leads up to this are the files' rounding, not a lag: times have three
 * decimals, so two times written from one value may read back 0.001
 * apart. */
#define MS_GPU_CLOCK_RESOLUTION_US 0.002

/* Whether ev's host part is the call that issued its GPU part: a copy, a
 * kernel or a prefetch enqueued on a stream and timed on both clocks.
 * Steps seen only on the GPU (host time 0), host steps and waits are
 * not. */
bool ms_gpu_clock_event_issued (const MsEvent *ev);

/* The lag of repetition rep: max (0, host start - GPU start) over its
 * events that ms_gpu_clock_event_issued accepts; 0 when it has none. */
double ms_gpu_clock_lag (const MsEvent *events, size_t n_events, int rep);

/* Adds each repetition's lag to the GPU start of every event of that
 * repetition that has a host part (steps seen only on the GPU keep their
 * times). Idempotent: once aligned, no lag is left to add. */
void ms_gpu_clock_align (MsEvent *events, size_t n_events);

/* The probe lessons never time a call and its GPU work in one event: a
 * launch (or a call) is a host-lane event, and the kernel it issued a
 * GPU-only one (host time 0) placed by its own clock stamps, against a
 * globaltimer origin the GPU reached after the host origin. What issued
 * which is known from each probe's code (kernels/lesson-NAME.cu), so those
 * pairs give the lag the same way. */

/* The host event that issued kernel, a GPU-only kernel of a cell of
 * probe; NULL when the probe records no such pair or the repetition's
 * events do not make it certain. */
const MsEvent *ms_gpu_clock_issuer (const MsEvent *events, size_t n_events, MsProbe probe,
                                    const MsEvent *kernel);

/* The lag of repetition rep of a cell of probe: max (0, launch host
 * start - kernel GPU start) over its kernels with an issuer. */
double ms_gpu_clock_probe_lag (const MsEvent *events, size_t n_events, MsProbe probe, int rep);

/* Adds each repetition's probe lag to the GPU start of its GPU-only
 * kernels, and to their host start where it mirrors the GPU start. Does
 * nothing for a probe without pairs. Idempotent. */
void ms_gpu_clock_align_probe (MsEvent *events, size_t n_events, MsProbe probe);

/* ms_gpu_clock_align_probe for the cells of a file that experiment (its
 * metadata's name) made; nothing for a sweep or another lesson. */
void ms_gpu_clock_align_lesson (MsEvent *events, size_t n_events, const char *experiment);
