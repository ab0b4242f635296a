/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-csv-pair.c: whether a samples file and the summary beside it were
 * written together (the run id in both files' metadata). */
#include "ms-csv-pair.h"
#include "ms-i18n.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define SAMPLES_SUFFIX "-samples.csv"
#define SUMMARY_SUFFIX "-summary.csv"
/* Metadata sits at the top; no need to read a large file to its end. */
#define MAX_META_LINES 200

bool
ms_csv_meta_value (const char *path, const char *key, char *value, size_t len)
{
  char line[512];
  size_t key_len = strlen (key);
  bool found = false;
  FILE *f = fopen (path, "r");
  if (!f)
    return false;
  for (int i = 0; i < MAX_META_LINES && fgets (line, sizeof line, f); i++) {
    if (line[0] != '#')
      break;
    const char *k = line + 1;
    while (*k == ' ')
      k++;
    if (strncmp (k, key, key_len) != 0 || strncmp (k + key_len, ": ", 2) != 0)
      continue;
    snprintf (value, len, "%s", k + key_len + 2);
    value[strcspn (value, "\r\n")] = '\0';
    found = true;
    break;
  }
  fclose (f);
  return found;
}

bool
ms_csv_pair_summary_path (const char *samples_path, char *out, size_t len)
{
  size_t n = strlen (samples_path), s = strlen (SAMPLES_SUFFIX);
  if (n < s || strcmp (samples_path + n - s, SAMPLES_SUFFIX) != 0)
    return false;
  return snprintf (out, len, "%.*s%s", (int) (n - s), samples_path, SUMMARY_SUFFIX) < (int) len;
}

bool
ms_csv_pair_check (const char *samples_path, char *err, size_t errlen)
{
  char summary[4096], a[64] = "", b[64] = "";
  if (!ms_csv_pair_summary_path (samples_path, summary, sizeof summary) ||
      access (summary, F_OK) != 0)
    return true;
  bool has_a = ms_csv_meta_value (samples_path, "run-id", a, sizeof a);
  bool has_b = ms_csv_meta_value (summary, "run-id", b, sizeof b);
  if (has_a == has_b && strcmp (a, b) == 0)
    return true;
  snprintf (err, errlen,
            ms_gettext ("%s and %s are not from the same run (run id %s and %s): the summary "
                        "does not describe these samples"), samples_path, summary,
           has_a ? a : ms_gettext ("none"), has_b ? b : ms_gettext ("none"));
  return false;
}
