/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-work.cu: the work a repetition launches on the GPU: the vector add,
 * the inputs' fill on the device, and the reuse lesson's kernel that
 * touches each element R times (k_launch_work picks). A leaf that every
 * mode, the latch and the lessons call, so that none of them calls back
 * into another to launch. */
#include "ms-k-common.cuh"

__global__ void
k_add_kernel (const float *__restrict__ a, const float *__restrict__ b, float *__restrict__ c,
              uint64_t n)
{
  uint64_t stride = (uint64_t) gridDim.x * blockDim.x;
  for (uint64_t i = (uint64_t) blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    c[i] = a[i] + b[i];
}

__global__ void
k_fill_kernel (float *a, float *b, uint64_t n)
{
  uint64_t stride = (uint64_t) gridDim.x * blockDim.x;
  for (uint64_t i = (uint64_t) blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    a[i] = ms_data_a (i);
    b[i] = ms_data_b (i);
  }
}

static unsigned
k_blocks_for (uint64_t n)
{
  uint64_t blocks = (n + 255) / 256;
  /* Enough blocks to fill any current GPU; the loop strides over the rest. */
  return (unsigned) (blocks < 8192 ? (blocks ? blocks : 1) : 8192);
}

void
k_launch_add (const float *a, const float *b, float *c, uint64_t n, cudaStream_t stream)
{
  k_add_kernel<<<k_blocks_for (n), 256, 0, stream>>> (a, b, c, n);
}

void
k_launch_fill (float *a, float *b, uint64_t n, cudaStream_t stream)
{
  k_fill_kernel<<<k_blocks_for (n), 256, 0, stream>>> (a, b, n);
}

/* Volatile accesses: the compiler must issue every one of the R loads (or
 * stores), so the memory behind the pointers is accessed R times; ld.volatile
 * also skips L1, where a zero-copy line would otherwise be reused. R stores
 * in a row to one mapped address can still be merged before they cross the
 * link (PITFALLS.md 25), hence the writes' own launches below. */
__global__ void
k_reuse_kernel (const float *a, const float *b, float *c, uint64_t n, int reuse, int access)
{
  uint64_t stride = (uint64_t) gridDim.x * blockDim.x;
  for (uint64_t i = (uint64_t) blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    if (access == K_ACCESS_WRITE || access == K_ACCESS_WRITE_IN_KERNEL) {
      volatile float *vc = c;
      float v = ms_data_a (i) + ms_data_b (i);
      for (int r = 0; r < reuse; r++)
        vc[i] = v;
    } else {
      const volatile float *va = a, *vb = b;
      float v = 0;
      for (int r = 0; r < reuse; r++)
        v = va[i] + vb[i];
      c[i] = v;
    }
  }
}

void
k_launch_work (const MsKRun *run, const float *a, const float *b, float *c, cudaStream_t stream)
{
  if (run->reuse <= 0) {
    k_launch_add (a, b, c, run->n, stream);
    return;
  }
  unsigned grid = k_blocks_for (run->n);
  /* Writes only: c written to the host R times is R kernels that each
   * store it once; a kernel's end flushes its stores, so each pass
   * crosses the link whole. The in-kernel form stores R times per element
   * in one kernel, the form the link may see fewer bytes of. */
  if (run->access == K_ACCESS_WRITE) {
    for (int r = 0; r < run->reuse; r++)
      k_reuse_kernel<<<grid, 256, 0, stream>>> (a, b, c, run->n, 1, run->access);
    return;
  }
  k_reuse_kernel<<<grid, 256, 0, stream>>> (a, b, c, run->n, run->reuse, run->access);
}
