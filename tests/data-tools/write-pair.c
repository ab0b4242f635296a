/* SPDX-License-Identifier: GPL-3.0-or-later */
/* write-pair.c: write-pair SAMPLES PREFIX: reads a samples file and writes
 * it again as a run writes its files (PREFIX-samples.csv,
 * PREFIX-summary.csv and PREFIX-meta.json), so that the data-tool test
 * reads files of the current format without a GPU. */
#include <stdio.h>

#include "memsweep.h"
#include "ms-csv-pair.h"

int
main (int argc, char **argv)
{
  char err[1024], samples[4096], summary[4096];
  if (argc != 3) {
    fprintf (stderr, "usage: write-pair SAMPLES PREFIX\n");
    return 2;
  }
  snprintf (samples, sizeof samples, "%s-samples.csv", argv[2]);
  snprintf (summary, sizeof summary, "%s-summary.csv", argv[2]);
  MsResults *r = ms_csv_read_samples (argv[1], err, sizeof err);
  if (!r || !ms_csv_write_pair (r, samples, summary, err, sizeof err)) {
    fprintf (stderr, "write-pair: %s\n", err);
    ms_results_free (r);
    return 1;
  }
  ms_results_free (r);
  return 0;
}
