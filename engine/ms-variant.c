/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-variant.c: the variant of a cell, the setting of an experiment it was
 * measured under ("R=4", "queue=single/order=breadth"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "memsweep.h"
#include "ms-number.h"
#include "ms-variant.h"

bool
ms_variant_valid (const char *variant)
{
  size_t len = strlen (variant);
  if (len >= MS_VARIANT_LEN)
    return false;
  for (size_t i = 0; i < len; i++) {
    char ch = variant[i];
    bool alnum = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9');
    /* Starting with a letter or digit, a spreadsheet never reads it as a
     * formula. */
    if (!alnum && (i == 0 || !strchr ("=/._,+:-", ch)))
      return false;
  }
  return true;
}

bool
ms_variant_get (const char *variant, const char *key, char *value, size_t len)
{
  size_t key_len = strlen (key);
  const char *p = variant ? variant : "";
  while (*p) {
    const char *end = strchr (p, '/');
    size_t part = end ? (size_t) (end - p) : strlen (p);
    if (part > key_len && strncmp (p, key, key_len) == 0 && p[key_len] == '=') {
      size_t n = part - key_len - 1;
      if (len == 0 || n >= len)
        return false;
      memcpy (value, p + key_len + 1, n);
      value[n] = '\0';
      return true;
    }
    p += part + (end ? 1 : 0);
  }
  return false;
}

bool
ms_variant_get_int (const char *variant, const char *key, int *value)
{
  char text[MS_VARIANT_LEN];
  long v;
  if (!ms_variant_get (variant, key, text, sizeof text) ||
      !ms_parse_long (text, -1000000, 1000000, &v))
    return false;
  *value = (int) v;
  return true;
}

int
ms_results_variants (const MsResults *results, MsMode mode, const char **variants, int max)
{
  int n = 0;
  for (size_t i = 0; i < results->n_cells; i++) {
    const MsCell *c = &results->cells[i];
    if (mode != MS_MODE_COUNT && c->mode != mode)
      continue;
    bool seen = false;
    for (int k = 0; k < n && k < max && !seen; k++)
      seen = strcmp (variants[k], c->variant) == 0;
    /* Past max, a repeat cannot be told from a new one: stop counting. */
    if (!seen && n >= max)
      return n;
    if (!seen)
      variants[n++] = c->variant;
  }
  return n;
}
