/* write-combined: the inputs a and b, which the host only writes, live in
 * write-combined pinned memory (no CPU caching, faster across PCIe). The
 * output c is ordinary pinned memory: the host reads it to verify, and CPU
 * reads from write-combined memory are one to two orders of magnitude
 * slower. Verification never reads a or b back (it recomputes them). */
#include "ms-k-common.cuh"

MsKStatus
k_run_write_combined (KCtx *ctx)
{
  size_t bytes = ctx->run->n * sizeof (float);
  float *ha = NULL, *hb = NULL, *hc = NULL, *da = NULL, *db = NULL, *dc = NULL;
  double hs = k_now_us ();

  K_CHECK (ctx, cudaHostAlloc (&ha, bytes, cudaHostAllocWriteCombined));
  K_CHECK (ctx, cudaHostAlloc (&hb, bytes, cudaHostAllocWriteCombined));
  K_CHECK (ctx, cudaMallocHost (&hc, bytes));
  K_CHECK (ctx, cudaMalloc (&da, bytes));
  K_CHECK (ctx, cudaMalloc (&db, bytes));
  K_CHECK (ctx, cudaMalloc (&dc, bytes));
  k_host_event (ctx, K_ALLOC, hs, 0);
  K_CANCEL_POINT (ctx);

  k_init_phase (ctx, ha, hb, hc);
  K_CANCEL_POINT (ctx);

  if (!k_explicit_copies (ctx, ha, hb, hc, da, db, dc, true))
    goto cleanup;
  K_CANCEL_POINT (ctx);

  k_verify_phase (ctx, hc);

cleanup:
  hs = k_now_us ();
  cudaFreeHost (ha);
  cudaFreeHost (hb);
  cudaFreeHost (hc);
  cudaFree (da);
  cudaFree (db);
  cudaFree (dc);
  k_host_event (ctx, K_FREE, hs, 0);
  return k_finish (ctx);
}
