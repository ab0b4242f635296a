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
    K_CHECK (ctx, cudaMallocHost (&b->h[i], ctx->run->n * sizeof (float)));
  return k_alloc_device (ctx, b);
}

const KMode k_mode_pinned = { pinned_alloc, k_rep_explicit_async };
