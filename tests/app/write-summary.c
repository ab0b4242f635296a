/* SPDX-License-Identifier: GPL-3.0-or-later */
/* write-summary.c: write-summary SAMPLES SUMMARY: the summary file of a
 * samples file, as a sweep writes it, for the report tests (the command
 * line writes summaries only beside a sweep). */
#include <stdio.h>

#include "files/ms-csv-io.h"
#include "lessons/ms-run-read.h"
#include "memsweep.h"
#include "model/ms-results.h"

int
main (int argc, char **argv)
{
  char err[1024];
  if (argc != 3) {
    fprintf (stderr, "usage: write-summary SAMPLES SUMMARY\n");
    return 2;
  }
  MsResults *r = ms_run_read_samples (argv[1], err, sizeof err);
  if (!r || !ms_csv_write_summary (r, argv[2], err, sizeof err)) {
    fprintf (stderr, "write-summary: %s\n", err);
    ms_results_free (r);
    return 1;
  }
  ms_results_free (r);
  return 0;
}
