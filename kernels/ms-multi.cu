/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-multi.cu: peer copies and portable pinned memory across GPUs. Each
 * measurement sets up its own buffers, streams and events and frees them,
 * so the experiments are independent of the sweep's cell machinery. */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ms-k-multi.h"
#include "ms-k-stats.h"
#include "ms-k-timing.cuh"

/* dst[i] = src[i] with src in the peer's memory: the reads cross the link. */
__global__ void
k_peer_read (float4 *__restrict__ dst, const float4 *__restrict__ src, size_t n4)
{
  for (size_t i = blockIdx.x * (size_t) blockDim.x + threadIdx.x; i < n4;
       i += (size_t) gridDim.x * blockDim.x)
    dst[i] = src[i];
}

int
ms_k_peer_can_access (int a, int b, char *err, size_t errlen)
{
  int can = 0;
  K_TRY (cudaDeviceCanAccessPeer (&can, a, b));
  return can;
out:
  return -1;
}

/* Turns a's access to b's memory on or off; "already so" is fine. */
static cudaError_t
k_set_peer (int a, int b, bool on)
{
  cudaError_t e = cudaSetDevice (a);
  if (e != cudaSuccess)
    return e;
  e = on ? cudaDeviceEnablePeerAccess (b, 0) : cudaDeviceDisablePeerAccess (b);
  if (e == cudaErrorPeerAccessAlreadyEnabled || e == cudaErrorPeerAccessNotEnabled) {
    cudaGetLastError (); /* clear the sticky-looking but harmless error */
    e = cudaSuccess;
  }
  return e;
}

/* One side of a peer experiment: a device, its buffers, stream and events. */
typedef struct {
  int dev;
  float *in, *out; /* in: read by the peer; out: written by copies here */
  cudaStream_t stream;
  cudaStream_t landing; /* staging: the h2d into this side, so that it does
                         * not queue behind this side's own d2h */
  cudaEvent_t e0, e1;
  cudaEvent_t staged, landed; /* staging: d2h done here, h2d done here */
} KSide;

static cudaError_t
k_side_open (KSide *s, int dev, uint64_t bytes)
{
  memset (s, 0, sizeof *s);
  s->dev = dev;
  cudaError_t e = cudaSetDevice (dev);
  if (e == cudaSuccess)
    e = cudaMalloc (&s->in, bytes);
  if (e == cudaSuccess)
    e = cudaMalloc (&s->out, bytes);
  if (e == cudaSuccess)
    e = cudaMemset (s->in, 0x3f, bytes); /* 0.74..., not zeros */
  if (e == cudaSuccess)
    e = cudaStreamCreateWithFlags (&s->stream, cudaStreamNonBlocking);
  if (e == cudaSuccess)
    e = cudaStreamCreateWithFlags (&s->landing, cudaStreamNonBlocking);
  if (e == cudaSuccess)
    e = cudaEventCreate (&s->e0);
  if (e == cudaSuccess)
    e = cudaEventCreate (&s->e1);
  if (e == cudaSuccess)
    e = cudaEventCreateWithFlags (&s->staged, cudaEventDisableTiming);
  if (e == cudaSuccess)
    e = cudaEventCreateWithFlags (&s->landed, cudaEventDisableTiming);
  if (e == cudaSuccess)
    e = cudaDeviceSynchronize ();
  return e;
}

static void
k_side_close (KSide *s)
{
  if (cudaSetDevice (s->dev) != cudaSuccess)
    return;
  if (s->e0) cudaEventDestroy (s->e0);
  if (s->e1) cudaEventDestroy (s->e1);
  if (s->staged) cudaEventDestroy (s->staged);
  if (s->landed) cudaEventDestroy (s->landed);
  if (s->stream) cudaStreamDestroy (s->stream);
  if (s->landing) cudaStreamDestroy (s->landing);
  if (s->in) cudaFree (s->in);
  if (s->out) cudaFree (s->out);
}

/* Through pinned host memory: d2h on the source's stream, h2d on the
 * destination's landing stream once that is done, and the source's stream
 * (which issued the move) waits for the landing. Both ways at once use
 * four streams, so neither direction queues behind the other. Leaves the
 * source current. */
static cudaError_t
k_staged (KSide *from, KSide *to, uint64_t bytes, float *staging)
{
  cudaError_t e = cudaSetDevice (from->dev);
  if (e == cudaSuccess)
    e = cudaMemcpyAsync (staging, from->in, bytes, cudaMemcpyDeviceToHost, from->stream);
  if (e == cudaSuccess)
    e = cudaEventRecord (from->staged, from->stream);
  if (e == cudaSuccess)
    e = cudaSetDevice (to->dev);
  if (e == cudaSuccess)
    e = cudaStreamWaitEvent (to->landing, from->staged, 0);
  if (e == cudaSuccess)
    e = cudaMemcpyAsync (to->out, staging, bytes, cudaMemcpyHostToDevice, to->landing);
  if (e == cudaSuccess)
    e = cudaEventRecord (to->landed, to->landing);
  if (e == cudaSuccess)
    e = cudaSetDevice (from->dev);
  if (e == cudaSuccess)
    e = cudaStreamWaitEvent (from->stream, to->landed, 0);
  return e;
}

/* Moves `from`'s in-buffer into `to`'s out-buffer, issued on `st` (the
 * source's stream for copies, the destination's for the reading kernel,
 * whose device is current). */
static cudaError_t
k_move (int method, KSide *from, KSide *to, uint64_t bytes, float *staging, cudaStream_t st)
{
  switch (method) {
  case MS_K_PEER_COPY_ENABLED:
  case MS_K_PEER_COPY_DISABLED:
    return cudaMemcpyPeerAsync (to->out, to->dev, from->in, from->dev, bytes, st);
  case MS_K_PEER_KERNEL_READ: {
    size_t n4 = bytes / sizeof (float4);
    k_peer_read<<<1024, 512, 0, st>>> ((float4 *) to->out, (const float4 *) from->in, n4);
    return cudaGetLastError ();
  }
  case MS_K_PEER_STAGED:
  default:
    return k_staged (from, to, bytes, staging);
  }
}

/* One sample: from -> to (and to -> from at the same time when bidir),
 * timed on the stream that issues the first direction. */
static cudaError_t
k_peer_sample (int method, KSide *from, KSide *to, uint64_t bytes, bool bidir,
               float **staging, double *us)
{
  bool kernel = method == MS_K_PEER_KERNEL_READ;
  KSide *i = kernel ? to : from, *j = kernel ? from : to; /* who issues each way */
  float ms = 0;
  cudaError_t e = cudaSetDevice (i->dev);
  if (e == cudaSuccess)
    e = cudaEventRecord (i->e0, i->stream);
  if (e == cudaSuccess && bidir) {
    e = cudaSetDevice (j->dev);
    if (e == cudaSuccess)
      e = cudaStreamWaitEvent (j->stream, i->e0, 0);
    if (e == cudaSuccess)
      e = k_move (method, to, from, bytes, staging[1], j->stream);
    if (e == cudaSuccess)
      e = cudaEventRecord (j->e1, j->stream);
    if (e == cudaSuccess)
      e = cudaSetDevice (i->dev);
  }
  if (e == cudaSuccess)
    e = k_move (method, from, to, bytes, staging[0], i->stream);
  if (e == cudaSuccess && bidir)
    e = cudaStreamWaitEvent (i->stream, j->e1, 0);
  if (e == cudaSuccess)
    e = cudaEventRecord (i->e1, i->stream);
  if (e == cudaSuccess)
    e = cudaEventSynchronize (i->e1);
  if (e == cudaSuccess)
    e = cudaEventElapsedTime (&ms, i->e0, i->e1);
  *us = ms * 1e3;
  return e;
}

double
ms_k_peer_gbps (int method, int src, int dst, uint64_t bytes, int bidirectional, int reps,
                char *err, size_t errlen)
{
  KSide a = {}, b = {};
  float *staging[2] = { NULL, NULL };
  double *t = (double *) calloc (reps > 0 ? reps : 1, sizeof (double)), result = 0;
  bool peer_on = method != MS_K_PEER_COPY_DISABLED && method != MS_K_PEER_STAGED;
  bytes -= bytes % sizeof (float4);
  if (!t || reps < 1) {
    snprintf (err, errlen, "bad arguments or out of memory");
    free (t);
    return 0;
  }
  K_TRY (k_side_open (&a, src, bytes));
  K_TRY (k_side_open (&b, dst, bytes));
  /* Both ways, since a bidirectional run reads in both directions. */
  K_TRY (k_set_peer (src, dst, peer_on));
  K_TRY (k_set_peer (dst, src, peer_on));
  if (method == MS_K_PEER_STAGED) {
    K_TRY (cudaHostAlloc (&staging[0], bytes, cudaHostAllocPortable));
    K_TRY (cudaHostAlloc (&staging[1], bytes, cudaHostAllocPortable));
  }
  for (int s = -1; s < reps; s++) {
    double us = 0;
    K_TRY (k_peer_sample (method, &a, &b, bytes, bidirectional != 0, staging, &us));
    if (s >= 0)
      t[s] = us;
  }
  result = (bidirectional ? 2.0 : 1.0) * bytes / (k_median (t, reps) * 1e3);
out:
  k_side_close (&a);
  k_side_close (&b);
  if (staging[0]) cudaFreeHost (staging[0]);
  if (staging[1]) cudaFreeHost (staging[1]);
  free (t);
  return result;
}

double
ms_k_peer_reference_gbps (int src, int dst, uint64_t bytes, int reps, char *err, size_t errlen)
{
  enum { COPIES = 10 };
  float *s_buf = NULL, *d_buf = NULL;
  cudaStream_t st = NULL;
  cudaEvent_t e0 = NULL, e1 = NULL;
  double *t = (double *) calloc (reps > 0 ? reps : 1, sizeof (double)), result = 0;
  if (!t || reps < 1) {
    snprintf (err, errlen, "bad arguments or out of memory");
    free (t);
    return 0;
  }
  K_TRY (cudaSetDevice (dst));
  K_TRY (cudaMalloc (&d_buf, bytes));
  K_TRY (k_set_peer (dst, src, true));
  K_TRY (cudaSetDevice (src));
  K_TRY (k_set_peer (src, dst, true));
  K_TRY (cudaMalloc (&s_buf, bytes));
  K_TRY (cudaStreamCreateWithFlags (&st, cudaStreamNonBlocking));
  K_TRY (cudaEventCreate (&e0));
  K_TRY (cudaEventCreate (&e1));
  for (int s = -1; s < reps; s++) {
    float ms = 0;
    K_TRY (cudaEventRecord (e0, st));
    for (int k = 0; k < COPIES; k++)
      K_TRY (cudaMemcpyPeerAsync (d_buf, dst, s_buf, src, bytes, st));
    K_TRY (cudaEventRecord (e1, st));
    K_TRY (cudaEventSynchronize (e1));
    K_TRY (cudaEventElapsedTime (&ms, e0, e1));
    if (s >= 0)
      t[s] = ms * 1e3 / COPIES;
  }
  result = bytes / (k_median (t, reps) * 1e3);
out:
  cudaSetDevice (src);
  if (e0) cudaEventDestroy (e0);
  if (e1) cudaEventDestroy (e1);
  if (st) cudaStreamDestroy (st);
  if (s_buf) cudaFree (s_buf);
  cudaSetDevice (dst);
  if (d_buf) cudaFree (d_buf);
  free (t);
  return result;
}

/* Median GB/s of single copies of bytes on stream between e0 and e1. */
static cudaError_t
k_copy_gbps (void *dst, const void *src, uint64_t bytes, cudaMemcpyKind kind, int reps,
             cudaStream_t st, cudaEvent_t e0, cudaEvent_t e1, double *t, double *gbps)
{
  cudaError_t e = cudaSuccess;
  for (int s = -1; s < reps && e == cudaSuccess; s++) {
    double us = 0;
    e = k_copy_burst (dst, src, bytes, kind, 1, st, e0, e1, &us);
    if (s >= 0)
      t[s] = us;
  }
  *gbps = e == cudaSuccess ? bytes / (k_median (t, reps) * 1e3) : 0;
  return e;
}

int
ms_k_portable_gbps (int kind, int owner, int device, uint64_t bytes, int reps,
                    double *h2d_gbps, double *d2h_gbps, int *pinned, char *note, size_t notelen)
{
  char *err = note;
  size_t errlen = notelen;
  float *host = NULL, *dev = NULL;
  cudaStream_t st = NULL;
  cudaEvent_t e0 = NULL, e1 = NULL;
  cudaPointerAttributes attr;
  double *t = (double *) calloc (reps > 0 ? reps : 1, sizeof (double));
  int ok = 0;
  *h2d_gbps = *d2h_gbps = 0;
  *pinned = 0;
  note[0] = '\0';
  if (!t || reps < 1) {
    snprintf (err, errlen, "bad arguments or out of memory");
    free (t);
    return 0;
  }
  /* The buffer is made on its owner: the device itself per device, the
   * first device for the shared and the foreign one. */
  K_TRY (cudaSetDevice (kind == MS_K_PORTABLE_PER_DEVICE ? device : owner));
  K_TRY (cudaHostAlloc (&host, bytes,
                          kind == MS_K_PORTABLE_SHARED ? cudaHostAllocPortable
                                                       : cudaHostAllocDefault));
  memset (host, 0x3f, bytes);
  K_TRY (cudaSetDevice (device));
  K_TRY (cudaPointerGetAttributes (&attr, host));
  *pinned = attr.type == cudaMemoryTypeHost;
  snprintf (note, notelen, "seen from device %d as %s memory", device,
            attr.type == cudaMemoryTypeHost ? "pinned host"
            : attr.type == cudaMemoryTypeUnregistered ? "unregistered (pageable)" : "other");
  K_TRY (cudaMalloc (&dev, bytes));
  K_TRY (cudaStreamCreateWithFlags (&st, cudaStreamNonBlocking));
  K_TRY (cudaEventCreate (&e0));
  K_TRY (cudaEventCreate (&e1));
  K_TRY (k_copy_gbps (dev, host, bytes, cudaMemcpyHostToDevice, reps, st, e0, e1, t,
                        h2d_gbps));
  K_TRY (k_copy_gbps (host, dev, bytes, cudaMemcpyDeviceToHost, reps, st, e0, e1, t,
                        d2h_gbps));
  ok = 1;
out:
  cudaSetDevice (device);
  if (e0) cudaEventDestroy (e0);
  if (e1) cudaEventDestroy (e1);
  if (st) cudaStreamDestroy (st);
  if (dev) cudaFree (dev);
  if (host) cudaFreeHost (host);
  free (t);
  return ok;
}
