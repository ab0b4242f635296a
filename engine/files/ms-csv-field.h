/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-csv-field.h: the one rule for a text field of every CSV memsweep
 * writes (ms-csv-field.c): in quotes, every quote doubled, as libcsv's
 * csv_fwrite writes it, and text a spreadsheet would run as a formula made
 * inert (docs/csv.md, "Text fields"). Numbers and our own column names are
 * written bare by their writers. */
#pragma once

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* Whether a spreadsheet would take text for a formula: it starts with
 * = + - @, a tab or a carriage return. Such a field is written with a
 * leading apostrophe inside its quotes. Inline: the samples writer asks
 * it of every text field. */
static inline bool
ms_csv_field_is_formula (const char *text)
{
  return text[0] && strchr ("=+-@\t\r", text[0]);
}
/* The text a field read back stood for: past the apostrophe that
 * ms_csv_field_write put before a formula. */
const char *ms_csv_field_unguarded (const char *text);
/* Writes text (NULL: an empty field, unquoted) as one field, quoted and
 * guarded; the caller writes the commas and the line's end. False on a
 * write error. */
bool ms_csv_field_write (FILE *f, const char *text);
