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
 * Then host to host at each size, by the host clock, trial by trial in
 * turn: cudaMemcpy between two pinned buffers, cudaMemcpy between two
 * malloc'd ones, and memcpy between those on this one thread: where
 * cudaMemcpy keeps memcpy's rate, the CPU copies on the calling thread
 * (the copy-kinds lesson's host-to-host rows; a teacher asked why they
 * were slower than the link beside them).
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

/* Host to host at bytes, the three ways in turn (see above). */
static void
host_to_host (size_t bytes, int trials)
{
  void *p[2], *m[2];
  for (int i = 0; i < 2; i++) {
    CHECK (cudaMallocHost (&p[i], bytes));
    m[i] = malloc (bytes);
    if (!m[i])
      exit (1);
    memset (p[i], i + 1, bytes);
    memset (m[i], i + 1, bytes);
  }
  const char *names[3] = { "cudaMemcpy-pinned", "cudaMemcpy-pageable", "memcpy" };
  std::vector<double> rate[3];
  for (int t = -1; t < trials; t++) /* -1: warm-up */
    for (int way = 0; way < 3; way++) {
      double t0 = plain_now_us ();
      if (way == 2)
        memcpy (m[1], m[0], bytes);
      else
        CHECK (cudaMemcpy (way ? m[1] : p[1], way ? m[0] : p[0], bytes, cudaMemcpyHostToHost));
      double us = plain_now_us () - t0;
      if (t >= 0)
        rate[way].push_back ((double) bytes / us * 1e-3);
    }
  for (int way = 0; way < 3; way++)
    printf ("copy-rate bytes=%zu dir=h2h way=%s %.3f\n", bytes, names[way],
            plain_median (rate[way]));
  for (int i = 0; i < 2; i++) {
    CHECK (cudaFreeHost (p[i]));
    free (m[i]);
  }
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
    host_to_host (bytes, trials);
  }
  CHECK (cudaStreamDestroy (s));
  CHECK (cudaFreeHost (flag));
  return 0;
}
