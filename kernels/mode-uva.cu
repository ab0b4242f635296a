/* uva: pinned host memory from cudaMallocHost, whose host pointers the
 * kernel dereferences directly: with unified virtual addressing the host
 * and device share one address space, so no device pointer is looked up.
 * The data still crosses PCIe on every access, as with zero-copy. */
#include "ms-k-common.cuh"

MsKStatus
k_run_uva (KCtx *ctx)
{
  size_t bytes = ctx->run->n * sizeof (float);
  float *h[3] = { NULL, NULL, NULL };
  double hs = k_now_us ();

  for (int i = 0; i < 3; i++)
    K_CHECK (ctx, cudaMallocHost (&h[i], bytes));
  k_host_event (ctx, K_ALLOC, hs, 0);
  K_CANCEL_POINT (ctx);

  k_init_phase (ctx, h[0], h[1], h[2]);
  K_CANCEL_POINT (ctx);

  if (!k_timed_kernel (ctx, h[0], h[1], h[2], 0, true))
    goto cleanup;
  K_CANCEL_POINT (ctx);

  k_verify_phase (ctx, h[2]);

cleanup:
  hs = k_now_us ();
  for (int i = 0; i < 3; i++)
    cudaFreeHost (h[i]);
  k_host_event (ctx, K_FREE, hs, 0);
  return k_finish (ctx);
}
