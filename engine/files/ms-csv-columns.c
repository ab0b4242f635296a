/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-csv-columns.c: leaves out the columns that are empty in every row
 * (see ms-csv-columns.h). */
#include "ms-csv-columns.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* The end of the field that starts at p: its ',' or '\n', or end. */
static const char *
field_end (const char *p, const char *end)
{
  bool quoted = false;
  for (; p < end; p++) {
    if (*p == '"')
      quoted = !quoted;
    else if (!quoted && (*p == ',' || *p == '\n'))
      return p;
  }
  return end;
}

static bool
is_kept (const char *name, size_t len, const char *const *keep)
{
  for (; keep && *keep; keep++)
    if (strlen (*keep) == len && memcmp (*keep, name, len) == 0)
      return true;
  return false;
}

/* Marks in used[] the columns kept by name or with something in them in
 * the rows after the header, every one where there are no such rows;
 * returns the number of columns of the header. */
static size_t
find_used (const char *text, const char *end, const char *const *keep, bool **used_out)
{
  size_t n = 1;
  for (const char *e = text; (e = field_end (e, end)) < end && *e == ','; e++)
    n++;
  bool *used = calloc (n, sizeof *used), rows = false;
  *used_out = used;
  if (!used)
    return 0;
  for (const char *p = text; p < end;) {
    bool header = p == text;
    rows |= !header;
    for (size_t c = 0;; c++) {
      const char *e = field_end (p, end);
      if (c < n && (header ? is_kept (p, (size_t) (e - p), keep) : e > p))
        used[c] = true;
      p = e + 1;
      if (e >= end || *e == '\n')
        break;
    }
  }
  for (size_t c = 0; !rows && c < n; c++)
    used[c] = true;
  return n;
}

size_t
ms_csv_drop_empty_columns (char *text, size_t len, const char *const *keep)
{
  const char *end = text + len;
  bool *used = NULL;
  size_t n = find_used (text, end, keep, &used);
  if (!used)
    return len;
  char *out = text;
  for (const char *p = text; p < end;) {
    bool first = true;
    for (size_t c = 0;; c++) {
      const char *e = field_end (p, end);
      /* Columns past the header's (a malformed row) are kept. */
      if (c >= n || used[c]) {
        if (!first)
          *out++ = ',';
        memmove (out, p, (size_t) (e - p));
        out += e - p;
        first = false;
      }
      p = e + 1;
      if (e >= end || *e == '\n') {
        if (e < end)
          *out++ = '\n';
        break;
      }
    }
  }
  free (used);
  return (size_t) (out - text);
}
