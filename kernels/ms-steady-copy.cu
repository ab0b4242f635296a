/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-steady-copy.cu: what the link delivers for a size when copies follow
 * each other (several back-to-back copies between one event pair), to show
 * beside the pipeline's single copy, whose figure includes the per-copy
 * start-up cost. */
#include "ms-k-common.cuh"
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

/* Registered memory is page-locked only inside a repetition: lock it again
 * for the bursts (untimed), so they copy what the mode copies. */
static cudaError_t
k_bursts_register (KBuffers *b, size_t bytes, bool on)
{
  cudaError_t err = cudaSuccess;
  for (int i = 0; i < 3; i += 2) {
    if (on && !b->registered[i]) {
      err = cudaHostRegister (b->h[i], bytes, cudaHostRegisterDefault);
      b->registered[i] = err == cudaSuccess;
    } else if (!on && b->registered[i]) {
      b->registered[i] = false;
      err = cudaHostUnregister (b->h[i]);
    }
    if (err != cudaSuccess)
      return err;
  }
  return err;
}

static cudaError_t
k_bursts (KBuffers *b, size_t bytes, int samples, int burst, MsKCopy *out)
{
  cudaEvent_t e0 = NULL, e1 = NULL;
  cudaError_t err = cudaEventCreate (&e0);
  if (err == cudaSuccess)
    err = cudaEventCreate (&e1);
  /* h2d and d2h alternate, so that a drifting clock touches both alike. */
  for (int s = 0; s < 2 * samples && err == cudaSuccess; s++) {
    bool to_dev = s % 2 == 0;
    MsKCopy *c = &out[s];
    c->to_device = to_dev;
    c->bytes = (uint64_t) burst * bytes;
    /* The legacy default stream, as the repetitions use. */
    err = to_dev ? k_copy_burst (b->d[0], b->h[0], bytes, cudaMemcpyHostToDevice, burst, 0, e0,
                                 e1, &c->gpu_us)
                 : k_copy_burst (b->h[2], b->d[2], bytes, cudaMemcpyDeviceToHost, burst, 0, e0,
                                 e1, &c->gpu_us);
  }
  if (e0)
    cudaEventDestroy (e0);
  if (e1)
    cudaEventDestroy (e1);
  return err;
}

MsKStatus
ms_k_cell_copy_bursts (MsKCell *cell, int samples, int burst, MsKCopy *out)
{
  MsKNamedMode mode = cell->run->named;
  if (mode == MS_K_MODE_OTHER)
    return MS_K_UNSUPPORTED;
  cell->run->n_events = 0;
  cell->run->e2e_us = -1;
  /* The copies back overwrite the poisoned result. */
  cell->bufs.c_poisoned = false;
  size_t bytes = cell->run->n * sizeof (float);
  cudaError_t err =
    mode == MS_K_MODE_REGISTERED ? k_bursts_register (&cell->bufs, bytes, true) : cudaSuccess;
  if (err == cudaSuccess)
    err = k_bursts (&cell->bufs, bytes, samples, burst, out);
  if (mode == MS_K_MODE_REGISTERED) {
    cudaError_t unreg = k_bursts_register (&cell->bufs, bytes, false);
    err = err == cudaSuccess ? unreg : err;
  }
  if (err != cudaSuccess) {
    k_fail (cell, "cudaMemcpyAsync (steady-state copies)", err);
    return MS_K_FAILED;
  }
  return MS_K_OK;
}
