/* SPDX-License-Identifier: GPL-3.0-or-later */
/* lesson-priority.cu: the stream-priorities lesson's sample. A long kernel
 * on a stream of the least priority fills every SM's block slots for many
 * waves; short one-block kernels are launched at a fixed host interval on
 * a stream of the greatest priority or on a second one of the least. The
 * wait of a short kernel is its start (its own clock stamp: the figure
 * itself, in plain samples too) less its launch (host clock) mapped to the
 * GPU's clock. */
#include <stdlib.h>
#include <string.h>

#include "ms-k-probe.cuh"
#include "ms-k-stats.h"

/* arg[] of the priority lesson's sample (engine/lessons/ms-lesson-priority.h). */
enum { ARG_WAVES, ARG_BLOCK_US, ARG_SHORT_US, ARG_GAP_US, ARG_SHORTS, ARG_FIGURE };
enum { SHORTS_HIGH, SHORTS_LOW, SHORTS_NONE };
enum { FIGURE_WAIT, FIGURE_LONG };

#define THREADS 64
/* Below KP_MAX_CHUNKS: every launch and short kernel on the timeline. */
#define MAX_SHORTS 60

/* Every block spins ns; with span, the kernel's first start and last end
 * (the timeline's long bar: no one block knows them). */
__global__ void
kp_long_kernel (unsigned long long ns, unsigned long long *span)
{
  unsigned long long start = kp_globaltimer (), now = start;
  while (now - start < ns)
    now = kp_globaltimer ();
  if (span && threadIdx.x == 0) {
    atomicMin (&span[0], start);
    atomicMax (&span[1], now);
  }
}

/* The host clock mapped to the GPU's: the origin's host time is taken when
 * the stamp is back, after the GPU wrote it, so a mapped launch lies
 * before the true one and a wait is too long by at most that return trip
 * (microseconds), never negative. */
static cudaError_t
map_clocks (KpOrigin *o, cudaStream_t stream, KpStamps *st)
{
  cudaError_t e = kp_origin (o, stream, st, NULL);
  o->host_us = kp_now_us ();
  return e;
}

typedef struct {
  cudaStream_t low, shorts;
  /* Instrumented: the long kernel's first start and last end, in device
   * memory (its many blocks' atomics stay off the host link). */
  unsigned long long *span;
  unsigned blocks;
  int n_shorts;
  double launch_us[MAX_SHORTS]; /* host clock */
  double long_us;               /* launch to end, host clock */
} Run;

static MsKStatus
make_streams (MsKProbe *p, Run *run)
{
  int least = 0, greatest = 0, sms = 0, per_sm = 0;
  KP_CHECK (p, cudaDeviceGetStreamPriorityRange (&least, &greatest));
  if (least == greatest)
    return kp_unsupported (p, "the device has one stream priority (least = greatest = %d)",
                           least);
  KP_CHECK (p, cudaDeviceGetAttribute (&sms, cudaDevAttrMultiProcessorCount, p->device));
  KP_CHECK (p, cudaOccupancyMaxActiveBlocksPerMultiprocessor (&per_sm, kp_long_kernel, THREADS,
                                                               0));
  run->blocks = (unsigned) (sms * (per_sm > 0 ? per_sm : 1) * p->arg[ARG_WAVES]);
  KP_CHECK (p, cudaStreamCreateWithPriority (&run->low, cudaStreamNonBlocking, least));
  int prio = p->arg[ARG_SHORTS] == SHORTS_HIGH ? greatest : least;
  cudaError_t e = cudaStreamCreateWithPriority (&run->shorts, cudaStreamNonBlocking, prio);
  if (e != cudaSuccess) {
    cudaStreamDestroy (run->low);
    return kp_fail (p, "cudaStreamCreateWithPriority", e);
  }
  return MS_K_OK;
}

/* The long kernel, then the short ones every gap on the host clock. */
static MsKStatus
launch_all (MsKProbe *p, Run *run, KpStamps *st, const KpOrigin *o)
{
  double block_us = p->arg[ARG_BLOCK_US], gap = p->arg[ARG_GAP_US];
  double t0 = kp_now_us ();
  kp_long_kernel<<<run->blocks, THREADS, 0, run->low>>> ((unsigned long long) (block_us * 1000),
                                                         run->span);
  KP_CHECK (p, cudaGetLastError ());
  if (p->instrumented)
    kp_event (p, KP_LAUNCH, 0, t0 - o->host_us, kp_now_us () - t0, -1, -1, 0);
  for (int i = 0; i < run->n_shorts; i++) {
    while (kp_now_us () < t0 + gap * (i + 1))
      ;
    double h = kp_now_us ();
    KP_CHECK (p, kp_spin (run->shorts, p->arg[ARG_SHORT_US], 1, 32, 0, st->dev + 2 + 2 * i));
    run->launch_us[i] = h;
    if (p->instrumented)
      kp_event (p, KP_LAUNCH, 0, h - o->host_us, kp_now_us () - h, -1, -1, 0);
  }
  KP_CHECK (p, cudaStreamSynchronize (run->low));
  run->long_us = kp_now_us () - t0;
  KP_CHECK (p, cudaStreamSynchronize (run->shorts));
  return MS_K_OK;
}

/* The median wait of the short kernels, and their bars. */
static double
waits (MsKProbe *p, const Run *run, KpStamps *st, const KpOrigin *o)
{
  double w[MAX_SHORTS];
  for (int i = 0; i < run->n_shorts; i++) {
    unsigned long long s = st->host[2 + 2 * i], e = st->host[3 + 2 * i];
    double launch_gpu_ns = (double) o->gpu_ns + (run->launch_us[i] - o->host_us) * 1e3;
    w[i] = (double) s > launch_gpu_ns ? ((double) s - launch_gpu_ns) * 1e-3 : 0;
    if (p->instrumented) {
      double start = kp_stamp_us (o, s);
      kp_event (p, KP_KERNEL, 2, start, 0, start, e > s ? (double) (e - s) * 1e-3 : 0, 0);
    }
  }
  return k_median (w, run->n_shorts);
}

KP_LESSON_SAMPLE (priority)
{
  Run run;
  memset (&run, 0, sizeof run);
  double long_us = (double) p->arg[ARG_WAVES] * p->arg[ARG_BLOCK_US];
  /* Short kernels while the long one surely runs: from one gap after its
   * launch to two gaps before its planned end. */
  int n = (int) (long_us / p->arg[ARG_GAP_US]) - 2;
  if (p->arg[ARG_SHORTS] == SHORTS_NONE)
    n = 0;
  else if (n < 1)
    return kp_unsupported (p, "the long kernel (%g µs) is shorter than three gaps of %d µs",
                           long_us, p->arg[ARG_GAP_US]);
  run.n_shorts = n < MAX_SHORTS ? n : MAX_SHORTS;
  KpStamps *st = kp_stamps (p->device);
  if (!st)
    return kp_unsupported (p, "no mapped pinned memory for the kernels' clock stamps");
  MsKStatus ks = make_streams (p, &run);
  if (ks != MS_K_OK)
    return ks;
  KpOrigin o;
  unsigned long long span[2] = { ~0ull, 0 };
  cudaError_t e = cudaSuccess;
  if (p->instrumented) {
    e = cudaMalloc ((void **) &run.span, sizeof span);
    if (e == cudaSuccess)
      e = cudaMemcpy (run.span, span, sizeof span, cudaMemcpyHostToDevice);
  }
  if (e == cudaSuccess)
    e = cudaDeviceSynchronize ();
  if (e == cudaSuccess)
    e = map_clocks (&o, run.low, st);
  if (e == cudaSuccess)
    ks = launch_all (p, &run, st, &o);
  if (e == cudaSuccess && ks == MS_K_OK) {
    if (run.span)
      e = cudaMemcpy (span, run.span, sizeof span, cudaMemcpyDeviceToHost);
    if (e == cudaSuccess && run.span && span[1] > span[0]) {
      double start = kp_stamp_us (&o, span[0]);
      kp_event (p, KP_KERNEL, 1, start, 0, start, (double) (span[1] - span[0]) * 1e-3, 0);
    }
    double wait = run.n_shorts > 0 ? waits (p, &run, st, &o) : -1;
    p->value_us = p->arg[ARG_FIGURE] == FIGURE_WAIT ? wait : run.long_us;
    if (p->arg[ARG_FIGURE] == FIGURE_WAIT && run.n_shorts == 0)
      ks = kp_unsupported (p, "no short kernels to wait for");
  }
  cudaFree (run.span);
  cudaStreamDestroy (run.shorts);
  cudaStreamDestroy (run.low);
  if (e != cudaSuccess)
    return kp_fail (p, "the priority sample", e);
  return ks;
}
