/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-small-file.h: what the small result files (PREFIX-peer.csv,
 * PREFIX-multi.csv) share: written whole into memory in the C locale, then
 * through an atomic file; read whole and parsed strictly line by line (a
 * title line, '# key: value' metadata, a header row, data rows), every
 * refusal as "path:line: why". Plain C, no GLib. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef struct {
  const char *path;
  int line;
  char *err;
  size_t errlen;
  bool failed;
} MsSmallReader;

/* Now as an ISO 8601 UTC date, this host's name and memsweep's version:
 * where and when a result file was made. */
void ms_small_file_stamp (char *date, size_t date_len, char *host, size_t host_len,
                          char *version, size_t version_len);

/* Writes what write (f, data) prints to path; false with a message. */
bool ms_small_file_write (const char *path, void (*write) (FILE *f, const void *data),
                          const void *data, char *err, size_t errlen);

struct stat;
/* Opens path for reading if it is a regular file (a FIFO, device or folder
 * is refused at once, never waited on); -1 with "path: why". */
int ms_open_regular (const char *path, struct stat *st, char *err, size_t errlen);

/* A regular file of at most 4 MiB without NUL bytes, whole and
 * NUL-terminated; NULL with "path: why". Free with free (). */
char *ms_small_file_read (const char *path, char *err, size_t errlen);

/* Records the first failure as "path:line: why"; returns false. */
bool ms_small_reader_fail (MsSmallReader *rd, const char *fmt, ...)
  __attribute__ ((format (printf, 2, 3)));

/* A whole decimal number in lo..hi. */
bool ms_small_parse_long (const char *text, long lo, long hi, long *out);
/* A rate: empty (0), or digits with a decimal point of at least 0.001. */
bool ms_small_parse_gbps (const char *text, double *out);

typedef struct {
  const char *title;  /* line 1, exactly */
  const char *header; /* the header row, exactly */
  bool (*meta) (MsSmallReader *rd, const char *key, const char *value, void *data);
  bool (*row) (MsSmallReader *rd, char *line, size_t len, void *data);
} MsSmallFormat;

/* Parses text (changed in place) in the C locale; false with rd's message. */
bool ms_small_file_parse (MsSmallReader *rd, char *text, const MsSmallFormat *format,
                          void *data);
