/* SPDX-License-Identifier: GPL-3.0-or-later */
/* write-pair.c: files of the current format without a GPU, for the
 * data-tool test.
 *   write-pair SAMPLES PREFIX: reads a samples file and writes it again as
 *     a run writes its files (PREFIX-samples.csv, PREFIX-summary.csv and
 *     PREFIX-meta.json);
 *   write-pair SAMPLES samples|summary: writes one of them to standard
 *     output, where no sidecar can be: every column, metadata inline. */
#include <stdio.h>
#include <string.h>

#include "memsweep.h"
#include "ms-csv-pair.h"

static bool
write_files (const MsResults *r, const char *target, char *err, size_t errlen)
{
  char samples[4096], summary[4096];
  if (strcmp (target, "samples") == 0)
    return ms_csv_write_samples (r, "/dev/stdout", err, errlen);
  if (strcmp (target, "summary") == 0)
    return ms_csv_write_summary (r, "/dev/stdout", err, errlen);
  snprintf (samples, sizeof samples, "%s-samples.csv", target);
  snprintf (summary, sizeof summary, "%s-summary.csv", target);
  return ms_csv_write_pair (r, samples, summary, err, errlen);
}

int
main (int argc, char **argv)
{
  char err[1024];
  if (argc != 3) {
    fprintf (stderr, "usage: write-pair SAMPLES PREFIX|samples|summary\n");
    return 2;
  }
  MsResults *r = ms_csv_read_samples (argv[1], err, sizeof err);
  if (!r || !write_files (r, argv[2], err, sizeof err)) {
    fprintf (stderr, "write-pair: %s\n", err);
    ms_results_free (r);
    return 1;
  }
  ms_results_free (r);
  return 0;
}
