/* SPDX-License-Identifier: GPL-3.0-or-later */
/* managed and managed-prefetch: cudaMallocManaged buffers. Each repetition
 * the host writes a and b (so their pages move to the host) and c is
 * poisoned on the device.
 *
 * managed: the kernel faults a and b over page by page; the d2h phase is
 * the host reading c, which faults its pages back.
 * managed-prefetch: cudaMemPrefetchAsync moves a and b to the device before
 * the kernel (prefetch phase) and c back to the host after it (d2h phase),
 * so the kernel and the host read run without faults. Needs
 * concurrentManagedAccess (checked by the engine before running). */
#include "ms-k-common.cuh"
#include "ms-um-counters.h"

static cudaError_t
k_prefetch (const void *ptr, size_t bytes, int device, bool to_host, cudaStream_t stream)
{
#if CUDART_VERSION >= 13000
  cudaMemLocation loc;
  memset (&loc, 0, sizeof loc);
  loc.type = to_host ? cudaMemLocationTypeHost : cudaMemLocationTypeDevice;
  loc.id = to_host ? 0 : device;
  return cudaMemPrefetchAsync (ptr, bytes, loc, 0, stream);
#else
  return cudaMemPrefetchAsync (ptr, bytes, to_host ? cudaCpuDeviceId : device, stream);
#endif
}

/* Reads every element so every page of c comes back to the host. */
static void
k_host_read (const float *c, uint64_t n)
{
  volatile float sink = 0;
  float acc = 0;
  for (uint64_t i = 0; i < n; i++)
    acc += c[i];
  sink = acc;
  (void) sink;
}

static bool
managed_alloc (KCtx *ctx, KBuffers *b)
{
  b->host_kind = K_HOST_MANAGED;
  for (int i = 0; i < 3; i++)
    K_CHECK (ctx, cudaMallocManaged (&b->h[i], ctx->run->n * sizeof (float),
                                     cudaMemAttachGlobal));
  return true;
}

/* The plain window: prefetches, the launch, the prefetch back and one
 * synchronise, or the launch, a synchronise and the host's read. */
static bool
managed_plain_window (KCtx *ctx, KBuffers *b, bool prefetch)
{
  MsKRun *run = ctx->run;
  size_t bytes = run->n * sizeof (float);
  double e2e_start = k_now_us ();
  if (prefetch) {
    K_CHECK (ctx, k_prefetch (b->h[0], bytes, run->device, false, 0));
    K_CHECK (ctx, k_prefetch (b->h[1], bytes, run->device, false, 0));
  }
  k_launch_work (run, b->h[0], b->h[1], b->h[2], 0);
  K_CHECK (ctx, cudaGetLastError ());
  if (prefetch)
    K_CHECK (ctx, k_prefetch (b->h[2], bytes, run->device, true, 0));
  K_CHECK (ctx, cudaStreamSynchronize (0));
  if (!prefetch)
    k_host_read (b->h[2], run->n);
  k_set_e2e (ctx, e2e_start);
  return true;
}

/* The instrumented window: the latch and an event pair around each step. */
static bool
managed_instrumented_window (KCtx *ctx, KBuffers *b, bool prefetch)
{
  MsKRun *run = ctx->run;
  size_t bytes = run->n * sizeof (float);
  double e2e_start = k_now_us (), hs;
  int p;
  if (prefetch) {
    p = k_gpu_begin (ctx, 0);
    K_CHECK (ctx, k_prefetch (b->h[0], bytes, run->device, false, 0));
    K_CHECK (ctx, k_prefetch (b->h[1], bytes, run->device, false, 0));
    k_gpu_end (ctx, p, 0, K_PREFETCH, 1, 0, 2 * bytes);
  }
  if (!k_latched_add (ctx, b->h[0], b->h[1], b->h[2], 0))
    return false;
  if (prefetch) {
    p = k_gpu_begin (ctx, 0);
    K_CHECK (ctx, k_prefetch (b->h[2], bytes, run->device, true, 0));
    k_gpu_end (ctx, p, 0, K_D2H, 1, 0, bytes);
    K_CHECK (ctx, cudaStreamSynchronize (0));
  } else {
    K_CHECK (ctx, cudaStreamSynchronize (0));
    hs = k_now_us ();
    k_host_read (b->h[2], run->n);
    k_host_event (ctx, K_D2H, hs, bytes);
  }
  k_set_e2e (ctx, e2e_start);
  return true;
}

static bool
managed_rep (KCtx *ctx, KBuffers *b, bool prefetch)
{
  MsKRun *run = ctx->run;
  size_t bytes = run->n * sizeof (float);
  double hs = k_now_us ();

  /* The measuring thread alone writes managed pages: written from several
   * CPUs, they went back to the GPU 4-8% slower from 2^18 elements on a
   * lent H100 (docs/measurements.md), a change of what the mode measures. */
  int threads = ms_data_set_threads (1);
  ms_data_fill (b->h[0], b->h[1], run->n);
  ms_data_set_threads (threads);
  K_CHECK (ctx, cudaMemset (b->h[2], MS_POISON_BYTE, bytes));
  K_CHECK (ctx, cudaDeviceSynchronize ());
  k_host_event (ctx, K_INIT, hs, 0);
  K_CANCEL_POINT (ctx);

  if (run->resident && !k_managed_make_resident (ctx, b))
    return false;
  /* A counted repetition (ms-um-counters.h) counts this window only: not
   * the host's init nor the pages made resident before it. */
  ms_k_um_window (1);
  bool ok = k_instrumented (ctx) ? managed_instrumented_window (ctx, b, prefetch)
                                 : managed_plain_window (ctx, b, prefetch);
  ms_k_um_window (0);
  if (!ok)
    return false;
  if (!k_resolve (ctx))
    return false;
  K_CANCEL_POINT (ctx);

  k_verify_phase (ctx, b->h[2]);
  return true;
}

static bool
managed_rep_fault (KCtx *ctx, KBuffers *b)
{
  return managed_rep (ctx, b, false);
}

static bool
managed_rep_prefetch (KCtx *ctx, KBuffers *b)
{
  return managed_rep (ctx, b, true);
}

extern "C" const KMode ms_k_mode_managed = { managed_alloc, managed_rep_fault };
extern "C" const KMode ms_k_mode_managed_prefetch = { managed_alloc, managed_rep_prefetch };
