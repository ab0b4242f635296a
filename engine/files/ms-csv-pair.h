/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-csv-pair.h: a samples file and its summary as one pair. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "memsweep.h"

/* A pair written at its names, or kept elsewhere: run/ms-csv-keep.h. A
 * pair that must be new (the runs library's first write of
 * a run, under a name it chose): when either file exists by the time the
 * pair would be renamed (another app instance chose the same name),
 * nothing is replaced and *taken is set. */
bool ms_csv_write_pair_new (const MsResults *results, const char *samples_path,
                            const char *summary_path, bool *taken, char *err, size_t errlen);

/* The length of name without its ending suffix ("-samples.csv") or that
 * ending compressed ("-samples.csv.gz"); 0 when it ends in neither. */
size_t ms_csv_name_stem (const char *name, const char *suffix);

/* The summary that belongs to a samples file (NAME-samples.csv ->
 * NAME-summary.csv); false when the name does not end in -samples.csv.
 * NAME-samples.csv.gz's is NAME-summary.csv.gz, or NAME-summary.csv when
 * only that is there (and the other way round). */
bool ms_csv_pair_summary_path (const char *samples_path, char *out, size_t len);
/* The other way: the samples file a summary belongs to (NAME-summary.csv
 * -> NAME-samples.csv); false when the name does not end in -summary.csv. */
bool ms_csv_pair_samples_path (const char *summary_path, char *out, size_t len);

/* Protects path as an input (ms-atomic-file.h) with its partner and its
 * sidecar: a samples file implies its summary, a summary the samples it
 * sums up. Each is opened once, here, and read from what was opened. */
void ms_csv_pair_protect (const char *path);

/* When samples_path has a summary beside it, whether both carry the same run
 * id; false with a message naming both files when they do not. A samples
 * file without a summary passes. */
bool ms_csv_pair_check (const char *samples_path, char *err, size_t errlen);
/* The same for samples read already: run_id is the one they state ("":
 * none), so that only the summary is looked at. */
bool ms_csv_pair_check_id (const char *samples_path, const char *run_id, char *err,
                           size_t errlen);

/* The metadata of the samples file at path, from its head alone (a list
 * of runs reads no more): its '#' lines above its column header, each
 * ending in '\n', or for a file without them its sidecar's '# key: value'
 * lines, in *lines (free with free ()); *lines NULL when no sidecar
 * describes the file. False with the reason in why, translated, when the
 * file cannot be read, is no samples file (ms_file_kind_of_head) or is
 * damaged: its header does not end within its first 64 KiB, or its last
 * line has no end (a compressed file's end is left to the reader that
 * inflates it all). */
bool ms_csv_samples_meta (const char *path, char **lines, char *why, size_t whylen);

/* The metadata lines of a CSV file, each ending in '\n' (free with
 * free ()): the '#' lines at its top (the first 256 KiB at most), or for a
 * file without them its sidecar's, where the sidecar describes it; NULL
 * when there are none or the file cannot be read. */
char *ms_csv_meta_lines (const char *path);
/* The value of key's line among those; false when there is none. */
bool ms_csv_meta_value (const char *path, const char *key, char *value, size_t len);

