/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-csv-write-private.h: what the samples and summary writer
 * (ms-csv-write.c) lends the keeping of a run that could not be written
 * at its names (ms-csv-keep.c). Private to engine/files. */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "memsweep.h"
#include "io/ms-gzip-file.h"
#include "ms-summary.h"

/* Writes the pair: taken NULL, replacing what is at the names; else only
 * where there is none (*taken when there is). False with a message. */
bool ms_csv_write_pair_at (const MsResults *results, const char *samples_path,
                           const char *summary_path, bool *taken, char *err, size_t errlen);

/* What the writers format, computed once (free it); NULL with a message
 * naming path when out of memory. */
MsRunSummary *ms_csv_write_summarize (const MsResults *results, const char *path, char *err,
                                      size_t errlen);

/* The metadata lines a sidecar holds (free them), or NULL. */
char *ms_csv_write_metadata_text (const MsResults *results, const MsRunSummary *run);

/* The run id of the samples written with their metadata inline, in
 * run_id[32]. */
void ms_csv_write_run_id (const MsResults *results, const MsRunSummary *run, char *run_id);

/* The summary file alone at path, with its sidecar, under run_id. */
bool ms_csv_write_summary_alone (const MsResults *results, const MsRunSummary *run,
                                 const char *path, const char *meta, const char *run_id, char *err,
                                 size_t errlen);

/* The samples, gzipped with their metadata inline (a joined file has no
 * sidecar) and run_id, into put (parts of a file, or a count); true when
 * all went. */
bool ms_csv_write_samples_gzipped (const MsResults *results, const MsRunSummary *run,
                                   const char *run_id, MsGzipSink put, void *to);
