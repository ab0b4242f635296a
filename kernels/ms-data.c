/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-data.c: host fill and verification, shared by every backend. */
#define _GNU_SOURCE
#include "ms-data.h"
#include "ms-data-pool.h"

#if defined(__x86_64__)
#include <xmmintrin.h>
#include <emmintrin.h>
#endif
#include <stdbool.h>
#include <string.h>

/* From 2^18 elements (MS_DATA_HELPERS_FROM_EXP) helpers share the work,
 * as many as the measuring thread has CPUs for (at most MS_DATA_POOL_MAX
 * threads in all). On the lent H200's host a 4 MiB fill took 1.30 ms on
 * one thread and 0.19 ms on 16; waking parked helpers costs 27-43 us,
 * about a 2^15 fill. Below 2^18 the saving is small (8% of it) and the
 * timed windows that follow are short: there, on a lent H100, helpers
 * moved some cells by 3-7% (docs/measurements.md, "Helpers for the host's
 * fill and check"). */
#define MS_DATA_PARALLEL_MIN (1u << MS_DATA_HELPERS_FROM_EXP)

typedef struct {
  float *a, *b;
  const float *c;
  uint64_t begin, end;
  uint64_t mismatches, first_bad;
} MsDataSlice;

/* AVX2 has a 32-bit vector multiply; SSE2 emulates it. */
#if defined(__x86_64__) && defined(__GNUC__)
#define MS_DATA_CLONES __attribute__ ((target_clones ("avx2", "default")))
#else
#define MS_DATA_CLONES
#endif

#define MS_DATA_BLOCK 1024 /* floats computed in L1 before streaming out */

MS_DATA_CLONES static void
fill_block (float *restrict a, float *restrict b, uint64_t begin, uint64_t len)
{
  for (uint64_t i = 0; i < len; i++) {
    a[i] = ms_data_a (begin + i);
    b[i] = ms_data_b (begin + i);
  }
}

/* Copies a block out with streaming stores when dst is 16-byte aligned. */
static void
stream_out (float *dst, const float *src, uint64_t len)
{
#if defined(__x86_64__)
  if (((uintptr_t) dst & 15) == 0) {
    uint64_t i = 0;
    for (; i + 4 <= len; i += 4)
      _mm_stream_ps (dst + i, _mm_loadu_ps (src + i));
    for (; i < len; i++)
      dst[i] = src[i];
    return;
  }
#endif
  memcpy (dst, src, len * sizeof (float));
}

/* The inputs are written with streaming stores: lines the CPU leaves dirty
 * in its cache slow the device's reads of them (measured on an H100 host:
 * 35 instead of 52 GB/s for a 4 MiB copy), and memsweep measures the link,
 * not cache coherence traffic. */
static void *
fill_slice (void *data)
{
  MsDataSlice *s = data;
  float a_blk[MS_DATA_BLOCK] __attribute__ ((aligned (64)));
  float b_blk[MS_DATA_BLOCK] __attribute__ ((aligned (64)));
  for (uint64_t i = s->begin; i < s->end; i += MS_DATA_BLOCK) {
    uint64_t len = s->end - i < MS_DATA_BLOCK ? s->end - i : MS_DATA_BLOCK;
    fill_block (a_blk, b_blk, i, len);
    stream_out (s->a + i, a_blk, len);
    stream_out (s->b + i, b_blk, len);
  }
#if defined(__x86_64__)
  _mm_sfence ();
#endif
  return NULL;
}

/* Counts the wrong elements of c[begin, end) in a loop the compiler can
 * vectorise. Bits, not values, are compared: the NaN poison must fail, and
 * so must -0. */
MS_DATA_CLONES static uint64_t
count_wrong (const float *c, uint64_t begin, uint64_t end)
{
  uint64_t bad = 0;
  for (uint64_t i = begin; i < end; i++) {
    float want = ms_data_a (i) + ms_data_b (i);
    uint32_t got_bits, want_bits;
    memcpy (&got_bits, &c[i], sizeof got_bits);
    memcpy (&want_bits, &want, sizeof want_bits);
    bad += got_bits != want_bits;
  }
  return bad;
}

static uint64_t
first_wrong (const float *c, uint64_t begin, uint64_t end)
{
  for (uint64_t i = begin; i < end; i++) {
    float want = ms_data_a (i) + ms_data_b (i);
    if (memcmp (&want, &c[i], sizeof want) != 0)
      return i;
  }
  return UINT64_MAX;
}

/* The first wrong index is looked for only when there is one. */
static void *
verify_slice (void *data)
{
  MsDataSlice *s = data;
  s->mismatches = count_wrong (s->c, s->begin, s->end);
  s->first_bad = s->mismatches ? first_wrong (s->c, s->begin, s->end) : UINT64_MAX;
  return NULL;
}

/* Poisons n floats, with streaming stores on x86-64 (a memset for the
 * unaligned head and tail): the poison does not sit dirty in the CPU
 * cache, where it would slow the device's writes of the result into the
 * same lines. No fence: the caller fences once after all of them. */
static void
stream_poison (float *c, uint64_t n)
{
  size_t bytes = n * sizeof (float);
#if defined(__x86_64__)
  char *p = (char *) c;
  size_t head = (16 - ((uintptr_t) p & 15)) & 15;
  if (head > bytes)
    head = bytes;
  memset (p, MS_POISON_BYTE, head);
  p += head;
  bytes -= head;
  const __m128i v = _mm_set1_epi8 ((char) MS_POISON_BYTE);
  size_t blocks = bytes / 16;
  for (size_t i = 0; i < blocks; i++)
    _mm_stream_si128 ((__m128i *) p + i, v);
  memset (p + blocks * 16, MS_POISON_BYTE, bytes - blocks * 16);
#else
  memset (c, MS_POISON_BYTE, bytes);
#endif
}

/* Block by block: checked, then poisoned while the block is in L1. A
 * streaming store to a cached line evicts it (Intel SDM vol. 1, 10.4.6.2),
 * so c leaves no line in the cache, as after ms_data_poison. */
static void *
verify_poison_slice (void *data)
{
  MsDataSlice *s = data;
  float *c = (float *) s->c;
  s->mismatches = 0;
  s->first_bad = UINT64_MAX;
  for (uint64_t i = s->begin; i < s->end; i += MS_DATA_BLOCK) {
    uint64_t end = s->end - i < MS_DATA_BLOCK ? s->end : i + MS_DATA_BLOCK;
    uint64_t bad = count_wrong (c, i, end);
    if (bad && s->first_bad == UINT64_MAX)
      s->first_bad = first_wrong (c, i, end);
    s->mismatches += bad;
    stream_poison (c + i, end - i);
  }
#if defined(__x86_64__)
  _mm_sfence ();
#endif
  return NULL;
}

/* The calling thread's thread count (0: the rule below), for benchmarks. */
static _Thread_local int forced_threads;

int
ms_data_set_threads (int n)
{
  int was = forced_threads;
  forced_threads = n < 0 ? 0 : n > MS_DATA_POOL_MAX ? MS_DATA_POOL_MAX : n;
  return was;
}

static int
n_threads_for (uint64_t n)
{
  /* A forced count still leaves each thread whole 64-byte lines. */
  if (forced_threads > 0)
    return n < (uint64_t) forced_threads * 64 ? 1 : forced_threads;
  return n < MS_DATA_PARALLEL_MIN ? 1 : ms_data_pool_width ();
}

int
ms_data_threads_at_most (void)
{
  return n_threads_for (MS_DATA_PARALLEL_MIN);
}

void
ms_data_set_helper_cpus (const void *cpu_set, size_t size)
{
  ms_data_pool_set_cpus (cpu_set, size);
}

/* Slices start on a 64-byte line, so each thread's streaming stores stay
 * aligned whatever the thread count. */
static void
run_slices (MsDataSlice *slices, int n_threads, uint64_t n, void *(*fn) (void *))
{
  for (int t = 0; t < n_threads; t++) {
    slices[t].begin = t == 0 ? 0 : (n * t / n_threads) & ~(uint64_t) 15;
    slices[t].end = t == n_threads - 1 ? n : (n * (t + 1) / n_threads) & ~(uint64_t) 15;
  }
  ms_data_pool_run (fn, slices, sizeof *slices, n_threads);
}

void
ms_data_fill (float *a, float *b, uint64_t n)
{
  MsDataSlice slices[MS_DATA_POOL_MAX] = { 0 };
  int n_threads = n_threads_for (n);
  for (int t = 0; t < n_threads; t++) {
    slices[t].a = a;
    slices[t].b = b;
  }
  run_slices (slices, n_threads, n, fill_slice);
}

static uint64_t
verify_with (const float *c, uint64_t n, uint64_t *first_bad, void *(*fn) (void *))
{
  MsDataSlice slices[MS_DATA_POOL_MAX] = { 0 };
  int n_threads = n_threads_for (n);
  uint64_t total = 0;
  uint64_t first = UINT64_MAX;

  for (int t = 0; t < n_threads; t++)
    slices[t].c = c;
  run_slices (slices, n_threads, n, fn);
  for (int t = 0; t < n_threads; t++) {
    total += slices[t].mismatches;
    if (slices[t].mismatches && slices[t].first_bad < first)
      first = slices[t].first_bad;
  }
  if (first_bad)
    *first_bad = total ? first : 0;
  return total;
}

uint64_t
ms_data_verify (const float *c, uint64_t n, uint64_t *first_bad)
{
  return verify_with (c, n, first_bad, verify_slice);
}

uint64_t
ms_data_verify_and_poison (float *c, uint64_t n, uint64_t *first_bad)
{
  return verify_with (c, n, first_bad, verify_poison_slice);
}

void
ms_data_poison (float *c, uint64_t n)
{
  stream_poison (c, n);
#if defined(__x86_64__)
  _mm_sfence ();
#endif
}
