/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-k-fail.cu: how a step that failed says so: the first failure of a
 * repetition is kept in its error text (the CUDA call and the runtime's
 * words), later ones only mark it failed. A leaf, called by every step,
 * so that the files of the steps do not call each other for it. */
#include "ms-k-common.cuh"

void
k_fail (KCtx *ctx, const char *what, cudaError_t err)
{
  if (!ctx->failed) {
    /* Keep the call short: "cudaMallocHost(&a, bytes)" -> "cudaMallocHost" */
    char call[64];
    size_t len = strcspn (what, " (");
    if (len >= sizeof call)
      len = sizeof call - 1;
    memcpy (call, what, len);
    call[len] = '\0';
    snprintf (ctx->run->error, sizeof ctx->run->error, "%s: %s (%s)", call,
              cudaGetErrorString (err), cudaGetErrorName (err));
  }
  ctx->failed = true;
}

void
k_fail_msg (KCtx *ctx, const char *msg)
{
  if (!ctx->failed)
    snprintf (ctx->run->error, sizeof ctx->run->error, "%s", msg);
  ctx->failed = true;
}
