// SPDX-License-Identifier: GPL-3.0-or-later
// plain-host-to-all.cu: the copies of nvbandwidth's host_to_device_memcpy_ce
// (each GPU alone, host to device), host_to_all_memcpy_ce (every GPU at once,
// host to device) and all_to_host_memcpy_ce (every GPU at once, device to
// host), written plainly with none of memsweep's code, to check `memsweep
// host-link` against: each GPU copies between its own pinned host buffer and
// its own memory, held by a spin kernel until all are queued, LOOPS copies
// between one event pair, the median of SAMPLES samples; GB/s = 1e9 B/s, the
// total the sum of the GPUs' rates (as nvbandwidth's SUM).
//
//   plain-host-to-all [MIB [LOOPS [SAMPLES]]]   (default 512 16 5)
#include "plain-common.cuh"

__global__ void
spin (volatile int *go)
{
  long long t0 = clock64 ();
  while (*go == 0 && clock64 () - t0 < 4000000000LL) {
  }
}

struct Gpu {
  void *host, *mem;
  cudaStream_t s;
  cudaEvent_t a, b;
};

static std::vector<double>
run (std::vector<Gpu> &g, const std::vector<int> &which, size_t bytes, bool to_device, int loops,
     int samples, volatile int *go, int *go_dev)
{
  std::vector<std::vector<double>> rates (which.size ());
  for (int k = 0; k < samples + 1; k++) {  // the first is a warm-up
    *go = 0;
    for (int d : which) {
      CHECK (cudaSetDevice (d));
      spin<<<1, 1, 0, g[d].s>>> (go_dev);
      CHECK (cudaGetLastError ());
      CHECK (cudaEventRecord (g[d].a, g[d].s));
      for (int l = 0; l < loops; l++)
        CHECK (cudaMemcpyAsync (to_device ? g[d].mem : g[d].host, to_device ? g[d].host : g[d].mem,
                                bytes, to_device ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost,
                                g[d].s));
      CHECK (cudaEventRecord (g[d].b, g[d].s));
    }
    *go = 1;
    for (size_t i = 0; i < which.size (); i++) {
      float ms = 0;
      CHECK (cudaEventSynchronize (g[which[i]].b));
      CHECK (cudaEventElapsedTime (&ms, g[which[i]].a, g[which[i]].b));
      if (k > 0)
        rates[i].push_back ((double) bytes * loops / (ms * 1e6));
    }
  }
  std::vector<double> med;
  for (auto &r : rates) {
    std::sort (r.begin (), r.end ());
    med.push_back (r[r.size () / 2]);
  }
  return med;
}

static void
report (const char *name, const std::vector<int> &which, const std::vector<double> &r)
{
  double sum = 0;
  printf ("%s:", name);
  for (size_t i = 0; i < r.size (); i++) {
    printf (" gpu%d %.2f", which[i], r[i]);
    sum += r[i];
  }
  printf (" SUM %.2f GB/s\n", sum);
}

int
main (int argc, char **argv)
{
  size_t mib = argc > 1 ? strtoul (argv[1], NULL, 10) : 512;
  int loops = argc > 2 ? atoi (argv[2]) : 16, samples = argc > 3 ? atoi (argv[3]) : 5;
  size_t bytes = mib << 20;
  int n = 0;
  CHECK (cudaGetDeviceCount (&n));
  std::vector<Gpu> g (n);
  int *go = NULL, *go_dev = NULL;
  CHECK (cudaHostAlloc ((void **) &go, sizeof *go, cudaHostAllocMapped | cudaHostAllocPortable));
  CHECK (cudaHostGetDevicePointer ((void **) &go_dev, go, 0));
  std::vector<int> all;
  for (int d = 0; d < n; d++) {
    CHECK (cudaSetDevice (d));
    CHECK (cudaMalloc (&g[d].mem, bytes));
    CHECK (cudaHostAlloc (&g[d].host, bytes, cudaHostAllocPortable));
    memset (g[d].host, 0x5a, bytes);
    CHECK (cudaMemset (g[d].mem, 0x3c, bytes));
    CHECK (cudaStreamCreateWithFlags (&g[d].s, cudaStreamNonBlocking));
    CHECK (cudaEventCreate (&g[d].a));
    CHECK (cudaEventCreate (&g[d].b));
    all.push_back (d);
  }
  printf ("plain-host-to-all: %d GPUs, %zu MiB a copy, %d copies a sample, median of %d\n", n,
          mib, loops, samples);
  std::vector<double> alone;
  for (int d = 0; d < n; d++)
    alone.push_back (run (g, { d }, bytes, true, loops, samples, go, go_dev)[0]);
  report ("host_to_device_memcpy_ce", all, alone);
  report ("host_to_all_memcpy_ce", all, run (g, all, bytes, true, loops, samples, go, go_dev));
  report ("all_to_host_memcpy_ce", all, run (g, all, bytes, false, loops, samples, go, go_dev));
  for (int d = 0; d < n; d++) {
    CHECK (cudaSetDevice (d));
    CHECK (cudaFree (g[d].mem));
    CHECK (cudaFreeHost (g[d].host));
  }
  CHECK (cudaFreeHost (go));
  return 0;
}
