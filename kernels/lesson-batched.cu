/* SPDX-License-Identifier: GPL-3.0-or-later */
/* lesson-batched.cu: the batched-copies lesson's sample. count host-to-
 * device copies of p->bytes each, from pinned or pageable memory (p->mode),
 * with one cudaMemcpyAsync each or in one cudaMemcpyBatchAsync with a
 * source-access-order hint. The figure is the host clock from the first
 * call until the stream is synchronised; every plain sample also gives
 * the call's own time (KP_CALL, by the host clock: an event recorded just
 * before the call changed it, docs/lessons.md). */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ms-k-probe.cuh"

/* arg[] of the batched lesson's sample (engine/lessons/ms-lesson-batched.c). */
enum { ARG_COUNT, ARG_BATCH, ARG_ORDER };
enum { ORDER_STREAM, ORDER_ANY, ORDER_DURING_CALL };

/* The buffers, kept from sample to sample of a size (allocating them in
 * every sample would take longer than the copies); freed on a change of
 * size and by ms_k_probe_release (kp_on_release). Per thread, as
 * ms_k_shutdown releases the calling thread's (several GPUs: a thread each). */
static thread_local struct {
  int device;
  size_t bytes;
  char *pinned, *pageable, *dev;
  void **dsts, **srcs;
  size_t *sizes;
} kept = { -1, 0, NULL, NULL, NULL, NULL, NULL, NULL };

static void
kp_batched_release (void)
{
  if (kept.pinned)
    cudaFreeHost (kept.pinned);
  if (kept.dev)
    cudaFree (kept.dev);
  free (kept.pageable);
  free (kept.dsts);
  free (kept.srcs);
  free (kept.sizes);
  memset (&kept, 0, sizeof kept);
  kept.device = -1;
}

/* A safe share of the device's free memory and of the host's memory. */
static MsKStatus
check_room (MsKProbe *p, size_t total)
{
  size_t free_b = 0, all = 0;
  KP_CHECK (p, cudaMemGetInfo (&free_b, &all));
  long pages = sysconf (_SC_PHYS_PAGES), page = sysconf (_SC_PAGESIZE);
  double host = pages > 0 && page > 0 ? (double)pages * (double)page : 0;
  if (total > free_b / 4 || (host > 0 && 2.0 * (double)total > host / 8))
    return kp_unsupported (p, "%zu MiB of copies is more than a safe share of the memory",
                           total >> 20);
  return MS_K_OK;
}

static MsKStatus
keep_buffers (MsKProbe *p, int count)
{
  size_t total = (size_t)count * p->bytes;
  if (kept.device == p->device && kept.bytes == total && kept.dsts)
    return MS_K_OK;
  kp_batched_release ();
  MsKStatus ks = check_room (p, total);
  if (ks != MS_K_OK)
    return ks;
  kp_on_release (kp_batched_release);
  kept.device = p->device;
  kept.bytes = total;
  KP_CHECK (p, cudaHostAlloc ((void **)&kept.pinned, total, cudaHostAllocDefault));
  KP_CHECK (p, cudaMalloc ((void **)&kept.dev, total));
  kept.pageable = (char *)malloc (total);
  kept.dsts = (void **)calloc ((size_t)count, sizeof (void *));
  kept.srcs = (void **)calloc ((size_t)count, sizeof (void *));
  kept.sizes = (size_t *)calloc ((size_t)count, sizeof (size_t));
  if (!kept.pageable || !kept.dsts || !kept.srcs || !kept.sizes) {
    kp_batched_release ();
    return kp_unsupported (p, "out of host memory for %d copies", count);
  }
  /* Touched, with distinct non-zero bytes: no page faults in the copies. */
  for (size_t i = 0; i < total; i++)
    kept.pinned[i] = kept.pageable[i] = (char)(1 + i % 251);
  return MS_K_OK;
}

/* Whether the toolkit this was built with and the runtime and driver it
 * runs on have the batch call in the form used here. */
static MsKStatus
batch_available (MsKProbe *p)
{
#if CUDART_VERSION >= 13000
  int runtime = 0, driver = 0;
  KP_CHECK (p, cudaRuntimeGetVersion (&runtime));
  KP_CHECK (p, cudaDriverGetVersion (&driver));
  if (runtime < 12080 || driver < 12080)
    return kp_unsupported (p,
                           "cudaMemcpyBatchAsync needs CUDA 12.8; the runtime is %d.%d and "
                           "the driver %d.%d",
                           runtime / 1000, runtime % 1000 / 10, driver / 1000, driver % 1000 / 10);
  return MS_K_OK;
#elif CUDART_VERSION >= 12080
  return kp_unsupported (p,
                         "built with CUDA %d.%d, whose cudaMemcpyBatchAsync takes a failIdx "
                         "argument that CUDA 13.0 removed; this build calls the 13.0 form",
                         CUDART_VERSION / 1000, CUDART_VERSION % 1000 / 10);
#else
  return kp_unsupported (p, "built with CUDA %d.%d; cudaMemcpyBatchAsync came with 12.8",
                         CUDART_VERSION / 1000, CUDART_VERSION % 1000 / 10);
#endif
}

/* The copies, submitted as the cell says. */
static cudaError_t
submit (MsKProbe *p, int count, cudaStream_t stream)
{
  if (!p->arg[ARG_BATCH]) {
    for (int i = 0; i < count; i++) {
      cudaError_t e
          = cudaMemcpyAsync (kept.dsts[i], kept.srcs[i], p->bytes, cudaMemcpyHostToDevice, stream);
      if (e != cudaSuccess)
        return e;
    }
    return cudaSuccess;
  }
#if CUDART_VERSION >= 13000
  struct cudaMemcpyAttributes attr;
  memset (&attr, 0, sizeof attr);
  attr.srcAccessOrder = p->arg[ARG_ORDER] == ORDER_ANY ? cudaMemcpySrcAccessOrderAny
                        : p->arg[ARG_ORDER] == ORDER_DURING_CALL
                            ? cudaMemcpySrcAccessOrderDuringApiCall
                            : cudaMemcpySrcAccessOrderStream;
  attr.srcLocHint.type = cudaMemLocationTypeHost;
  attr.dstLocHint.type = cudaMemLocationTypeDevice;
  attr.dstLocHint.id = p->device;
  attr.flags = cudaMemcpyFlagDefault;
  size_t first = 0;
  return cudaMemcpyBatchAsync (kept.dsts, (const void *const *)kept.srcs, kept.sizes, (size_t)count,
                               &attr, &first, 1, stream);
#else
  return cudaErrorNotSupported;
#endif
}

static MsKStatus
run_sample (MsKProbe *p, int count, cudaStream_t stream, cudaEvent_t ev[2])
{
  const char *call = p->arg[ARG_BATCH] ? "cudaMemcpyBatchAsync" : "cudaMemcpyAsync";
  KP_CHECK (p, cudaDeviceSynchronize ());
  double t0 = kp_now_us ();
  if (ev)
    KP_CHECK (p, cudaEventRecord (ev[0], stream));
  double c0 = kp_now_us ();
  cudaError_t e = submit (p, count, stream);
  double c1 = kp_now_us ();
  if (e == cudaErrorNotSupported || e == cudaErrorCallRequiresNewerDriver)
    return kp_unsupported (p, "%s from %s memory: %s", call,
                           p->mode == MS_K_MODE_PINNED ? "pinned" : "pageable",
                           cudaGetErrorString (e));
  if (e != cudaSuccess)
    return kp_fail (p, call, e);
  if (ev)
    KP_CHECK (p, cudaEventRecord (ev[1], stream));
  KP_CHECK (p, cudaStreamSynchronize (stream));
  p->value_us = kp_now_us () - t0;
  /* The call's own time in every plain sample: where it grows with the
   * bytes, the call worked on the data before returning. */
  if (!ev)
    kp_event (p, KP_CALL, 0, c0 - t0, c1 - c0, -1, -1, 0);
  if (ev) {
    float ms = 0;
    KP_CHECK (p, cudaEventElapsedTime (&ms, ev[0], ev[1]));
    kp_event (p, KP_H2D, 1, -1, 0, c0 - t0, ms * 1e3, (uint64_t)count * p->bytes);
  }
  return MS_K_OK;
}

KP_LESSON_SAMPLE (batched)
{
  int count = p->arg[ARG_COUNT];
  if (count < 1 || count > 4096 || p->bytes == 0 || p->bytes > (64u << 10))
    return kp_unsupported (p, "%d copies of %llu bytes are outside 1..4096 of 64 KiB", count,
                           (unsigned long long)p->bytes);
  if (p->arg[ARG_BATCH]) {
    MsKStatus ks = batch_available (p);
    if (ks != MS_K_OK)
      return ks;
  }
  MsKStatus ks = keep_buffers (p, count);
  if (ks != MS_K_OK)
    return ks;
  char *src = p->mode == MS_K_MODE_PINNED ? kept.pinned : kept.pageable;
  for (int i = 0; i < count; i++) {
    kept.dsts[i] = kept.dev + (size_t)i * p->bytes;
    kept.srcs[i] = src + (size_t)i * p->bytes;
    kept.sizes[i] = p->bytes;
  }
  cudaStream_t stream;
  KP_CHECK (p, cudaStreamCreateWithFlags (&stream, cudaStreamNonBlocking));
  cudaEvent_t ev[2];
  int made = 0;
  cudaError_t e = cudaSuccess;
  while (p->instrumented && made < 2 && e == cudaSuccess) {
    e = cudaEventCreate (&ev[made]);
    made += e == cudaSuccess;
  }
  ks = e == cudaSuccess ? run_sample (p, count, stream, p->instrumented ? ev : NULL)
                        : kp_fail (p, "cudaEventCreate", e);
  for (int i = 0; i < made; i++)
    cudaEventDestroy (ev[i]);
  cudaStreamDestroy (stream);
  return ks;
}
