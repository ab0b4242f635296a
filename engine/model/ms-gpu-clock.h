/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-gpu-clock.h: placing a repetition's GPU times on its host clock.
 * Defined in ms-gpu-clock.c.
 *
 * An event's host times count from a host-clock origin and its GPU times
 * from a reference CUDA event (or, in some lessons, a globaltimer
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

/* Some lessons never time a call and its GPU work in one event: a launch
 * (or a call) is a host-lane event, and the kernel it issued a GPU-only
 * one (host time 0) placed by its own clock stamps, against a globaltimer
 * origin the GPU reached after the host origin. Which host event issued
 * which kernel is known from the lesson's code, so the caller hands it in
 * (issuer) and those pairs give the lag the same way. */

/* Whether ev is a kernel seen only on the GPU: on a stream's lane, with a
 * GPU start and no host time. */
bool ms_gpu_clock_gpu_only_kernel (const MsEvent *ev);

/* The host-lane event of repetition rep with phase and chunk and no GPU
 * part; NULL when none. */
const MsEvent *ms_gpu_clock_host_event (const MsEvent *events, size_t n_events, int rep,
                                        MsPhase phase, int chunk);

/* The host event that issued kernel, a GPU-only kernel; NULL when the
 * events do not make it certain. */
typedef const MsEvent *(*MsGpuClockIssuer) (const MsEvent *events, size_t n_events,
                                            const MsEvent *kernel);

/* The lag of repetition rep: max (0, issuer's host start - kernel GPU
 * start) over its GPU-only kernels with an issuer. */
double ms_gpu_clock_kernel_lag (const MsEvent *events, size_t n_events, MsGpuClockIssuer issuer,
                                int rep);

/* Adds each repetition's kernel lag to the GPU start of its GPU-only
 * kernels, and to their host start where it mirrors the GPU start.
 * Idempotent. */
void ms_gpu_clock_align_kernels (MsEvent *events, size_t n_events, MsGpuClockIssuer issuer);
