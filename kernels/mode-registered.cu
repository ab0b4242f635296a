/* SPDX-License-Identifier: GPL-3.0-or-later */
/* registered: ordinary malloc'd buffers page-locked after the fact with
 * cudaHostRegister. Register and unregister happen in every repetition and
 * are timed as phases of their own: they cost about as much as the copies
 * they enable. */
#include "ms-k-common.cuh"

static bool
registered_rep (KCtx *ctx, KBuffers *b)
{
  size_t bytes = ctx->run->n * sizeof (float);
  double hs;

  /* First touch before registering, so registering measures pinning alone. */
  if (!k_init_phase (ctx, b->h[0], b->h[1], b->h[2]))
    return false;
  K_CANCEL_POINT (ctx);

  hs = k_now_us ();
  for (int i = 0; i < 3; i++) {
    K_CHECK (ctx, cudaHostRegister (b->h[i], bytes, cudaHostRegisterDefault));
    b->registered[i] = true;
  }
  k_host_event (ctx, K_REGISTER, hs, 3 * bytes);
  K_CANCEL_POINT (ctx);

  if (!k_explicit_copies (ctx, b, true))
    return false;
  K_CANCEL_POINT (ctx);
  k_verify_phase (ctx, b->h[2]);

  hs = k_now_us ();
  for (int i = 0; i < 3; i++) {
    b->registered[i] = false;
    K_CHECK (ctx, cudaHostUnregister (b->h[i]));
  }
  k_host_event (ctx, K_UNREGISTER, hs, 3 * bytes);
  return true;
}

extern "C" const KMode ms_k_mode_registered = { k_alloc_malloc_host, registered_rep };
