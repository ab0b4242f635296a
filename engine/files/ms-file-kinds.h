/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-file-kinds.h: the one table of the kinds of file memsweep reads and
 * writes (ms-file-kinds.c). Each entry says how a file of the kind is
 * recognised from its own bytes (its older form's title line, its header
 * row, or its JSON document's "schema"), its table schema or JSON schema
 * and version, whether it holds measurements
 * (which no output of a command replaces, sidecar or none: the output
 * plan asks here), and which commands open it. A file is recognised
 * through the one reader (ms-input.h): plain, gzipped or standard input
 * alike. Adding a kind is adding an entry. Plain C, no GLib. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct MsInput MsInput; /* ms-input.h */

/* The header row of a file of expected ranges (analysis/ms-envelope.c). */
#define MS_ENVELOPES_HEADER "gpu,link,figure,low,high,unit,source"

typedef enum {
  MS_FILE_KIND_UNKNOWN,
  MS_FILE_KIND_SAMPLES,  /* a run's samples (ms-csv-read.c, ms-csv-write.c) */
  MS_FILE_KIND_SUMMARY,  /* a run's summary (ms-csv-summary.c, ms-csv-write.c) */
  MS_FILE_KIND_PEER,     /* a peer matrix (ms-peer-file.h) */
  MS_FILE_KIND_MULTI,    /* a sweep on several GPUs (ms-multi-file.h) */
  MS_FILE_KIND_PORTABLE, /* the portable pinned memory run (ms-portable-file.h) */
  MS_FILE_KIND_HOST_LINK, /* the host link under every GPU (ms-host-link-file.h) */
  MS_FILE_KIND_PROFILE,  /* a run-to-run profile (ms-run-to-run-file.h) */
  MS_FILE_KIND_ENVELOPES, /* expected ranges (analysis/ms-envelope.c) */
  MS_FILE_KIND_SIDECAR,  /* NAME-meta.json (ms-meta-sidecar.h) */
  MS_FILE_KIND_RESULTS_JSON, /* show --format json */
  MS_FILE_KIND_COMPARE_JSON, /* compare --format json */
  MS_FILE_KIND_FLEET_JSON,   /* fleet-report --format json */
  MS_FILE_KIND_SIBLINGS_JSON, /* siblings --format json */
  MS_FILE_KIND_RESULTS_TABLE, /* show --format csv: a row per cell */
  MS_FILE_KIND_VERDICTS,     /* compare --format csv (analysis/ms-compare-columns.c) */
  MS_FILE_KIND_UNREADABLE,
  MS_N_FILE_KINDS
} MsFileKind;

typedef struct {
  MsFileKind kind;
  const char *name;   /* its name in docs and messages: "samples" */
  const char *what;   /* translatable: "a run's samples" */
  const char *title;  /* line 1 of the older form with metadata inline, or NULL */
  const char *header; /* the header row's start, or NULL (a JSON document, or table's) */
  const char *schema; /* a JSON document's "schema" (or "format") value, or NULL */
  const char *schema_file; /* under data/schema/ */
  int schema_version; /* the version written now (0: the file carries none) */
  bool measurements;  /* holds measurements: never replaced by another file */
  bool run;           /* a run: what show, compare, plot and report open */
  const char *read_by; /* translatable: which commands open it */
  /* A small file's table (ms-small-file.h): its title, columns (whose
   * names make its header row), reader and writer; or NULL. */
  const struct MsSmallFormat *table;
} MsFileKindInfo;

/* The entry of kind; NULL for UNKNOWN and UNREADABLE. */
const MsFileKindInfo *ms_file_kind_info (MsFileKind kind);

/* The kind of the file at path ("-": standard input, held to be read
 * again), from its first bytes through the one reader: a title line or
 * a header row after any blank or '#' lines, or a JSON document's schema.
 * UNREADABLE when it cannot be opened. */
MsFileKind ms_file_kind (const char *path);

/* The kind a file's first len bytes show (not NUL-terminated), as
 * ms_file_kind tells it: for a reader that has the file open already. */
MsFileKind ms_file_kind_of_head (const char *head, size_t len);
/* The same of an input whose first len bytes are head: where those are
 * all blank and '#' lines, the lines past them are read (up to `limit`
 * bytes in, through ms_input_pread) until the header row. */
MsFileKind ms_file_kind_of_input (MsInput *in, const char *head, size_t len, uint64_t limit);

/* "a peer matrix", "not a memsweep file", "unreadable". */
const char *ms_file_kind_describe (MsFileKind kind);

/* As ms_file_kind, for a look at a file about to be replaced: not noted
 * as one of the command's inputs. */
MsFileKind ms_file_kind_of_file (const char *path);

/* A JSON document of kind's first members, "schema" and "schema_version",
 * from the table: what every writer of a JSON kind writes first. */
typedef struct json_object MsJson;
void ms_file_kind_stamp (MsJson *doc, MsFileKind kind);

/* Whether the file at path holds measurements of any kind (a run, a peer
 * matrix, a profile...): what no other output may replace. */
bool ms_file_kind_holds_measurements (const char *path);
