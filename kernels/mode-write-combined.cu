/* SPDX-License-Identifier: GPL-3.0-or-later */
/* write-combined: the inputs a and b, which the host only writes, live in
 * write-combined pinned memory (not cached by the CPU, faster across PCIe).
 * The output c is ordinary pinned memory: the host reads it to verify, and
 * CPU reads from write-combined memory are one to two orders of magnitude
 * slower. Verification never reads a or b back (it recomputes them). */
#include "ms-k-common.cuh"

static bool
write_combined_alloc (KCtx *ctx, KBuffers *b)
{
  size_t bytes = ctx->run->n * sizeof (float);
  b->host_kind = K_HOST_CUDA;
  K_CHECK (ctx, cudaHostAlloc (&b->h[0], bytes, cudaHostAllocWriteCombined));
  K_CHECK (ctx, cudaHostAlloc (&b->h[1], bytes, cudaHostAllocWriteCombined));
  /* The cache-state lesson's read=wc: c write-combined too, so the verify
   * phase is the CPU reading write-combined memory. */
  K_CHECK (ctx, cudaHostAlloc (&b->h[2], bytes,
                               ctx->run->read_wc ? cudaHostAllocWriteCombined : 0));
  return k_alloc_device (ctx, b);
}

extern "C" const KMode ms_k_mode_write_combined = { write_combined_alloc, k_rep_explicit_async };
