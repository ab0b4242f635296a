/* SPDX-License-Identifier: GPL-3.0-or-later */
/* streams: pinned buffers split into K chunks on K non-blocking streams.
 * Each chunk is copied in, added and copied out with cudaMemcpyAsync and a
 * kernel on its own stream, so one chunk's copy overlaps another's compute.
 * depth-first issues each stream's three steps in turn; breadth-first
 * issues all copies in, then all kernels, then all copies out. An
 * instrumented repetition records an event pair around every step; a plain
 * one issues the steps alone and synchronises each stream at the end.
 * With spin_us, every step is one block spinning instead (kernels alone,
 * no copies), and the result is made untimed after, to be checked. */
#include "ms-k-common.cuh"
#include "ms-k-probe.cuh"

static bool
streams_alloc (KCtx *ctx, KBuffers *b)
{
  MsKRun *run = ctx->run;
  if (run->streams < 1 || run->streams > K_MAX_STREAMS || (uint64_t) run->streams > run->n) {
    k_fail_msg (ctx, "stream count must be between 1 and the number of elements (at most 64)");
    return false;
  }
  b->host_kind = K_HOST_CUDA;
  for (int i = 0; i < 3; i++)
    K_CHECK (ctx, k_pinned_malloc (&b->h[i], run->n * sizeof (float)));
  if (!k_alloc_device (ctx, b))
    return false;
  for (; b->n_streams < run->streams; b->n_streams++)
    K_CHECK (ctx, cudaStreamCreateWithFlags (&b->streams[b->n_streams], cudaStreamNonBlocking));
  return true;
}

/* The result of kernels alone, made after the timed steps: in, add, back
 * on one stream, so that every cell's add is checked. */
static bool
streams_result (KCtx *ctx, KBuffers *b)
{
  size_t cb = ctx->run->n * sizeof (float);
  cudaStream_t st = b->streams[0];
  K_CHECK (ctx, cudaMemcpyAsync (b->d[0], b->h[0], cb, cudaMemcpyHostToDevice, st));
  K_CHECK (ctx, cudaMemcpyAsync (b->d[1], b->h[1], cb, cudaMemcpyHostToDevice, st));
  k_launch_add (b->d[0], b->d[1], b->d[2], ctx->run->n, st);
  K_CHECK (ctx, cudaGetLastError ());
  K_CHECK (ctx, cudaMemcpyAsync (b->h[2], b->d[2], cb, cudaMemcpyDeviceToHost, st));
  K_CHECK (ctx, cudaStreamSynchronize (st));
  return true;
}

static bool
streams_rep (KCtx *ctx, KBuffers *b)
{
  MsKRun *run = ctx->run;
  const int k = run->streams;
  float *ha = b->h[0], *hb = b->h[1], *hc = b->h[2];
  float *da = b->d[0], *db = b->d[1], *dc = b->d[2];

  if (!k_init_phase (ctx, ha, hb, hc))
    return false;
  K_CANCEL_POINT (ctx);

  double e2e_start = k_now_us ();
  /* step 0: h2d, 1: kernel, 2: d2h; the loop order is the issue order. */
  for (int outer = 0; outer < 3 * k; outer++) {
    int s = run->breadth_first ? outer % k : outer / 3;
    int step = run->breadth_first ? outer / k : outer % 3;
    uint64_t begin = run->n * s / k, end = run->n * (s + 1) / k;
    uint64_t len = end - begin, cb = len * sizeof (float);
    cudaStream_t st = b->streams[s];
    /* Plain: no event pair (k_gpu_end does nothing without one). Kernels alone: around the
     * middle spin only, as a stream's samples have one kernel row a repetition. */
    int p = k_instrumented (ctx) && (run->spin_us <= 0 || step == 1) ? k_gpu_begin (ctx, st) : -1;

    if (run->spin_us > 0) {
      K_CHECK (ctx, kp_spin (st, run->spin_us, 1, 32, 0, NULL));
      k_gpu_end (ctx, p, st, K_KERNEL, s + 1, s, 0);
    } else if (step == 0) {
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
  if (run->host_work)
    k_host_work (ctx);
  for (int s = 0; s < k; s++)
    K_CHECK (ctx, cudaStreamSynchronize (b->streams[s]));
  k_set_e2e (ctx, e2e_start);
  if (!k_resolve (ctx) || (run->spin_us > 0 && !streams_result (ctx, b)))
    return false;
  K_CANCEL_POINT (ctx);

  k_verify_phase (ctx, hc);
  return true;
}

extern "C" const KMode ms_k_mode_streams = { streams_alloc, streams_rep };
