/* pageable: malloc'd host buffers, cudaMemcpy through the driver's hidden
 * pinned staging buffer. */
#include <stdlib.h>

#include "ms-k-common.cuh"

MsKStatus
k_run_pageable (KCtx *ctx)
{
  size_t bytes = ctx->run->n * sizeof (float);
  float *ha = NULL, *hb = NULL, *hc = NULL, *da = NULL, *db = NULL, *dc = NULL;
  double hs = k_now_us ();

  ha = (float *) malloc (bytes);
  hb = (float *) malloc (bytes);
  hc = (float *) malloc (bytes);
  if (!ha || !hb || !hc) {
    k_fail_msg (ctx, "malloc: out of host memory");
    goto cleanup;
  }
  K_CHECK (ctx, cudaMalloc (&da, bytes));
  K_CHECK (ctx, cudaMalloc (&db, bytes));
  K_CHECK (ctx, cudaMalloc (&dc, bytes));
  k_host_event (ctx, K_ALLOC, hs, 0);
  K_CANCEL_POINT (ctx);

  k_init_phase (ctx, ha, hb, hc);
  K_CANCEL_POINT (ctx);

  if (!k_explicit_copies (ctx, ha, hb, hc, da, db, dc, false))
    goto cleanup;
  K_CANCEL_POINT (ctx);

  k_verify_phase (ctx, hc);

cleanup:
  hs = k_now_us ();
  free (ha);
  free (hb);
  free (hc);
  cudaFree (da);
  cudaFree (db);
  cudaFree (dc);
  k_host_event (ctx, K_FREE, hs, 0);
  return k_finish (ctx);
}
