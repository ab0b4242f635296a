/* streams: pinned buffers split into K chunks on K non-blocking streams.
 * Each chunk is copied in, added and copied out with cudaMemcpyAsync and a
 * kernel on its own stream, so one chunk's copy overlaps another's compute.
 * depth-first issues each stream's three steps in turn; breadth-first
 * issues all copies in, then all kernels, then all copies out. */
#include "ms-k-common.cuh"

MsKStatus
k_run_streams (KCtx *ctx)
{
  MsKRun *run = ctx->run;
  const int k = run->streams;
  size_t bytes = run->n * sizeof (float);
  float *ha = NULL, *hb = NULL, *hc = NULL, *da = NULL, *db = NULL, *dc = NULL;
  cudaStream_t streams[64];
  int n_streams = 0;
  double hs = k_now_us ();
  double e2e_start;

  if (k < 1 || k > 64 || (uint64_t) k > run->n) {
    k_fail_msg (ctx, "stream count must be between 1 and the number of elements (at most 64)");
    goto cleanup;
  }
  K_CHECK (ctx, cudaMallocHost (&ha, bytes));
  K_CHECK (ctx, cudaMallocHost (&hb, bytes));
  K_CHECK (ctx, cudaMallocHost (&hc, bytes));
  K_CHECK (ctx, cudaMalloc (&da, bytes));
  K_CHECK (ctx, cudaMalloc (&db, bytes));
  K_CHECK (ctx, cudaMalloc (&dc, bytes));
  for (; n_streams < k; n_streams++)
    K_CHECK (ctx, cudaStreamCreateWithFlags (&streams[n_streams], cudaStreamNonBlocking));
  k_host_event (ctx, K_ALLOC, hs, 0);
  K_CANCEL_POINT (ctx);

  k_init_phase (ctx, ha, hb, hc);
  K_CANCEL_POINT (ctx);

  e2e_start = k_now_us ();
  /* step 0: h2d, 1: kernel, 2: d2h; the loop order is the issue order. */
  for (int outer = 0; outer < 3 * k; outer++) {
    int s = run->breadth_first ? outer % k : outer / 3;
    int step = run->breadth_first ? outer / k : outer % 3;
    uint64_t begin = run->n * s / k, end = run->n * (s + 1) / k;
    uint64_t len = end - begin, cb = len * sizeof (float);
    cudaStream_t st = streams[s];
    int p = k_gpu_begin (ctx, st);

    if (step == 0) {
      K_CHECK (ctx, cudaMemcpyAsync (da + begin, ha + begin, cb, cudaMemcpyHostToDevice, st));
      K_CHECK (ctx, cudaMemcpyAsync (db + begin, hb + begin, cb, cudaMemcpyHostToDevice, st));
      k_gpu_end (ctx, p, st, K_H2D, s + 1, s, 2 * cb);
    } else if (step == 1) {
      k_launch_add (da + begin, db + begin, dc + begin, len, st);
      K_CHECK (ctx, cudaGetLastError ());
      k_gpu_end (ctx, p, st, K_KERNEL, s + 1, s, 0);
    } else {
      K_CHECK (ctx, cudaMemcpyAsync (hc + begin, dc + begin, cb, cudaMemcpyDeviceToHost, st));
      k_gpu_end (ctx, p, st, K_D2H, s + 1, s, cb);
    }
  }
  for (int s = 0; s < k; s++)
    K_CHECK (ctx, cudaStreamSynchronize (streams[s]));
  run->e2e_us = k_now_us () - e2e_start;
  if (!k_resolve (ctx))
    goto cleanup;
  K_CANCEL_POINT (ctx);

  k_verify_phase (ctx, hc);

cleanup:
  hs = k_now_us ();
  /* Work may still be queued after an error or a cancel: drain it before
   * freeing what it uses. */
  for (int s = 0; s < n_streams; s++) {
    cudaStreamSynchronize (streams[s]);
    cudaStreamDestroy (streams[s]);
  }
  cudaFreeHost (ha);
  cudaFreeHost (hb);
  cudaFreeHost (hc);
  cudaFree (da);
  cudaFree (db);
  cudaFree (dc);
  k_host_event (ctx, K_FREE, hs, 0);
  return k_finish (ctx);
}
