/* SPDX-License-Identifier: GPL-3.0-or-later */
/* plain-common.cuh: what the minimal programs (bench/plain-*.cu) share:
 * their includes, error checks, the host clock, medians, and the two ways
 * the host writes a buffer. Nothing of memsweep's: these programs are the
 * yardsticks its figures are held to. */
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <time.h>
#include <vector>
#if defined(__x86_64__)
#include <emmintrin.h>
#endif

#define CHECK(x)                                                                                  \
  do {                                                                                            \
    cudaError_t e_ = (x);                                                                         \
    if (e_ != cudaSuccess) {                                                                      \
      fprintf (stderr, "%s: %s\n", #x, cudaGetErrorString (e_));                                  \
      exit (1);                                                                                   \
    }                                                                                             \
  } while (0)

static inline double
plain_now_us (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e6 + ts.tv_nsec * 1e-3;
}

static inline double
plain_median (std::vector<double> v)
{
  if (v.empty ())
    return 0;
  std::sort (v.begin (), v.end ());
  size_t n = v.size ();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Ordinary stores: the lines stay dirty in the CPU cache. */
static inline void
plain_write_ordinary (float *p, uint64_t n, float seed)
{
  for (uint64_t i = 0; i < n; i++)
    p[i] = seed + (float) (i & 1023);
}

/* Streaming stores: the lines go to memory and leave the CPU cache (the
 * way memsweep's fill writes its inputs, on one thread here). */
static inline void
plain_write_streamed (float *p, uint64_t n, float seed)
{
#if defined(__x86_64__)
  uint64_t i = 0;
  while (i < n && ((uintptr_t) (p + i) & 15))
    p[i] = seed + (float) (i & 1023), i++;
  for (; i + 4 <= n; i += 4)
    _mm_stream_ps (p + i, _mm_set_ps (seed + (float) ((i + 3) & 1023),
                                      seed + (float) ((i + 2) & 1023),
                                      seed + (float) ((i + 1) & 1023), seed + (float) (i & 1023)));
  for (; i < n; i++)
    p[i] = seed + (float) (i & 1023);
  _mm_sfence ();
#else
  plain_write_ordinary (p, n, seed);
#endif
}

/* Reads p, as a check of a result does; the sum keeps the loop. */
static inline float
plain_read (const float *p, uint64_t n)
{
  float s = 0;
  for (uint64_t i = 0; i < n; i++)
    s += p[i];
  return s;
}

__global__ void
plain_add (const float *a, const float *b, float *c, uint64_t n)
{
  uint64_t stride = (uint64_t) gridDim.x * blockDim.x;
  for (uint64_t i = (uint64_t) blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    c[i] = a[i] + b[i];
}

/* At most 8192 blocks of 256 threads, grid-stride beyond. */
static inline unsigned
plain_grid (uint64_t n)
{
  uint64_t blocks = (n + 255) / 256;
  return (unsigned) (blocks < 8192 ? (blocks ? blocks : 1) : 8192);
}
