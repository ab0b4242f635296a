/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-meta-sidecar.h: a run's metadata (device, driver, link, settings,
 * health, format version) in PREFIX-meta.json beside its CSV files, so that
 * the CSV files are plain tables any data tool reads without options
 * (docs/csv.md, data/schema/memsweep-meta.schema.json).
 *
 * The metadata keys are those of ms-meta.h: the writer turns the '# key:
 * value' lines the CSV files used to carry into the sidecar's "metadata"
 * object, and the reader turns them back into those lines for the same
 * parsers, so that both forms are checked in one place. The sidecar names
 * each file it describes with its size: a CSV whose sidecar names another
 * size is another run's (or was changed), and its metadata is unknown.
 * Plain C, no GLib. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define MS_META_SIDECAR_FORMAT "memsweep-meta"
#define MS_META_SIDECAR_VERSION 1
#define MS_META_SIDECAR_SUFFIX "-meta.json"

/* One CSV file a sidecar describes. */
typedef struct {
  const char *role; /* "samples" or "summary" */
  const char *path; /* its name is written, without the folder */
  long long bytes;
  uint64_t fnv1a; /* FNV-1a 64 of the file's bytes */
} MsSidecarFile;

/* PREFIX-meta.json for PREFIX-samples.csv or PREFIX-summary.csv, and
 * NAME-meta.json for any other NAME.csv or NAME; false when it does not
 * fit in len. */
bool ms_meta_sidecar_path (const char *csv_path, char *out, size_t len);

/* The run id of files written with a sidecar, in run_id[32]: a fingerprint
 * of the metadata lines and of the first file's bytes (their FNV-1a hash),
 * so that files written together share it and writing the same results
 * again gives the same id. */
void ms_meta_sidecar_run_id (const char *meta_lines, uint64_t file_hash, char *run_id);

/* Writes the sidecar: run_id, the files, and meta_lines ('# key: value'
 * lines, as the CSV writer prints them; title lines are left out). */
void ms_meta_sidecar_write (FILE *f, const char *run_id, const char *meta_lines,
                            const MsSidecarFile *files, int n_files);

/* A file an existing sidecar describes, as read back. */
typedef struct {
  char role[16];
  char name[256];
  long long bytes;
  uint64_t fnv1a;
} MsSidecarKept;

/* The files other than role's that the sidecar at sidecar_path describes
 * for run_id, at most max; 0 when it is missing, damaged or another
 * run's. */
int ms_meta_sidecar_kept (const char *sidecar_path, const char *run_id, const char *role,
                          MsSidecarKept *out, int max);

/* The metadata of the CSV file at csv_path (csv_bytes long) from its
 * sidecar, as '# key: value' lines ending in '\n' (run-id first); free
 * with free (). NULL when the sidecar is missing, damaged or describes
 * another file, with why naming the sidecar. */
char *ms_meta_sidecar_lines (const char *csv_path, long long csv_bytes, char *why,
                             size_t whylen);

/* Rewrites the sidecar of csv_path with the metadata lines that start with
 * one of drop[] left out and the lines add ('# key: value\n' each) added
 * (a fleet node's stamp); the files it describes stay. False with a
 * message naming the sidecar. */
#define MS_SIDECAR_MAX_FILES 4
bool ms_meta_sidecar_restamp (const char *csv_path, const char *const *drop, int n_drop,
                              const char *add, char *err, size_t errlen);

/* Whether a CSV file's text starts with metadata lines (the form written
 * before the sidecar), a byte order mark allowed. */
bool ms_meta_sidecar_inline (const char *text, size_t len);
