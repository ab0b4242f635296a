/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-buffers.cu: where the modes get their plain buffers (malloc'd host
 * memory, cudaMallocHost, cudaMalloc), and two experiments on the
 * run-to-run spread that the engine switches on (engine/run/ms-experiment.h):
 * buffers kept from one cell to the next of the same size, so that every
 * mode of a size copies from memory allocated and first touched once
 * (not anew per cell, each time on other pages); and a burst of copies
 * each way before a cell, to warm the copy engines as the spin kernel
 * warms the SMs. Off, every call is the plain allocation. */
#include <pthread.h>
#include <stdlib.h>

#include "ms-host-mem.h"
#include "ms-k-common.cuh"

enum { K_KEEP_HOST, K_KEEP_PINNED, K_KEEP_DEVICE };

/* Three buffers of each kind per cell, a few cells' worth of room. */
#define K_KEPT_MAX 24

typedef struct {
  void *p;
  size_t bytes;
  int kind, device;
  bool in_use;
} KKept;

static struct {
  int hugepages, keep;
  KKept kept[K_KEPT_MAX];
} k_buf;
static pthread_mutex_t k_buf_lock = PTHREAD_MUTEX_INITIALIZER;

static void
k_kept_free (KKept *k)
{
  int device = -1;
  cudaGetDevice (&device);
  if (k->kind == K_KEEP_HOST)
    free (k->p);
  else if (k->kind == K_KEEP_PINNED)
    cudaFreeHost (k->p);
  else {
    cudaSetDevice (k->device);
    cudaFree (k->p);
    cudaSetDevice (device);
  }
  k->p = NULL;
}

/* A kept buffer of that kind and size, or NULL. Kept buffers of another
 * size go: one size at a time is kept. */
static void *
k_take (int kind, size_t bytes, int device)
{
  void *p = NULL;
  pthread_mutex_lock (&k_buf_lock);
  for (int i = 0; i < K_KEPT_MAX; i++) {
    KKept *k = &k_buf.kept[i];
    if (!k->p || k->in_use || k->kind != kind || k->device != device)
      continue;
    if (k->bytes != bytes)
      k_kept_free (k);
    else if (!p) {
      k->in_use = true;
      p = k->p;
    }
  }
  pthread_mutex_unlock (&k_buf_lock);
  return p;
}

static void
k_note (int kind, void *p, size_t bytes, int device)
{
  pthread_mutex_lock (&k_buf_lock);
  for (int i = 0; i < K_KEPT_MAX && p; i++)
    if (!k_buf.kept[i].p) {
      k_buf.kept[i] = (KKept){ p, bytes, kind, device, true };
      break; /* without room it is an ordinary buffer, freed as usual */
    }
  pthread_mutex_unlock (&k_buf_lock);
}

static cudaError_t
k_get (int kind, float **out, size_t bytes)
{
  int device = 0;
  cudaError_t e = cudaGetDevice (&device);
  bool keep = k_buf.keep && e == cudaSuccess;
  void *p = keep ? k_take (kind, bytes, device) : NULL;
  if (!p) {
    if (kind == K_KEEP_HOST)
      e = (p = ms_host_alloc (bytes, k_buf.hugepages)) ? cudaSuccess : cudaErrorMemoryAllocation;
    else if (kind == K_KEEP_PINNED)
      e = cudaMallocHost (&p, bytes);
    else
      e = cudaMalloc (&p, bytes);
    if (e == cudaSuccess && keep)
      k_note (kind, p, bytes, device);
  }
  *out = (float *) p;
  return e;
}

cudaError_t
k_host_malloc (float **out, size_t bytes)
{
  return k_get (K_KEEP_HOST, out, bytes);
}

cudaError_t
k_pinned_malloc (float **out, size_t bytes)
{
  return k_get (K_KEEP_PINNED, out, bytes);
}

cudaError_t
k_device_malloc (float **out, size_t bytes)
{
  return k_get (K_KEEP_DEVICE, out, bytes);
}

bool
k_buffer_keep (void *p)
{
  bool kept = false;
  pthread_mutex_lock (&k_buf_lock);
  for (int i = 0; i < K_KEPT_MAX && p && !kept; i++)
    if (k_buf.kept[i].p == p && k_buf.kept[i].in_use) {
      k_buf.kept[i].in_use = false;
      kept = true;
    }
  pthread_mutex_unlock (&k_buf_lock);
  return kept;
}

void
ms_k_set_buffer_options (int hugepages, int keep_buffers)
{
  k_buf.hugepages = hugepages;
  k_buf.keep = keep_buffers;
}

void
ms_k_buffers_release (void)
{
  pthread_mutex_lock (&k_buf_lock);
  for (int i = 0; i < K_KEPT_MAX; i++)
    if (k_buf.kept[i].p && !k_buf.kept[i].in_use)
      k_kept_free (&k_buf.kept[i]);
  pthread_mutex_unlock (&k_buf_lock);
}

/* The copy engines' warm-up: 1 MiB each way, back to back on one stream,
 * for about ms. Its buffers are made once per device and kept. */
#define K_WARM_BYTES (1u << 20)
#define K_WARM_DEVICES 64

int
ms_k_copy_warm (int device, double ms, char *err, size_t errlen)
{
  static void *host[K_WARM_DEVICES], *dev[K_WARM_DEVICES];
  static cudaStream_t stream[K_WARM_DEVICES];
  cudaError_t e = device >= 0 && device < K_WARM_DEVICES ? cudaSetDevice (device)
                                                         : cudaErrorInvalidDevice;
  if (e == cudaSuccess && !host[device]) {
    e = cudaMallocHost (&host[device], K_WARM_BYTES);
    if (e == cudaSuccess)
      e = cudaMalloc (&dev[device], K_WARM_BYTES);
    if (e == cudaSuccess)
      e = cudaStreamCreateWithFlags (&stream[device], cudaStreamNonBlocking);
    if (e == cudaSuccess)
      memset (host[device], 0x3f, K_WARM_BYTES); /* not zeros */
  }
  double end = k_now_us () + ms * 1e3;
  while (e == cudaSuccess && k_now_us () < end) {
    for (int i = 0; i < 8 && e == cudaSuccess; i++)
      e = cudaMemcpyAsync (i % 2 ? host[device] : dev[device], i % 2 ? dev[device] : host[device],
                           K_WARM_BYTES, i % 2 ? cudaMemcpyDeviceToHost : cudaMemcpyHostToDevice,
                           stream[device]);
    if (e == cudaSuccess)
      e = cudaStreamSynchronize (stream[device]);
  }
  if (e != cudaSuccess) {
    snprintf (err, errlen, "copy warm-up: %s (%s)", cudaGetErrorString (e), cudaGetErrorName (e));
    return -1;
  }
  return 0;
}
