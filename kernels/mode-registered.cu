/* registered: ordinary malloc'd buffers page-locked after the fact with
 * cudaHostRegister. Registering and unregistering are timed as phases of
 * their own because they cost about as much as the copies they enable. */
#include <stdlib.h>

#include "ms-k-common.cuh"

MsKStatus
k_run_registered (KCtx *ctx)
{
  size_t bytes = ctx->run->n * sizeof (float);
  float *h[3] = { NULL, NULL, NULL };
  bool registered[3] = { false, false, false };
  float *da = NULL, *db = NULL, *dc = NULL;
  double hs = k_now_us ();

  for (int i = 0; i < 3; i++) {
    h[i] = (float *) malloc (bytes);
    if (!h[i]) {
      k_fail_msg (ctx, "malloc: out of host memory");
      goto cleanup;
    }
  }
  K_CHECK (ctx, cudaMalloc (&da, bytes));
  K_CHECK (ctx, cudaMalloc (&db, bytes));
  K_CHECK (ctx, cudaMalloc (&dc, bytes));
  k_host_event (ctx, K_ALLOC, hs, 0);
  K_CANCEL_POINT (ctx);

  /* First touch before registering, so registering measures pinning alone. */
  k_init_phase (ctx, h[0], h[1], h[2]);
  K_CANCEL_POINT (ctx);

  hs = k_now_us ();
  for (int i = 0; i < 3; i++) {
    K_CHECK (ctx, cudaHostRegister (h[i], bytes, cudaHostRegisterDefault));
    registered[i] = true;
  }
  k_host_event (ctx, K_REGISTER, hs, 3 * bytes);
  K_CANCEL_POINT (ctx);

  if (!k_explicit_copies (ctx, h[0], h[1], h[2], da, db, dc, true))
    goto cleanup;
  K_CANCEL_POINT (ctx);

  k_verify_phase (ctx, h[2]);

cleanup:
  if (registered[0] || registered[1] || registered[2]) {
    hs = k_now_us ();
    for (int i = 0; i < 3; i++)
      if (registered[i]) {
        cudaError_t err = cudaHostUnregister (h[i]);
        if (err != cudaSuccess)
          k_fail (ctx, "cudaHostUnregister", err);
      }
    k_host_event (ctx, K_UNREGISTER, hs, 3 * bytes);
  }
  hs = k_now_us ();
  for (int i = 0; i < 3; i++)
    free (h[i]);
  cudaFree (da);
  cudaFree (db);
  cudaFree (dc);
  k_host_event (ctx, K_FREE, hs, 0);
  return k_finish (ctx);
}
