/* SPDX-License-Identifier: GPL-3.0-or-later */
/* lesson-intensity.cu: the intensity lesson's sample. At R = 1 a kernel
 * does F dependent FMAs per element of a and b and writes c: zero-copy
 * reads a and b from mapped pinned host memory and writes c there; pinned
 * copies a and b in, runs the kernel and copies c out. The figure is the
 * host clock around the work and one synchronisation; buffers are made
 * and filled before it and freed after. */
#include <string.h>

#include "ms-k-probe.cuh"

/* arg[] of the intensity lesson's sample (engine/lessons/ms-lesson-intensity.c). */
enum { ARG_FMA, ARG_ZERO_COPY };

#define THREADS 256

/* c[i] = F dependent FMAs starting from a[i], each on the last result. */
__global__ void
ki_fma_kernel (const float *a, const float *b, float *c, size_t n, int fma)
{
  for (size_t i = blockIdx.x * (size_t) blockDim.x + threadIdx.x; i < n;
       i += (size_t) gridDim.x * blockDim.x) {
    float x = a[i], y = b[i];
    for (int k = 0; k < fma; k++)
      x = fmaf (x, y, 0.5f);
    c[i] = x;
  }
}

typedef struct {
  float *host[3]; /* a, b, c: pinned, mapped for zero-copy */
  float *dev[3];  /* what the kernel reads and writes */
  bool own_dev;   /* dev[] are device buffers (pinned) */
} Buffers;

static void
free_buffers (Buffers *b)
{
  for (int i = 0; i < 3; i++) {
    if (b->host[i])
      cudaFreeHost (b->host[i]);
    if (b->own_dev && b->dev[i])
      cudaFree (b->dev[i]);
  }
}

static MsKStatus
make_buffers (MsKProbe *p, Buffers *b, bool zero_copy)
{
  size_t n = p->bytes / sizeof (float);
  int can_map = 0;
  KP_CHECK (p, cudaDeviceGetAttribute (&can_map, cudaDevAttrCanMapHostMemory, p->device));
  if (zero_copy && !can_map)
    return kp_unsupported (p, "the device cannot map host memory (canMapHostMemory = 0)");
  b->own_dev = !zero_copy;
  for (int i = 0; i < 3; i++) {
    KP_CHECK (p, cudaHostAlloc ((void **) &b->host[i], p->bytes,
                                zero_copy ? cudaHostAllocMapped : cudaHostAllocDefault));
    if (zero_copy)
      KP_CHECK (p, cudaHostGetDevicePointer ((void **) &b->dev[i], b->host[i], 0));
    else
      KP_CHECK (p, cudaMalloc ((void **) &b->dev[i], p->bytes));
  }
  for (size_t i = 0; i < n; i++) {
    b->host[0][i] = (float) (i % 1000) * 1e-3f;
    b->host[1][i] = 0.5f;
  }
  return MS_K_OK;
}

static unsigned
grid_for (MsKProbe *p, size_t n)
{
  int sms = 0;
  if (cudaDeviceGetAttribute (&sms, cudaDevAttrMultiProcessorCount, p->device) != cudaSuccess)
    sms = 1;
  size_t blocks = (n + THREADS - 1) / THREADS, most = (size_t) sms * 32;
  return (unsigned) (blocks < most ? blocks : most);
}

/* The work: zero-copy is one kernel; pinned is H2D a, b, the kernel, D2H c.
 * ev: NULL (plain), or 5 events around the steps (instrumented). */
static cudaError_t
issue (MsKProbe *p, const Buffers *b, cudaStream_t s, cudaEvent_t *ev)
{
  size_t n = p->bytes / sizeof (float);
  cudaError_t e = cudaSuccess;
  if (ev)
    e = cudaEventRecord (ev[0], s);
  if (b->own_dev) {
    if (e == cudaSuccess)
      e = cudaMemcpyAsync (b->dev[0], b->host[0], p->bytes, cudaMemcpyHostToDevice, s);
    if (e == cudaSuccess)
      e = cudaMemcpyAsync (b->dev[1], b->host[1], p->bytes, cudaMemcpyHostToDevice, s);
  }
  if (e == cudaSuccess && ev)
    e = cudaEventRecord (ev[1], s);
  if (e == cudaSuccess) {
    ki_fma_kernel<<<grid_for (p, n), THREADS, 0, s>>> (b->dev[0], b->dev[1], b->dev[2], n,
                                                       p->arg[ARG_FMA]);
    e = cudaGetLastError ();
  }
  if (e == cudaSuccess && ev)
    e = cudaEventRecord (ev[2], s);
  if (e == cudaSuccess && b->own_dev)
    e = cudaMemcpyAsync (b->host[2], b->dev[2], p->bytes, cudaMemcpyDeviceToHost, s);
  if (e == cudaSuccess && ev)
    e = cudaEventRecord (ev[3], s);
  return e;
}

/* The steps on the timeline from the events (stream lane 1). */
static void
add_events (MsKProbe *p, bool pinned, cudaEvent_t *ev, double host_launch_us)
{
  float t[4] = { 0 };
  for (int i = 1; i < 4; i++)
    if (cudaEventElapsedTime (&t[i], ev[0], ev[i]) != cudaSuccess)
      return;
  kp_event (p, KP_LAUNCH, 0, 0, host_launch_us, -1, 0, 0);
  if (pinned)
    kp_event (p, KP_H2D, 1, -1, 0, 0, t[1] * 1e3, 2 * p->bytes);
  kp_event (p, KP_KERNEL, 1, -1, 0, t[1] * 1e3, (t[2] - t[1]) * 1e3,
            pinned ? 0 : 3 * p->bytes);
  if (pinned)
    kp_event (p, KP_D2H, 1, -1, 0, t[2] * 1e3, (t[3] - t[2]) * 1e3, p->bytes);
}

KP_LESSON_SAMPLE (intensity)
{
  bool zero_copy = p->arg[ARG_ZERO_COPY] != 0;
  if (p->arg[ARG_FMA] < 1 || p->bytes < sizeof (float))
    return kp_unsupported (p, "F = %d or %llu bytes is out of range", p->arg[ARG_FMA],
                           (unsigned long long) p->bytes);
  Buffers b;
  memset (&b, 0, sizeof b);
  cudaStream_t s = NULL;
  cudaEvent_t ev[4] = { NULL };
  int n_ev = 0;
  MsKStatus ks = make_buffers (p, &b, zero_copy);
  cudaError_t e = cudaSuccess;
  if (ks == MS_K_OK)
    e = cudaStreamCreateWithFlags (&s, cudaStreamNonBlocking);
  while (ks == MS_K_OK && e == cudaSuccess && p->instrumented && n_ev < 4) {
    e = cudaEventCreate (&ev[n_ev]);
    n_ev += e == cudaSuccess;
  }
  if (ks == MS_K_OK && e == cudaSuccess)
    e = cudaDeviceSynchronize ();
  if (ks == MS_K_OK && e == cudaSuccess) {
    double t0 = kp_now_us ();
    e = issue (p, &b, s, p->instrumented ? ev : NULL);
    double launched = kp_now_us () - t0;
    if (e == cudaSuccess)
      e = cudaStreamSynchronize (s);
    p->value_us = kp_now_us () - t0;
    if (e == cudaSuccess && p->instrumented)
      add_events (p, !zero_copy, ev, launched);
  }
  for (int i = 0; i < n_ev; i++)
    cudaEventDestroy (ev[i]);
  if (s)
    cudaStreamDestroy (s);
  free_buffers (&b);
  if (ks != MS_K_OK)
    return ks;
  return e == cudaSuccess ? MS_K_OK : kp_fail (p, "the work", e);
}
