/* pageable: malloc'd host buffers; cudaMemcpy stages them through the
 * driver's hidden pinned buffer and blocks the host while it does. */
#include <stdlib.h>

#include "ms-k-common.cuh"

static bool
pageable_alloc (KCtx *ctx, KBuffers *b)
{
  b->host_kind = K_HOST_MALLOC;
  for (int i = 0; i < 3; i++)
    if (!(b->h[i] = (float *) malloc (ctx->run->n * sizeof (float)))) {
      k_fail_msg (ctx, "malloc: out of host memory");
      return false;
    }
  return k_alloc_device (ctx, b);
}

const KMode k_mode_pageable = { pageable_alloc, k_rep_explicit_sync };
