// SPDX-License-Identifier: GPL-3.0-or-later
// first-copy.cu: is a pinned copy to the device slower when it is the first
// from a new cudaMallocHost buffer or into a new cudaMalloc buffer, as each
// of the pin-payoff lesson's copy samples is? One cudaMemcpy host to device
// at a time, timed with the host clock around the copy and a synchronisation
// (the lesson's way) and with events around the copy alone.
// nvcc -O2 -o first-copy first-copy.cu && ./first-copy [reps]
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_us (void)
{
  struct timespec t;
  clock_gettime (CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static int cmp (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf (stderr, "%s: %s\n", #x, cudaGetErrorString (e_)); exit (1); } } while (0)

/* One copy: host-clock and event times in us. */
static void copy_once (void *d, const void *h, size_t n, cudaEvent_t e0, cudaEvent_t e1, double *host, double *dev)
{
  CK (cudaDeviceSynchronize ());
  double t0 = now_us ();
  CK (cudaEventRecord (e0, 0));
  CK (cudaMemcpy (d, h, n, cudaMemcpyHostToDevice));
  CK (cudaEventRecord (e1, 0));
  CK (cudaDeviceSynchronize ());
  *host = now_us () - t0;
  float ms;
  CK (cudaEventElapsedTime (&ms, e0, e1));
  *dev = ms * 1e3;
}

static void report (const char *name, size_t n, double *h, double *d, int reps)
{
  qsort (h, reps, sizeof *h, cmp);
  qsort (d, reps, sizeof *d, cmp);
  double mb = n / 1e3;
  printf ("%-44s %4zu MiB  host %8.1f us (%6.1f-%6.1f) %5.1f GB/s  events %8.1f us (%6.1f-%6.1f) %5.1f GB/s\n",
          name, n >> 20, h[reps / 2], h[0], h[reps - 1], mb / h[reps / 2], d[reps / 2], d[0], d[reps - 1],
          mb / d[reps / 2]);
}

int main (int argc, char **argv)
{
  int reps = argc > 1 ? atoi (argv[1]) : 15;
  cudaEvent_t e0, e1;
  CK (cudaFree (0));
  CK (cudaEventCreate (&e0));
  CK (cudaEventCreate (&e1));
  double *h1 = (double *) calloc (reps, sizeof (double)), *d1 = (double *) calloc (reps, sizeof (double));
  double *h2 = (double *) calloc (reps, sizeof (double)), *d2 = (double *) calloc (reps, sizeof (double));
  double *h3 = (double *) calloc (reps, sizeof (double)), *d3 = (double *) calloc (reps, sizeof (double));
  double *h4 = (double *) calloc (reps, sizeof (double)), *d4 = (double *) calloc (reps, sizeof (double));
  double *h5 = (double *) calloc (reps, sizeof (double)), *d5 = (double *) calloc (reps, sizeof (double));
  size_t sizes[] = { (size_t) 4 << 20, (size_t) 16 << 20 };
  for (int s = 0; s < 2; s++) {
    size_t n = sizes[s];
    void *kh, *kd;
    CK (cudaMallocHost (&kh, n));
    CK (cudaMalloc (&kd, n));
    memset (kh, 1, n);
    double x, y;
    copy_once (kd, kh, n, e0, e1, &x, &y); /* kept pair warmed */
    for (int r = 0; r < reps; r++) {
      void *h, *d;
      /* A: new pinned buffer, new device buffer, first copy (the lesson's sample) */
      CK (cudaMallocHost (&h, n));
      CK (cudaMalloc (&d, n));
      copy_once (d, h, n, e0, e1, &h1[r], &d1[r]);
      /* B: the same pair's second copy */
      copy_once (d, h, n, e0, e1, &h2[r], &d2[r]);
      CK (cudaFree (d));
      CK (cudaFreeHost (h));
      /* C: new pinned buffer into the kept device buffer */
      CK (cudaMallocHost (&h, n));
      copy_once (kd, h, n, e0, e1, &h3[r], &d3[r]);
      CK (cudaFreeHost (h));
      /* D: the kept pinned buffer into a new device buffer */
      CK (cudaMalloc (&d, n));
      copy_once (d, kh, n, e0, e1, &h4[r], &d4[r]);
      CK (cudaFree (d));
      /* E: the kept pair, steady */
      copy_once (kd, kh, n, e0, e1, &h5[r], &d5[r]);
    }
    report ("A new pinned, new device: first copy", n, h1, d1, reps);
    report ("B the same pair: second copy", n, h2, d2, reps);
    report ("C new pinned, kept device buffer", n, h3, d3, reps);
    report ("D kept pinned, new device buffer", n, h4, d4, reps);
    report ("E kept pinned, kept device buffer", n, h5, d5, reps);
    CK (cudaFree (kd));
    CK (cudaFreeHost (kh));
  }
  return 0;
}
