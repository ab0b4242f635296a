/* SPDX-License-Identifier: GPL-3.0-or-later */
/* lesson-numa.cu: the NUMA-placement lesson's sample. The engine has bound
 * the calling thread to the thread node's CPUs and its new memory to the
 * buffer node (engine/lessons/ms-lesson-numa.c); here the host buffer is mapped
 * and first touched under that policy, checked to be on that node,
 * registered (pinned), and copied once to or from the device. The figure
 * is the host clock around the copy and its synchronisation. */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ms-k-probe.cuh"

/* arg[] of the numa lesson's sample (engine/lessons/ms-lesson-numa.c). */
enum { ARG_DIR, ARG_BUF_NODE, ARG_THR_NODE };
enum { DIR_H2D, DIR_D2H };

/* get_mempolicy's flags (numaif.h is libnuma's). */
#define KP_MPOL_F_NODE 1
#define KP_MPOL_F_ADDR 2

/* The buffers, kept from sample to sample of a cell (registering them in
 * every sample would cost more than the copy): a change of size, device or
 * node makes new ones, ms_k_probe_release (kp_on_release) frees them. Per
 * thread, as ms_k_shutdown releases the calling thread's. */
static thread_local struct {
  int device, node;
  size_t bytes;
  char *host; /* mmap'ed, registered */
  char *dev;
} kept = { -1, -1, 0, NULL, NULL };

static void
kp_numa_release (void)
{
  if (kept.host) {
    cudaHostUnregister (kept.host);
    munmap (kept.host, kept.bytes);
  }
  if (kept.dev)
    cudaFree (kept.dev);
  kept.host = kept.dev = NULL;
  kept.device = kept.node = -1;
  kept.bytes = 0;
}

/* The node of the page at addr, or -1 when the kernel does not say. */
static int
page_node (void *addr)
{
  int node = -1;
  if (syscall (SYS_get_mempolicy, &node, NULL, 0, addr, KP_MPOL_F_NODE | KP_MPOL_F_ADDR) != 0)
    return -1;
  return node;
}

static MsKStatus
keep_buffers (MsKProbe *p)
{
  int node = p->arg[ARG_BUF_NODE];
  if (kept.host && kept.device == p->device && kept.bytes == p->bytes && kept.node == node)
    return MS_K_OK;
  kp_numa_release ();
  size_t free_b = 0, all = 0;
  KP_CHECK (p, cudaMemGetInfo (&free_b, &all));
  long pages = sysconf (_SC_PHYS_PAGES), page = sysconf (_SC_PAGESIZE);
  double host = pages > 0 && page > 0 ? (double)pages * (double)page : 0;
  if (p->bytes > free_b / 4 || (host > 0 && (double)p->bytes > host / 8))
    return kp_unsupported (p, "%llu MiB is more than a safe share of the memory",
                           (unsigned long long)(p->bytes >> 20));
  kp_on_release (kp_numa_release);
  void *h = mmap (NULL, p->bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (h == MAP_FAILED)
    return kp_unsupported (p, "no host memory for %llu MiB", (unsigned long long)(p->bytes >> 20));
  kept.host = (char *)h;
  kept.bytes = p->bytes;
  kept.device = p->device;
  kept.node = node;
  /* First touch under the thread's policy places every page; distinct
   * non-zero bytes. */
  for (size_t i = 0; i < p->bytes; i++)
    kept.host[i] = (char)(1 + i % 251);
  int first = page_node (kept.host), last = page_node (kept.host + p->bytes - 1);
  if (node >= 0 && first >= 0 && (first != node || last != node)) {
    kp_numa_release ();
    return kp_unsupported (p, "the buffer's pages landed on node %d and %d, not on node %d", first,
                           last, node);
  }
  cudaError_t e = cudaHostRegister (kept.host, p->bytes, cudaHostRegisterDefault);
  if (e != cudaSuccess) {
    munmap (kept.host, kept.bytes);
    kept.host = NULL;
    kp_numa_release ();
    return kp_fail (p, "cudaHostRegister", e);
  }
  KP_CHECK (p, cudaMalloc ((void **)&kept.dev, p->bytes));
  return MS_K_OK;
}

KP_LESSON_SAMPLE (numa)
{
  if (p->bytes == 0 || p->bytes > (1ull << 30))
    return kp_unsupported (p, "%llu bytes is outside 1 byte..1 GiB", (unsigned long long)p->bytes);
  MsKStatus ks = keep_buffers (p);
  if (ks != MS_K_OK)
    return ks;
  bool h2d = p->arg[ARG_DIR] == DIR_H2D;
  cudaStream_t stream;
  KP_CHECK (p, cudaStreamCreateWithFlags (&stream, cudaStreamNonBlocking));
  cudaError_t e = cudaDeviceSynchronize ();
  if (e == cudaSuccess) {
    double t0 = kp_now_us ();
    e = cudaMemcpyAsync (h2d ? (void *)kept.dev : (void *)kept.host,
                         h2d ? (const void *)kept.host : (const void *)kept.dev, p->bytes,
                         h2d ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost, stream);
    if (e == cudaSuccess)
      e = cudaStreamSynchronize (stream);
    p->value_us = kp_now_us () - t0;
    if (e == cudaSuccess)
      kp_event (p, h2d ? KP_H2D : KP_D2H, 1, 0, p->value_us, -1, -1, p->bytes);
  }
  cudaStreamDestroy (stream);
  return e == cudaSuccess ? MS_K_OK : kp_fail (p, h2d ? "the h2d copy" : "the d2h copy", e);
}
