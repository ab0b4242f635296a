/* SPDX-License-Identifier: GPL-3.0-or-later */
/* lesson-pin-payoff.cu: the pin-payoff lesson's sample: one step of one
 * kind of host buffer at one size. Setup: mmap and the first touch of
 * every page (pageable with fresh pages), malloc and a write to every page
 * after one malloc, write and free of the same size (pageable from a
 * reused heap), cudaMallocHost (pinned), cudaHostRegister on a touched
 * fresh pageable buffer (registered), cudaMallocFromPoolAsync and a
 * synchronisation from a host memory pool (pool-first: a new pool that
 * keeps nothing; pool-kept: a pool that keeps everything and has served
 * the size once). Release: munmap, free, cudaFreeHost, cudaHostUnregister,
 * cudaFreeAsync and a synchronisation. Copy: one cudaMemcpy host to device
 * and one synchronisation. Where the driver has no host memory pools the
 * pool cells say so and the rest is measured.
 * The figure is the host clock around the step alone. A sample never takes
 * more than arg[ARG_MAX_PCT] % of MemAvailable, nor half the free device
 * memory: a larger size is skipped and says so.
 *
 * The second panel's steps measure while a share of the host's memory
 * (arg[ARG_HELD_PERMILLE] per mille of MemTotal) is held pinned: one
 * cudaMallocHost of the cell's size, or one cudaMemcpy from a pageable
 * buffer. Pinning stops short of leaving less than a quarter of MemTotal
 * (at least 2 GiB) available, and says so. */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ms-host-mem.h"
#include "ms-k-probe.cuh"

/* arg[] of the pin-payoff lesson's sample (engine/lessons/ms-lesson-pin-payoff.c). */
enum { ARG_STEP, ARG_MAX_PCT, ARG_KIND, ARG_HELD_PERMILLE };
enum { STEP_SETUP, STEP_RELEASE, STEP_COPY, STEP_HELD_ALLOC, STEP_HELD_COPY };
enum { KIND_PAGEABLE, KIND_PINNED, KIND_REGISTERED, KIND_REUSED, KIND_POOL_FIRST, KIND_POOL_KEPT,
       N_KINDS };

static MsKStatus
check_room (MsKProbe *p)
{
  unsigned long long avail = ms_host_meminfo ("MemAvailable:");
  int pct = p->arg[ARG_MAX_PCT] > 0 ? p->arg[ARG_MAX_PCT] : 25;
  if (avail == 0)
    return kp_unsupported (p, "skipped: /proc/meminfo gives no MemAvailable to stay within");
  if (p->bytes > avail / 100 * (unsigned long long) pct)
    return kp_unsupported (p, "skipped: %llu MiB is more than %d%% of MemAvailable (%llu MiB)",
                           (unsigned long long) (p->bytes >> 20), pct, avail >> 20);
  size_t free_b = 0, total_b = 0;
  KP_CHECK (p, cudaMemGetInfo (&free_b, &total_b));
  if (p->arg[ARG_STEP] == STEP_COPY && p->bytes > free_b / 2)
    return kp_unsupported (p, "skipped: %llu MiB is more than half the free device memory",
                           (unsigned long long) (p->bytes >> 20));
  return MS_K_OK;
}

/* A pageable buffer with every page touched; NULL when none. */
static char *
pageable_new (size_t bytes)
{
  void *m = mmap (NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED)
    return NULL;
  char *b = (char *) m;
  long page = sysconf (_SC_PAGESIZE);
  for (size_t i = 0; i < bytes; i += (size_t) (page > 0 ? page : 4096))
    b[i] = 1;
  return b;
}

/* A malloc'd buffer with every page written; NULL when none. */
static char *
heap_new (size_t bytes)
{
  char *b = (char *) malloc (bytes);
  long page = sysconf (_SC_PAGESIZE);
  for (size_t i = 0; b && i < bytes; i += (size_t) (page > 0 ? page : 4096))
    b[i] = 1;
  return b;
}

typedef struct {
  char *pageable;   /* mmap'd */
  char *heap;       /* malloc'd */
  char *pinned;     /* cudaMallocHost */
  bool registered;  /* pageable is registered */
  cudaMemPool_t pool;
  cudaStream_t stream; /* the pool's allocations are ordered on it */
  char *pooled;        /* from the pool */
  void *dev;
} Held;

static void
release (Held *h, size_t bytes)
{
  if (h->registered)
    cudaHostUnregister (h->pageable);
  if (h->pageable)
    munmap (h->pageable, bytes);
  free (h->heap);
  if (h->pinned)
    cudaFreeHost (h->pinned);
  if (h->pooled)
    cudaFreeAsync (h->pooled, h->stream);
  if (h->stream)
    cudaStreamSynchronize (h->stream);
  if (h->pool)
    cudaMemPoolDestroy (h->pool);
  if (h->stream)
    cudaStreamDestroy (h->stream);
  if (h->dev)
    cudaFree (h->dev);
  memset (h, 0, sizeof *h);
}

static bool
is_pool (const MsKProbe *p)
{
  return p->arg[ARG_KIND] == KIND_POOL_FIRST || p->arg[ARG_KIND] == KIND_POOL_KEPT;
}

/* Whether the device and driver have pools of pinned host memory; says
 * why not in p. */
static MsKStatus
check_host_pools (MsKProbe *p)
{
  int pools = 0, host = 0;
  KP_CHECK (p, cudaDeviceGetAttribute (&pools, cudaDevAttrMemoryPoolsSupported, p->device));
  if (pools)
    KP_CHECK (p, cudaDeviceGetAttribute (&host, cudaDevAttrHostMemoryPoolsSupported, p->device));
  if (!pools || !host)
    return kp_unsupported (p, "unsupported: this device and driver have no %s memory pools",
                           pools ? "host" : "stream-ordered");
  return MS_K_OK;
}

/* A pool of pinned host memory that the device can read, and a stream to
 * order its allocations on. The pool keeps freed memory up to threshold
 * bytes at a synchronisation. */
static MsKStatus
pool_new (MsKProbe *p, Held *h, unsigned long long threshold)
{
  MsKStatus ks = check_host_pools (p);
  if (ks != MS_K_OK)
    return ks;
  cudaMemPoolProps props;
  memset (&props, 0, sizeof props);
  props.allocType = cudaMemAllocationTypePinned;
  props.handleTypes = cudaMemHandleTypeNone;
  props.location.type = cudaMemLocationTypeHost;
  props.location.id = 0;
  cudaError_t e = cudaMemPoolCreate (&h->pool, &props);
  if (e != cudaSuccess) {
    h->pool = NULL;
    cudaGetLastError ();
    return kp_unsupported (p, "unsupported: creating a host memory pool failed: %s",
                           cudaGetErrorString (e));
  }
  cudaMemAccessDesc access;
  memset (&access, 0, sizeof access);
  access.location.type = cudaMemLocationTypeDevice;
  access.location.id = p->device;
  access.flags = cudaMemAccessFlagsProtReadWrite;
  e = cudaMemPoolSetAccess (h->pool, &access, 1);
  if (e != cudaSuccess) {
    cudaGetLastError ();
    return kp_unsupported (p, "unsupported: the device cannot be given access to a host memory "
                              "pool: %s",
                           cudaGetErrorString (e));
  }
  KP_CHECK (p, cudaMemPoolSetAttribute (h->pool, cudaMemPoolAttrReleaseThreshold, &threshold));
  KP_CHECK (p, cudaStreamCreateWithFlags (&h->stream, cudaStreamNonBlocking));
  return MS_K_OK;
}

static cudaError_t
pool_get (Held *h, size_t bytes)
{
  cudaError_t e = cudaMallocFromPoolAsync ((void **) &h->pooled, bytes, h->pool, h->stream);
  return e == cudaSuccess ? cudaStreamSynchronize (h->stream) : e;
}

static cudaError_t
pool_put (Held *h)
{
  cudaError_t e = cudaFreeAsync (h->pooled, h->stream);
  h->pooled = NULL;
  return e == cudaSuccess ? cudaStreamSynchronize (h->stream) : e;
}

/* Setup and release: the step alone between two host clock readings. */
static MsKStatus
time_setup_release (MsKProbe *p, Held *h)
{
  bool setup = p->arg[ARG_STEP] == STEP_SETUP;
  double t0, t1;
  cudaError_t e = cudaSuccess;
  if (p->arg[ARG_KIND] == KIND_PAGEABLE) {
    t0 = kp_now_us ();
    h->pageable = setup ? pageable_new (p->bytes) : h->pageable;
    if (!setup) {
      munmap (h->pageable, p->bytes);
      h->pageable = NULL;
    }
    t1 = kp_now_us ();
    if (setup && !h->pageable)
      return kp_unsupported (p, "mmap of %llu bytes failed", (unsigned long long) p->bytes);
  } else if (p->arg[ARG_KIND] == KIND_REUSED) {
    t0 = kp_now_us ();
    h->heap = setup ? heap_new (p->bytes) : h->heap;
    if (!setup) {
      free (h->heap);
      h->heap = NULL;
    }
    t1 = kp_now_us ();
    if (setup && !h->heap)
      return kp_unsupported (p, "malloc of %llu bytes failed", (unsigned long long) p->bytes);
  } else if (is_pool (p)) {
    t0 = kp_now_us ();
    e = setup ? pool_get (h, p->bytes) : pool_put (h);
    t1 = kp_now_us ();
  } else if (p->arg[ARG_KIND] == KIND_PINNED) {
    t0 = kp_now_us ();
    e = setup ? cudaMallocHost ((void **) &h->pinned, p->bytes) : cudaFreeHost (h->pinned);
    t1 = kp_now_us ();
    if (!setup)
      h->pinned = NULL;
  } else {
    t0 = kp_now_us ();
    e = setup ? cudaHostRegister (h->pageable, p->bytes, cudaHostRegisterDefault)
              : cudaHostUnregister (h->pageable);
    t1 = kp_now_us ();
    h->registered = setup && e == cudaSuccess;
  }
  if (e != cudaSuccess)
    return kp_fail (p, setup ? "the setup" : "the release", e);
  p->value_us = t1 - t0;
  kp_event (p, KP_CALL, 0, 0, t1 - t0, -1, 0, p->bytes);
  return MS_K_OK;
}

/* What the step needs beforehand: the buffer for a release or a copy, the
 * pageable buffer that registration pins. */
static MsKStatus
prepare (MsKProbe *p, Held *h)
{
  int step = p->arg[ARG_STEP];
  if (p->arg[ARG_KIND] == KIND_REUSED) {
    /* The heap has served the size once, as in a program that does the
     * same work again. */
    free (heap_new (p->bytes));
    h->heap = step != STEP_SETUP ? heap_new (p->bytes) : NULL;
    if (step != STEP_SETUP && !h->heap)
      return kp_unsupported (p, "malloc of %llu bytes failed", (unsigned long long) p->bytes);
  } else if (is_pool (p)) {
    bool kept = p->arg[ARG_KIND] == KIND_POOL_KEPT;
    MsKStatus ks = pool_new (p, h, kept ? ~0ull : 0);
    if (ks != MS_K_OK)
      return ks;
    /* The steady state: the pool has served the size once and kept it. */
    if (kept) {
      KP_CHECK (p, pool_get (h, p->bytes));
      KP_CHECK (p, pool_put (h));
    }
    if (step != STEP_SETUP)
      KP_CHECK (p, pool_get (h, p->bytes));
  } else if (p->arg[ARG_KIND] == KIND_PINNED) {
    if (step != STEP_SETUP)
      KP_CHECK (p, cudaMallocHost ((void **) &h->pinned, p->bytes));
  } else {
    if ((p->arg[ARG_KIND] == KIND_PAGEABLE && step != STEP_SETUP) || p->arg[ARG_KIND] == KIND_REGISTERED) {
      h->pageable = pageable_new (p->bytes);
      if (!h->pageable)
        return kp_unsupported (p, "mmap of %llu bytes failed", (unsigned long long) p->bytes);
    }
    if (p->arg[ARG_KIND] == KIND_REGISTERED && step != STEP_SETUP) {
      KP_CHECK (p, cudaHostRegister (h->pageable, p->bytes, cudaHostRegisterDefault));
      h->registered = true;
    }
  }
  if (step == STEP_COPY)
    KP_CHECK (p, cudaMalloc (&h->dev, p->bytes));
  return MS_K_OK;
}

static MsKStatus
time_copy (MsKProbe *p, Held *h)
{
  const void *src = h->pinned   ? (const void *) h->pinned
                    : h->pooled ? (const void *) h->pooled
                    : h->heap   ? (const void *) h->heap
                                : (const void *) h->pageable;
  cudaEvent_t ev[2] = { NULL, NULL };
  if (p->instrumented) {
    KP_CHECK (p, cudaEventCreate (&ev[0]));
    cudaError_t e = cudaEventCreate (&ev[1]);
    if (e != cudaSuccess) {
      cudaEventDestroy (ev[0]);
      return kp_fail (p, "cudaEventCreate", e);
    }
  }
  cudaError_t e = cudaDeviceSynchronize ();
  double t0 = kp_now_us ();
  if (e == cudaSuccess && ev[0])
    e = cudaEventRecord (ev[0], 0);
  if (e == cudaSuccess)
    e = cudaMemcpy (h->dev, src, p->bytes, cudaMemcpyHostToDevice);
  if (e == cudaSuccess && ev[1])
    e = cudaEventRecord (ev[1], 0);
  if (e == cudaSuccess)
    e = cudaDeviceSynchronize ();
  double t1 = kp_now_us ();
  float ms = 0;
  if (e == cudaSuccess && ev[0] && cudaEventElapsedTime (&ms, ev[0], ev[1]) == cudaSuccess) {
    kp_event (p, KP_CALL, 0, 0, t1 - t0, -1, 0, 0);
    kp_event (p, KP_H2D, 1, -1, 0, 0, ms * 1e3, p->bytes);
  }
  for (int i = 0; i < 2; i++)
    if (ev[i])
      cudaEventDestroy (ev[i]);
  if (e != cudaSuccess)
    return kp_fail (p, "the copy", e);
  p->value_us = t1 - t0;
  return MS_K_OK;
}

/* The second panel's pinned memory: grown in chunks up to the cell's share,
 * kept from cell to cell (the shares only grow), freed by
 * ms_k_probe_release (kp_on_release). Per thread, as ms_k_shutdown
 * releases the calling thread's. Its part runs in a process of its own,
 * which gives everything back when it ends, whatever happened. */
#define HELD_CHUNK (256ull << 20)
static thread_local struct {
  int device;
  unsigned long long bytes;
  void **chunks;
  int n, cap;
} held = { -1, 0, NULL, 0, 0 };

static void
kp_pin_held_release (void)
{
  for (int i = 0; i < held.n; i++)
    cudaFreeHost (held.chunks[i]);
  free (held.chunks);
  memset (&held, 0, sizeof held);
  held.device = -1;
}

static MsKStatus
hold_pinned (MsKProbe *p, unsigned long long target)
{
  if (held.device != p->device || held.bytes > target)
    kp_pin_held_release ();
  held.device = p->device;
  kp_on_release (kp_pin_held_release);
  unsigned long long total = ms_host_meminfo ("MemTotal:");
  unsigned long long floor = total / 4 > (2ull << 30) ? total / 4 : 2ull << 30;
  while (held.bytes < target) {
    unsigned long long chunk = target - held.bytes < HELD_CHUNK ? target - held.bytes : HELD_CHUNK;
    unsigned long long avail = ms_host_meminfo ("MemAvailable:");
    if (avail < floor + chunk)
      return kp_unsupported (p, "skipped: pinning %llu MiB would leave less than %llu MiB "
                                "available (%llu MiB are)",
                             target >> 20, floor >> 20, avail >> 20);
    if (held.n == held.cap) {
      int cap = held.cap ? 2 * held.cap : 64;
      void **grown = (void **) realloc (held.chunks, sizeof *grown * (size_t) cap);
      if (!grown)
        return kp_unsupported (p, "out of host memory for the list of pinned chunks");
      held.chunks = grown;
      held.cap = cap;
    }
    KP_CHECK (p, cudaMallocHost (&held.chunks[held.n], chunk));
    held.n++;
    held.bytes += chunk;
  }
  return MS_K_OK;
}

/* One cudaMallocHost of the cell's size, or one copy from a pageable
 * buffer, with the cell's share of the host's memory held pinned. */
static MsKStatus
held_sample (MsKProbe *p)
{
  int permille = p->arg[ARG_HELD_PERMILLE];
  unsigned long long total = ms_host_meminfo ("MemTotal:");
  if (total == 0)
    return kp_unsupported (p, "skipped: /proc/meminfo gives no MemTotal to take a share of");
  if (permille < 0 || permille > 250)
    return kp_unsupported (p, "a held share of %d per mille is outside 0..250", permille);
  MsKStatus ks = hold_pinned (p, total / 1000 * (unsigned long long) permille);
  if (ks != MS_K_OK)
    return ks;
  if (p->arg[ARG_STEP] == STEP_HELD_ALLOC) {
    void *buf = NULL;
    double t0 = kp_now_us ();
    cudaError_t e = cudaMallocHost (&buf, p->bytes);
    double t1 = kp_now_us ();
    if (e != cudaSuccess)
      return kp_fail (p, "cudaMallocHost", e);
    cudaFreeHost (buf);
    p->value_us = t1 - t0;
    kp_event (p, KP_CALL, 0, 0, t1 - t0, -1, 0, p->bytes);
    return MS_K_OK;
  }
  Held h;
  memset (&h, 0, sizeof h);
  h.pageable = pageable_new (p->bytes);
  if (!h.pageable)
    return kp_unsupported (p, "mmap of %llu bytes failed", (unsigned long long) p->bytes);
  cudaError_t e = cudaMalloc (&h.dev, p->bytes);
  ks = e == cudaSuccess ? time_copy (p, &h) : kp_fail (p, "cudaMalloc", e);
  release (&h, p->bytes);
  return ks;
}

KP_LESSON_SAMPLE (pin_payoff)
{
  if (p->arg[ARG_KIND] < 0 || p->arg[ARG_KIND] >= N_KINDS)
    return kp_unsupported (p, "kind %d is not one of the %d kinds of host buffer", p->arg[ARG_KIND],
                           (int) N_KINDS);
  MsKStatus ks = check_room (p);
  if (ks != MS_K_OK)
    return ks;
  if (p->arg[ARG_STEP] == STEP_HELD_ALLOC || p->arg[ARG_STEP] == STEP_HELD_COPY)
    return held_sample (p);
  Held h;
  memset (&h, 0, sizeof h);
  ks = prepare (p, &h);
  if (ks == MS_K_OK)
    ks = p->arg[ARG_STEP] == STEP_COPY ? time_copy (p, &h) : time_setup_release (p, &h);
  release (&h, p->bytes);
  return ks;
}
