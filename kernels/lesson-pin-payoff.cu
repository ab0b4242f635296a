/* SPDX-License-Identifier: GPL-3.0-or-later */
/* lesson-pin-payoff.cu: the pin-payoff lesson's sample: one step of one
 * kind of host buffer at one size. Setup: mmap and the first touch of
 * every page (pageable), cudaMallocHost (pinned), cudaHostRegister on a
 * touched pageable buffer (registered). Release: munmap, cudaFreeHost,
 * cudaHostUnregister. Copy: one cudaMemcpy host to device and one
 * synchronisation. Pageable buffers come from mmap, not malloc, so that
 * every sample gets fresh pages (malloc would hand back pages it kept).
 * The figure is the host clock around the step alone. A sample never takes
 * more than arg[ARG_MAX_PCT] % of MemAvailable, nor half the free device
 * memory: a larger size is skipped and says so. */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ms-k-probe.cuh"

/* arg[] of MS_K_PROBE_PIN_PAYOFF (engine/ms-lesson-pin-payoff.c). */
enum { ARG_STEP, ARG_MAX_PCT, ARG_KIND };
enum { STEP_SETUP, STEP_RELEASE, STEP_COPY };
enum { KIND_PAGEABLE, KIND_PINNED, KIND_REGISTERED };

/* MemAvailable in bytes, or 0 when /proc/meminfo does not say. */
static unsigned long long
mem_available (void)
{
  FILE *f = fopen ("/proc/meminfo", "r");
  char line[256];
  unsigned long long kib = 0;
  while (f && fgets (line, sizeof line, f))
    if (sscanf (line, "MemAvailable: %llu kB", &kib) == 1)
      break;
  if (f)
    fclose (f);
  return kib * 1024;
}

static MsKStatus
check_room (MsKProbe *p)
{
  unsigned long long avail = mem_available ();
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

typedef struct {
  char *pageable;   /* mmap'd */
  char *pinned;     /* cudaMallocHost */
  bool registered;  /* pageable is registered */
  void *dev;
} Held;

static void
release (Held *h, size_t bytes)
{
  if (h->registered)
    cudaHostUnregister (h->pageable);
  if (h->pageable)
    munmap (h->pageable, bytes);
  if (h->pinned)
    cudaFreeHost (h->pinned);
  if (h->dev)
    cudaFree (h->dev);
  memset (h, 0, sizeof *h);
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
  if (p->arg[ARG_KIND] == KIND_PINNED) {
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
  const void *src = h->pinned ? (const void *) h->pinned : (const void *) h->pageable;
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

MsKStatus
ms_k_probe_pin_payoff (MsKProbe *p)
{
  if (p->arg[ARG_KIND] != KIND_PAGEABLE && p->arg[ARG_KIND] != KIND_PINNED && p->arg[ARG_KIND] != KIND_REGISTERED)
    return kp_unsupported (p, "kind %d is not pageable, pinned or registered", p->arg[ARG_KIND]);
  MsKStatus ks = check_room (p);
  if (ks != MS_K_OK)
    return ks;
  Held h;
  memset (&h, 0, sizeof h);
  ks = prepare (p, &h);
  if (ks == MS_K_OK)
    ks = p->arg[ARG_STEP] == STEP_COPY ? time_copy (p, &h) : time_setup_release (p, &h);
  release (&h, p->bytes);
  return ks;
}
