/* SPDX-License-Identifier: GPL-3.0-or-later */
/* lesson-sync-async.cu: the synchronous-and-asynchronous-copies lesson's
 * sample. A kernel of fixed duration is queued, then one copy on the same
 * stream (cudaMemcpy: the legacy default stream; cudaMemcpyAsync: a stream
 * of its own); the host clock gives the copy call's own time and the time
 * from the call's start until the stream is synchronised. Buffers are
 * made and touched before, and freed after, the timed part. */
#include <stdlib.h>
#include <string.h>

#include "ms-k-probe.cuh"

/* arg[] of the sync-async lesson's sample (engine/lessons/ms-lesson-sync-async.h). */
enum { ARG_API, ARG_DIR, ARG_WHAT, ARG_AHEAD_US, ARG_BLOCKING };
enum { API_MEMCPY, API_ASYNC };
enum { DIR_H2D, DIR_D2H };
enum { WHAT_CALL, WHAT_DONE };
/* MsMode's numbers (checked in engine/run/ms-backend.c). */

/* The most a copy may take of the host and the device: kept far below
 * either (the lesson's sizes are 4 MiB by default, 64 MiB at most). */
#define MAX_BYTES (64ull << 20)

typedef struct {
  void *host, *dev;
  bool pinned;
  cudaStream_t stream; /* 0: the legacy default stream */
} Buffers;

static void
buffers_free (Buffers *b)
{
  if (b->pinned)
    cudaFreeHost (b->host);
  else
    free (b->host);
  cudaFree (b->dev);
  if (b->stream)
    cudaStreamDestroy (b->stream);
}

static MsKStatus
buffers_make (MsKProbe *p, Buffers *b)
{
  b->pinned = p->mode == MS_K_MODE_PINNED;
  if (b->pinned)
    KP_CHECK (p, cudaMallocHost (&b->host, p->bytes));
  else if (!(b->host = malloc (p->bytes)))
    return kp_unsupported (p, "no %llu bytes of host memory", (unsigned long long) p->bytes);
  /* Touched, so that no first-touch page fault lands in the copy. */
  memset (b->host, 0x5a, p->bytes);
  KP_CHECK (p, cudaMalloc (&b->dev, p->bytes));
  KP_CHECK (p, cudaMemset (b->dev, 0x3c, p->bytes));
  if (p->arg[ARG_API] == API_ASYNC)
    KP_CHECK (p, cudaStreamCreate (&b->stream));
  KP_CHECK (p, cudaDeviceSynchronize ());
  return MS_K_OK;
}

/* The kernel ahead, the copy call, the synchronisation. */
static MsKStatus
timed (MsKProbe *p, Buffers *b)
{
  bool h2d = p->arg[ARG_DIR] == DIR_H2D;
  void *dst = h2d ? b->dev : b->host;
  const void *src = h2d ? b->host : b->dev;
  cudaMemcpyKind kind = h2d ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost;
  double t0 = kp_now_us ();
  KP_CHECK (p, kp_spin (b->stream, p->arg[ARG_AHEAD_US], 1, 32, 0, NULL));
  double t1 = kp_now_us ();
  if (p->arg[ARG_API] == API_ASYNC)
    KP_CHECK (p, cudaMemcpyAsync (dst, src, p->bytes, kind, b->stream));
  else
    KP_CHECK (p, cudaMemcpy (dst, src, p->bytes, kind));
  double t2 = kp_now_us ();
  KP_CHECK (p, cudaStreamSynchronize (b->stream));
  double t3 = kp_now_us ();
  p->value_us = p->arg[ARG_WHAT] == WHAT_CALL ? t2 - t1 : t3 - t1;
  if (p->instrumented) {
    /* Host clock only: the launch, the call, the wait. */
    kp_event (p, KP_LAUNCH, 0, 0, t1 - t0, -1, -1, 0);
    kp_event (p, KP_CALL, 0, t1 - t0, t2 - t1, -1, -1, p->bytes);
    kp_event (p, KP_CALL, 0, t2 - t0, t3 - t2, -1, -1, 0);
  }
  return MS_K_OK;
}

KP_LESSON_SAMPLE (sync_async)
{
  const char *env = getenv ("CUDA_LAUNCH_BLOCKING");
  bool blocking = env && strcmp (env, "1") == 0;
  if (blocking != (p->arg[ARG_BLOCKING] != 0))
    return kp_unsupported (p, p->arg[ARG_BLOCKING]
                                ? "this part needs CUDA_LAUNCH_BLOCKING=1 set before the CUDA "
                                  "context exists (a fresh process)"
                                : "CUDA_LAUNCH_BLOCKING=1 is set in this process");
  if (p->mode != MS_K_MODE_PAGEABLE && p->mode != MS_K_MODE_PINNED)
    return kp_unsupported (p, "memory kind %d is neither pageable nor pinned", p->mode);
  if (p->bytes == 0 || p->bytes > MAX_BYTES)
    return kp_unsupported (p, "a copy of %llu bytes is outside 1 B..64 MiB",
                           (unsigned long long) p->bytes);
  Buffers b;
  memset (&b, 0, sizeof b);
  MsKStatus ks = buffers_make (p, &b);
  if (ks == MS_K_OK)
    ks = timed (p, &b);
  buffers_free (&b);
  return ks;
}
