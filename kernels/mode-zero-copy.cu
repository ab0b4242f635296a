/* SPDX-License-Identifier: GPL-3.0-or-later */
/* zero-copy: mapped pinned host memory; the kernel reads a and b and writes
 * c across PCIe through device pointers from cudaHostGetDevicePointer. No
 * explicit copies; every kernel access crosses the bus (nothing is cached
 * on the device), so a kernel that read twice would pay twice. */
#include "ms-k-common.cuh"

static bool
zero_copy_alloc (KCtx *ctx, KBuffers *b)
{
  b->host_kind = K_HOST_CUDA;
  for (int i = 0; i < 3; i++) {
    K_CHECK (ctx, cudaHostAlloc (&b->h[i], ctx->run->n * sizeof (float), cudaHostAllocMapped));
    K_CHECK (ctx, cudaHostGetDevicePointer ((void **) &b->d[i], b->h[i], 0));
  }
  /* Read-only (reuse lesson): the result goes to device memory. */
  if (ctx->run->access == K_ACCESS_READ)
    K_CHECK (ctx, cudaMalloc (&b->scratch, ctx->run->n * sizeof (float)));
  return true;
}

static bool
zero_copy_rep (KCtx *ctx, KBuffers *b)
{
  if (b->scratch)
    return k_rep_read_only (ctx, b);
  return k_rep_kernel_on_host_memory (ctx, b->d[0], b->d[1], b->d[2], b);
}

extern "C" const KMode ms_k_mode_zero_copy = { zero_copy_alloc, zero_copy_rep };
