/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-number.c: a whole decimal number read from text (ms-number.h). */
#include <stdlib.h>
#include <string.h>

#include "ms-number.h"

bool
ms_parse_long (const char *s, long lo, long hi, long *out)
{
  /* The one number rule: digits, a '-' only where the range goes below 0;
   * no spaces, '+', hex or exponent (strtol alone takes " +0x1"). */
  const char *digits = s + (s[0] == '-' && lo < 0);
  size_t n = strlen (digits);
  if (n == 0 || n > 18 || strspn (digits, "0123456789") != n)
    return false;
  long v = strtol (s, NULL, 10);
  if (v < lo || v > hi)
    return false;
  *out = v;
  return true;
}
