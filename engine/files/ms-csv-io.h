/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-csv-io.h: a run written to and read from its CSV files, samples and
 * summary. Defined in ms-csv-write.c, ms-csv-read.c and
 * ms-csv-summary.c. */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "memsweep.h"

/* Both return false with a message; writing goes through a temporary file
 * renamed over path, so a failure leaves an existing file intact. */
bool ms_csv_write_samples (const MsResults *results, const char *path, char *err, size_t errlen);

bool ms_csv_write_summary (const MsResults *results, const char *path, char *err, size_t errlen);

/* Reads a samples file back into results with statistics computed. Errors
 * name file:line and the reason. */
MsResults *ms_csv_read_samples (const char *path, char *err, size_t errlen);

/* The same results for what needs only the figures (`memsweep show`): each
 * cell's statistics, n_reps and rounds, without its samples (events and
 * end-to-end times NULL), so a large file takes about one cell's samples
 * of memory. A lesson's run keeps its samples; a file whose rows come back
 * to a cell after others is read again whole. */
MsResults *ms_csv_read_figures (const char *path, char *err, size_t errlen);

/* A summary file (ms-csv-summary.c): cells with statistics only, and
 * from_summary set. ms_csv_read_samples hands a summary file to it. */
MsResults *ms_csv_read_summary (const char *path, char *err, size_t errlen);
