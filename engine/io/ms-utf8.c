/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-utf8.c: UTF-8 checks and cuts on character boundaries. */
#include <string.h>

#include "ms-utf8.h"

static size_t
char_length (const unsigned char *s, size_t left)
{
  unsigned c = s[0];
  size_t n;
  unsigned lo = 0x80, hi = 0xBF; /* the second byte's range */
  if (c < 0x80)
    return 1;
  if (c >= 0xC2 && c <= 0xDF)
    n = 2;
  else if (c >= 0xE0 && c <= 0xEF) {
    n = 3;
    if (c == 0xE0)
      lo = 0xA0; /* overlong */
    if (c == 0xED)
      hi = 0x9F; /* surrogates */
  } else if (c >= 0xF0 && c <= 0xF4) {
    n = 4;
    if (c == 0xF0)
      lo = 0x90;
    if (c == 0xF4)
      hi = 0x8F; /* past U+10FFFF */
  } else
    return 0;
  if (left < n || s[1] < lo || s[1] > hi)
    return 0;
  for (size_t i = 2; i < n; i++)
    if ((s[i] & 0xC0) != 0x80)
      return 0;
  return n;
}

bool
ms_utf8_valid (const char *s, size_t len, size_t *bad)
{
  const unsigned char *u = (const unsigned char *) s;
  for (size_t i = 0; i < len;) {
    size_t n = char_length (u + i, len - i);
    if (!n) {
      if (bad)
        *bad = i;
      return false;
    }
    i += n;
  }
  return true;
}

size_t
ms_utf8_prefix (const char *s, size_t len)
{
  const unsigned char *u = (const unsigned char *) s;
  /* Back over continuation bytes to the lead byte of the last character;
   * keep it when whole. */
  size_t i = len;
  while (i > 0 && len - i < 4 && (u[i - 1] & 0xC0) == 0x80)
    i--;
  if (i == 0 || u[i - 1] < 0x80)
    return len;
  size_t lead = i - 1;
  return char_length (u + lead, len - lead) == len - lead ? len : lead;
}

void
ms_utf8_copy (char *dst, size_t size, const char *src)
{
  if (size == 0)
    return;
  size_t n = strlen (src);
  if (n >= size)
    n = ms_utf8_prefix (src, size - 1);
  memmove (dst, src, n);
  dst[n] = '\0';
}

void
ms_utf8_make_valid (char *dst, size_t size, const char *src)
{
  static const char replacement[] = "\xEF\xBF\xBD"; /* U+FFFD */
  const unsigned char *u = (const unsigned char *) src;
  size_t left = strlen (src), o = 0;
  if (size == 0)
    return;
  while (left > 0) {
    size_t n = char_length (u, left);
    const char *piece = n ? (const char *) u : replacement;
    size_t len = n ? n : sizeof replacement - 1;
    if (o + len >= size)
      break;
    memcpy (dst + o, piece, len);
    o += len;
    u += n ? n : 1;
    left -= n ? n : 1;
  }
  dst[o] = '\0';
}

size_t
ms_utf8_char_length (const char *s, size_t left)
{
  return left ? char_length ((const unsigned char *) s, left) : 0;
}

bool
ms_utf8_has_control (const char *s)
{
  for (const unsigned char *u = (const unsigned char *) s; *u; u++)
    /* C0 and DEL; C1 (U+0080..U+009F) is 0xC2 0x80..0x9F in UTF-8. */
    if (*u < 0x20 || *u == 0x7f || (*u == 0xc2 && u[1] >= 0x80 && u[1] <= 0x9f))
      return true;
  return false;
}
