/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-k-common.cuh: what every mode implementation shares: the timing
 * context (host clock, CUDA event pairs, a reference event per repetition),
 * the steps of a cell (alloc, one repetition, release: the engine's cell
 * driver runs them), error handling and the kernels. Internal to kernels/. */
#pragma once

#include <cuda_runtime.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "ms-data.h"
#include "ms-k-stats.h"
#include "ms-kernels.h"

/* Mirrors MsPhase in engine/memsweep.h (checked there). */
enum {
  K_ALLOC,
  K_INIT,
  K_REGISTER,
  K_PREFETCH,
  K_H2D,
  K_KERNEL,
  K_D2H,
  K_VERIFY,
  K_UNREGISTER,
  K_FREE,
  K_LAUNCH
};

/* Mirror MsAccess, MsHostStores and MsDuplex (checked in ms-backend.c). */
enum { K_ACCESS_READ_WRITE, K_ACCESS_READ, K_ACCESS_WRITE, K_ACCESS_WRITE_IN_KERNEL };
enum { K_STORES_STREAMED, K_STORES_ORDINARY, K_STORES_FRESH };
enum { K_DUPLEX_NONE, K_DUPLEX_H2D, K_DUPLEX_D2H, K_DUPLEX_BOTH };

#define K_MAX_PAIRS 512
#define K_MAX_STREAMS 64

struct KPair {
  int event_index; /* into run->events */
  cudaEvent_t start, stop;
  double host_start; /* host clock when the call was issued */
};

/* How the host buffers were allocated, so one routine can free them. */
enum KHostKind { K_HOST_NONE, K_HOST_MALLOC, K_HOST_CUDA, K_HOST_MANAGED };

struct KBuffers {
  KHostKind host_kind;
  float *h[3];             /* a, b, c on the host (or managed) */
  float *d[3];             /* device buffers, or device views of h */
  bool d_owned;            /* d[] are cudaMalloc'd and must be freed */
  bool registered[3];
  float *scratch;          /* a device buffer of n floats some lessons use */
  bool inputs_written;     /* h[0], h[1] hold the inputs (run->inputs_kept) */
  bool c_poisoned;         /* h[2] holds the poison (run->verify_poisons) */
  cudaStream_t streams[K_MAX_STREAMS];
  int n_streams;
};

typedef MsKMode KMode;

/* The cell: what the mode allocated and the timing context of the step
 * running now. MsKCell in the plain C interface. */
struct MsKCell {
  MsKRun *run;
  const KMode *mode;
  KBuffers bufs;
  cudaEvent_t cell_ref, ref; /* reference events of the cell and the rep */
  KPair pairs[K_MAX_PAIRS];
  int n_pairs;
  bool failed;
};
typedef MsKCell KCtx;

/* One memory mode: allocate, run one repetition, release. rep returns false
 * on error (recorded) or cancel. */
struct MsKMode {
  bool (*alloc) (KCtx *ctx, KBuffers *b);
  bool (*rep) (KCtx *ctx, KBuffers *b);
};

static inline double
k_now_us (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e6 + ts.tv_nsec * 1e-3;
}

/* Whether the repetition running now is instrumented (the latch and an
 * event pair around every step) or plain (the application's sequence, the
 * host clock around it, nothing between its steps). */
static inline bool
k_instrumented (const KCtx *ctx)
{
  return ctx->run->instrumented != 0;
}

/* Sets the run's error once (the first error is the one that matters). */
void k_fail (KCtx *ctx, const char *what, cudaError_t err);
void k_fail_msg (KCtx *ctx, const char *msg);

#define K_CHECK(ctx, call)                                                    \
  do {                                                                        \
    cudaError_t k_err_ = (call);                                              \
    if (k_err_ != cudaSuccess) {                                              \
      k_fail ((ctx), #call, k_err_);                                          \
      return false;                                                           \
    }                                                                         \
  } while (0)

#define K_CANCEL_POINT(ctx)                                                   \
  do {                                                                        \
    if (k_cancelled (ctx))                                                    \
      return false;                                                           \
  } while (0)

bool k_cancelled (KCtx *ctx);
int k_add_event (KCtx *ctx, int phase, int lane, int chunk, double host_start, uint64_t bytes);
/* Records the start event of stream work; returns a pair handle or -1. */
int k_gpu_begin (KCtx *ctx, cudaStream_t stream);
/* Records the stop event and the host event of the call. */
void k_gpu_end (KCtx *ctx, int pair, cudaStream_t stream, int phase, int lane, int chunk,
                uint64_t bytes);
/* After synchronising: turns event pairs into GPU times. */
bool k_resolve (KCtx *ctx);
void k_host_event (KCtx *ctx, int phase, double host_start, uint64_t bytes);
void k_set_e2e (KCtx *ctx, double e2e_start);

/* Host init phase: fill a, b; poison c when given. */
/* false when fresh inputs could not be allocated (the error is in ctx). */
bool k_init_phase (KCtx *ctx, float *a, float *b, float *c_or_null);
/* Verifies c on the host as a phase of its own. */
void k_verify_phase (KCtx *ctx, const float *c);

void k_launch_add (const float *a, const float *b, float *c, uint64_t n, cudaStream_t stream);
void k_launch_fill (float *a, float *b, uint64_t n, cudaStream_t stream);

/* h2d, kernel, d2h of the explicit-copy modes between b->h and b->d.
 * async: cudaMemcpyAsync and one synchronise (page-locked memory) instead
 * of cudaMemcpy. Instrumented: the latch and an event pair per step;
 * plain: the three copies and the launch alone. */
bool k_explicit_copies (KCtx *ctx, KBuffers *b, bool async);
/* init, explicit copies, verify: one repetition of pageable and friends. */
bool k_rep_explicit_sync (KCtx *ctx, KBuffers *b);
bool k_rep_explicit_async (KCtx *ctx, KBuffers *b);
/* Queues the add kernel on stream behind the latch (ms-latch.cu): the
 * kernel's event pair brackets the work, and the launch call is a phase of
 * its own on the host lane. */
bool k_latched_add (KCtx *ctx, const float *a, const float *b, float *c, cudaStream_t stream);
/* A kernel launch and a synchronise; e2e from launch to completion. Latched
 * with its event pair when instrumented, bare when plain. */
bool k_timed_kernel (KCtx *ctx, const float *a, const float *b, float *c, cudaStream_t stream);
/* The plain buffers (ms-buffers.cu): malloc'd host memory, cudaMallocHost
 * and cudaMalloc, kept from cell to cell when the engine asks. Release
 * frees a buffer only when k_buffer_keep says it was not kept. */
cudaError_t k_host_malloc (float **out, size_t bytes);
cudaError_t k_pinned_malloc (float **out, size_t bytes);
cudaError_t k_device_malloc (float **out, size_t bytes);
bool k_buffer_keep (void *p);
/* cudaMalloc of the three device buffers. */
bool k_alloc_device (KCtx *ctx, KBuffers *b);
/* malloc'd host buffers plus the device buffers (pageable, registered). */
bool k_alloc_malloc_host (KCtx *ctx, KBuffers *b);
/* init, a kernel that works on host memory through a, b, c (device views
 * or host pointers), verify: zero-copy and uva. */
bool k_rep_kernel_on_host_memory (KCtx *ctx, const float *a, const float *b, float *c,
                                  KBuffers *bufs);

/* The lessons (ms-lessons.cu). The add kernel, or the reuse kernel when
 * run->reuse > 0, on stream. */
void k_launch_work (const MsKRun *run, const float *a, const float *b, float *c,
                    cudaStream_t stream);
/* pinned with run->duplex: two streams, and the repetition. */
bool k_duplex_streams (KCtx *ctx, KBuffers *b);
bool k_rep_duplex (KCtx *ctx, KBuffers *b);
/* zero-copy with access read: the result into b->scratch, copied back. */
bool k_rep_read_only (KCtx *ctx, KBuffers *b);
bool k_managed_make_resident (KCtx *ctx, KBuffers *b);
void k_host_work (KCtx *ctx);

