/* SPDX-License-Identifier: GPL-3.0-or-later */
/* uva: pinned host memory from cudaMallocHost, whose host pointers the
 * kernel dereferences directly: with unified virtual addressing host and
 * device share one address space, so no device pointer is looked up. The
 * data still crosses PCIe on every access, as with zero-copy. */
#include "ms-k-common.cuh"

static bool
uva_alloc (KCtx *ctx, KBuffers *b)
{
  b->host_kind = K_HOST_CUDA;
  for (int i = 0; i < 3; i++)
    K_CHECK (ctx, k_pinned_malloc (&b->h[i], ctx->run->n * sizeof (float)));
  return true;
}

static bool
uva_rep (KCtx *ctx, KBuffers *b)
{
  return k_rep_kernel_on_host_memory (ctx, b->h[0], b->h[1], b->h[2], b);
}

extern "C" const KMode ms_k_mode_uva = { uva_alloc, uva_rep };
