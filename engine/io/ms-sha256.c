/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-sha256.c: SHA-256 as FIPS 180-4 gives it (sections 4.2.2, 5.1.1,
 * 5.3.3 and 6.2); tests/engine/test-sha256.c checks its test vectors. */
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "ms-sha256.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <cpuid.h>
#include <immintrin.h>
#define HAVE_SHA_NI 1
#endif

static const uint32_t k[64] = {
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static inline uint32_t
rotr (uint32_t x, int n)
{
  return (x >> n) | (x << (32 - n));
}

/* The functions of 4.1.2: the big sigmas of a round and the small ones
 * of the message schedule. */
static inline uint32_t
big_sigma0 (uint32_t x)
{
  return rotr (x, 2) ^ rotr (x, 13) ^ rotr (x, 22);
}

static inline uint32_t
big_sigma1 (uint32_t x)
{
  return rotr (x, 6) ^ rotr (x, 11) ^ rotr (x, 25);
}

static inline uint32_t
small_sigma0 (uint32_t x)
{
  return rotr (x, 7) ^ rotr (x, 18) ^ (x >> 3);
}

static inline uint32_t
small_sigma1 (uint32_t x)
{
  return rotr (x, 17) ^ rotr (x, 19) ^ (x >> 10);
}

static void
compress (uint32_t state[8], const unsigned char *block)
{
  uint32_t w[64], v[8];
  for (int t = 0; t < 16; t++)
    w[t] = (uint32_t) block[4 * t] << 24 | (uint32_t) block[4 * t + 1] << 16 |
           (uint32_t) block[4 * t + 2] << 8 | (uint32_t) block[4 * t + 3];
  for (int t = 16; t < 64; t++)
    w[t] = small_sigma1 (w[t - 2]) + w[t - 7] + small_sigma0 (w[t - 15]) + w[t - 16];
  memcpy (v, state, sizeof v);
  for (int t = 0; t < 64; t++) {
    uint32_t a = v[0], e = v[4];
    uint32_t t1 = v[7] + big_sigma1 (e) + ((e & v[5]) ^ (~e & v[6])) + k[t] + w[t];
    uint32_t t2 = big_sigma0 (a) + ((a & v[1]) ^ (a & v[2]) ^ (v[1] & v[2]));
    v[7] = v[6];
    v[6] = v[5];
    v[5] = e;
    v[4] = v[3] + t1;
    v[3] = v[2];
    v[2] = v[1];
    v[1] = a;
    v[0] = t1 + t2;
  }
  for (int i = 0; i < 8; i++)
    state[i] += v[i];
}

#ifdef HAVE_SHA_NI
/* The same rounds with the x86 SHA extensions (Intel's SHA-NI: sha256rnds2
 * does two rounds, sha256msg1 and sha256msg2 the message schedule), on the
 * CPUs that have them: a sidecar's digest of a large samples file is
 * computed at every show, and the portable rounds take several times
 * longer. The state is kept as ABEF and CDGH, the order the instructions
 * take. */
static void __attribute__ ((target ("sha,sse4.1,ssse3")))
compress_blocks_sha_ni (uint32_t state[8], const unsigned char *data, size_t blocks)
{
  const __m128i swap = _mm_set_epi64x (0x0c0d0e0f08090a0bll, 0x0405060700010203ll);
  __m128i tmp = _mm_shuffle_epi32 (_mm_loadu_si128 ((const __m128i *) &state[0]), 0xB1);
  __m128i cdgh = _mm_shuffle_epi32 (_mm_loadu_si128 ((const __m128i *) &state[4]), 0x1B);
  __m128i abef = _mm_alignr_epi8 (tmp, cdgh, 8);
  cdgh = _mm_blend_epi16 (cdgh, tmp, 0xF0);
  for (; blocks > 0; blocks--, data += 64) {
    __m128i abef_before = abef, cdgh_before = cdgh, m[4];
    for (int g = 0; g < 16; g++) {
      __m128i *cur = &m[g % 4];
      if (g < 4)
        *cur = _mm_shuffle_epi8 (_mm_loadu_si128 ((const __m128i *) (data + 16 * g)), swap);
      __m128i msg = _mm_add_epi32 (*cur, _mm_loadu_si128 ((const __m128i *) &k[4 * g]));
      cdgh = _mm_sha256rnds2_epu32 (cdgh, abef, msg);
      if (g >= 3 && g < 15) {
        __m128i *next = &m[(g + 1) % 4];
        *next = _mm_add_epi32 (*next, _mm_alignr_epi8 (*cur, m[(g + 3) % 4], 4));
        *next = _mm_sha256msg2_epu32 (*next, *cur);
      }
      abef = _mm_sha256rnds2_epu32 (abef, cdgh, _mm_shuffle_epi32 (msg, 0x0E));
      if (g >= 1 && g < 13)
        m[(g + 3) % 4] = _mm_sha256msg1_epu32 (m[(g + 3) % 4], *cur);
    }
    abef = _mm_add_epi32 (abef, abef_before);
    cdgh = _mm_add_epi32 (cdgh, cdgh_before);
  }
  tmp = _mm_shuffle_epi32 (abef, 0x1B);
  cdgh = _mm_shuffle_epi32 (cdgh, 0xB1);
  _mm_storeu_si128 ((__m128i *) &state[0], _mm_blend_epi16 (tmp, cdgh, 0xF0));
  _mm_storeu_si128 ((__m128i *) &state[4], _mm_alignr_epi8 (cdgh, tmp, 8));
}

/* CPUID: SHA (leaf 7, EBX bit 29), SSE4.1 and SSSE3 (leaf 1, ECX bits 19
 * and 9). */
static bool
cpu_has_sha_ni (void)
{
  unsigned a, b, c, d;
  if (!__get_cpuid (1, &a, &b, &c, &d) || !(c & (1u << 19)) || !(c & (1u << 9)))
    return false;
  return __get_cpuid_count (7, 0, &a, &b, &c, &d) && (b & (1u << 29));
}
#endif

/* -1: not asked yet; readers on several threads (fleet-report) may ask
 * at once, and all find the same. */
static atomic_int hardware = -1;

bool
ms_sha256_use_hardware (bool allowed)
{
#ifdef HAVE_SHA_NI
  hardware = allowed && cpu_has_sha_ni ();
#else
  hardware = 0;
  (void) allowed;
#endif
  return hardware;
}

static void
compress_blocks (uint32_t state[8], const unsigned char *data, size_t blocks)
{
  if (hardware < 0)
    ms_sha256_use_hardware (true);
#ifdef HAVE_SHA_NI
  if (hardware) {
    compress_blocks_sha_ni (state, data, blocks);
    return;
  }
#endif
  for (; blocks > 0; blocks--, data += 64)
    compress (state, data);
}

void
ms_sha256_init (MsSha256 *ctx)
{
  static const uint32_t h0[8] = { 0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                  0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19 };
  memcpy (ctx->state, h0, sizeof h0);
  ctx->bytes = 0;
  ctx->in_block = 0;
}

void
ms_sha256_update (MsSha256 *ctx, const void *data, size_t len)
{
  const unsigned char *p = data;
  ctx->bytes += len;
  if (ctx->in_block > 0) {
    size_t n = len < 64 - ctx->in_block ? len : 64 - ctx->in_block;
    memcpy (ctx->block + ctx->in_block, p, n);
    ctx->in_block += n;
    p += n;
    len -= n;
    if (ctx->in_block < 64)
      return;
    compress_blocks (ctx->state, ctx->block, 1);
    ctx->in_block = 0;
  }
  compress_blocks (ctx->state, p, len / 64);
  p += len / 64 * 64;
  len %= 64;
  memcpy (ctx->block, p, len);
  ctx->in_block = len;
}

/* The padding of 5.1.1: a 1 bit, zeros, the length in bits. */
void
ms_sha256_hex (const MsSha256 *ctx, char *hex)
{
  MsSha256 end = *ctx;
  unsigned char pad[72] = { 0x80 };
  uint64_t bits = ctx->bytes * 8;
  size_t n = (ctx->in_block < 56 ? 56 : 120) - ctx->in_block;
  for (int i = 0; i < 8; i++)
    pad[n + (size_t) i] = (unsigned char) (bits >> (56 - 8 * i));
  ms_sha256_update (&end, pad, n + 8);
  for (int i = 0; i < 8; i++)
    snprintf (hex + 8 * i, 9, "%08x", (unsigned) end.state[i]);
}

void
ms_sha256_hex_of (const void *data, size_t len, char *hex)
{
  MsSha256 ctx;
  ms_sha256_init (&ctx);
  ms_sha256_update (&ctx, data, len);
  ms_sha256_hex (&ctx, hex);
}
