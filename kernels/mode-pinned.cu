/* SPDX-License-Identifier: GPL-3.0-or-later */
/* pinned: page-locked host buffers from cudaMallocHost; the copy engine
 * reads and writes them directly, so the copies are queued with
 * cudaMemcpyAsync and the host waits once, at the end. */
#include "ms-k-common.cuh"

static bool
pinned_alloc (KCtx *ctx, KBuffers *b)
{
  b->host_kind = K_HOST_CUDA;
  for (int i = 0; i < 3; i++)
    K_CHECK (ctx, k_pinned_malloc (&b->h[i], ctx->run->n * sizeof (float)));
  return k_alloc_device (ctx, b) && (!ctx->run->duplex || k_duplex_streams (ctx, b));
}

/* The duplex lesson times one vector each way instead of the pipeline. */
static bool
pinned_rep (KCtx *ctx, KBuffers *b)
{
  return ctx->run->duplex ? k_rep_duplex (ctx, b) : k_rep_explicit_async (ctx, b);
}

extern "C" const KMode ms_k_mode_pinned = { pinned_alloc, pinned_rep };
