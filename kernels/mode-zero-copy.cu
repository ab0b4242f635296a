/* zero-copy: mapped pinned host memory; the kernel reads a and b and writes
 * c across PCIe through device pointers from cudaHostGetDevicePointer. No
 * explicit copies; every kernel access crosses the bus (nothing is cached
 * on the device), so a kernel that read twice would pay twice. */
#include "ms-k-common.cuh"

MsKStatus
k_run_zero_copy (KCtx *ctx)
{
  size_t bytes = ctx->run->n * sizeof (float);
  float *h[3] = { NULL, NULL, NULL };
  float *d[3] = { NULL, NULL, NULL };
  double hs = k_now_us ();

  for (int i = 0; i < 3; i++) {
    K_CHECK (ctx, cudaHostAlloc (&h[i], bytes, cudaHostAllocMapped));
    K_CHECK (ctx, cudaHostGetDevicePointer ((void **) &d[i], h[i], 0));
  }
  k_host_event (ctx, K_ALLOC, hs, 0);
  K_CANCEL_POINT (ctx);

  k_init_phase (ctx, h[0], h[1], h[2]);
  K_CANCEL_POINT (ctx);

  if (!k_timed_kernel (ctx, d[0], d[1], d[2], 0, true))
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
