/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-compare-columns.h: the verdict table, a cell a row, its columns said
 * once: `memsweep compare --format csv|markdown` and the Compare page's
 * NAME-verdicts.csv are written from it (docs/compare.md).
 *
 * Plain C, no GLib. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "ms-compare.h"

#define MS_COMPARE_TEXT (-1) /* a column of words, not numbers */

typedef struct {
  const char *name; /* the CSV header */
  int decimals;     /* of a number, or MS_COMPARE_TEXT */
} MsCompareColumn;

#define MS_COMPARE_N_COLUMNS 25
extern const MsCompareColumn ms_compare_columns[MS_COMPARE_N_COLUMNS];

/* Row row's value in a text column ("" when none). */
const char *ms_compare_text (const MsComparison *cmp, size_t row, int column);
/* Row row's value in a number column (NAN when none). */
double ms_compare_number (const MsComparison *cmp, size_t row, int column);

/* The table as CSV: the header, then a row per cell (text by the rule of
 * every CSV written, ms-csv-field.h; numbers in the C locale; none:
 * empty). False when a write failed. */
bool ms_comparison_write_csv (const MsComparison *comparison, FILE *out);
