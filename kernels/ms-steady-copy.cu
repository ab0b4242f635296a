/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-steady-copy.cu: what the link delivers for a size when copies follow
 * each other (several back-to-back copies between one event pair), to show
 * beside the pipeline's single copy, whose figure includes the per-copy
 * start-up cost. */
#include "ms-k-timing.cuh"

cudaError_t
k_copy_burst (void *dst, const void *src, size_t bytes, cudaMemcpyKind kind, int copies,
              cudaStream_t stream, cudaEvent_t e0, cudaEvent_t e1, double *us)
{
  float ms = 0;
  cudaError_t e = cudaEventRecord (e0, stream);
  for (int k = 0; k < copies && e == cudaSuccess; k++)
    e = cudaMemcpyAsync (dst, src, bytes, kind, stream);
  if (e == cudaSuccess)
    e = cudaEventRecord (e1, stream);
  if (e == cudaSuccess)
    e = cudaEventSynchronize (e1);
  if (e == cudaSuccess)
    e = cudaEventElapsedTime (&ms, e0, e1);
  *us = ms * 1e3;
  return e;
}
