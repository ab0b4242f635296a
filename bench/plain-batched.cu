/* SPDX-License-Identifier: GPL-3.0-or-later */
/* plain-batched.cu: the batched lesson done plainly, with the time the
 * call itself takes beside the whole: 256 host-to-device copies of one
 * size, from pinned or pageable memory, one cudaMemcpyAsync each or one
 * cudaMemcpyBatchAsync (source-access order: stream), the host clock from
 * the first call to its return ("call") and to the stream synchronised
 * ("total"). Where the call takes nearly the whole, the copies were done
 * (or the data taken) before it returned; where it returns early, a copy
 * engine does them after. The yardstick for where the lesson's ratio jumps.
 *
 *   plain-batched [REPS]     (21)
 *
 * Prints one line per memory, size and call: the medians in µs per copy. */
#include "plain-common.cuh"

#define COUNT 256

struct Times {
  double call, total;
};

#if CUDART_VERSION >= 13000
static Times
one (bool batch, char *src, char *dev, size_t bytes, cudaStream_t st)
{
  void *dsts[COUNT], *srcs[COUNT];
  size_t sizes[COUNT];
  for (int i = 0; i < COUNT; i++)
    dsts[i] = dev + i * bytes, srcs[i] = src + i * bytes, sizes[i] = bytes;
  CHECK (cudaDeviceSynchronize ());
  double t0 = plain_now_us ();
  if (batch) {
    cudaMemcpyAttributes attr;
    memset (&attr, 0, sizeof attr);
    attr.srcAccessOrder = cudaMemcpySrcAccessOrderStream;
    attr.srcLocHint.type = cudaMemLocationTypeHost;
    attr.dstLocHint.type = cudaMemLocationTypeDevice;
    size_t first = 0;
    CHECK (cudaMemcpyBatchAsync (dsts, (const void *const *) srcs, sizes, COUNT, &attr, &first, 1,
                                 st));
  } else
    for (int i = 0; i < COUNT; i++)
      CHECK (cudaMemcpyAsync (dsts[i], srcs[i], bytes, cudaMemcpyHostToDevice, st));
  double t1 = plain_now_us ();
  CHECK (cudaStreamSynchronize (st));
  return { t1 - t0, plain_now_us () - t0 };
}
#endif

int
main (int argc, char **argv)
{
#if CUDART_VERSION < 13000
  /* The 13.0 form of the call (no failIdx), as kernels/lesson-batched.cu. */
  (void) argc, (void) argv;
  printf ("unsupported: built with CUDA %d.%d; this program calls the 13.0 cudaMemcpyBatchAsync\n",
          CUDART_VERSION / 1000, CUDART_VERSION % 1000 / 10);
  return 0;
#else
  int reps = argc > 1 ? atoi (argv[1]) : 21;
  const size_t most = COUNT * (64 << 10);
  char *pinned, *dev, *pageable = (char *) malloc (most);
  CHECK (cudaMallocHost (&pinned, most));
  CHECK (cudaMalloc (&dev, most));
  for (size_t i = 0; i < most; i++)
    pinned[i] = pageable[i] = (char) (1 + i % 251);
  cudaStream_t st;
  CHECK (cudaStreamCreateWithFlags (&st, cudaStreamNonBlocking));
  for (int m = 0; m < 2; m++)
    for (size_t bytes = 1 << 10; bytes <= 64 << 10; bytes *= 2)
      for (int batch = 0; batch < 2; batch++) {
        std::vector<double> call, total;
        for (int r = -3; r < reps; r++) {
          Times t = one (batch, m ? pageable : pinned, dev, bytes, st);
          if (r >= 0)
            call.push_back (t.call / COUNT), total.push_back (t.total / COUNT);
        }
        printf ("memory=%s KiB=%zu call=%s call_us=%.3f total_us=%.3f call_share=%.2f\n",
                m ? "pageable" : "pinned", bytes >> 10, batch ? "batch" : "each",
                plain_median (call), plain_median (total),
                plain_median (call) / plain_median (total));
      }
  return 0;
#endif
}
