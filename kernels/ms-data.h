/* ms-data.h: the workload's inputs, identical on host and device.
 *
 * a[i] lies in [1, 2) and b[i] in [2, 4), both with 20 fraction bits, so
 * each is exact in float32, never zero, a != b, and a + b rounds the same
 * on the CPU and the GPU. Every correct c[i] is >= 3, so an element that was
 * never written (zero or the NaN poison) always fails verification.
 */
#pragma once

#include <stdint.h>

#ifdef __CUDACC__
#define MS_HD __host__ __device__
#else
#define MS_HD
#endif

#define MS_POISON_BYTE 0xff /* memset pattern: NaN in every float */

static inline MS_HD uint32_t
ms_data_hash (uint64_t i, uint32_t salt)
{
  uint64_t x = i * 0x9E3779B97F4A7C15ull + salt * 0xBF58476D1CE4E5B9ull;
  x ^= x >> 31;
  x *= 0x94D049BB133111EBull;
  x ^= x >> 29;
  return (uint32_t) x;
}

static inline MS_HD float
ms_data_a (uint64_t i)
{
  return 1.0f + (float) (ms_data_hash (i, 1) & 0xFFFFFu) * (1.0f / 1048576.0f);
}

static inline MS_HD float
ms_data_b (uint64_t i)
{
  return 2.0f + (float) (ms_data_hash (i, 2) & 0xFFFFFu) * (2.0f / 1048576.0f);
}

#ifdef __cplusplus
extern "C" {
#endif

/* Host fill of a and b (multi-threaded for large n). */
void ms_data_fill (float *a, float *b, uint64_t n);
/* Host check of c against the reference a + b; returns the mismatch count. */
uint64_t ms_data_verify (const float *c, uint64_t n, uint64_t *first_bad);

#ifdef __cplusplus
}
#endif
