/* ms-k-common.cuh: what every mode implementation shares: the timing
 * context (host clock, CUDA event pairs, one reference event per run), error
 * handling and the vector-add kernel launch. Internal to kernels/. */
#pragma once

#include <cuda_runtime.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "ms-data.h"
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
  K_FREE
};

/* Mirrors MsMode. */
enum {
  KM_PAGEABLE,
  KM_PINNED,
  KM_REGISTERED,
  KM_WRITE_COMBINED,
  KM_ZERO_COPY,
  KM_UVA,
  KM_MANAGED,
  KM_MANAGED_PREFETCH,
  KM_STREAMS,
  KM_DEVICE,
  KM_HOST
};

#define K_MAX_PAIRS 512

struct KPair {
  int event_index; /* into run->events */
  cudaEvent_t start, stop;
  double host_start; /* host clock when the call was issued */
};

struct KCtx {
  MsKRun *run;
  double t0;
  cudaEvent_t ref;
  KPair pairs[K_MAX_PAIRS];
  int n_pairs;
  bool failed;
};

static inline double
k_now_us (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e6 + ts.tv_nsec * 1e-3;
}

/* Sets the run's error once (the first error is the one that matters). */
void k_fail (KCtx *ctx, const char *what, cudaError_t err);
void k_fail_msg (KCtx *ctx, const char *msg);

#define K_CHECK(ctx, call)                                                    \
  do {                                                                        \
    cudaError_t k_err_ = (call);                                              \
    if (k_err_ != cudaSuccess) {                                              \
      k_fail ((ctx), #call, k_err_);                                          \
      goto cleanup;                                                           \
    }                                                                         \
  } while (0)

#define K_CANCEL_POINT(ctx)                                                   \
  do {                                                                        \
    if (k_cancelled (ctx))                                                    \
      goto cleanup;                                                           \
  } while (0)

bool k_begin (KCtx *ctx, MsKRun *run);       /* takes the event pool */
bool k_cancelled (KCtx *ctx);
int k_add_event (KCtx *ctx, int phase, int lane, int chunk, double host_start, uint64_t bytes);
/* Records the start event of stream work; returns a pair handle or -1. */
int k_gpu_begin (KCtx *ctx, cudaStream_t stream);
/* Records the stop event and the host event of the call. */
void k_gpu_end (KCtx *ctx, int pair, cudaStream_t stream, int phase, int lane, int chunk,
                uint64_t bytes);
/* After synchronising: turns event pairs into GPU times. */
bool k_resolve (KCtx *ctx);
/* Host-only phase helper. */
void k_host_event (KCtx *ctx, int phase, double host_start, uint64_t bytes);
MsKStatus k_finish (KCtx *ctx);

/* Verifies c on the host as a phase of its own. */
void k_verify_phase (KCtx *ctx, const float *c);
/* Host init phase: fill a, b; poison c when given. */
void k_init_phase (KCtx *ctx, float *a, float *b, float *c_or_null);

void k_launch_add (const float *a, const float *b, float *c, uint64_t n, cudaStream_t stream);
void k_launch_fill (float *a, float *b, uint64_t n, cudaStream_t stream);

/* The h2d, kernel, d2h sequence of the explicit-copy modes. h* are host
 * buffers of whatever kind, d* device buffers, both the caller's. async:
 * cudaMemcpyAsync and one synchronise (page-locked memory) instead of
 * cudaMemcpy. Returns false on error (already recorded). */
bool k_explicit_copies (KCtx *ctx, const float *ha, const float *hb, float *hc, float *da,
                        float *db, float *dc, bool async);

/* A timed kernel launch followed by a synchronise; sets e2e to the launch
 * until the result is complete. */
bool k_timed_kernel (KCtx *ctx, const float *a, const float *b, float *c, cudaStream_t stream,
                     bool resolve);

/* Modes, one file each. */
MsKStatus k_run_pageable (KCtx *ctx);
MsKStatus k_run_pinned (KCtx *ctx);
MsKStatus k_run_registered (KCtx *ctx);
MsKStatus k_run_write_combined (KCtx *ctx);
MsKStatus k_run_zero_copy (KCtx *ctx);
MsKStatus k_run_uva (KCtx *ctx);
MsKStatus k_run_managed (KCtx *ctx, bool prefetch);
MsKStatus k_run_streams (KCtx *ctx);
MsKStatus k_run_device (KCtx *ctx);
