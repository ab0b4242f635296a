/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-k-timing.cuh: timing helpers that keep launch latency and single-copy
 * overheads out of the GPU times: the latch that holds a stream while work
 * is queued behind it, and the burst of back-to-back copies between one
 * event pair. Internal to kernels/. */
#pragma once

#include <cuda_runtime.h>
#include <stdint.h>

/* Holds `stream` with a one-thread kernel spinning on a flag in mapped host
 * memory (cached per process and device). Work enqueued behind it starts
 * only after k_latch_release, so an event pair recorded around that work
 * brackets the work and not its launch. The spin gives up after
 * K_LATCH_TIMEOUT_MS so that a host that never releases cannot hang the
 * GPU. */
#define K_LATCH_TIMEOUT_MS 500
cudaError_t k_latch_hold (int device, cudaStream_t stream);
void k_latch_release (void);
void k_latch_shutdown (void);

/* `copies` back-to-back cudaMemcpyAsync of `bytes` between one event pair
 * on stream: *us receives the GPU time of the whole burst. */
cudaError_t k_copy_burst (void *dst, const void *src, size_t bytes, cudaMemcpyKind kind,
                          int copies, cudaStream_t stream, cudaEvent_t e0, cudaEvent_t e1,
                          double *us);
