/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-latch.cu: the stream latch, the warm-up spin kernel and the kernel
 * probe (the add kernel timed with and without the latch). An event
 * recorded before a launch fires before the launch reaches the GPU, so a
 * 4 KiB kernel reads 4-12 us where its work is about 2 us; holding the
 * stream until the kernel is queued takes that out (nvbandwidth does the
 * same for copies). */
#include <stdlib.h>
#include <string.h>

#include "ms-data.h"
#include "ms-k-common.cuh"
#include "ms-k-timing.cuh"

/* Per thread: the multi-GPU runner drives one device per thread. */
static thread_local int *k_latch_flag = NULL; /* mapped host memory */
static thread_local int *k_latch_flag_dev = NULL;
static thread_local int k_latch_device = -1;

__device__ static inline uint64_t
k_globaltimer_ns (void)
{
  uint64_t t;
  asm volatile ("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__global__ void
k_latch_kernel (volatile int *flag, uint64_t timeout_ns)
{
  uint64_t t0 = k_globaltimer_ns ();
  while (*flag == 0 && k_globaltimer_ns () - t0 < timeout_ns)
    ;
}

__global__ void
k_spin_kernel (uint64_t ns)
{
  uint64_t t0 = k_globaltimer_ns ();
  while (k_globaltimer_ns () - t0 < ns)
    ;
}

void
k_latch_shutdown (void)
{
  if (k_latch_flag)
    cudaFreeHost (k_latch_flag);
  k_latch_flag = NULL;
  k_latch_flag_dev = NULL;
  k_latch_device = -1;
}

cudaError_t
k_latch_hold (int device, cudaStream_t stream)
{
  cudaError_t err;
  if (k_latch_device != device) {
    k_latch_shutdown ();
    err = cudaHostAlloc (&k_latch_flag, sizeof (int), cudaHostAllocMapped);
    if (err != cudaSuccess) {
      k_latch_flag = NULL;
      return err;
    }
    err = cudaHostGetDevicePointer (&k_latch_flag_dev, k_latch_flag, 0);
    if (err != cudaSuccess) {
      k_latch_shutdown ();
      return err;
    }
    k_latch_device = device;
  }
  __atomic_store_n (k_latch_flag, 0, __ATOMIC_RELEASE);
  k_latch_kernel<<<1, 1, 0, stream>>> (k_latch_flag_dev, K_LATCH_TIMEOUT_MS * 1000000ull);
  return cudaGetLastError ();
}

void
k_latch_release (void)
{
  if (k_latch_flag)
    __atomic_store_n (k_latch_flag, 1, __ATOMIC_RELEASE);
}

int
ms_k_spin (int device, double ms, char *err, size_t errlen)
{
  int sms = 0;
  cudaError_t e = cudaSetDevice (device);
  if (e == cudaSuccess)
    e = cudaDeviceGetAttribute (&sms, cudaDevAttrMultiProcessorCount, device);
  if (e == cudaSuccess) {
    k_spin_kernel<<<sms > 0 ? 2 * sms : 1, 128>>> ((uint64_t) (ms * 1e6));
    e = cudaGetLastError ();
  }
  if (e == cudaSuccess)
    e = cudaDeviceSynchronize ();
  if (e != cudaSuccess) {
    snprintf (err, errlen, "spin kernel: %s (%s)", cudaGetErrorString (e), cudaGetErrorName (e));
    return -1;
  }
  return 0;
}

/* One sample of the add kernel: with the latch or with the events around
 * the launch as before. */
static cudaError_t
k_probe_sample (float *const d[3], uint64_t n, bool latched, cudaStream_t st, cudaEvent_t e0,
                cudaEvent_t e1, int device, double *gpu_us, double *launch_us)
{
  cudaError_t err = latched ? k_latch_hold (device, st) : cudaSuccess;
  if (err == cudaSuccess)
    err = cudaEventRecord (e0, st);
  double hs = k_now_us ();
  if (err == cudaSuccess) {
    k_launch_add (d[0], d[1], d[2], n, st);
    err = cudaGetLastError ();
  }
  *launch_us = k_now_us () - hs;
  if (err == cudaSuccess)
    err = cudaEventRecord (e1, st);
  if (latched)
    k_latch_release ();
  float ms = 0;
  if (err == cudaSuccess)
    err = cudaStreamSynchronize (st);
  if (err == cudaSuccess)
    err = cudaEventElapsedTime (&ms, e0, e1);
  *gpu_us = ms * 1e3;
  return err;
}

int
ms_k_kernel_probe (int device, uint64_t n, int samples, double *latched_us,
                   double *unlatched_us, double *launch_us, char *errbuf, size_t errlen)
{
  float *d[3] = { NULL, NULL, NULL };
  cudaStream_t st = NULL;
  cudaEvent_t e0 = NULL, e1 = NULL;
  double *v = (double *) calloc (3 * (size_t) (samples > 0 ? samples : 1), sizeof (double));
  cudaError_t err = v && samples > 0 ? cudaSetDevice (device) : cudaErrorInvalidValue;
  for (int i = 0; i < 3 && err == cudaSuccess; i++)
    err = cudaMalloc (&d[i], n * sizeof (float));
  if (err == cudaSuccess)
    err = cudaStreamCreateWithFlags (&st, cudaStreamNonBlocking);
  if (err == cudaSuccess)
    err = cudaEventCreate (&e0);
  if (err == cudaSuccess)
    err = cudaEventCreate (&e1);
  if (err == cudaSuccess) {
    k_launch_fill (d[0], d[1], n, st);
    err = cudaGetLastError ();
  }
  /* Interleaved, after a few discarded warm-up samples of each kind. */
  for (int s = -3; s < samples && err == cudaSuccess; s++) {
    double g, l, dummy;
    err = k_probe_sample (d, n, true, st, e0, e1, device, &g, &l);
    if (err == cudaSuccess && s >= 0) {
      v[s] = g;
      v[2 * samples + s] = l;
    }
    if (err == cudaSuccess)
      err = k_probe_sample (d, n, false, st, e0, e1, device, &g, &dummy);
    if (err == cudaSuccess && s >= 0)
      v[samples + s] = g;
  }
  if (err == cudaSuccess) {
    *latched_us = k_median (v, samples);
    *unlatched_us = k_median (v + samples, samples);
    *launch_us = k_median (v + 2 * samples, samples);
  } else {
    snprintf (errbuf, errlen, "kernel probe: %s", cudaGetErrorString (err));
  }
  if (e0) cudaEventDestroy (e0);
  if (e1) cudaEventDestroy (e1);
  if (st) cudaStreamDestroy (st);
  for (int i = 0; i < 3; i++)
    if (d[i]) cudaFree (d[i]);
  free (v);
  return err == cudaSuccess ? 0 : -1;
}
