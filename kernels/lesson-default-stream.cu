/* SPDX-License-Identifier: GPL-3.0-or-later */
/* lesson-default-stream.cu: the default-stream lesson's sample. One or two
 * host threads, started before the timed window and released together,
 * each copy to the device, run a kernel of fixed duration and copy back on
 * "the default stream": the legacy one (cudaStreamLegacy) or each
 * thread's own (cudaStreamPerThread, named explicitly: memsweep is not
 * built with --default-stream per-thread). The figure is the host clock
 * from the release to the last thread's end. */
#include <pthread.h>
#include <string.h>

#include "ms-k-probe.cuh"

/* arg[] of the default-stream lesson's sample
 * (engine/lessons/ms-lesson-default-stream.c). */
enum { ARG_THREADS, ARG_PER_THREAD, ARG_KERNEL_US, ARG_COPY_KIB };

#define MAX_THREADS 2

/* The release: workers wait for `go`, set once all of them are ready. */
typedef struct {
  pthread_mutex_t lock;
  pthread_cond_t cond;
  int ready, go; /* go: 1 run, -1 abandon */
} Release;

typedef struct {
  int device;
  cudaStream_t stream;
  size_t bytes;
  double kernel_us;
  float *host, *dev;
  unsigned long long *stamps; /* instrumented: the kernel's (device side), else NULL */
  cudaEvent_t ev[4];          /* instrumented: around the two copies */
  Release *release;
  double start_us, end_us;
  cudaError_t error;
} Worker;

static cudaError_t
worker_steps (Worker *w)
{
  cudaError_t e = cudaSuccess;
  if (w->stamps)
    e = cudaEventRecord (w->ev[0], w->stream);
  if (e == cudaSuccess)
    e = cudaMemcpyAsync (w->dev, w->host, w->bytes, cudaMemcpyHostToDevice, w->stream);
  if (e == cudaSuccess && w->stamps)
    e = cudaEventRecord (w->ev[1], w->stream);
  if (e == cudaSuccess)
    e = kp_spin (w->stream, w->kernel_us, 1, 64, 0, w->stamps);
  if (e == cudaSuccess && w->stamps)
    e = cudaEventRecord (w->ev[2], w->stream);
  if (e == cudaSuccess)
    e = cudaMemcpyAsync (w->host, w->dev, w->bytes, cudaMemcpyDeviceToHost, w->stream);
  if (e == cudaSuccess && w->stamps)
    e = cudaEventRecord (w->ev[3], w->stream);
  if (e == cudaSuccess)
    e = cudaStreamSynchronize (w->stream);
  return e;
}

static void *
worker_main (void *data)
{
  Worker *w = (Worker *) data;
  Release *r = w->release;
  /* The current device is per thread, and a thread's per-thread default
   * stream is made on its first use: both before the window. */
  w->error = cudaSetDevice (w->device);
  if (w->error == cudaSuccess)
    w->error = cudaStreamSynchronize (w->stream);
  pthread_mutex_lock (&r->lock);
  r->ready++;
  pthread_cond_broadcast (&r->cond);
  while (r->go == 0)
    pthread_cond_wait (&r->cond, &r->lock);
  int go = r->go;
  pthread_mutex_unlock (&r->lock);
  w->start_us = kp_now_us ();
  if (go > 0 && w->error == cudaSuccess)
    w->error = worker_steps (w);
  w->end_us = kp_now_us ();
  return NULL;
}

static cudaError_t
worker_alloc (Worker *w)
{
  cudaError_t e = cudaMallocHost ((void **) &w->host, w->bytes);
  if (e == cudaSuccess)
    e = cudaMalloc ((void **) &w->dev, w->bytes);
  if (e == cudaSuccess)
    /* Written once, so that the copies move touched pages. */
    for (size_t i = 0; i < w->bytes / sizeof (float); i++)
      w->host[i] = (float) (i % 1000) + 1.0f;
  for (int i = 0; e == cudaSuccess && w->stamps && i < 4; i++)
    e = cudaEventCreate (&w->ev[i]);
  return e;
}

static void
worker_free (Worker *w)
{
  for (int i = 0; i < 4; i++)
    if (w->ev[i])
      cudaEventDestroy (w->ev[i]);
  if (w->dev)
    cudaFree (w->dev);
  if (w->host)
    cudaFreeHost (w->host);
}

/* Starts n workers, waits until all are ready, releases them together and
 * waits for them. FALSE when a thread could not start. */
static bool
run_threads (Worker *w, int n)
{
  Release r = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0 };
  pthread_t threads[MAX_THREADS];
  int started = 0;
  for (int t = 0; t < n; t++) {
    w[t].release = &r;
    if (pthread_create (&threads[t], NULL, worker_main, &w[t]) != 0)
      break;
    started++;
  }
  pthread_mutex_lock (&r.lock);
  while (r.ready < started)
    pthread_cond_wait (&r.cond, &r.lock);
  r.go = started == n ? 1 : -1;
  pthread_cond_broadcast (&r.cond);
  pthread_mutex_unlock (&r.lock);
  for (int t = 0; t < started; t++)
    pthread_join (threads[t], NULL);
  pthread_cond_destroy (&r.cond);
  pthread_mutex_destroy (&r.lock);
  return started == n;
}

/* The copies from their events (ref: recorded just before the clock
 * origin, so a few microseconds early at most), the kernel from its clock
 * stamps; lane t + 1 is thread t's stream. */
static void
add_events (MsKProbe *p, const Worker *w, int n, cudaEvent_t ref, const KpOrigin *o,
            const unsigned long long *stamps)
{
  for (int t = 0; t < n; t++) {
    float ms[4];
    bool ok = true;
    for (int i = 0; i < 4 && ok; i++)
      ok = cudaEventElapsedTime (&ms[i], ref, w[t].ev[i]) == cudaSuccess;
    if (ok) {
      kp_event (p, KP_H2D, t + 1, -1, 0, ms[0] * 1e3, (ms[1] - ms[0]) * 1e3, w[t].bytes);
      kp_event (p, KP_D2H, t + 1, -1, 0, ms[2] * 1e3, (ms[3] - ms[2]) * 1e3, w[t].bytes);
    }
    unsigned long long s = stamps[2 * t], e = stamps[2 * t + 1];
    kp_event (p, KP_KERNEL, t + 1, -1, 0, kp_stamp_us (o, s), e > s ? (double) (e - s) * 1e-3 : 0,
              0);
  }
}

static MsKStatus
measure (MsKProbe *p, Worker *w, int n, KpStamps *st)
{
  cudaEvent_t ref = NULL;
  KpOrigin origin;
  if (st) {
    KP_CHECK (p, cudaEventCreate (&ref));
    cudaError_t e = kp_origin (&origin, cudaStreamLegacy, st, ref);
    if (e != cudaSuccess) {
      cudaEventDestroy (ref);
      return kp_fail (p, "the clock origin", e);
    }
  }
  bool started = run_threads (w, n);
  double t0 = w[0].start_us, t1 = w[0].end_us;
  cudaError_t e = cudaSuccess;
  for (int t = 0; t < n; t++) {
    t0 = w[t].start_us < t0 ? w[t].start_us : t0;
    t1 = w[t].end_us > t1 ? w[t].end_us : t1;
    if (w[t].error != cudaSuccess)
      e = w[t].error;
  }
  if (started && e == cudaSuccess) {
    p->value_us = t1 - t0;
    if (st)
      add_events (p, w, n, ref, &origin, st->host);
  }
  if (ref)
    cudaEventDestroy (ref);
  if (!started)
    return kp_unsupported (p, "could not start %d host threads", n);
  return e == cudaSuccess ? MS_K_OK : kp_fail (p, "the threads' copies and kernels", e);
}

KP_LESSON_SAMPLE (default_stream)
{
  int n = p->arg[ARG_THREADS];
  if (n < 1 || n > MAX_THREADS)
    return kp_unsupported (p, "%d host threads is outside 1..%d", n, MAX_THREADS);
  KpStamps *st = p->instrumented ? kp_stamps (p->device) : NULL;
  if (p->instrumented && !st)
    return kp_unsupported (p, "no mapped pinned memory for the kernels' clock stamps");
  Worker w[MAX_THREADS];
  memset (w, 0, sizeof w);
  cudaError_t e = cudaSuccess;
  for (int t = 0; t < n && e == cudaSuccess; t++) {
    w[t].device = p->device;
    w[t].stream = p->arg[ARG_PER_THREAD] ? cudaStreamPerThread : cudaStreamLegacy;
    w[t].bytes = (size_t) p->arg[ARG_COPY_KIB] * 1024;
    w[t].kernel_us = p->arg[ARG_KERNEL_US];
    w[t].stamps = st ? st->dev + 2 * t : NULL;
    e = worker_alloc (&w[t]);
  }
  if (e == cudaSuccess)
    e = cudaDeviceSynchronize ();
  MsKStatus ks = e == cudaSuccess ? measure (p, w, n, st) : kp_fail (p, "the buffers", e);
  for (int t = 0; t < n; t++)
    worker_free (&w[t]);
  return ks;
}
