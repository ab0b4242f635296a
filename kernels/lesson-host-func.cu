/* SPDX-License-Identifier: GPL-3.0-or-later */
/* lesson-host-func.cu: the host-function lesson's sample. (1) How long
 * after the end of a copy or a kernel a host function queued behind it
 * starts, through cudaLaunchHostFunc and cudaStreamAddCallback: the host
 * function reads the host clock, the kernel's end is its own clock stamp
 * and the copy's end an event after it, both placed on the host clock by
 * a handshake with the GPU. (2) A slow host function (a busy wait on the
 * host) and a kernel queued after it on its stream, on another stream, or
 * alone: the host clock from the first call to the end of the kernel. */
#include <string.h>

#include "ms-k-probe.cuh"

/* arg[] of the host-func lesson's sample (engine/lessons/ms-lesson-host-func.c). */
enum { ARG_PART, ARG_API, ARG_AFTER, ARG_SLOW, ARG_HOST_FUNC_US, ARG_KERNEL_US, ARG_COPY_KIB };
enum { PART_LATENCY, PART_SLOW };
enum { API_LAUNCH_HOST_FUNC, API_STREAM_CALLBACK };
enum { AFTER_COPY, AFTER_KERNEL };
enum { SLOW_ALONE, SLOW_NONE, SLOW_SAME, SLOW_OTHER };

/* Stamp slots (kp_stamps): the kernels' from 0, the handshake's after. */
enum { SLOT_KERNEL = 0, SLOT_OTHER = 2, SLOT_CLOCK = 4, SLOT_GO, SLOT_STARTED };

typedef struct {
  double busy_us;           /* how long it holds the stream */
  double start_us, end_us; /* host clock */
} HostFunc;

static void CUDART_CB
host_func (void *data)
{
  HostFunc *f = (HostFunc *) data;
  f->start_us = kp_now_us ();
  double now = f->start_us;
  while (now - f->start_us < f->busy_us)
    now = kp_now_us ();
  f->end_us = now;
}

static void CUDART_CB
stream_callback (cudaStream_t stream, cudaError_t status, void *data)
{
  (void) stream;
  (void) status;
  host_func (data);
}

static cudaError_t
enqueue (cudaStream_t stream, int api, HostFunc *f)
{
  if (api == API_STREAM_CALLBACK)
    return cudaStreamAddCallback (stream, stream_callback, f, 0);
  return cudaLaunchHostFunc (stream, host_func, f);
}

/* Says it started, waits for the host's go and stamps the GPU clock: the
 * stamp is the host's go within the time a mapped write takes to arrive. */
static __global__ void
handshake_kernel (volatile unsigned long long *slots)
{
  slots[SLOT_STARTED] = 1;
  __threadfence_system ();
  while (slots[SLOT_GO] == 0)
    ;
  slots[SLOT_CLOCK] = kp_globaltimer ();
}

/* The GPU clock against the host's (o), and an event ending with the
 * handshake (after: copies' events are counted from it). */
static MsKStatus
clock_handshake (MsKProbe *p, cudaStream_t stream, KpStamps *st, KpOrigin *o, cudaEvent_t after)
{
  volatile unsigned long long *h = st->host;
  h[SLOT_GO] = h[SLOT_STARTED] = 0;
  __sync_synchronize ();
  handshake_kernel<<<1, 1, 0, stream>>> (st->dev);
  cudaError_t e = cudaGetLastError ();
  if (e == cudaSuccess)
    e = cudaEventRecord (after, stream);
  if (e != cudaSuccess) {
    /* Never leave the kernel waiting: the stream would not drain. */
    h[SLOT_GO] = 1;
    cudaStreamSynchronize (stream);
    return kp_fail (p, "the clock handshake", e);
  }
  double t0 = kp_now_us ();
  while (h[SLOT_STARTED] == 0)
    if (kp_now_us () - t0 > 2e6) {
      /* Release it before giving up, so the stream drains. */
      h[SLOT_GO] = 1;
      cudaStreamSynchronize (stream);
      return kp_unsupported (p, "the clock handshake kernel did not start within 2 s");
    }
  o->host_us = kp_now_us ();
  __sync_synchronize ();
  h[SLOT_GO] = 1;
  __sync_synchronize ();
  KP_CHECK (p, cudaStreamSynchronize (stream));
  o->gpu_ns = h[SLOT_CLOCK];
  return MS_K_OK;
}

typedef struct {
  /* Here, not on a step's stack: a function left queued by a failed step
   * still runs until ctx_close synchronises. */
  HostFunc f;
  cudaStream_t a, b;
  cudaEvent_t clock_end, before, after;
  float *host, *dev;
  size_t bytes;
  KpStamps *st;
  KpOrigin origin;
} Ctx;

/* (1): the copy or kernel, the host function behind it, one
 * synchronisation; the latency from the work's end to the function's
 * start. */
static MsKStatus
latency (MsKProbe *p, Ctx *c)
{
  HostFunc *f = &c->f;
  int after = p->arg[ARG_AFTER];
  MsKStatus ks = clock_handshake (p, c->a, c->st, &c->origin, c->clock_end);
  if (ks != MS_K_OK)
    return ks;
  if (after == AFTER_COPY) {
    if (p->instrumented)
      KP_CHECK (p, cudaEventRecord (c->before, c->a));
    KP_CHECK (p, cudaMemcpyAsync (c->dev, c->host, c->bytes, cudaMemcpyHostToDevice, c->a));
    KP_CHECK (p, cudaEventRecord (c->after, c->a));
  } else {
    KP_CHECK (p, kp_spin (c->a, p->arg[ARG_KERNEL_US], 1, 64, 0, c->st->dev + SLOT_KERNEL));
  }
  KP_CHECK (p, enqueue (c->a, p->arg[ARG_API], f));
  KP_CHECK (p, cudaStreamSynchronize (c->a));
  double start_us = -1, end_us = -1;
  if (after == AFTER_COPY) {
    float ms = 0, ms0 = 0;
    KP_CHECK (p, cudaEventElapsedTime (&ms, c->clock_end, c->after));
    end_us = ms * 1e3;
    if (p->instrumented) {
      KP_CHECK (p, cudaEventElapsedTime (&ms0, c->clock_end, c->before));
      start_us = ms0 * 1e3;
    }
  } else {
    start_us = kp_stamp_us (&c->origin, c->st->host[SLOT_KERNEL]);
    end_us = kp_stamp_us (&c->origin, c->st->host[SLOT_KERNEL + 1]);
  }
  double hf_us = f->start_us - c->origin.host_us;
  p->value_us = hf_us - end_us;
  if (p->instrumented) {
    kp_event (p, after == AFTER_COPY ? KP_H2D : KP_KERNEL, 1, -1, 0, start_us, end_us - start_us,
              after == AFTER_COPY ? c->bytes : 0);
    kp_event (p, KP_HOST_FUNC, 2, -1, 0, hf_us, f->end_us - f->start_us, 0);
  }
  return MS_K_OK;
}

/* (2): a slow host function on stream a and a kernel after it on a or b
 * (or either alone); the host clock from the first call to the kernel's
 * end (or the function's, alone). */
static MsKStatus
slow (MsKProbe *p, Ctx *c)
{
  int how = p->arg[ARG_SLOW];
  HostFunc *f = &c->f;
  f->busy_us = p->arg[ARG_HOST_FUNC_US];
  double us = p->arg[ARG_KERNEL_US];
  cudaStream_t ks_stream = how == SLOW_OTHER ? c->b : c->a;
  unsigned long long *stamps = p->instrumented ? c->st->dev + SLOT_KERNEL : NULL;
  if (p->instrumented) {
    MsKStatus ks = clock_handshake (p, c->a, c->st, &c->origin, c->clock_end);
    if (ks != MS_K_OK)
      return ks;
  }
  double t0 = kp_now_us ();
  if (how != SLOW_NONE)
    KP_CHECK (p, enqueue (c->a, API_LAUNCH_HOST_FUNC, f));
  if (how != SLOW_ALONE)
    KP_CHECK (p, kp_spin (ks_stream, us, 1, 64, 0, stamps));
  KP_CHECK (p, cudaStreamSynchronize (how == SLOW_ALONE ? c->a : ks_stream));
  p->value_us = kp_now_us () - t0;
  KP_CHECK (p, cudaDeviceSynchronize ());
  if (p->instrumented) {
    double o = c->origin.host_us;
    if (how != SLOW_NONE)
      kp_event (p, KP_HOST_FUNC, 3, -1, 0, f->start_us - o, f->end_us - f->start_us, 0);
    if (how != SLOW_ALONE) {
      unsigned long long s = c->st->host[SLOT_KERNEL], e = c->st->host[SLOT_KERNEL + 1];
      kp_event (p, KP_KERNEL, how == SLOW_OTHER ? 2 : 1, -1, 0, kp_stamp_us (&c->origin, s),
                e > s ? (double) (e - s) * 1e-3 : 0, 0);
    }
  }
  return MS_K_OK;
}

static cudaError_t
ctx_open (Ctx *c, size_t bytes)
{
  c->bytes = bytes;
  cudaError_t e = cudaStreamCreateWithFlags (&c->a, cudaStreamNonBlocking);
  if (e == cudaSuccess)
    e = cudaStreamCreateWithFlags (&c->b, cudaStreamNonBlocking);
  if (e == cudaSuccess)
    e = cudaEventCreate (&c->clock_end);
  if (e == cudaSuccess)
    e = cudaEventCreate (&c->before);
  if (e == cudaSuccess)
    e = cudaEventCreate (&c->after);
  if (e == cudaSuccess && bytes)
    e = cudaMallocHost ((void **) &c->host, bytes);
  if (e == cudaSuccess && bytes)
    e = cudaMalloc ((void **) &c->dev, bytes);
  if (e == cudaSuccess && bytes)
    memset (c->host, 1, bytes);
  if (e == cudaSuccess)
    e = cudaDeviceSynchronize ();
  return e;
}

static void
ctx_close (Ctx *c)
{
  cudaDeviceSynchronize ();
  if (c->dev)
    cudaFree (c->dev);
  if (c->host)
    cudaFreeHost (c->host);
  cudaEvent_t ev[] = { c->clock_end, c->before, c->after };
  for (int i = 0; i < 3; i++)
    if (ev[i])
      cudaEventDestroy (ev[i]);
  if (c->b)
    cudaStreamDestroy (c->b);
  if (c->a)
    cudaStreamDestroy (c->a);
}

KP_LESSON_SAMPLE (host_func)
{
  Ctx c;
  memset (&c, 0, sizeof c);
  bool lat = p->arg[ARG_PART] == PART_LATENCY;
  c.st = kp_stamps (p->device);
  if ((lat || p->instrumented) && !c.st)
    return kp_unsupported (p, "no mapped pinned memory for the clock stamps");
  size_t bytes = lat && p->arg[ARG_AFTER] == AFTER_COPY ? (size_t) p->arg[ARG_COPY_KIB] * 1024 : 0;
  cudaError_t e = ctx_open (&c, bytes);
  MsKStatus ks = e == cudaSuccess ? (lat ? latency (p, &c) : slow (p, &c))
                                  : kp_fail (p, "the streams and buffers", e);
  ctx_close (&c);
  return ks;
}
