/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-csv-number.h: the number forms memsweep writes, read back: digits,
 * optionally '.' and digits. No sign, exponent, hex, spaces, inf or nan.
 * Inline: they run for most fields of every row. */
#pragma once

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MS_CSV_MAX_TIME 1e12

static inline bool
ms_csv_parse_count (const char *s, size_t len, uint64_t *out)
{
  if (len == 0 || len > 19)
    return false;
  uint64_t v = 0;
  for (size_t i = 0; i < len; i++) {
    unsigned d = (unsigned char) s[i] - '0';
    if (d > 9)
      return false;
    v = v * 10 + d;
  }
  *out = v;
  return true;
}

/* Up to 1e12. With at most 19 digits whose value is below 2^53 and at most
 * 22 after the point, one division of two exact doubles gives the correctly
 * rounded value, the same that strtod gives, without its cost. Longer
 * forms (up to 63 characters) go through strtod. */
static inline bool
ms_csv_parse_decimal (const char *s, size_t len, double *out)
{
  static const double pow10[] = { 1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                  1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                  1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22 };
  const char *p = s, *end = s + len;
  uint64_t mant = 0;
  unsigned d;
  while (p < end && (d = (unsigned char) *p - '0') <= 9) {
    mant = mant * 10 + d;
    p++;
  }
  size_t int_digits = (size_t) (p - s), frac = 0;
  if (int_digits == 0)
    return false;
  if (p < end) {
    if (*p++ != '.')
      return false;
    const char *first = p;
    while (p < end && (d = (unsigned char) *p - '0') <= 9) {
      mant = mant * 10 + d;
      p++;
    }
    frac = (size_t) (p - first);
    if (frac == 0 || p != end)
      return false;
  }
  double v;
  if (int_digits + frac <= 19 && mant < (1ull << 53) && frac < sizeof pow10 / sizeof pow10[0]) {
    v = (double) mant / pow10[frac];
  } else {
    /* Rare (a hand-edited file): strtod wants a terminated copy. */
    char copy[64];
    if (len >= sizeof copy)
      return false;
    memcpy (copy, s, len);
    copy[len] = '\0';
    errno = 0;
    v = strtod (copy, NULL);
    if (errno)
      return false;
  }
  if (!isfinite (v) || v > MS_CSV_MAX_TIME)
    return false;
  *out = v;
  return true;
}
