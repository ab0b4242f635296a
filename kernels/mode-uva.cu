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
    K_CHECK (ctx, cudaMallocHost (&b->h[i], ctx->run->n * sizeof (float)));
  return true;
}

static bool
uva_rep (KCtx *ctx, KBuffers *b)
{
  k_init_phase (ctx, b->h[0], b->h[1], b->h[2]);
  K_CANCEL_POINT (ctx);
  if (!k_timed_kernel (ctx, b->h[0], b->h[1], b->h[2], 0))
    return false;
  K_CANCEL_POINT (ctx);
  k_verify_phase (ctx, b->h[2]);
  return true;
}

const KMode k_mode_uva = { uva_alloc, uva_rep };
