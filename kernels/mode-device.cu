/* SPDX-License-Identifier: GPL-3.0-or-later */
/* device: the on-GPU baseline. a, b and c are filled on the device by a
 * kernel that computes the same inputs as the host; only the add kernel is
 * timed. Verification copies c back as part of the verify phase. At small
 * sizes all three vectors sit in L2, so this is cache and launch time, not
 * HBM bandwidth. */
#include <stdlib.h>

#include "ms-k-common.cuh"

static bool
device_alloc (KCtx *ctx, KBuffers *b)
{
  /* h[2] is the host buffer verification copies c into. */
  b->host_kind = K_HOST_MALLOC;
  if (!(b->h[2] = (float *) malloc (ctx->run->n * sizeof (float)))) {
    k_fail_msg (ctx, "malloc: out of host memory");
    return false;
  }
  return k_alloc_device (ctx, b);
}

static bool
device_rep (KCtx *ctx, KBuffers *b)
{
  size_t bytes = ctx->run->n * sizeof (float);
  double hs = k_now_us ();
  k_launch_fill (b->d[0], b->d[1], ctx->run->n, 0);
  K_CHECK (ctx, cudaGetLastError ());
  K_CHECK (ctx, cudaMemset (b->d[2], MS_POISON_BYTE, bytes));
  K_CHECK (ctx, cudaDeviceSynchronize ());
  k_host_event (ctx, K_INIT, hs, 0);
  K_CANCEL_POINT (ctx);

  if (!k_timed_kernel (ctx, b->d[0], b->d[1], b->d[2], 0))
    return false;
  K_CANCEL_POINT (ctx);

  if (!ctx->run->verify)
    return true;
  hs = k_now_us ();
  K_CHECK (ctx, cudaMemcpy (b->h[2], b->d[2], bytes, cudaMemcpyDeviceToHost));
  ctx->run->mismatches = ms_data_verify (b->h[2], ctx->run->n, &ctx->run->first_mismatch);
  k_host_event (ctx, K_VERIFY, hs, 0);
  return true;
}

extern "C" const KMode ms_k_mode_device = { device_alloc, device_rep };
