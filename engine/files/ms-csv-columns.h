/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-csv-columns.h: leaves out of a CSV text the columns that are empty in
 * every row. Data tools type a column from its values, and one without any
 * reads as text (polars, DuckDB): a summary's phases that a run did not
 * measure are left out rather than typed wrongly (docs/csv.md). Plain C. */
#pragma once

#include <stddef.h>

/* text holds a header row and data rows as memsweep writes them (fields
 * quoted with doubled quotes or plain, rows ending in '\n'); a field with
 * nothing in it, not even quotes, is empty. Columns empty in every data
 * row are removed in place; returns the new length. A text without data
 * rows is left as it is. keep: names of columns kept whatever they hold
 * (those a reader needs), NULL-terminated. */
size_t ms_csv_drop_empty_columns (char *text, size_t len, const char *const *keep);
