/* SPDX-License-Identifier: GPL-3.0-or-later */
/* lesson-copy-kinds.cu: the copy-kinds lesson's sample: one fact. The
 * copies: one cudaMemcpy of the kind and one synchronisation, timed on the
 * host clock. The device pointers: cudaHostGetDevicePointer on memory
 * from cudaMallocHost or cudaHostRegister, its error (if any) given back
 * as the reason the fact does not hold. The reads: a kernel summing mapped
 * host memory, plain or write-combined. Buffers are made before the timed
 * step and freed after; a sample takes at most a quarter of MemAvailable
 * and half the free device memory. */
#include <string.h>
#include <sys/mman.h>

#include "ms-host-mem.h"
#include "ms-k-probe.cuh"

/* arg[] of the copy-kinds lesson's sample and its facts
 * (engine/lessons/ms-lesson-copy-kinds.h). */
enum { ARG_FACT };
enum {
  FACT_H2H_PINNED,
  FACT_H2H_PAGEABLE,
  FACT_D2D,
  FACT_H2D,
  FACT_D2H,
  FACT_MAP_MALLOC_HOST,
  FACT_MAP_REGISTER_MAPPED,
  FACT_MAP_REGISTER_DEFAULT,
  FACT_READ_MAPPED,
  FACT_READ_WC,
};

#define THREADS 256

__global__ void
kc_read_kernel (const float *in, size_t n, float *out)
{
  float sum = 0;
  for (size_t i = blockIdx.x * (size_t) blockDim.x + threadIdx.x; i < n;
       i += (size_t) gridDim.x * blockDim.x)
    sum += in[i];
  if (sum == -1.0f) /* never: keeps the loads */
    *out = sum;
}

typedef struct {
  void *host[2];   /* pinned (cudaMallocHost / cudaHostAlloc) */
  void *page[2];   /* pageable, mmap'd */
  bool registered; /* page[0] is registered */
  void *dev[2];
} Bufs;

static void
bufs_free (Bufs *b, size_t bytes)
{
  if (b->registered)
    cudaHostUnregister (b->page[0]);
  for (int i = 0; i < 2; i++) {
    if (b->host[i])
      cudaFreeHost (b->host[i]);
    if (b->page[i])
      munmap (b->page[i], bytes);
    if (b->dev[i])
      cudaFree (b->dev[i]);
  }
}

static void *
page_new (size_t bytes)
{
  void *m = mmap (NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED)
    return NULL;
  memset (m, 1, bytes);
  return m;
}

static MsKStatus
check_room (MsKProbe *p)
{
  unsigned long long avail = ms_host_meminfo ("MemAvailable:");
  if (avail && 2 * p->bytes > avail / 4)
    return kp_unsupported (p, "skipped: two buffers of %llu MiB are more than 25%% of "
                           "MemAvailable (%llu MiB)",
                           (unsigned long long) (p->bytes >> 20), avail >> 20);
  size_t free_b = 0, total_b = 0;
  KP_CHECK (p, cudaMemGetInfo (&free_b, &total_b));
  if (2 * p->bytes > free_b / 2)
    return kp_unsupported (p, "skipped: two buffers of %llu MiB are more than half the free "
                           "device memory", (unsigned long long) (p->bytes >> 20));
  return MS_K_OK;
}

/* One copy of the fact's kind: the figure. */
static MsKStatus
time_copy (MsKProbe *p, Bufs *b)
{
  int fact = p->arg[ARG_FACT];
  void *dst, *src;
  cudaMemcpyKind kind;
  switch (fact) {
  case FACT_H2H_PINNED:
    KP_CHECK (p, cudaMallocHost (&b->host[0], p->bytes));
    KP_CHECK (p, cudaMallocHost (&b->host[1], p->bytes));
    memset (b->host[0], 1, p->bytes);
    memset (b->host[1], 0, p->bytes);
    dst = b->host[1], src = b->host[0], kind = cudaMemcpyHostToHost;
    break;
  case FACT_H2H_PAGEABLE:
    b->page[0] = page_new (p->bytes);
    b->page[1] = page_new (p->bytes);
    if (!b->page[0] || !b->page[1])
      return kp_unsupported (p, "mmap of %llu bytes failed", (unsigned long long) p->bytes);
    dst = b->page[1], src = b->page[0], kind = cudaMemcpyHostToHost;
    break;
  case FACT_D2D:
    KP_CHECK (p, cudaMalloc (&b->dev[0], p->bytes));
    KP_CHECK (p, cudaMalloc (&b->dev[1], p->bytes));
    KP_CHECK (p, cudaMemset (b->dev[0], 1, p->bytes));
    dst = b->dev[1], src = b->dev[0], kind = cudaMemcpyDeviceToDevice;
    break;
  default:
    KP_CHECK (p, cudaMallocHost (&b->host[0], p->bytes));
    KP_CHECK (p, cudaMalloc (&b->dev[0], p->bytes));
    memset (b->host[0], 1, p->bytes);
    bool h2d = fact == FACT_H2D;
    dst = h2d ? b->dev[0] : b->host[0], src = h2d ? b->host[0] : b->dev[0];
    kind = h2d ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost;
  }
  KP_CHECK (p, cudaDeviceSynchronize ());
  double t0 = kp_now_us ();
  cudaError_t e = cudaMemcpy (dst, src, p->bytes, kind);
  if (e == cudaSuccess)
    e = cudaDeviceSynchronize ();
  double t1 = kp_now_us ();
  if (e != cudaSuccess)
    return kp_fail (p, "cudaMemcpy", e);
  p->value_us = t1 - t0;
  int phase = kind == cudaMemcpyHostToDevice ? KP_H2D
              : kind == cudaMemcpyDeviceToHost ? KP_D2H : KP_CALL;
  kp_event (p, phase, 0, 0, t1 - t0, -1, 0, p->bytes);
  return MS_K_OK;
}

/* Whether the memory has a device pointer: the call's time, or the fact
 * does not hold with its error. */
static MsKStatus
time_map (MsKProbe *p, Bufs *b)
{
  int fact = p->arg[ARG_FACT];
  void *host;
  if (fact == FACT_MAP_MALLOC_HOST) {
    KP_CHECK (p, cudaMallocHost (&b->host[0], p->bytes));
    host = b->host[0];
  } else {
    b->page[0] = page_new (p->bytes);
    if (!b->page[0])
      return kp_unsupported (p, "mmap of %llu bytes failed", (unsigned long long) p->bytes);
    KP_CHECK (p, cudaHostRegister (b->page[0], p->bytes,
                                   fact == FACT_MAP_REGISTER_MAPPED ? cudaHostRegisterMapped
                                                                    : cudaHostRegisterDefault));
    b->registered = true;
    host = b->page[0];
  }
  void *dev = NULL;
  double t0 = kp_now_us ();
  cudaError_t e = cudaHostGetDevicePointer (&dev, host, 0);
  double t1 = kp_now_us ();
  if (e != cudaSuccess) {
    cudaGetLastError ();
    return kp_unsupported (p, "cudaHostGetDevicePointer: %s (%s)", cudaGetErrorString (e),
                           cudaGetErrorName (e));
  }
  p->value_us = t1 - t0;
  kp_event (p, KP_CALL, 0, 0, t1 - t0, -1, 0, 0);
  return MS_K_OK;
}

/* A kernel reading mapped host memory once: the figure. */
static MsKStatus
time_read (MsKProbe *p, Bufs *b)
{
  bool wc = p->arg[ARG_FACT] == FACT_READ_WC;
  int can_map = 0, sms = 1;
  KP_CHECK (p, cudaDeviceGetAttribute (&can_map, cudaDevAttrCanMapHostMemory, p->device));
  if (!can_map)
    return kp_unsupported (p, "the device cannot map host memory (canMapHostMemory = 0)");
  KP_CHECK (p, cudaDeviceGetAttribute (&sms, cudaDevAttrMultiProcessorCount, p->device));
  KP_CHECK (p, cudaHostAlloc (&b->host[0], p->bytes,
                              cudaHostAllocMapped | (wc ? cudaHostAllocWriteCombined : 0)));
  KP_CHECK (p, cudaMalloc (&b->dev[0], sizeof (float)));
  memset (b->host[0], 0, p->bytes);
  void *dev = NULL;
  KP_CHECK (p, cudaHostGetDevicePointer (&dev, b->host[0], 0));
  size_t n = p->bytes / sizeof (float), blocks = (n + THREADS - 1) / THREADS;
  unsigned grid = (unsigned) (blocks < (size_t) sms * 32 ? blocks : (size_t) sms * 32);
  KP_CHECK (p, cudaDeviceSynchronize ());
  double t0 = kp_now_us ();
  kc_read_kernel<<<grid, THREADS>>> ((const float *) dev, n, (float *) b->dev[0]);
  cudaError_t e = cudaGetLastError ();
  if (e == cudaSuccess)
    e = cudaDeviceSynchronize ();
  double t1 = kp_now_us ();
  if (e != cudaSuccess)
    return kp_fail (p, "the read kernel", e);
  p->value_us = t1 - t0;
  kp_event (p, KP_KERNEL, 0, 0, t1 - t0, -1, 0, p->bytes);
  return MS_K_OK;
}

KP_LESSON_SAMPLE (copy_kinds)
{
  int fact = p->arg[ARG_FACT];
  if (fact < FACT_H2H_PINNED || fact > FACT_READ_WC)
    return kp_unsupported (p, "no fact %d", fact);
  MsKStatus ks = check_room (p);
  if (ks != MS_K_OK)
    return ks;
  Bufs b;
  memset (&b, 0, sizeof b);
  if (fact <= FACT_D2H)
    ks = time_copy (p, &b);
  else if (fact <= FACT_MAP_REGISTER_DEFAULT)
    ks = time_map (p, &b);
  else
    ks = time_read (p, &b);
  bufs_free (&b, p->bytes);
  return ks;
}
