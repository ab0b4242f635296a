/* device: the on-GPU baseline. a, b and c are filled on the device by a
 * kernel that computes the same inputs as the host; only the add kernel is
 * timed. Verification copies c back as part of the verify phase. At small
 * sizes all three vectors sit in L2, so this is cache and launch time, not
 * HBM bandwidth. */
#include <stdlib.h>

#include "ms-k-common.cuh"

MsKStatus
k_run_device (KCtx *ctx)
{
  size_t bytes = ctx->run->n * sizeof (float);
  float *da = NULL, *db = NULL, *dc = NULL, *check = NULL;
  double hs = k_now_us ();

  K_CHECK (ctx, cudaMalloc (&da, bytes));
  K_CHECK (ctx, cudaMalloc (&db, bytes));
  K_CHECK (ctx, cudaMalloc (&dc, bytes));
  k_host_event (ctx, K_ALLOC, hs, 0);
  K_CANCEL_POINT (ctx);

  hs = k_now_us ();
  k_launch_fill (da, db, ctx->run->n, 0);
  K_CHECK (ctx, cudaGetLastError ());
  K_CHECK (ctx, cudaMemset (dc, MS_POISON_BYTE, bytes));
  K_CHECK (ctx, cudaDeviceSynchronize ());
  k_host_event (ctx, K_INIT, hs, 0);
  K_CANCEL_POINT (ctx);

  if (!k_timed_kernel (ctx, da, db, dc, 0, true))
    goto cleanup;
  K_CANCEL_POINT (ctx);

  hs = k_now_us ();
  check = (float *) malloc (bytes);
  if (!check) {
    k_fail_msg (ctx, "malloc: out of host memory");
    goto cleanup;
  }
  K_CHECK (ctx, cudaMemcpy (check, dc, bytes, cudaMemcpyDeviceToHost));
  ctx->run->mismatches = ms_data_verify (check, ctx->run->n, &ctx->run->first_mismatch);
  k_host_event (ctx, K_VERIFY, hs, 0);

cleanup:
  hs = k_now_us ();
  free (check);
  cudaFree (da);
  cudaFree (db);
  cudaFree (dc);
  k_host_event (ctx, K_FREE, hs, 0);
  return k_finish (ctx);
}
