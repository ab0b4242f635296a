/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-data.h: the workload's inputs, identical on host and device.
 *
 * a[i] lies in [1, 2) and b[i] in [2, 4), both with 20 fraction bits, so
 * each is exact in float32, never zero, a != b, and a + b rounds the same
 * on the CPU and the GPU. Every correct c[i] is >= 3, so an element that was
 * never written (zero or the NaN poison) always fails verification.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#ifdef __CUDACC__
#define MS_HD __host__ __device__
#else
#define MS_HD
#endif

#define MS_POISON_BYTE 0xff /* memset pattern: NaN in every float */

/* A 32-bit integer mix (murmur3's finaliser): cheap enough for the host to
 * fill and check a vector at memory speed, and it vectorises. N <= 2^28, so
 * the index fits. */
static inline MS_HD uint32_t
ms_data_hash (uint32_t i, uint32_t salt)
{
  uint32_t x = (i ^ (salt * 0x632BE5ABu)) * 0x9E3779B1u;
  x ^= x >> 16;
  x *= 0x85EBCA6Bu;
  x ^= x >> 13;
  return x;
}

static inline MS_HD float
ms_data_a (uint64_t i)
{
  return 1.0f + (float) (int32_t) (ms_data_hash ((uint32_t) i, 1) >> 12) * (1.0f / 1048576.0f);
}

static inline MS_HD float
ms_data_b (uint64_t i)
{
  return 2.0f + (float) (int32_t) (ms_data_hash ((uint32_t) i, 2) >> 12) * (2.0f / 1048576.0f);
}

#ifdef __cplusplus
extern "C" {
#endif

/* The CPUs that fill and verify may spread their helper threads over, for
 * the calling thread from now on (cpu_set points to a cpu_set_t of size
 * bytes; NULL: the calling thread's own affinity). A measuring thread
 * pinned to one CPU gives the other CPUs of its node, or its helpers
 * would all share that one CPU (engine/run/ms-runner.c). */
void ms_data_set_helper_cpus (const void *cpu_set, size_t size);
/* From 2^MS_DATA_HELPERS_FROM_EXP elements fills and checks share their
 * work with the calling thread's helpers (ms-data.c says why there). */
#define MS_DATA_HELPERS_FROM_EXP 18

/* The most threads a large fill on the calling thread uses now, its own
 * included: what the files record. */
int ms_data_threads_at_most (void);

/* The threads the calling thread's fills and checks use from now on, its
 * own included (0: the rule in ms-data.c); returns the setting it
 * replaces. For benchmarks that compare thread counts, and for buffers
 * that only the calling thread may touch (managed memory). */
int ms_data_set_threads (int n);
/* Host fill of a and b (shared with helper threads from 2^18 elements). */
void ms_data_fill (float *a, float *b, uint64_t n);
/* Fills c with the NaN poison, bypassing the CPU cache where it can. */
void ms_data_poison (float *c, uint64_t n);
/* Host check of c against the reference a + b; returns the mismatch count. */
uint64_t ms_data_verify (const float *c, uint64_t n, uint64_t *first_bad);
/* The same check, and c poisoned as ms_data_poison does, in one pass: each
 * block is checked, then overwritten with streaming stores while it is
 * still in the L1 cache. */
uint64_t ms_data_verify_and_poison (float *c, uint64_t n, uint64_t *first_bad);

#ifdef __cplusplus
}
#endif
