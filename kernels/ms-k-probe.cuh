/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-k-probe.cuh: what the probe lessons (kernels/lesson-NAME.cu) share:
 * failing with the CUDA error, a kernel of fixed duration on the GPU's own
 * clock, the kernels' clock stamps that place work on the timeline
 * without an event between steps, and the events of a sample. Internal to
 * kernels/. */
#pragma once

#include <cuda_runtime.h>
#include <stdarg.h>
#include <stdio.h>
#include <time.h>

#include "ms-kernels.h"

/* Mirrors the phases of engine/memsweep.h the probes use. */
enum { KP_H2D = 4, KP_KERNEL = 5, KP_D2H = 6, KP_LAUNCH = 10, KP_HOST_FUNC = 11, KP_CALL = 12 };

static inline double
kp_now_us (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e6 + ts.tv_nsec * 1e-3;
}

/* MS_K_FAILED with "what: error (name)" in p->error. */
MsKStatus kp_fail (MsKProbe *p, const char *what, cudaError_t e);
/* MS_K_UNSUPPORTED with the reason. */
MsKStatus kp_unsupported (MsKProbe *p, const char *fmt, ...) __attribute__ ((format (printf, 2, 3)));

#define KP_CHECK(p, call)                                                     \
  do {                                                                        \
    cudaError_t kp_e_ = (call);                                               \
    if (kp_e_ != cudaSuccess)                                                 \
      return kp_fail ((p), #call, kp_e_);                                     \
  } while (0)

/* The GPU's global timer in ns, read in a kernel. */
static __device__ __forceinline__ unsigned long long
kp_globaltimer (void)
{
  unsigned long long t;
  asm volatile ("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

/* Every block spins until ns nanoseconds have passed on %globaltimer since
 * it started, so the duration does not depend on the clock. When stamps is
 * not NULL, block 0's first thread writes its start and end (globaltimer,
 * ns) to stamps[0] and stamps[1]. */
__global__ void kp_spin_kernel (unsigned long long ns, unsigned long long *stamps);
/* Launches it: blocks x threads, smem bytes of dynamic shared memory each
 * (which limits how many blocks fit on an SM). */
cudaError_t kp_spin (cudaStream_t stream, double us, unsigned blocks, unsigned threads,
                     size_t smem, unsigned long long *stamps);

/* Stamps in mapped pinned memory, kept per device for the process: the
 * kernels write them, the host reads them after a synchronisation. */
typedef struct {
  unsigned long long *host;
  unsigned long long *dev;
  int n;
} KpStamps;
KpStamps *kp_stamps (int device);

/* The GPU clock now (globaltimer, ns), read by a one-thread kernel on
 * stream and waited for; and the host clock when it was read. Instrumented
 * samples take it first, to place their stamps against the host's
 * timeline: kp_stamp_us converts. */
typedef struct {
  double host_us;           /* host clock at the sample's start */
  unsigned long long gpu_ns; /* globaltimer at the sample's start */
} KpOrigin;
/* ref, when given, is recorded right behind the stamp on stream: the
 * origin of the lesson's event times, within a microsecond or two of the
 * stamps' (the event completing after the stamp, never before it). */
cudaError_t kp_origin (KpOrigin *o, cudaStream_t stream, KpStamps *st, cudaEvent_t ref);
static inline double
kp_stamp_us (const KpOrigin *o, unsigned long long ns)
{
  return ns >= o->gpu_ns ? (double) (ns - o->gpu_ns) * 1e-3 : 0;
}

/* Appends an event (times from the sample's start, host_start_us >= 0;
 * its chunk counts the earlier events of its phase on its lane, since a
 * file holds one row per phase, lane and chunk of a repetition;
 * gpu < 0: none). Work seen only on the GPU takes its GPU start as its
 * host start and 0 as its host time. */
#define KP_MAX_CHUNKS 64 /* MS_MAX_STREAMS: more of one kind on a lane are dropped */
void kp_event (MsKProbe *p, int phase, int lane, double host_start_us, double host_us,
               double gpu_start_us, double gpu_us, uint64_t bytes);

/* Defines a probe lesson's sample, ms_k_lesson_NAME (ms-kernels.h):
 * KP_LESSON_SAMPLE (concurrent) { ... }. */
#define KP_LESSON_SAMPLE(name) extern "C" MsKStatus ms_k_lesson_##name (MsKProbe *p)

/* A lesson that keeps memory from sample to sample (per thread) names the
 * function that frees the calling thread's share before it keeps any;
 * ms_k_probe_release calls each once. Registering again does nothing. */
void kp_on_release (void (*release) (void));
