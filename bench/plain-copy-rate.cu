/* SPDX-License-Identifier: GPL-3.0-or-later */
/* plain-copy-rate.cu: the copy engine's rate between pinned host memory
 * and the device, measured the way copy-rate tools publish it, as the
 * yardstick for memsweep's steady-state copy figures (h2d_copy_gbps,
 * d2h_copy_gbps).
 *
 *   plain-copy-rate [TRIALS [EXP...]]     (9, and 20 26: 4 and 256 MiB)
 *
 * Per size (2^EXP floats) and direction, two ways, trial by trial in turn:
 *   latched  a kernel that spins on a flag in mapped host memory holds
 *            the stream while the host queues an event, 16 copies and an
 *            event behind it; the host then lets it go, so no copy waits
 *            on the host to be issued (the method of NVIDIA's nvbandwidth
 *            copy-engine tests);
 *   burst    an event, 16 copies and an event queued on an idle stream,
 *            as memsweep's steady-state copies are.
 * Prints one line per size, direction and way: the median GB/s over the
 * trials (bytes / 1e9 / s). */
#include "plain-common.cuh"

#define COPIES 16

__global__ void
latch (volatile int *flag)
{
  while (*flag == 0)
    ;
}

static double
trial (void *dst, const void *src, size_t bytes, cudaMemcpyKind kind, cudaStream_t s,
       volatile int *flag, int *dflag, bool latched)
{
  cudaEvent_t e0, e1;
  CHECK (cudaEventCreate (&e0));
  CHECK (cudaEventCreate (&e1));
  *flag = 0;
  if (latched)
    latch<<<1, 1, 0, s>>> (dflag);
  CHECK (cudaEventRecord (e0, s));
  for (int k = 0; k < COPIES; k++)
    CHECK (cudaMemcpyAsync (dst, src, bytes, kind, s));
  CHECK (cudaEventRecord (e1, s));
  *flag = 1;
  CHECK (cudaStreamSynchronize (s));
  float ms = 0;
  CHECK (cudaEventElapsedTime (&ms, e0, e1));
  CHECK (cudaEventDestroy (e0));
  CHECK (cudaEventDestroy (e1));
  return (double) bytes * COPIES / (ms * 1e-3) / 1e9;
}

int
main (int argc, char **argv)
{
  int trials = argc > 1 ? atoi (argv[1]) : 9;
  std::vector<int> exps;
  for (int i = 2; i < argc; i++)
    exps.push_back (atoi (argv[i]));
  if (exps.empty ())
    exps = { 20, 26 };
  if (trials < 1) {
    fprintf (stderr, "usage: %s [TRIALS [EXP...]]\n", argv[0]);
    return 2;
  }
  int *flag, *dflag;
  CHECK (cudaHostAlloc (&flag, sizeof *flag, cudaHostAllocMapped));
  CHECK (cudaHostGetDevicePointer (&dflag, flag, 0));
  cudaStream_t s;
  CHECK (cudaStreamCreateWithFlags (&s, cudaStreamNonBlocking));
  for (int e : exps) {
    size_t bytes = ((size_t) 1 << e) * sizeof (float);
    void *h, *d;
    CHECK (cudaMallocHost (&h, bytes));
    CHECK (cudaMalloc (&d, bytes));
    memset (h, 1, bytes);
    CHECK (cudaMemset (d, 2, bytes));
    for (int dir = 0; dir < 2; dir++) {
      void *dst = dir ? h : d;
      const void *src = dir ? d : h;
      cudaMemcpyKind kind = dir ? cudaMemcpyDeviceToHost : cudaMemcpyHostToDevice;
      std::vector<double> rate[2];
      trial (dst, src, bytes, kind, s, flag, dflag, true); /* warm-up */
      for (int t = 0; t < trials; t++)
        for (int way = 0; way < 2; way++)
          rate[way].push_back (trial (dst, src, bytes, kind, s, flag, dflag, way == 0));
      for (int way = 0; way < 2; way++)
        printf ("copy-rate bytes=%zu dir=%s way=%s %.3f\n", bytes, dir ? "d2h" : "h2d",
                way ? "burst" : "latched", plain_median (rate[way]));
    }
    CHECK (cudaFreeHost (h));
    CHECK (cudaFree (d));
  }
  CHECK (cudaStreamDestroy (s));
  CHECK (cudaFreeHost (flag));
  return 0;
}
