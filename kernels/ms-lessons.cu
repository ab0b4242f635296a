/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-lessons.cu: what the lessons change in a repetition (docs/lessons.md):
 * the duplex copies, the read-only zero-copy kernel, the managed re-run on
 * resident pages, host work beside the streams, and the costs of
 * allocation calls. How the host writes the inputs is the init step's
 * (common.cu), the reuse kernel is ms-work.cu's. */
#include <stdlib.h>

#include "ms-k-common.cuh"

/* One vector each way, alone or at once on two streams. The device makes
 * the result itself first (untimed), so the copy back brings a verified c. */
bool
k_rep_duplex (KCtx *ctx, KBuffers *b)
{
  MsKRun *run = ctx->run;
  uint64_t bytes = run->n * sizeof (float);
  if (!k_init_phase (ctx, b->h[0], b->h[1], b->h[2]))
    return false;
  K_CANCEL_POINT (ctx);
  k_launch_fill (b->d[0], b->d[1], run->n, b->streams[0]);
  k_launch_add (b->d[0], b->d[1], b->d[2], run->n, b->streams[0]);
  K_CHECK (ctx, cudaGetLastError ());
  K_CHECK (ctx, cudaStreamSynchronize (b->streams[0]));

  double e2e_start = k_now_us ();
  bool timed = k_instrumented (ctx); /* plain: no event pairs */
  if (run->duplex != K_DUPLEX_D2H) {
    int p = timed ? k_gpu_begin (ctx, b->streams[0]) : -1;
    K_CHECK (ctx, cudaMemcpyAsync (b->d[0], b->h[0], bytes, cudaMemcpyHostToDevice,
                                   b->streams[0]));
    k_gpu_end (ctx, p, b->streams[0], K_H2D, 1, 0, bytes);
  }
  if (run->duplex != K_DUPLEX_H2D) {
    int p = timed ? k_gpu_begin (ctx, b->streams[1]) : -1;
    K_CHECK (ctx, cudaMemcpyAsync (b->h[2], b->d[2], bytes, cudaMemcpyDeviceToHost,
                                   b->streams[1]));
    k_gpu_end (ctx, p, b->streams[1], K_D2H, 2, 0, bytes);
  }
  K_CHECK (ctx, cudaStreamSynchronize (b->streams[0]));
  K_CHECK (ctx, cudaStreamSynchronize (b->streams[1]));
  k_set_e2e (ctx, e2e_start);
  if (!k_resolve (ctx))
    return false;
  if (run->duplex == K_DUPLEX_H2D) /* c back, untimed, for the verification */
    K_CHECK (ctx, cudaMemcpy (b->h[2], b->d[2], bytes, cudaMemcpyDeviceToHost));
  K_CANCEL_POINT (ctx);
  k_verify_phase (ctx, b->h[2]);
  return true;
}

bool
k_duplex_streams (KCtx *ctx, KBuffers *b)
{
  for (; b->n_streams < 2; b->n_streams++)
    K_CHECK (ctx, cudaStreamCreateWithFlags (&b->streams[b->n_streams], cudaStreamNonBlocking));
  return true;
}

/* Zero-copy read-only: the kernel reads a and b across PCIe and writes c
 * into device memory (b->scratch), which one copy brings back. */
bool
k_rep_read_only (KCtx *ctx, KBuffers *b)
{
  MsKRun *run = ctx->run;
  uint64_t bytes = run->n * sizeof (float);
  if (!k_init_phase (ctx, b->h[0], b->h[1], b->h[2]))
    return false;
  K_CANCEL_POINT (ctx);
  double e2e_start = k_now_us ();
  int p = -1;
  if (!k_instrumented (ctx)) {
    k_launch_work (run, b->d[0], b->d[1], b->scratch, 0);
    K_CHECK (ctx, cudaGetLastError ());
  } else {
    if (!k_latched_add (ctx, b->d[0], b->d[1], b->scratch, 0))
      return false;
    p = k_gpu_begin (ctx, 0);
  }
  K_CHECK (ctx, cudaMemcpyAsync (b->h[2], b->scratch, bytes, cudaMemcpyDeviceToHost, 0));
  k_gpu_end (ctx, p, 0, K_D2H, 1, 0, bytes);
  K_CHECK (ctx, cudaStreamSynchronize (0));
  k_set_e2e (ctx, e2e_start);
  if (!k_resolve (ctx) || ctx->failed)
    return false;
  K_CANCEL_POINT (ctx);
  k_verify_phase (ctx, b->h[2]);
  return true;
}

/* Managed, resident: a first kernel brings a and b to the device (timed on
 * the host as the prefetch phase), so the timed kernel runs without faults. */
bool
k_managed_make_resident (KCtx *ctx, KBuffers *b)
{
  double hs = k_now_us ();
  k_launch_work (ctx->run, b->h[0], b->h[1], b->h[2], 0);
  K_CHECK (ctx, cudaGetLastError ());
  K_CHECK (ctx, cudaStreamSynchronize (0));
  k_host_event (ctx, K_PREFETCH, hs, 2 * ctx->run->n * sizeof (float));
  return true;
}

/* Host work while the streams' copies run: a computation as long as one
 * pass over the inputs, timed as a second init event (chunk 1). */
void
k_host_work (KCtx *ctx)
{
  double hs = k_now_us ();
  volatile float sink = 0;
  float acc = 0;
  for (uint64_t i = 0; i < ctx->run->n; i++)
    acc += ms_data_a (i) * ms_data_b (i);
  sink = acc;
  (void) sink;
  k_add_event (ctx, K_INIT, 0, 1, hs, 0);
}

/* ---- costs -------------------------------------------------------------- */

static double
k_elapsed (double since)
{
  return k_now_us () - since;
}

static int
k_cost_fail (const char *what, cudaError_t e, char *err, size_t errlen)
{
  snprintf (err, errlen, "%s: %s (%s)", what, cudaGetErrorString (e), cudaGetErrorName (e));
  return -1;
}

#define K_COST_CHECK(what, call)                                              \
  do {                                                                        \
    cudaError_t e_ = (call);                                                  \
    if (e_ != cudaSuccess)                                                    \
      return k_cost_fail (what, e_, err, errlen);                             \
  } while (0)

/* A context, first or again: cudaFree (0) creates it. */
static int
k_cost_context (int device, bool reset, double *alloc_us, char *err, size_t errlen)
{
  if (reset) {
    ms_k_shutdown (); /* its cached events die with the context */
    K_COST_CHECK ("cudaDeviceReset", cudaDeviceReset ());
  }
  double t = k_now_us ();
  K_COST_CHECK ("cudaSetDevice", cudaSetDevice (device));
  K_COST_CHECK ("cudaFree (0)", cudaFree (0));
  *alloc_us = k_elapsed (t);
  return 0;
}

static int
k_cost_host (int what, uint64_t bytes, double *alloc_us, double *free_us, char *err,
             size_t errlen)
{
  void *p = NULL;
  double t = k_now_us ();
  if (what == MS_K_COST_MALLOC_HOST) {
    K_COST_CHECK ("cudaMallocHost", cudaMallocHost (&p, bytes));
    *alloc_us = k_elapsed (t);
    t = k_now_us ();
    K_COST_CHECK ("cudaFreeHost", cudaFreeHost (p));
    *free_us = k_elapsed (t);
    return 0;
  }
  /* malloc and its first touch (the pages exist only once written). */
  p = malloc (bytes);
  if (!p) {
    snprintf (err, errlen, "malloc: out of host memory");
    return -1;
  }
  memset (p, 1, bytes);
  *alloc_us = k_elapsed (t);
  if (what == MS_K_COST_REGISTER) {
    t = k_now_us ();
    cudaError_t e = cudaHostRegister (p, bytes, cudaHostRegisterDefault);
    *alloc_us = k_elapsed (t);
    if (e == cudaSuccess) {
      t = k_now_us ();
      e = cudaHostUnregister (p);
      *free_us = k_elapsed (t);
    }
    if (e != cudaSuccess) {
      free (p);
      return k_cost_fail ("cudaHostRegister", e, err, errlen);
    }
    free (p);
    return 0;
  }
  t = k_now_us ();
  free (p);
  *free_us = k_elapsed (t);
  return 0;
}

/* The default pool's allocation and free at a release threshold, from a
 * pool trimmed to nothing (first) or after one allocation of the size
 * (steady); what it keeps after the free; then trimmed again, so that no
 * other measurement finds device memory held. */
static int
k_cost_pool (int device, int what, uint64_t bytes, uint64_t keep_bytes, double *alloc_us,
             double *free_us, uint64_t pool_bytes[2], char *err, size_t errlen)
{
  int pools = 0;
  K_COST_CHECK ("cudaDeviceGetAttribute",
                cudaDeviceGetAttribute (&pools, cudaDevAttrMemoryPoolsSupported, device));
  if (!pools) {
    snprintf (err, errlen, "unsupported: this device and driver have no memory pools");
    return -1;
  }
  size_t free_b = 0, total_b = 0;
  K_COST_CHECK ("cudaMemGetInfo", cudaMemGetInfo (&free_b, &total_b));
  /* The share pin-payoff keeps to: half the free device memory. */
  if (bytes > free_b / 2) {
    snprintf (err, errlen, "unsupported: skipped: %llu MiB is more than half the free device "
                           "memory", (unsigned long long) (bytes >> 20));
    return -1;
  }
  cudaMemPool_t pool;
  cudaStream_t s;
  K_COST_CHECK ("cudaDeviceGetDefaultMemPool", cudaDeviceGetDefaultMemPool (&pool, device));
  uint64_t threshold = what == MS_K_COST_POOL_KEEP ? keep_bytes : 0, zero = 0;
  K_COST_CHECK ("cudaMemPoolSetAttribute",
                cudaMemPoolSetAttribute (pool, cudaMemPoolAttrReleaseThreshold, &threshold));
  K_COST_CHECK ("cudaMemPoolTrimTo", cudaMemPoolTrimTo (pool, 0));
  K_COST_CHECK ("cudaStreamCreateWithFlags", cudaStreamCreateWithFlags (&s, cudaStreamNonBlocking));
  void *p = NULL;
  cudaError_t e = cudaSuccess;
  if (what != MS_K_COST_POOL_FIRST) {
    e = cudaMallocAsync (&p, bytes, s);
    if (e == cudaSuccess)
      e = cudaFreeAsync (p, s);
    if (e == cudaSuccess)
      e = cudaStreamSynchronize (s);
  }
  double t = k_now_us ();
  if (e == cudaSuccess)
    e = cudaMallocAsync (&p, bytes, s);
  if (e == cudaSuccess)
    e = cudaStreamSynchronize (s);
  *alloc_us = k_elapsed (t);
  t = k_now_us ();
  if (e == cudaSuccess)
    e = cudaFreeAsync (p, s);
  if (e == cudaSuccess)
    e = cudaStreamSynchronize (s);
  *free_us = k_elapsed (t);
  if (e == cudaSuccess && pool_bytes) {
    e = cudaMemPoolGetAttribute (pool, cudaMemPoolAttrReservedMemCurrent, &pool_bytes[0]);
    if (e == cudaSuccess)
      e = cudaMemPoolGetAttribute (pool, cudaMemPoolAttrUsedMemCurrent, &pool_bytes[1]);
  }
  cudaStreamDestroy (s);
  cudaMemPoolSetAttribute (pool, cudaMemPoolAttrReleaseThreshold, &zero);
  cudaMemPoolTrimTo (pool, 0);
  return e == cudaSuccess ? 0 : k_cost_fail ("cudaMallocAsync", e, err, errlen);
}

int
ms_k_cost_sample (int device, int what, uint64_t bytes, uint64_t keep_bytes, double *alloc_us,
                  double *free_us, uint64_t pool[2], char *err, size_t errlen)
{
  *alloc_us = *free_us = 0;
  if (pool)
    pool[0] = pool[1] = 0;
  if (what == MS_K_COST_CONTEXT_FIRST || what == MS_K_COST_CONTEXT)
    return k_cost_context (device, what == MS_K_COST_CONTEXT, alloc_us, err, errlen);
  K_COST_CHECK ("cudaSetDevice", cudaSetDevice (device));
  if (what == MS_K_COST_FIRST_MALLOC) {
    /* In a new context: the first allocation sets up the device heap. */
    if (k_cost_context (device, true, alloc_us, err, errlen) != 0)
      return -1;
  }
  if (what == MS_K_COST_FIRST_MALLOC || what == MS_K_COST_DEVICE_MALLOC) {
    void *p = NULL;
    double t = k_now_us ();
    K_COST_CHECK ("cudaMalloc", cudaMalloc (&p, bytes));
    *alloc_us = k_elapsed (t);
    t = k_now_us ();
    K_COST_CHECK ("cudaFree", cudaFree (p));
    *free_us = k_elapsed (t);
    return 0;
  }
  if (what == MS_K_COST_POOL_FIRST || what == MS_K_COST_POOL_RELEASE || what == MS_K_COST_POOL_KEEP)
    return k_cost_pool (device, what, bytes, keep_bytes, alloc_us, free_us, pool, err, errlen);
  return k_cost_host (what, bytes, alloc_us, free_us, err, errlen);
}
