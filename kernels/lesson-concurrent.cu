/* SPDX-License-Identifier: GPL-3.0-or-later */
/* lesson-concurrent.cu: the concurrent-kernels lesson's sample. K kernels
 * of fixed duration go to one stream or to K streams; what may stop them
 * running together: a grid that fills every SM's block slots, or blocks
 * that take all of an SM's shared memory. The figure is the host clock
 * from the first launch to the end of the last kernel. */
#include "ms-k-probe.cuh"

/* arg[] of the concurrent lesson's sample (engine/lessons/ms-lesson-concurrent.c). */
enum { ARG_K, ARG_STREAMS, ARG_GRID, ARG_SMEM, ARG_KERNEL_US };
enum { GRID_ONE_BLOCK, GRID_ONE_PER_SM, GRID_FULL };

#define THREADS 64

typedef struct {
  unsigned blocks;
  size_t smem;
} Shape;

static MsKStatus
kernel_shape (MsKProbe *p, Shape *shape)
{
  int sms = 0, smem_optin = 0, per_sm = 0;
  KP_CHECK (p, cudaDeviceGetAttribute (&sms, cudaDevAttrMultiProcessorCount, p->device));
  KP_CHECK (p, cudaDeviceGetAttribute (&smem_optin, cudaDevAttrMaxSharedMemoryPerBlockOptin,
                                       p->device));
  shape->smem = p->arg[ARG_SMEM] ? (size_t) smem_optin : 0;
  if (shape->smem > 48 * 1024)
    KP_CHECK (p, cudaFuncSetAttribute (kp_spin_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                       (int) shape->smem));
  KP_CHECK (p, cudaOccupancyMaxActiveBlocksPerMultiprocessor (&per_sm, kp_spin_kernel, THREADS,
                                                               shape->smem));
  if (per_sm < 1)
    return kp_unsupported (p, "a block with %zu bytes of shared memory does not fit an SM",
                           shape->smem);
  switch (p->arg[ARG_GRID]) {
  case GRID_ONE_PER_SM: shape->blocks = (unsigned) sms; break;
  case GRID_FULL: shape->blocks = (unsigned) (sms * per_sm); break;
  default: shape->blocks = 1;
  }
  return MS_K_OK;
}

static MsKStatus
launch_all (MsKProbe *p, cudaStream_t *streams, int n_streams, const Shape *shape,
            KpStamps *st, const KpOrigin *origin)
{
  int k_count = p->arg[ARG_K];
  double us = p->arg[ARG_KERNEL_US];
  for (int k = 0; k < k_count; k++) {
    unsigned long long *stamps = st ? st->dev + 2 * k : NULL;
    double h0 = kp_now_us ();
    KP_CHECK (p, kp_spin (streams[k % n_streams], us, shape->blocks, THREADS, shape->smem,
                          stamps));
    if (origin)
      kp_event (p, KP_LAUNCH, 0, h0 - origin->host_us, kp_now_us () - h0, -1, -1, 0);
  }
  return MS_K_OK;
}

/* The kernels on the timeline, from their own clock stamps. */
static void
add_kernel_events (MsKProbe *p, int n_streams, KpStamps *st, const KpOrigin *origin)
{
  for (int k = 0; k < p->arg[ARG_K]; k++) {
    unsigned long long s = st->host[2 * k], e = st->host[2 * k + 1];
    double start = kp_stamp_us (origin, s);
    kp_event (p, KP_KERNEL, 1 + k % n_streams, start, 0, start,
              e > s ? (double) (e - s) * 1e-3 : 0, 0);
  }
}

KP_LESSON_SAMPLE (concurrent)
{
  int k_count = p->arg[ARG_K];
  int n_streams = p->arg[ARG_STREAMS] > 1 ? k_count : 1;
  cudaStream_t streams[64];
  Shape shape = { 1, 0 };
  if (k_count < 1 || k_count > 64 || 2 * k_count >= 1024)
    return kp_unsupported (p, "K = %d is outside 1..64", k_count);
  MsKStatus ks = kernel_shape (p, &shape);
  if (ks != MS_K_OK)
    return ks;
  KpStamps *st = p->instrumented ? kp_stamps (p->device) : NULL;
  if (p->instrumented && !st)
    return kp_unsupported (p, "no mapped pinned memory for the kernels' clock stamps");
  int made = 0;
  cudaError_t e = cudaSuccess;
  while (made < n_streams && e == cudaSuccess) {
    e = cudaStreamCreateWithFlags (&streams[made], cudaStreamNonBlocking);
    made += e == cudaSuccess;
  }
  KpOrigin origin;
  if (e == cudaSuccess)
    e = cudaDeviceSynchronize ();
  if (e == cudaSuccess && st)
    e = kp_origin (&origin, streams[0], st, NULL);
  if (e == cudaSuccess) {
    double t0 = kp_now_us ();
    ks = launch_all (p, streams, n_streams, &shape, st, st ? &origin : NULL);
    if (ks == MS_K_OK) {
      e = cudaDeviceSynchronize ();
      p->value_us = kp_now_us () - t0;
      if (e == cudaSuccess && st)
        add_kernel_events (p, n_streams, st, &origin);
    }
  }
  for (int i = 0; i < made; i++)
    cudaStreamDestroy (streams[i]);
  if (ks != MS_K_OK)
    return ks;
  return e == cudaSuccess ? MS_K_OK : kp_fail (p, "the kernels", e);
}
