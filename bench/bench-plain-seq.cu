/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench-plain-seq.cu: the yardstick of bench-plain. For each memory mode
 * the shortest sequence of CUDA calls an application would write for
 * c = a + b, with the host clock around it and nothing else inside: no
 * latch, no events, one synchronisation at the end. Outside the window,
 * as in memsweep's own repetitions: the host writes the inputs (the same
 * values and stores, kernels/ms-data.c), registered buffers are
 * registered and unregistered, and the result is verified. Kept short on
 * purpose: anyone should be able to check it by reading it. */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench-plain.h"
#include "ms-data.h"

/* The modes this yardstick has a sequence for, each with memsweep's name
 * for it: the caller names a mode as memsweep does, so memsweep's list may
 * grow or change order without this file. */
#define P_MODES(X)                                                                                 \
  X (PAGEABLE, "pageable")                                                                         \
  X (PINNED, "pinned")                                                                             \
  X (REGISTERED, "registered")                                                                     \
  X (WRITE_COMBINED, "write-combined")                                                             \
  X (ZERO_COPY, "zero-copy")                                                                       \
  X (UVA, "uva")                                                                                   \
  X (MANAGED, "managed")                                                                           \
  X (MANAGED_PREFETCH, "managed-prefetch")                                                         \
  X (STREAMS, "streams")                                                                           \
  X (DEVICE, "device")
#define P_ENUM(id, name) P_##id,
#define P_NAME(id, name) name,
enum { P_MODES (P_ENUM) P_COUNT };
static const char *const p_names[P_COUNT] = { P_MODES (P_NAME) };

#define P_MAX_STREAMS 64

typedef struct {
  int mode, device, breadth_first, n_streams;
  uint64_t n;
  size_t bytes;
  float *h[3];  /* host (or managed) a, b, c */
  float *d[3];  /* device buffers, or the device's view of h */
  bool d_owned; /* d[] came from cudaMalloc */
  cudaStream_t st[P_MAX_STREAMS];
} Plain;

static double
now_us (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e6 + ts.tv_nsec * 1e-3;
}

/* memsweep's add kernel and launch shape (kernels/common.cu). */
__global__ void
plain_add (const float *__restrict__ a, const float *__restrict__ b, float *__restrict__ c,
           uint64_t n)
{
  uint64_t stride = (uint64_t) gridDim.x * blockDim.x;
  for (uint64_t i = (uint64_t) blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    c[i] = a[i] + b[i];
}

__global__ void
plain_fill (float *a, float *b, uint64_t n)
{
  uint64_t stride = (uint64_t) gridDim.x * blockDim.x;
  for (uint64_t i = (uint64_t) blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    a[i] = ms_data_a (i);
    b[i] = ms_data_b (i);
  }
}

static unsigned
blocks_for (uint64_t n)
{
  uint64_t blocks = (n + 255) / 256;
  return (unsigned) (blocks < 8192 ? (blocks ? blocks : 1) : 8192);
}

static void
add (const float *a, const float *b, float *c, uint64_t n, cudaStream_t st)
{
  plain_add<<<blocks_for (n), 256, 0, st>>> (a, b, c, n);
}

static cudaError_t
prefetch (const void *ptr, size_t bytes, int device, bool to_host)
{
#if CUDART_VERSION >= 13000
  cudaMemLocation loc;
  memset (&loc, 0, sizeof loc);
  loc.type = to_host ? cudaMemLocationTypeHost : cudaMemLocationTypeDevice;
  loc.id = to_host ? 0 : device;
  return cudaMemPrefetchAsync (ptr, bytes, loc, 0, 0);
#else
  return cudaMemPrefetchAsync (ptr, bytes, to_host ? cudaCpuDeviceId : device, 0);
#endif
}

#define P_TRY(call)                                                           \
  do {                                                                        \
    cudaError_t e_ = (call);                                                  \
    if (e_ != cudaSuccess)                                                    \
      return e_;                                                              \
  } while (0)

static cudaError_t
alloc_host (Plain *p)
{
  for (int i = 0; i < 3; i++) {
    switch (p->mode) {
    case P_PAGEABLE:
    case P_REGISTERED:
    case P_DEVICE: /* c's host copy, for verifying */
      p->h[i] = (float *) malloc (p->bytes);
      if (!p->h[i])
        return cudaErrorMemoryAllocation;
      break;
    case P_WRITE_COMBINED: /* the inputs; c is ordinary pinned memory */
      P_TRY (cudaHostAlloc (&p->h[i], p->bytes, i < 2 ? cudaHostAllocWriteCombined : 0));
      break;
    case P_ZERO_COPY:
      P_TRY (cudaHostAlloc (&p->h[i], p->bytes, cudaHostAllocMapped));
      P_TRY (cudaHostGetDevicePointer ((void **) &p->d[i], p->h[i], 0));
      break;
    case P_MANAGED:
    case P_MANAGED_PREFETCH:
      P_TRY (cudaMallocManaged (&p->h[i], p->bytes, cudaMemAttachGlobal));
      break;
    default: /* pinned, uva, streams */
      P_TRY (cudaMallocHost (&p->h[i], p->bytes));
      break;
    }
  }
  return cudaSuccess;
}

static cudaError_t
plain_alloc (Plain *p)
{
  P_TRY (cudaSetDevice (p->device));
  P_TRY (alloc_host (p));
  bool copies = p->mode == P_PAGEABLE || p->mode == P_PINNED || p->mode == P_REGISTERED ||
                p->mode == P_WRITE_COMBINED || p->mode == P_STREAMS || p->mode == P_DEVICE;
  if (copies) {
    p->d_owned = true;
    for (int i = 0; i < 3; i++)
      P_TRY (cudaMalloc (&p->d[i], p->bytes));
  }
  if (p->mode == P_STREAMS)
    for (int s = 0; s < p->n_streams; s++)
      P_TRY (cudaStreamCreateWithFlags (&p->st[s], cudaStreamNonBlocking));
  return cudaSuccess;
}

static void
plain_free (Plain *p)
{
  cudaDeviceSynchronize ();
  for (int s = 0; s < p->n_streams; s++)
    if (p->st[s])
      cudaStreamDestroy (p->st[s]);
  for (int i = 0; i < 3; i++) {
    if (p->d_owned)
      cudaFree (p->d[i]);
    if (p->mode == P_PAGEABLE || p->mode == P_REGISTERED || p->mode == P_DEVICE)
      free (p->h[i]);
    else if (p->mode == P_MANAGED || p->mode == P_MANAGED_PREFETCH)
      cudaFree (p->h[i]);
    else
      cudaFreeHost (p->h[i]);
  }
}

/* Outside the window: the inputs as memsweep's init phase writes them. */
static cudaError_t
before (Plain *p)
{
  if (p->mode == P_DEVICE) {
    plain_fill<<<blocks_for (p->n), 256>>> (p->d[0], p->d[1], p->n);
    P_TRY (cudaMemset (p->d[2], MS_POISON_BYTE, p->bytes));
    return cudaDeviceSynchronize ();
  }
  ms_data_fill (p->h[0], p->h[1], p->n);
  if (p->mode == P_MANAGED || p->mode == P_MANAGED_PREFETCH) {
    P_TRY (cudaMemset (p->h[2], MS_POISON_BYTE, p->bytes));
    return cudaDeviceSynchronize ();
  }
  ms_data_poison (p->h[2], p->n);
  if (p->mode == P_REGISTERED)
    for (int i = 0; i < 3; i++)
      P_TRY (cudaHostRegister (p->h[i], p->bytes, cudaHostRegisterDefault));
  return cudaSuccess;
}

/* The streams mode: chunk s of every vector on stream s, issued depth- or
 * breadth-first as memsweep issues it (kernels/mode-streams.cu). */
static cudaError_t
streams_work (Plain *p)
{
  const int k = p->n_streams;
  for (int outer = 0; outer < 3 * k; outer++) {
    int s = p->breadth_first ? outer % k : outer / 3;
    int step = p->breadth_first ? outer / k : outer % 3;
    uint64_t begin = p->n * s / k, len = p->n * (s + 1) / k - begin;
    size_t cb = len * sizeof (float);
    if (step == 0) {
      P_TRY (cudaMemcpyAsync (p->d[0] + begin, p->h[0] + begin, cb, cudaMemcpyHostToDevice,
                              p->st[s]));
      P_TRY (cudaMemcpyAsync (p->d[1] + begin, p->h[1] + begin, cb, cudaMemcpyHostToDevice,
                              p->st[s]));
    } else if (step == 1) {
      add (p->d[0] + begin, p->d[1] + begin, p->d[2] + begin, len, p->st[s]);
    } else {
      P_TRY (cudaMemcpyAsync (p->h[2] + begin, p->d[2] + begin, cb, cudaMemcpyDeviceToHost,
                              p->st[s]));
    }
  }
  for (int s = 0; s < k; s++)
    P_TRY (cudaStreamSynchronize (p->st[s]));
  return cudaSuccess;
}

/* The timed window: from the first movement to a result the host can read. */
static cudaError_t
window (Plain *p)
{
  const cudaMemcpyKind h2d = cudaMemcpyHostToDevice, d2h = cudaMemcpyDeviceToHost;
  float **h = p->h, **d = p->d;
  switch (p->mode) {
  case P_PAGEABLE: /* cudaMemcpy from pageable memory returns when c is there */
    P_TRY (cudaMemcpy (d[0], h[0], p->bytes, h2d));
    P_TRY (cudaMemcpy (d[1], h[1], p->bytes, h2d));
    add (d[0], d[1], d[2], p->n, 0);
    return cudaMemcpy (h[2], d[2], p->bytes, d2h);
  case P_PINNED:
  case P_REGISTERED:
  case P_WRITE_COMBINED:
    P_TRY (cudaMemcpyAsync (d[0], h[0], p->bytes, h2d, 0));
    P_TRY (cudaMemcpyAsync (d[1], h[1], p->bytes, h2d, 0));
    add (d[0], d[1], d[2], p->n, 0);
    P_TRY (cudaMemcpyAsync (h[2], d[2], p->bytes, d2h, 0));
    return cudaStreamSynchronize (0);
  case P_ZERO_COPY:
  case P_DEVICE:
    add (d[0], d[1], d[2], p->n, 0);
    return cudaStreamSynchronize (0);
  case P_UVA:
    add (h[0], h[1], h[2], p->n, 0);
    return cudaStreamSynchronize (0);
  case P_MANAGED: { /* the host reading c is what brings it back */
    add (h[0], h[1], h[2], p->n, 0);
    P_TRY (cudaStreamSynchronize (0));
    volatile float sink;
    float acc = 0;
    for (uint64_t i = 0; i < p->n; i++)
      acc += h[2][i];
    sink = acc;
    (void) sink;
    return cudaSuccess;
  }
  case P_MANAGED_PREFETCH:
    P_TRY (prefetch (h[0], p->bytes, p->device, false));
    P_TRY (prefetch (h[1], p->bytes, p->device, false));
    add (h[0], h[1], h[2], p->n, 0);
    P_TRY (prefetch (h[2], p->bytes, p->device, true));
    return cudaStreamSynchronize (0);
  case P_STREAMS:
    return streams_work (p);
  default:
    return cudaErrorInvalidValue;
  }
}

/* Outside the window: unregister, and check c. */
static cudaError_t
after (Plain *p, uint64_t *wrong)
{
  uint64_t first;
  P_TRY (cudaGetLastError ()); /* a launch that failed */
  if (p->mode == P_REGISTERED)
    for (int i = 0; i < 3; i++)
      P_TRY (cudaHostUnregister (p->h[i]));
  if (p->mode == P_DEVICE)
    P_TRY (cudaMemcpy (p->h[2], p->d[2], p->bytes, cudaMemcpyDeviceToHost));
  *wrong = ms_data_verify (p->h[2], p->n, &first);
  return cudaSuccess;
}

static cudaError_t
plain_reps (Plain *p, int warmup, int reps, double *times, uint64_t *wrong)
{
  for (int r = -warmup; r < reps; r++) {
    P_TRY (before (p));
    double t0 = now_us ();
    cudaError_t e = window (p);
    double us = now_us () - t0;
    P_TRY (e);
    P_TRY (after (p, wrong));
    if (*wrong)
      return cudaSuccess;
    if (r >= 0)
      times[r] = us;
  }
  return cudaSuccess;
}

static int
plain_mode (const char *name)
{
  for (int m = 0; m < P_COUNT; m++)
    if (strcmp (name, p_names[m]) == 0)
      return m;
  return -1;
}

int
bench_plain_run (int device, const char *mode_name, uint64_t n, int streams, int breadth_first,
                 int warmup, int reps, double *times, char *err, size_t errlen)
{
  Plain p;
  memset (&p, 0, sizeof p);
  int mode = plain_mode (mode_name);
  if (mode < 0) {
    snprintf (err, errlen, "no plain sequence for %s", mode_name);
    return -1;
  }
  p.mode = mode;
  p.device = device;
  p.n = n;
  p.bytes = n * sizeof (float);
  p.breadth_first = breadth_first;
  p.n_streams = mode == P_STREAMS ? streams : 0;
  if (p.n_streams > P_MAX_STREAMS || (uint64_t) streams > n) {
    snprintf (err, errlen, "bad arguments");
    return -1;
  }
  uint64_t wrong = 0;
  cudaError_t e = plain_alloc (&p);
  if (e == cudaSuccess)
    e = plain_reps (&p, warmup, reps, times, &wrong);
  plain_free (&p);
  if (e != cudaSuccess) {
    snprintf (err, errlen, "%s (%s)", cudaGetErrorString (e), cudaGetErrorName (e));
    return -1;
  }
  if (wrong) {
    snprintf (err, errlen, "verification failed: %llu elements wrong",
              (unsigned long long) wrong);
    return -1;
  }
  return 0;
}
