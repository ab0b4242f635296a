/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-csv-field.c: a text field of a CSV file, quoted by libcsv and guarded
 * against spreadsheet formulas (ms-csv-field.h). The samples and summary
 * writer (ms-csv-writer.h) writes the same form into its row buffer, and
 * asks ms_csv_field_is_formula when to guard. */
#include "ms-csv-field.h"

#include <csv.h>
#include <stdlib.h>
#include <string.h>

const char *
ms_csv_field_unguarded (const char *text)
{
  return text[0] == '\'' && ms_csv_field_is_formula (text + 1) ? text + 1 : text;
}

bool
ms_csv_field_write (FILE *f, const char *text)
{
  if (!text)
    return true;
  size_t len = strlen (text);
  if (!ms_csv_field_is_formula (text))
    return csv_fwrite (f, text, len) == 0;
  /* The apostrophe goes inside the quotes, so csv_fwrite gets it with the
   * text. */
  char *guarded = malloc (len + 2);
  if (!guarded)
    return false;
  guarded[0] = '\'';
  memcpy (guarded + 1, text, len + 1);
  bool ok = csv_fwrite (f, guarded, len + 1) == 0;
  free (guarded);
  return ok;
}
