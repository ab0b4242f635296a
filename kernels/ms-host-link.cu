// SPDX-License-Identifier: GPL-3.0-or-later
// ms-host-link.cu: the host link under several GPUs at once (ms-k-host-link.h):
// copies only, each GPU's between its own pinned host buffer and its own
// memory, every GPU held by a spin kernel until all are queued, so that
// they start together (as nvbandwidth's copy-engine tests do); each GPU
// timed by its own event pair.
#include <cuda_runtime.h>
#include <stdio.h>
#include <string.h>

#include "ms-k-host-link.h"
#include "ms-k-stats.h"

namespace {

struct Gpu {
  int dev;
  void *host[2], *mem[2];
  cudaStream_t stream[2];
  cudaEvent_t start, stop, side_done;
};

// Spins until *go, or about two seconds of the GPU's clock have passed
// (so a host that never lets go cannot hang the GPU).
__global__ void
hold (volatile int *go, long long limit)
{
  long long t0 = clock64 ();
  while (*go == 0 && clock64 () - t0 < limit) {
  }
}

bool
fail (cudaError_t e, const char *what, char *err, size_t errlen)
{
  if (e == cudaSuccess)
    return false;
  snprintf (err, errlen, "%s: %s", what, cudaGetErrorString (e));
  return true;
}

#define HL_CHECK(call)                                                        \
  do {                                                                        \
    if (fail ((call), #call, err, errlen))                                    \
      return false;                                                           \
  } while (0)

bool
set_up (Gpu *g, size_t bytes, int sides, char *err, size_t errlen)
{
  HL_CHECK (cudaSetDevice (g->dev));
  for (int s = 0; s < sides; s++) {
    HL_CHECK (cudaMalloc (&g->mem[s], bytes));
    HL_CHECK (cudaHostAlloc (&g->host[s], bytes, cudaHostAllocPortable));
    // Written before timing (first touch, PITFALLS 2), not zeros (PITFALLS 9).
    memset (g->host[s], 0x5a + s, bytes);
    HL_CHECK (cudaMemset (g->mem[s], 0x3c + s, bytes));
    HL_CHECK (cudaStreamCreateWithFlags (&g->stream[s], cudaStreamNonBlocking));
  }
  HL_CHECK (cudaEventCreate (&g->start));
  HL_CHECK (cudaEventCreate (&g->stop));
  HL_CHECK (cudaEventCreateWithFlags (&g->side_done, cudaEventDisableTiming));
  return true;
}

void
tear_down (Gpu *g)
{
  cudaSetDevice (g->dev);
  for (int s = 0; s < 2; s++) {
    if (g->stream[s])
      cudaStreamDestroy (g->stream[s]);
    cudaFree (g->mem[s]);
    cudaFreeHost (g->host[s]);
  }
  if (g->start)
    cudaEventDestroy (g->start);
  if (g->stop)
    cudaEventDestroy (g->stop);
  if (g->side_done)
    cudaEventDestroy (g->side_done);
}

// Queues one timed sample on g behind the hold kernel: reps copies on
// stream 0 (h2d, or d2h), and with `both` reps d2h on stream 1 at once.
bool
queue (Gpu *g, size_t bytes, int direction, int reps, int *go_dev, char *err, size_t errlen)
{
  HL_CHECK (cudaSetDevice (g->dev));
  hold<<<1, 1, 0, g->stream[0]>>> (go_dev, 4000000000LL);
  HL_CHECK (cudaGetLastError ());
  HL_CHECK (cudaEventRecord (g->start, g->stream[0]));
  bool both = direction == MS_K_HOST_LINK_BOTH;
  if (both)
    HL_CHECK (cudaStreamWaitEvent (g->stream[1], g->start, 0));
  for (int r = 0; r < reps; r++) {
    bool to_device = direction != MS_K_HOST_LINK_D2H;
    HL_CHECK (cudaMemcpyAsync (to_device ? g->mem[0] : g->host[0],
                               to_device ? g->host[0] : g->mem[0], bytes,
                               to_device ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost,
                               g->stream[0]));
    if (both)
      HL_CHECK (cudaMemcpyAsync (g->host[1], g->mem[1], bytes, cudaMemcpyDeviceToHost,
                                 g->stream[1]));
  }
  if (both) {
    HL_CHECK (cudaEventRecord (g->side_done, g->stream[1]));
    HL_CHECK (cudaStreamWaitEvent (g->stream[0], g->side_done, 0));
  }
  HL_CHECK (cudaEventRecord (g->stop, g->stream[0]));
  return true;
}

bool
sample (Gpu *gpus, int n, size_t bytes, int direction, int reps, volatile int *go, int *go_dev,
        double *gbps, char *err, size_t errlen)
{
  *go = 0;
  for (int i = 0; i < n; i++)
    if (!queue (&gpus[i], bytes, direction, reps, go_dev, err, errlen))
      return false;
  *go = 1;
  for (int i = 0; i < n; i++) {
    float ms = 0;
    HL_CHECK (cudaSetDevice (gpus[i].dev));
    HL_CHECK (cudaEventSynchronize (gpus[i].stop));
    HL_CHECK (cudaEventElapsedTime (&ms, gpus[i].start, gpus[i].stop));
    double moved = (double) bytes * reps * (direction == MS_K_HOST_LINK_BOTH ? 2 : 1);
    gbps[i] = ms > 0 ? moved / (ms * 1e6) : 0;
  }
  return true;
}

}  // namespace

extern "C" int
ms_k_host_link (const int *devices, int n, uint64_t bytes, int direction, int reps,
                int samples, double *gbps, char *err, size_t errlen)
{
  Gpu gpus[MS_K_HOST_LINK_MAX];
  double s[MS_K_HOST_LINK_MAX];
  int *go = NULL, *go_dev = NULL, ok = 0;
  int sides = direction == MS_K_HOST_LINK_BOTH ? 2 : 1;
  if (n < 1 || n > MS_K_HOST_LINK_MAX || reps < 1 || samples < 1) {
    snprintf (err, errlen, "bad arguments");
    return 0;
  }
  memset (gpus, 0, sizeof gpus);
  for (int i = 0; i < n; i++) {
    gpus[i].dev = devices[i];
    gbps[i] = 0;
  }
  if (fail (cudaHostAlloc ((void **) &go, sizeof *go, cudaHostAllocMapped | cudaHostAllocPortable),
            "cudaHostAlloc (flag)", err, errlen) ||
      fail (cudaHostGetDevicePointer ((void **) &go_dev, go, 0), "cudaHostGetDevicePointer",
            err, errlen))
    goto out;
  for (int i = 0; i < n; i++)
    if (!set_up (&gpus[i], bytes, sides, err, errlen))
      goto out;
  // One sample to warm up, then the median GPU by GPU of the rest.
  if (!sample (gpus, n, bytes, direction, 1, go, go_dev, s, err, errlen))
    goto out;
  {
    double all[MS_K_HOST_LINK_MAX][MS_K_HOST_LINK_SAMPLES];
    int k = samples < MS_K_HOST_LINK_SAMPLES ? samples : MS_K_HOST_LINK_SAMPLES;
    for (int j = 0; j < k; j++) {
      if (!sample (gpus, n, bytes, direction, reps, go, go_dev, s, err, errlen))
        goto out;
      for (int i = 0; i < n; i++)
        all[i][j] = s[i];
    }
    for (int i = 0; i < n; i++)
      gbps[i] = k_median (all[i], k);
  }
  ok = 1;
out:
  for (int i = 0; i < n; i++)
    tear_down (&gpus[i]);
  if (go)
    cudaFreeHost (go);
  return ok;
}
