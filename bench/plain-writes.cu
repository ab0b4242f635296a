/* SPDX-License-Identifier: GPL-3.0-or-later */
/* plain-writes.cu: the reuse lesson's zero-copy accesses done plainly, to
 * hold its figures to: c written to mapped host memory R times, as R
 * kernels that each store it once and as one kernel storing each element
 * R times in a row; a and b read from mapped memory R times, likewise
 * (the result into device memory). A kernel's end flushes its stores to
 * the host; stores in a row to one address may be merged before they
 * cross the link, so the one-kernel form can show a rate above the
 * link's: PITFALLS.md 25.
 *
 *   plain-writes [MIB_PER_VECTOR [REPS]]     (16 and 9)
 *
 * One line per access and R: key=value pairs, times in µs (medians of
 * REPS, the host clock from the first launch to the synchronise) and the
 * rate of R vectors over each time in GB/s (R × c for writes, R × (a + b)
 * for reads), as tools/plain-lessons.py reads them. */
#include "plain-common.cuh"

__global__ void
store_times (float *c, uint64_t n, int times)
{
  volatile float *vc = c;
  uint64_t stride = (uint64_t) gridDim.x * blockDim.x;
  for (uint64_t i = (uint64_t) blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    float v = 1.0f + (float) (i & 1023);
    for (int r = 0; r < times; r++)
      vc[i] = v;
  }
}

__global__ void
load_times (const float *a, const float *b, float *out, uint64_t n, int times)
{
  const volatile float *va = a, *vb = b;
  uint64_t stride = (uint64_t) gridDim.x * blockDim.x;
  for (uint64_t i = (uint64_t) blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    float v = 0;
    for (int r = 0; r < times; r++)
      v += va[i] + vb[i];
    out[i] = v;
  }
}

struct Bufs {
  float *c, *a, *b, *out; /* device views of mapped c, a, b; device out */
  uint64_t n;
};

/* One timed try: `launches` kernels, each accessing every element
 * `per_kernel` times. */
static double
run_once (const Bufs &m, bool writes, int launches, int per_kernel)
{
  double t = plain_now_us ();
  for (int l = 0; l < launches; l++) {
    if (writes)
      store_times<<<plain_grid (m.n), 256>>> (m.c, m.n, per_kernel);
    else
      load_times<<<plain_grid (m.n), 256>>> (m.a, m.b, m.out, m.n, per_kernel);
  }
  CHECK (cudaGetLastError ());
  CHECK (cudaDeviceSynchronize ());
  return plain_now_us () - t;
}

int
main (int argc, char **argv)
{
  double mib = argc > 1 ? atof (argv[1]) : 16;
  int reps = argc > 2 ? atoi (argv[2]) : 9;
  Bufs m;
  m.n = (uint64_t) (mib * 1048576 / sizeof (float));
  float *h[3];
  for (int i = 0; i < 3; i++) {
    CHECK (cudaHostAlloc (&h[i], m.n * sizeof (float), cudaHostAllocMapped));
    plain_write_streamed (h[i], m.n, 1.0f + i);
  }
  CHECK (cudaHostGetDevicePointer ((void **) &m.c, h[0], 0));
  CHECK (cudaHostGetDevicePointer ((void **) &m.a, h[1], 0));
  CHECK (cudaHostGetDevicePointer ((void **) &m.b, h[2], 0));
  CHECK (cudaMalloc (&m.out, m.n * sizeof (float)));
  run_once (m, true, 2, 1); /* warm-up: module load, clocks */
  run_once (m, false, 2, 1);
  double bytes = m.n * sizeof (float);
  printf ("# plain-writes: %.0f MiB per vector, %d repetitions, medians\n", mib, reps);
  for (int w = 1; w >= 0; w--)
    for (int r = 1; r <= 16; r *= 2) {
      std::vector<double> kernels, one;
      for (int k = 0; k < reps; k++) { /* interleaved: drift hits both */
        kernels.push_back (run_once (m, w, r, 1));
        one.push_back (run_once (m, w, 1, r));
      }
      double tk = plain_median (kernels), t1 = plain_median (one);
      double moved = r * bytes * (w ? 1 : 2);
      printf ("access=%s R=%d kernels_us=%.1f one_kernel_us=%.1f kernels_gbps=%.1f "
              "one_kernel_gbps=%.1f\n",
              w ? "write" : "read", r, tk, t1, moved / tk * 1e-3, moved / t1 * 1e-3);
    }
  return 0;
}
