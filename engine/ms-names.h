/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-names.h: a name looked up in a table of names or of records that
 * start with their name: the one loop behind the engine's *_from_name
 * functions. Plain C. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

/* The index of the entry named name among n entries of stride bytes from
 * table, each starting with its const char * name; -1 when none is (or
 * name is NULL). */
static inline int
ms_name_index (const void *table, size_t stride, int n, const char *name)
{
  for (int i = 0; name && i < n; i++)
    if (strcmp (*(const char *const *) ((const char *) table + i * stride), name) == 0)
      return i;
  return -1;
}

#define MS_NAME_INDEX(table, n, name) ms_name_index ((table), sizeof (table)[0], (n), (name))

/* Defines the *_from_name function fn of an enum type whose values index
 * table (n entries): bool fn (const char *name, type *out) sets *out to
 * the value named name and says whether one is; *out is left alone when
 * none is. Each such function is this body, only its table differs. */
#define MS_DEFINE_FROM_NAME(fn, type, table, n)                                                    \
  bool fn (const char *name, type *out)                                                            \
  {                                                                                                \
    int i = MS_NAME_INDEX (table, n, name);                                                        \
    if (i >= 0)                                                                                    \
      *out = (type)i;                                                                              \
    return i >= 0;                                                                                 \
  }

/* Defines fn, type fn (key_type i): value (an expression of i) for i in
 * [0, n), fallback outside: the one shape of the accessors of a table
 * indexed by an enum. */
#define MS_DEFINE_LOOKUP(fn, type, key_type, n, value, fallback)                                   \
  type fn (key_type i) { return (unsigned)i < (unsigned)(n) ? (value) : (fallback); }
