/* SPDX-License-Identifier: GPL-3.0-or-later */
/* common.cu: the timing context, the steps of a cell (the engine's cell
 * driver decides their order; the init step writes the inputs as the run's
 * lesson says) and device facts. The kernels they launch are ms-work.cu's. */
#include "ms-k-common.cuh"
#include "ms-k-timing.cuh"

#include <stdlib.h>

/* Events are cached across runs: creating ~30 per run would add a visible
 * cost to small sizes. They belong to one device's context; one pool per
 * host thread, so that a thread per GPU (engine/run/ms-multi.c) needs no lock. */
static thread_local cudaEvent_t k_pool[2 * K_MAX_PAIRS + 1];
static thread_local int k_pool_size = 0;
static thread_local int k_pool_device = -1;

static bool
k_pool_ensure (KCtx *ctx, int needed)
{
  if (k_pool_device != ctx->run->device) {
    ms_k_shutdown ();
    k_pool_device = ctx->run->device;
  }
  while (k_pool_size < needed) {
    cudaError_t err = cudaEventCreate (&k_pool[k_pool_size]);
    if (err != cudaSuccess) {
      k_fail (ctx, "cudaEventCreate", err);
      return false;
    }
    k_pool_size++;
  }
  return true;
}

void
ms_k_shutdown (void)
{
  k_latch_shutdown ();
  ms_k_probe_release ();
  for (int i = 0; i < k_pool_size; i++)
    cudaEventDestroy (k_pool[i]);
  k_pool_size = 0;
  k_pool_device = -1;
}

bool
k_cancelled (KCtx *ctx)
{
  MsKRun *run = ctx->run;
  return run->is_cancelled && run->is_cancelled (run->user);
}

int
k_add_event (KCtx *ctx, int phase, int lane, int chunk, double host_start, uint64_t bytes)
{
  MsKRun *run = ctx->run;
  if (run->n_events >= MS_K_MAX_STEP_EVENTS) {
    k_fail_msg (ctx, "internal: too many events in one repetition");
    return -1;
  }
  MsKEvent *ev = &run->events[run->n_events];
  ev->phase = phase;
  ev->lane = lane;
  ev->chunk = chunk;
  ev->rep = 0; /* the engine's driver knows the repetition */
  ev->host_start_us = host_start;
  ev->host_us = k_now_us () - host_start;
  ev->gpu_start_us = -1;
  ev->gpu_us = -1;
  ev->bytes = bytes;
  return run->n_events++;
}

void
k_host_event (KCtx *ctx, int phase, double host_start, uint64_t bytes)
{
  k_add_event (ctx, phase, 0, 0, host_start, bytes);
}

/* Pool slots: 0 the cell's reference event, 1 the repetition's, then
 * start/stop pairs. */
#define K_POOL_PAIR(p) (2 + 2 * (p))

int
k_gpu_begin (KCtx *ctx, cudaStream_t stream)
{
  if (ctx->n_pairs >= K_MAX_PAIRS) {
    k_fail_msg (ctx, "internal: too many timed operations in one run");
    return -1;
  }
  int p = ctx->n_pairs;
  if (!k_pool_ensure (ctx, K_POOL_PAIR (p) + 2))
    return -1;
  ctx->pairs[p].start = k_pool[K_POOL_PAIR (p)];
  ctx->pairs[p].stop = k_pool[K_POOL_PAIR (p) + 1];
  ctx->pairs[p].event_index = -1;
  cudaError_t err = cudaEventRecord (ctx->pairs[p].start, stream);
  if (err != cudaSuccess) {
    k_fail (ctx, "cudaEventRecord", err);
    return -1;
  }
  ctx->n_pairs++;
  ctx->pairs[p].host_start = k_now_us ();
  return p;
}

void
k_gpu_end (KCtx *ctx, int pair, cudaStream_t stream, int phase, int lane, int chunk,
           uint64_t bytes)
{
  if (pair < 0)
    return;
  int idx = k_add_event (ctx, phase, lane, chunk, ctx->pairs[pair].host_start, bytes);
  cudaError_t err = cudaEventRecord (ctx->pairs[pair].stop, stream);
  if (err != cudaSuccess)
    k_fail (ctx, "cudaEventRecord", err);
  ctx->pairs[pair].event_index = idx;
}

bool
k_resolve (KCtx *ctx)
{
  for (int p = 0; p < ctx->n_pairs; p++) {
    KPair *pair = &ctx->pairs[p];
    if (pair->event_index < 0)
      continue;
    float start_ms = 0, dur_ms = 0;
    cudaError_t err = cudaEventElapsedTime (&start_ms, ctx->ref, pair->start);
    if (err == cudaSuccess)
      err = cudaEventElapsedTime (&dur_ms, pair->start, pair->stop);
    if (err != cudaSuccess) {
      k_fail (ctx, "cudaEventElapsedTime", err);
      return false;
    }
    MsKEvent *ev = &ctx->run->events[pair->event_index];
    ev->gpu_start_us = start_ms * 1e3;
    ev->gpu_us = dur_ms * 1e3;
    pair->event_index = -1;
  }
  ctx->n_pairs = 0;
  return true;
}

void
k_set_e2e (KCtx *ctx, double e2e_start)
{
  ctx->run->e2e_us = k_now_us () - e2e_start;
}

/* Ordinary stores leave the lines dirty in the CPU cache, unlike the
 * streaming stores of ms_data_fill. */
static void
k_fill_ordinary (float *a, float *b, uint64_t n)
{
  for (uint64_t i = 0; i < n; i++) {
    a[i] = ms_data_a (i);
    b[i] = ms_data_b (i);
  }
}

/* Fresh inputs: new page-locked buffers with the mode's flags, never used
 * by the GPU before this repetition. */
static bool
k_fresh_inputs (KCtx *ctx, KBuffers *b)
{
  unsigned flags = ctx->run->named == MS_K_MODE_WRITE_COMBINED ? cudaHostAllocWriteCombined : 0;
  for (int i = 0; i < 2; i++) {
    K_CHECK (ctx, cudaFreeHost (b->h[i]));
    b->h[i] = NULL;
    K_CHECK (ctx, cudaHostAlloc (&b->h[i], ctx->run->n * sizeof (float), flags));
  }
  return true;
}

bool
k_init_phase (KCtx *ctx, float *a, float *b, float *c_or_null)
{
  MsKRun *run = ctx->run;
  KBuffers *bufs = &ctx->bufs;
  double hs = k_now_us ();
  /* Fresh buffers only where the mode's own inputs are pinned allocations
   * (pinned, write-combined): the allocation is part of the init phase. */
  bool fresh = run->stores == K_STORES_FRESH && bufs->host_kind == K_HOST_CUDA &&
               a == bufs->h[0] &&
               (run->named == MS_K_MODE_PINNED || run->named == MS_K_MODE_WRITE_COMBINED);
  if (fresh) {
    if (!k_fresh_inputs (ctx, bufs))
      return false;
    a = bufs->h[0];
    b = bufs->h[1];
  }
  /* Kept inputs: written once, then sent as the last repetition left them,
   * so the copy meets clean lines rather than just-written ones. */
  bool kept = run->inputs_kept && bufs->inputs_written && a == bufs->h[0];
  if (!kept && run->stores == K_STORES_ORDINARY)
    k_fill_ordinary (a, b, run->n);
  else if (!kept)
    ms_data_fill (a, b, run->n);
  bufs->inputs_written = a == bufs->h[0];
  /* Poisoned already by the last verification (run->verify_poisons), and
   * untouched since: its lines left the cache then, as they would now. */
  bool poisoned = c_or_null == bufs->h[2] && bufs->c_poisoned;
  if (c_or_null && !poisoned)
    ms_data_poison (c_or_null, run->n);
  bufs->c_poisoned = false;
  k_host_event (ctx, K_INIT, hs, 0);
  return true;
}

void
k_verify_phase (KCtx *ctx, const float *c)
{
  MsKRun *run = ctx->run;
  KBuffers *b = &ctx->bufs;
  if (!run->verify)
    return;
  double hs = k_now_us ();
  /* Poisoning here for the next repetition's k_init_phase, which then
   * skips it; not in managed memory, whose result is poisoned on the
   * device (mode-managed.cu), where the kernel then finds its pages. */
  if (run->verify_poisons && c == b->h[2] && b->host_kind != K_HOST_MANAGED) {
    run->mismatches = ms_data_verify_and_poison (b->h[2], run->n, &run->first_mismatch);
    b->c_poisoned = true;
  } else {
    /* Managed pages are read where the fill wrote them: on one thread. */
    int threads = b->host_kind == K_HOST_MANAGED ? ms_data_set_threads (1) : -1;
    run->mismatches = ms_data_verify (c, run->n, &run->first_mismatch);
    if (threads >= 0)
      ms_data_set_threads (threads);
  }
  k_host_event (ctx, K_VERIFY, hs, 0);
}

bool
k_alloc_device (KCtx *ctx, KBuffers *b)
{
  b->d_owned = true;
  for (int i = 0; i < 3; i++)
    K_CHECK (ctx, k_device_malloc (&b->d[i], ctx->run->n * sizeof (float)));
  return true;
}

bool
k_alloc_malloc_host (KCtx *ctx, KBuffers *b)
{
  b->host_kind = K_HOST_MALLOC;
  for (int i = 0; i < 3; i++)
    if (k_host_malloc (&b->h[i], ctx->run->n * sizeof (float)) != cudaSuccess) {
      k_fail_msg (ctx, "malloc: out of host memory");
      return false;
    }
  return k_alloc_device (ctx, b);
}

bool
k_rep_kernel_on_host_memory (KCtx *ctx, const float *a, const float *b, float *c, KBuffers *bufs)
{
  if (!k_init_phase (ctx, bufs->h[0], bufs->h[1], bufs->h[2]))
    return false;
  K_CANCEL_POINT (ctx);
  if (!k_timed_kernel (ctx, a, b, c, 0))
    return false;
  K_CANCEL_POINT (ctx);
  k_verify_phase (ctx, bufs->h[2]);
  return true;
}

/* The plain sequence: what an application writes, on the legacy default
 * stream, with the host clock around it. cudaMemcpy back to pageable
 * memory returns when the copy is done, so it needs no synchronise. */
static bool
k_plain_copies (KCtx *ctx, KBuffers *b, bool async)
{
  MsKRun *run = ctx->run;
  uint64_t bytes = run->n * sizeof (float);
  cudaMemcpyKind to_dev = cudaMemcpyHostToDevice, to_host = cudaMemcpyDeviceToHost;
  double e2e_start = k_now_us ();
  if (async) {
    K_CHECK (ctx, cudaMemcpyAsync (b->d[0], b->h[0], bytes, to_dev, 0));
    K_CHECK (ctx, cudaMemcpyAsync (b->d[1], b->h[1], bytes, to_dev, 0));
    k_launch_work (run, b->d[0], b->d[1], b->d[2], 0);
    K_CHECK (ctx, cudaGetLastError ());
    K_CHECK (ctx, cudaMemcpyAsync (b->h[2], b->d[2], bytes, to_host, 0));
    K_CHECK (ctx, cudaStreamSynchronize (0));
  } else {
    K_CHECK (ctx, cudaMemcpy (b->d[0], b->h[0], bytes, to_dev));
    K_CHECK (ctx, cudaMemcpy (b->d[1], b->h[1], bytes, to_dev));
    k_launch_work (run, b->d[0], b->d[1], b->d[2], 0);
    K_CHECK (ctx, cudaGetLastError ());
    K_CHECK (ctx, cudaMemcpy (b->h[2], b->d[2], bytes, to_host));
  }
  k_set_e2e (ctx, e2e_start);
  return !ctx->failed;
}

/* The add kernel on a held stream: the GPU timer starts once the launch
 * is queued (ms-latch.cu says why). */
bool
k_latched_add (KCtx *ctx, const float *a, const float *b, float *c, cudaStream_t stream)
{
  cudaError_t err = k_latch_hold (ctx->run->device, stream);
  if (err != cudaSuccess) {
    k_fail (ctx, "latch kernel", err);
    return false;
  }
  int p = k_gpu_begin (ctx, stream);
  double hs = k_now_us ();
  k_launch_work (ctx->run, a, b, c, stream);
  err = cudaGetLastError ();
  k_host_event (ctx, K_LAUNCH, hs, 0);
  k_gpu_end (ctx, p, stream, K_KERNEL, 1, 0, 0);
  /* Released on every path: a held stream would wait for the timeout. */
  k_latch_release ();
  if (err != cudaSuccess)
    k_fail (ctx, "k_add_kernel launch", err);
  return !ctx->failed;
}

bool
k_explicit_copies (KCtx *ctx, KBuffers *b, bool async)
{
  if (!k_instrumented (ctx))
    return k_plain_copies (ctx, b, async);
  MsKRun *run = ctx->run;
  uint64_t bytes = run->n * sizeof (float);
  cudaMemcpyKind to_dev = cudaMemcpyHostToDevice, to_host = cudaMemcpyDeviceToHost;
  double e2e_start = k_now_us ();
  int p;

  /* Everything on the legacy default stream. Pageable memory uses
   * cudaMemcpy, which blocks the host (the copy is staged); page-locked
   * memory is what makes cudaMemcpyAsync asynchronous, so those modes queue
   * all three steps and synchronise once. */
  p = k_gpu_begin (ctx, 0);
  if (async) {
    K_CHECK (ctx, cudaMemcpyAsync (b->d[0], b->h[0], bytes, to_dev, 0));
    K_CHECK (ctx, cudaMemcpyAsync (b->d[1], b->h[1], bytes, to_dev, 0));
  } else {
    K_CHECK (ctx, cudaMemcpy (b->d[0], b->h[0], bytes, to_dev));
    K_CHECK (ctx, cudaMemcpy (b->d[1], b->h[1], bytes, to_dev));
  }
  k_gpu_end (ctx, p, 0, K_H2D, 1, 0, 2 * bytes);

  if (!k_latched_add (ctx, b->d[0], b->d[1], b->d[2], 0))
    return false;

  p = k_gpu_begin (ctx, 0);
  if (async)
    K_CHECK (ctx, cudaMemcpyAsync (b->h[2], b->d[2], bytes, to_host, 0));
  else
    K_CHECK (ctx, cudaMemcpy (b->h[2], b->d[2], bytes, to_host));
  k_gpu_end (ctx, p, 0, K_D2H, 1, 0, bytes);
  K_CHECK (ctx, cudaStreamSynchronize (0));
  k_set_e2e (ctx, e2e_start);
  return k_resolve (ctx) && !ctx->failed;
}

static bool
k_rep_explicit (KCtx *ctx, KBuffers *b, bool async)
{
  if (!k_init_phase (ctx, b->h[0], b->h[1], b->h[2]))
    return false;
  K_CANCEL_POINT (ctx);
  if (!k_explicit_copies (ctx, b, async))
    return false;
  K_CANCEL_POINT (ctx);
  k_verify_phase (ctx, b->h[2]);
  return true;
}

bool
k_rep_explicit_sync (KCtx *ctx, KBuffers *b)
{
  return k_rep_explicit (ctx, b, false);
}

bool
k_rep_explicit_async (KCtx *ctx, KBuffers *b)
{
  return k_rep_explicit (ctx, b, true);
}

bool
k_timed_kernel (KCtx *ctx, const float *a, const float *b, float *c, cudaStream_t stream)
{
  double e2e_start = k_now_us ();
  if (!k_instrumented (ctx)) {
    k_launch_work (ctx->run, a, b, c, stream);
    K_CHECK (ctx, cudaGetLastError ());
    K_CHECK (ctx, cudaStreamSynchronize (stream));
    k_set_e2e (ctx, e2e_start);
    return !ctx->failed;
  }
  if (!k_latched_add (ctx, a, b, c, stream))
    return false;
  K_CHECK (ctx, cudaStreamSynchronize (stream));
  k_set_e2e (ctx, e2e_start);
  return k_resolve (ctx) && !ctx->failed;
}

/* Frees whatever alloc managed to get, errors or not. Queued work is
 * drained first: after an error or a cancel it may still use the buffers. */
static void
k_release (KBuffers *b)
{
  for (int s = 0; s < b->n_streams; s++) {
    cudaStreamSynchronize (b->streams[s]);
    cudaStreamDestroy (b->streams[s]);
  }
  cudaDeviceSynchronize ();
  for (int i = 0; i < 3; i++) {
    if (b->registered[i]) {
      cudaHostUnregister (b->h[i]);
      b->registered[i] = false;
    }
    switch (b->host_kind) {
    case K_HOST_MALLOC: if (!k_buffer_keep (b->h[i])) free (b->h[i]); break;
    case K_HOST_CUDA: if (!k_buffer_keep (b->h[i])) cudaFreeHost (b->h[i]); break;
    case K_HOST_MANAGED: cudaFree (b->h[i]); break;
    case K_HOST_NONE: break;
    }
    if (b->d_owned && !k_buffer_keep (b->d[i]))
      cudaFree (b->d[i]);
  }
  cudaFree (b->scratch);
  memset (b, 0, sizeof *b);
}

/* Every step starts with an empty output; the cell's first error stays. */
static void
k_step_begin (KCtx *ctx)
{
  ctx->run->n_events = 0;
  ctx->run->e2e_us = -1;
  ctx->run->mismatches = 0;
  ctx->run->first_mismatch = 0;
  ctx->n_pairs = 0;
}

MsKCell *
ms_k_cell_new (MsKRun *run)
{
  KCtx *ctx = (KCtx *) calloc (1, sizeof (KCtx));
  if (!ctx)
    return NULL;
  ctx->run = run;
  ctx->mode = run->steps;
  run->error[0] = '\0';
  k_step_begin (ctx);
  return ctx;
}

MsKStatus
ms_k_cell_origin (KCtx *ctx, MsKOrigin origin)
{
  cudaError_t err;
  k_step_begin (ctx);
  if (origin == MS_K_ORIGIN_CELL_AGAIN) {
    ctx->ref = ctx->cell_ref;
    return ctx->failed ? MS_K_FAILED : MS_K_OK;
  }
  if (origin == MS_K_ORIGIN_CELL) {
    if (!ctx->mode) {
      snprintf (ctx->run->error, sizeof ctx->run->error, "mode %d is not a GPU mode",
                ctx->run->mode);
      return MS_K_UNSUPPORTED;
    }
    err = cudaSetDevice (ctx->run->device);
    if (err != cudaSuccess) {
      k_fail (ctx, "cudaSetDevice", err);
      return MS_K_FAILED;
    }
    if (!k_pool_ensure (ctx, 2))
      return MS_K_FAILED;
    ctx->cell_ref = k_pool[0];
  }
  ctx->ref = origin == MS_K_ORIGIN_CELL ? ctx->cell_ref : k_pool[1];
  err = cudaEventRecord (ctx->ref, 0);
  if (err != cudaSuccess)
    k_fail (ctx, "cudaEventRecord", err);
  return ctx->failed ? MS_K_FAILED : MS_K_OK;
}

MsKStatus
ms_k_cell_alloc (KCtx *ctx)
{
  k_step_begin (ctx);
  bool ok = ctx->mode->alloc (ctx, &ctx->bufs) && !ctx->failed;
  return ok ? MS_K_OK : MS_K_FAILED;
}

MsKStatus
ms_k_cell_rep (KCtx *ctx)
{
  k_step_begin (ctx);
  bool ok = ctx->mode->rep (ctx, &ctx->bufs) && !ctx->failed;
  if (ok)
    return MS_K_OK;
  /* A mode's rep returns false on an error (recorded) or at a cancel point. */
  return ctx->failed ? MS_K_FAILED : MS_K_CANCELLED;
}

void
ms_k_cell_free (KCtx *ctx)
{
  if (!ctx)
    return;
  k_release (&ctx->bufs);
  /* Clear a non-sticky error so the next cell starts clean. */
  cudaGetLastError ();
  free (ctx);
}

static int
k_attr (cudaDeviceAttr attr, int dev)
{
  int value = 0;
  if (cudaDeviceGetAttribute (&value, attr, dev) != cudaSuccess)
    return 0;
  return value;
}

void
ms_k_device_query (int index, MsKDeviceInfo *info)
{
  memset (info, 0, sizeof *info);
  cudaError_t err = cudaGetDeviceCount (&info->count);
  if (err != cudaSuccess) {
    /* The runtime is linked in; the driver is what a machine may lack. */
    int driver = 0;
    info->no_driver = err == cudaErrorInsufficientDriver &&
                      cudaDriverGetVersion (&driver) == cudaSuccess && driver == 0;
    snprintf (info->error, sizeof info->error, "cudaGetDeviceCount: %s (%s)",
              cudaGetErrorString (err), cudaGetErrorName (err));
    info->count = 0;
    return;
  }
  cudaDriverGetVersion (&info->driver_version);
  cudaRuntimeGetVersion (&info->runtime_version);
  if (index < 0 || index >= info->count) {
    snprintf (info->error, sizeof info->error,
              "device index %d is out of range: %d CUDA device%s visible", index, info->count,
              info->count == 1 ? "" : "s");
    return;
  }
  cudaDeviceProp prop;
  err = cudaGetDeviceProperties (&prop, index);
  if (err == cudaSuccess)
    err = cudaSetDevice (index);
  size_t free_b = 0, total_b = 0;
  if (err == cudaSuccess)
    err = cudaMemGetInfo (&free_b, &total_b);
  if (err != cudaSuccess) {
    snprintf (info->error, sizeof info->error, "device %d: %s (%s)", index,
              cudaGetErrorString (err), cudaGetErrorName (err));
    return;
  }
  snprintf (info->name, sizeof info->name, "%s", prop.name);
  info->cc_major = prop.major;
  info->cc_minor = prop.minor;
  info->total_mem = total_b;
  info->free_mem = free_b;
  info->can_map_host_memory = k_attr (cudaDevAttrCanMapHostMemory, index);
  info->concurrent_managed_access = k_attr (cudaDevAttrConcurrentManagedAccess, index);
  info->pageable_memory_access = k_attr (cudaDevAttrPageableMemoryAccess, index);
  info->managed_memory = k_attr (cudaDevAttrManagedMemory, index);
  info->unified_addressing = k_attr (cudaDevAttrUnifiedAddressing, index);
  info->async_engine_count = k_attr (cudaDevAttrAsyncEngineCount, index);
  info->concurrent_kernels = k_attr (cudaDevAttrConcurrentKernels, index);
  if (cudaDeviceGetStreamPriorityRange (&info->priority_least, &info->priority_greatest) !=
      cudaSuccess)
    info->priority_least = info->priority_greatest = 0;
  info->multiprocessors = k_attr (cudaDevAttrMultiProcessorCount, index);
  info->l2_bytes = k_attr (cudaDevAttrL2CacheSize, index);
  if (cudaDeviceGetPCIBusId (info->pci_bus_id, sizeof info->pci_bus_id, index) != cudaSuccess)
    info->pci_bus_id[0] = '\0';
  info->ok = 1;
}

uint64_t
ms_k_device_free_memory (int index, char *err, size_t errlen)
{
  size_t free_b = 0, total_b = 0;
  cudaError_t e = cudaSetDevice (index);
  if (e == cudaSuccess)
    e = cudaMemGetInfo (&free_b, &total_b);
  if (e != cudaSuccess) {
    snprintf (err, errlen, "cudaMemGetInfo: %s (%s)", cudaGetErrorString (e),
              cudaGetErrorName (e));
    return 0;
  }
  return free_b;
}

double
ms_k_reference_copy_us (int device, uint64_t bytes, int to_device, int warmup, int samples,
                        int copies_per_sample, MsKHostState host_state, char *err,
                        size_t errlen)
{
  float *host = NULL, *dev = NULL;
  cudaStream_t stream = NULL;
  cudaEvent_t e0 = NULL, e1 = NULL;
  double *times = (double *) calloc (samples > 0 ? samples : 1, sizeof (double));
  double result = -1;
  cudaMemcpyKind kind = to_device ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost;
  if (!times || samples < 1 || copies_per_sample < 1) {
    snprintf (err, errlen, "bad arguments or out of memory");
    free (times);
    return -1;
  }
  K_TRY (cudaSetDevice (device));
  K_TRY (cudaMalloc (&dev, bytes));
  K_TRY (cudaStreamCreateWithFlags (&stream, cudaStreamNonBlocking));
  K_TRY (cudaEventCreate (&e0));
  K_TRY (cudaEventCreate (&e1));
  for (int s = -warmup; s < samples; s++) {
    if (!host || host_state == MS_K_HOST_FRESH) {
      if (host)
        K_TRY (cudaFreeHost (host));
      host = NULL;
      K_TRY (cudaMallocHost (&host, bytes));
      /* Real data, not zeros. */
      for (uint64_t i = 0; i < bytes / sizeof (float); i++)
        host[i] = ms_data_a (i);
    }
    if (host_state == MS_K_HOST_CPU_WRITTEN)
      memset (host, MS_POISON_BYTE, bytes);
    else if (host_state == MS_K_HOST_CPU_STREAMED)
      ms_data_poison (host, bytes / sizeof (float));
    void *dst = to_device ? (void *) dev : (void *) host;
    const void *src = to_device ? (const void *) host : (const void *) dev;
    double us = 0;
    K_TRY (k_copy_burst (dst, src, bytes, kind, copies_per_sample, stream, e0, e1, &us));
    us /= copies_per_sample;
    if (s >= 0)
      times[s] = us;
  }
  result = k_median (times, samples);

out:
  if (e0) cudaEventDestroy (e0);
  if (e1) cudaEventDestroy (e1);
  if (stream) cudaStreamDestroy (stream);
  if (dev) cudaFree (dev);
  if (host) cudaFreeHost (host);
  free (times);
  return result;
}

