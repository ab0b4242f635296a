/* SPDX-License-Identifier: GPL-3.0-or-later */
/* lesson-implicit-sync.cu: the implicit-synchronisation lesson's sample.
 * Two streams each get a kernel of fixed duration; between the two
 * launches the host issues one operation. The figure is the host clock
 * from the first launch to the end of both kernels (one
 * cudaDeviceSynchronize): about one kernel's time when the kernels ran
 * together, about two when the operation made the second wait for the
 * first. Buffers the operation needs are made before that window and
 * freed after it. */
#include <stdlib.h>
#include <string.h>

#include "ms-k-probe.cuh"

/* arg[] of the implicit-sync lesson's sample
 * (engine/lessons/ms-lesson-implicit-sync.c). */
enum { ARG_OP, ARG_NON_BLOCKING, ARG_KERNEL_US, ARG_KIB, ARG_DEFAULT_QUEUES };
enum {
  OP_ALONE, /* one kernel only: the duration the others are counted in */
  OP_NONE,
  OP_MALLOC,
  OP_FREE,
  OP_MALLOC_ASYNC, /* from the device's default pool, on a third stream */
  OP_FREE_ASYNC,   /* the same */
  OP_MALLOC_HOST,
  OP_FREE_HOST,
  OP_REGISTER,
  OP_MEMSET,
  OP_MEMSET_ASYNC, /* on a third stream of the same kind */
  OP_MEMCPY_D2D,
  OP_KERNEL_LEGACY,
  OP_KERNEL_PER_THREAD,
  OP_EVENT_RECORD, /* on the first kernel's stream */
  OP_COUNT
};

#define THREADS 64

typedef struct {
  cudaStream_t stream[3];
  int n_streams;
  void *dev_a, *dev_b;  /* memset's target; the copy's destination and source */
  void *dev_old;        /* allocated before the window, freed in it */
  void *pinned_old;     /* the same for cudaFreeHost */
  void *plain;          /* malloc'd and written, for cudaHostRegister */
  void *dev_new, *pinned_new; /* allocated in the window, freed after it */
  cudaEvent_t event;
  bool have_event;
} Setup;

static cudaError_t
setup_make (Setup *s, int op, bool non_blocking, size_t bytes)
{
  cudaError_t e = cudaSuccess;
  bool third = op == OP_MEMSET_ASYNC || op == OP_MALLOC_ASYNC || op == OP_FREE_ASYNC;
  int want = third ? 3 : 2;
  unsigned flags = non_blocking ? cudaStreamNonBlocking : cudaStreamDefault;
  while (s->n_streams < want && e == cudaSuccess) {
    e = cudaStreamCreateWithFlags (&s->stream[s->n_streams], flags);
    s->n_streams += e == cudaSuccess;
  }
  if (e == cudaSuccess && (op == OP_MEMSET || op == OP_MEMSET_ASYNC || op == OP_MEMCPY_D2D))
    e = cudaMalloc (&s->dev_a, bytes);
  if (e == cudaSuccess && op == OP_MEMCPY_D2D)
    e = cudaMalloc (&s->dev_b, bytes);
  if (e == cudaSuccess && op == OP_MEMCPY_D2D)
    e = cudaMemset (s->dev_b, 7, bytes);
  if (e == cudaSuccess && op == OP_FREE)
    e = cudaMalloc (&s->dev_old, bytes);
  /* Stream-ordered, and done before the window: freed in it. */
  if (e == cudaSuccess && op == OP_FREE_ASYNC)
    e = cudaMallocAsync (&s->dev_old, bytes, s->stream[2]);
  if (e == cudaSuccess && op == OP_FREE_ASYNC)
    e = cudaStreamSynchronize (s->stream[2]);
  if (e == cudaSuccess && op == OP_FREE_HOST)
    e = cudaMallocHost (&s->pinned_old, bytes);
  if (e == cudaSuccess && op == OP_EVENT_RECORD) {
    e = cudaEventCreate (&s->event);
    s->have_event = e == cudaSuccess;
  }
  if (e == cudaSuccess && op == OP_REGISTER) {
    s->plain = malloc (bytes);
    if (!s->plain)
      return cudaErrorMemoryAllocation;
    memset (s->plain, 1, bytes); /* backed pages, not first-touch faults */
  }
  return e;
}

static void
setup_free (Setup *s)
{
  void *dev[] = { s->dev_a, s->dev_b, s->dev_old, s->dev_new };
  for (unsigned i = 0; i < sizeof dev / sizeof dev[0]; i++)
    if (dev[i])
      cudaFree (dev[i]);
  if (s->pinned_old)
    cudaFreeHost (s->pinned_old);
  if (s->pinned_new)
    cudaFreeHost (s->pinned_new);
  free (s->plain);
  if (s->have_event)
    cudaEventDestroy (s->event);
  for (int i = 0; i < s->n_streams; i++)
    cudaStreamDestroy (s->stream[i]);
}

/* The operation under study; stamps (may be NULL) for its kernel. */
static cudaError_t
run_op (Setup *s, int op, size_t bytes, unsigned long long *stamps)
{
  cudaError_t e;
  switch (op) {
  case OP_MALLOC: return cudaMalloc (&s->dev_new, bytes);
  case OP_FREE:
    e = cudaFree (s->dev_old);
    s->dev_old = NULL;
    return e;
  case OP_MALLOC_ASYNC: return cudaMallocAsync (&s->dev_new, bytes, s->stream[2]);
  case OP_FREE_ASYNC:
    e = cudaFreeAsync (s->dev_old, s->stream[2]);
    s->dev_old = NULL;
    return e;
  case OP_MALLOC_HOST: return cudaMallocHost (&s->pinned_new, bytes);
  case OP_FREE_HOST:
    e = cudaFreeHost (s->pinned_old);
    s->pinned_old = NULL;
    return e;
  case OP_REGISTER:
    e = cudaHostRegister (s->plain, bytes, cudaHostRegisterDefault);
    return e == cudaSuccess ? cudaHostUnregister (s->plain) : e;
  case OP_MEMSET: return cudaMemset (s->dev_a, 3, bytes);
  case OP_MEMSET_ASYNC: return cudaMemsetAsync (s->dev_a, 3, bytes, s->stream[2]);
  case OP_MEMCPY_D2D: return cudaMemcpy (s->dev_a, s->dev_b, bytes, cudaMemcpyDeviceToDevice);
  case OP_KERNEL_LEGACY: return kp_spin (cudaStreamLegacy, 0, 1, THREADS, 0, stamps);
  case OP_KERNEL_PER_THREAD: return kp_spin (cudaStreamPerThread, 0, 1, THREADS, 0, stamps);
  case OP_EVENT_RECORD: return cudaEventRecord (s->event, s->stream[0]);
  default: return cudaSuccess;
  }
}

static const char *
op_call (int op)
{
  static const char *const names[OP_COUNT] = {
    "", "", "cudaMalloc", "cudaFree", "cudaMallocAsync", "cudaFreeAsync", "cudaMallocHost",
    "cudaFreeHost",
    "cudaHostRegister/cudaHostUnregister", "cudaMemset", "cudaMemsetAsync", "cudaMemcpy",
    "a kernel on cudaStreamLegacy", "a kernel on cudaStreamPerThread", "cudaEventRecord",
  };
  return op > 0 && op < OP_COUNT ? names[op] : "the operation";
}

/* The timed window: kernel, operation, kernel, one synchronisation. With
 * st (instrumented), launches and the call go to the host lane and the
 * kernels' stamps to slots 0..5. */
static MsKStatus
timed_window (MsKProbe *p, Setup *s, int op, size_t bytes, KpStamps *st, const KpOrigin *o)
{
  double us = p->arg[ARG_KERNEL_US];
  double t0 = kp_now_us ();
  KP_CHECK (p, kp_spin (s->stream[0], us, 1, THREADS, 0, st ? st->dev : NULL));
  double t1 = kp_now_us ();
  cudaError_t e = run_op (s, op, bytes, st ? st->dev + 4 : NULL);
  double t2 = kp_now_us ();
  if (e != cudaSuccess)
    return kp_fail (p, op_call (op), e);
  if (op != OP_ALONE)
    KP_CHECK (p, kp_spin (s->stream[1], us, 1, THREADS, 0, st ? st->dev + 2 : NULL));
  double t3 = kp_now_us ();
  KP_CHECK (p, cudaDeviceSynchronize ());
  p->value_us = kp_now_us () - t0;
  if (!st)
    return MS_K_OK;
  kp_event (p, KP_LAUNCH, 0, t0 - o->host_us, t1 - t0, -1, -1, 0);
  if (op != OP_ALONE && op != OP_NONE)
    kp_event (p, KP_CALL, 0, t1 - o->host_us, t2 - t1, -1, -1, op <= OP_MEMCPY_D2D ? bytes : 0);
  if (op != OP_ALONE)
    kp_event (p, KP_LAUNCH, 0, t2 - o->host_us, t3 - t2, -1, -1, 0);
  int n_kernels = op == OP_KERNEL_LEGACY || op == OP_KERNEL_PER_THREAD ? 3
                : op == OP_ALONE                                        ? 1
                                                                        : 2;
  for (int k = 0; k < n_kernels; k++) {
    unsigned long long a = st->host[2 * k], b = st->host[2 * k + 1];
    /* No host call of its own (its launch is on the host lane): host
     * time 0 at the start, since the samples file takes no negative. */
    kp_event (p, KP_KERNEL, 1 + k, 0, 0, kp_stamp_us (o, a), b > a ? (b - a) * 1e-3 : 0, 0);
  }
  return MS_K_OK;
}

KP_LESSON_SAMPLE (implicit_sync)
{
  int op = p->arg[ARG_OP];
  size_t bytes = (size_t) p->arg[ARG_KIB] * 1024;
  if (op < 0 || op >= OP_COUNT)
    return kp_unsupported (p, "no operation %d", op);
  if (op == OP_MALLOC_ASYNC || op == OP_FREE_ASYNC) {
    int pools = 0;
    KP_CHECK (p, cudaDeviceGetAttribute (&pools, cudaDevAttrMemoryPoolsSupported, p->device));
    if (!pools)
      return kp_unsupported (p, "unsupported: this device and driver have no memory pools");
  }
  if (bytes == 0 || p->arg[ARG_KERNEL_US] <= 0)
    return kp_unsupported (p, "the buffer size and the kernel's duration must be positive");
  KpStamps *st = p->instrumented ? kp_stamps (p->device) : NULL;
  if (p->instrumented && !st)
    return kp_unsupported (p, "no mapped pinned memory for the kernels' clock stamps");
  if (st)
    memset (st->host, 0, 6 * sizeof *st->host);
  Setup s;
  memset (&s, 0, sizeof s);
  MsKStatus ks = MS_K_OK;
  KpOrigin origin;
  cudaError_t e = setup_make (&s, op, p->arg[ARG_NON_BLOCKING] != 0, bytes);
  if (e == cudaSuccess)
    e = cudaDeviceSynchronize ();
  if (e == cudaSuccess && st)
    e = kp_origin (&origin, s.stream[0], st, NULL);
  if (e == cudaSuccess)
    ks = timed_window (p, &s, op, bytes, st, &origin);
  setup_free (&s);
  if (e != cudaSuccess)
    return kp_fail (p, "the streams and buffers before the kernels", e);
  return ks;
}
