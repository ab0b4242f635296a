/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-small-file.h: what the small result files (PREFIX-peer.csv,
 * PREFIX-multi.csv, run-to-run profiles) share: written whole into memory
 * in the C locale, then through atomic files: a plain CSV table (the header
 * on line 1, then the rows) and its metadata in NAME-meta.json beside it
 * (ms-meta-sidecar.h), committed together. Read whole and parsed strictly
 * line by line, every refusal as "path:line: why"; the form written before
 * the sidecar (a title line, '# key: value' metadata, the header, the
 * rows) is read as well. Plain C, no GLib. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "ms-read-file.h"

typedef struct {
  const char *path;
  int line; /* 0: a line of the sidecar's metadata */
  char *err;
  size_t errlen;
  bool failed;
  /* A plain file whose sidecar is missing, damaged or another file's: the
   * rows are read, the metadata is unknown, and why says so naming the
   * sidecar (the caller's buffer, or NULL). */
  bool meta_unknown;
  bool plain; /* the file is of the plain form (its metadata in a sidecar) */
  char *why;
  size_t whylen;
} MsSmallReader;

/* Now as an ISO 8601 UTC date, this host's name and memsweep's version:
 * where and when a result file was made. */
void ms_small_file_stamp (char *date, size_t date_len, char *host, size_t host_len,
                          char *version, size_t version_len);


/* Records the first failure as "path:line: why"; returns false. */
bool ms_small_reader_fail (MsSmallReader *rd, const char *fmt, ...)
  __attribute__ ((format (printf, 2, 3)));

/* A rate: empty (0), or digits with a decimal point of at least 0.001. */
bool ms_small_parse_gbps (const char *text, double *out);

typedef struct {
  const char *title;  /* line 1 of the older form, exactly */
  const char *header; /* the header row, exactly */
  const char *role;   /* the file's role in its sidecar: "peer", "multi", "profile" */
  bool header_optional; /* an older file may hold metadata only */
  bool (*meta) (MsSmallReader *rd, const char *key, const char *value, void *data);
  bool (*row) (MsSmallReader *rd, char *line, size_t len, void *data);
  /* Writing: '# key: value' lines (no title), and the rows after the header. */
  void (*put_meta) (FILE *f, const void *data);
  void (*put_rows) (FILE *f, const void *data);
} MsSmallFormat;

/* Writes data as format says to path, its metadata to the sidecar beside
 * it; a target that is no file (a pipe, a device), where no sidecar can go,
 * gets the older form with the metadata inline. False with a message. */
bool ms_small_file_write (const char *path, const MsSmallFormat *format, const void *data,
                          char *err, size_t errlen);

/* Parses text (changed in place; rd->path's whole text, for its sidecar's
 * check) in the C locale, either form: the metadata first, then the rows.
 * False with rd's message. */
bool ms_small_file_parse (MsSmallReader *rd, char *text, const MsSmallFormat *format,
                          void *data);
/* Reads rd->path whole and parses it as ms_small_file_parse does (rd set
 * up with the path, err and why): the readers' one way in. False with a
 * message. */
bool ms_small_file_load (MsSmallReader *rd, const MsSmallFormat *format, void *data);
