/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-csv-writer.h: the CSV writer's fields. A row is gathered in a buffer
 * and handed to stdio whole; numbers are formatted here, printf only where
 * its rounding is not plain. Inline: they run for every field of every row
 * of a file, twice (the run id is a hash of the file). Then the pieces the
 * writer lends the keeping of a run (ms-csv-keep.c). Private to
 * engine/files. */
#pragma once

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "memsweep.h"
#include "model/ms-rounds-private.h"
#include "io/ms-atomic-file.h"
#include "ms-csv-column-table.h"
#include "ms-csv-field.h"
#include "ms-gpu-state.h"
#include "ms-gzip-file.h"
#include "ms-summary.h"

/* What the stream writes to: the file, a gzip writer or nowhere (the run
 * id's pass), with a count of the bytes written and, while the run id is
 * worked out, their hash. */
typedef struct {
  MsAtomicFile *file;
  MsGzipWriter *gz;
  long long written;
  bool hashing;
  uint64_t hash;
} MsWriteSink;

typedef struct {
  FILE *f;
  MsAtomicFile *file;
  MsWriteSink sink;
  /* Where the run id's digits go once the file is written; -1: nowhere. */
  long long run_id_offset;
  const char *path;
  const char *run_id; /* NULL: worked out while the file is written */
  bool first_in_row;
  bool failed;
  /* The metadata goes to the sidecar (PREFIX-meta.json), not into the file. */
  bool sidecar;
  /* What the model computed of the run: its health and the summary's rows. */
  const MsRunSummary *summary;
  /* The fields every row of a cell repeats (the columns of PART CELL,
   * ms-csv-column-list.h), made once per cell: each run of such columns
   * as one string in cell_text. */
  const MsCell *cell;
  size_t cell_run_start[MS_N_SAMPLES_COLUMNS], cell_run_len[MS_N_SAMPLES_COLUMNS];
  char cell_text[2 * sizeof ((MsCell *) 0)->message + 2 * MS_VARIANT_LEN + 256];
  /* The GPU state fields of the round last written, formatted. */
  const MsCellRound *state_round;
  size_t state_len;
  char state[MS_N_STATE_COLUMNS * (MS_STATE_FIELD_LEN + 1)];
  /* The GPU state columns written: with a sidecar, those with a value in
   * some row (a column empty in every row would read as text). */
  bool state_written[MS_N_STATE_COLUMNS];
  int n_state_written;
  /* The samples columns of PART ROW written: with a sidecar, those with a
   * value in some row (GPU times of a run on the CPU alone are not). */
  bool row_written[MS_N_SAMPLES_COLUMNS];
  /* The summary's columns written (in ms_summary_columns_foreach's order):
   * with a sidecar, those a reader needs and those with a value in some row. */
  bool summary_written[MS_N_SUMMARY_COLUMNS + MS_PHASE_COUNT * MS_N_SUMMARY_PHASE_COLUMNS];
  /* Rows are looked at for the values they hold, not written. */
  bool scanning;
  /* The row being written. */
  size_t len;
  char line[4096];
} MsWriter;

/* A row of the samples file: what its ROW columns are written from
 * (ms-csv-column-list.h). */
typedef struct {
  const MsCell *cell;
  int rep;
  const char *phase;
  const MsEvent *event; /* NULL on end-to-end rows and a cell's "none" row */
  double e2e_us;        /* an end-to-end row's time; < 0: none */
  int round;
  const MsCellRound *state; /* the GPU's state on a plain end-to-end row, else NULL */
} MsSampleRow;

/* FNV-1a, the run id's hash, from MS_FNV1A_BASIS. */
#define MS_FNV1A_BASIS 0xcbf29ce484222325ull
static inline void
ms_fnv1a (uint64_t *h, const char *data, size_t len)
{
  uint64_t v = *h;
  for (size_t i = 0; i < len; i++)
    v = (v ^ (unsigned char) data[i]) * 0x100000001b3ull;
  *h = v;
}

static inline void
ms_writer_emit (MsWriter *w, const char *data, size_t len)
{
  if (fwrite (data, 1, len, w->f) != len)
    w->failed = true;
}

static inline void
ms_writer_flush_line (MsWriter *w)
{
  if (w->len)
    ms_writer_emit (w, w->line, w->len);
  w->len = 0;
}

/* Room for n more bytes of the row, n at most the buffer's size. */
static inline char *
ms_writer_room (MsWriter *w, size_t n)
{
  if (n > sizeof w->line - w->len)
    ms_writer_flush_line (w);
  return w->line + w->len;
}

static inline void
put_bytes (MsWriter *w, const char *data, size_t len)
{
  if (len > sizeof w->line) {
    ms_writer_flush_line (w);
    ms_writer_emit (w, data, len);
    return;
  }
  memcpy (ms_writer_room (w, len), data, len);
  w->len += len;
}

static inline void
start_field (MsWriter *w)
{
  if (!w->first_in_row) {
    *ms_writer_room (w, 1) = ',';
    w->len++;
  }
  w->first_in_row = false;
}

/* A short field (a number): a byte loop costs less than memcpy's call. */
static inline void
put_short (MsWriter *w, const char *text, size_t len)
{
  start_field (w);
  char *out = ms_writer_room (w, len);
  for (size_t i = 0; i < len; i++)
    out[i] = text[i];
  w->len += len;
}

static inline void
put_raw (MsWriter *w, const char *text)
{
  start_field (w);
  put_bytes (w, text, strlen (text));
}

/* In the form csv_fwrite writes (ms_csv_field_write, the other writers'
 * one): quoted, every quote doubled, with an apostrophe first inside the
 * quotes when guard is set. Names and short messages byte by byte, longer
 * text by memchr and memcpy: a row is gathered in the buffer, not handed
 * to stdio a field at a time. */
static inline void
put_quoted (MsWriter *w, const char *text, size_t len, bool guard)
{
  if (len <= 64) {
    char *out = ms_writer_room (w, 2 * len + 3), *o = out;
    *o++ = '"';
    if (guard)
      *o++ = '\'';
    for (size_t i = 0; i < len; i++) {
      if (text[i] == '"')
        *o++ = '"';
      *o++ = text[i];
    }
    *o++ = '"';
    w->len += (size_t) (o - out);
    return;
  }
  put_bytes (w, guard ? "\"'" : "\"", guard ? 2 : 1);
  for (const char *q; (q = memchr (text, '"', len));) {
    size_t n = (size_t) (q - text) + 1;
    put_bytes (w, text, n);
    put_bytes (w, "\"", 1);
    text += n;
    len -= n;
  }
  put_bytes (w, text, len);
  put_bytes (w, "\"", 1);
}

/* Text fields are quoted, and one a spreadsheet would run as a formula is
 * guarded (ms_csv_field_is_formula: the one rule of every CSV written). */
static inline void
put_text (MsWriter *w, const char *text)
{
  start_field (w);
  put_quoted (w, text, strlen (text), ms_csv_field_is_formula (text));
}

/* The decimal digits of v, written backwards before end; returns the first. */
static inline char *
digits_before (char *end, uint64_t v)
{
  do {
    *--end = (char) ('0' + v % 10);
    v /= 10;
  } while (v);
  return end;
}

static inline void
put_u64 (MsWriter *w, uint64_t v)
{
  char buf[24], *p = digits_before (buf + sizeof buf, v);
  put_short (w, p, (size_t) (buf + sizeof buf - p));
}

static inline void
put_int (MsWriter *w, long v)
{
  char buf[24], *p = digits_before (buf + sizeof buf, v < 0 ? -(uint64_t) v : (uint64_t) v);
  if (v < 0)
    *--p = '-';
  put_short (w, p, (size_t) (buf + sizeof buf - p));
}

/* v as "%.3f" writes it, into buf; returns the length. Below 1e9, v * 1000
 * is within 1e-4 of its exact value, so unless its fraction is within 1e-3
 * of a half it rounds as printf rounds the exact value: those without
 * printf, which costs ten times more. */
static inline size_t
format_3f (char *buf, size_t size, double v)
{
  if (v >= 0 && v < 1e9 && !signbit (v)) {
    /* A cast truncates without floor's call (x >= 0). */
    double x = v * 1000, whole = (double) (uint64_t) x, frac = x - whole;
    if (fabs (frac - 0.5) > 1e-3) {
      uint64_t n = (uint64_t) whole + (frac > 0.5);
      char tmp[32], *end = tmp + sizeof tmp, *p = end;
      for (int i = 0; i < 3; i++, n /= 10)
        *--p = (char) ('0' + n % 10);
      *--p = '.';
      p = digits_before (p, n);
      memcpy (buf, p, (size_t) (end - p));
      return (size_t) (end - p);
    }
  }
  int n = snprintf (buf, size, "%.3f", v);
  return n < 0 ? 0 : (size_t) n < size ? (size_t) n : size - 1;
}

/* Absent or infinite values are written as an empty field. */
static inline void
put_us (MsWriter *w, double v, bool present)
{
  char buf[48];
  if (!present || !isfinite (v)) {
    start_field (w);
    return;
  }
  put_short (w, buf, format_3f (buf, sizeof buf, v));
}

static inline void
end_row (MsWriter *w)
{
  *ms_writer_room (w, 1) = '\n';
  w->len++;
  ms_writer_flush_line (w);
  w->first_in_row = true;
}

/* What the writer (ms-csv-write.c) lends the keeping of a run that could
 * not be written at its names (ms-csv-keep.c). Writes the pair (a NULL
 * path: the other file alone, with its sidecar): taken NULL, replacing
 * what is at the names; else only where there is none (*taken when there
 * is). False with a message. */
bool ms_csv_write_pair_at (const MsResults *results, const char *samples_path,
                           const char *summary_path, bool *taken, char *err, size_t errlen);

/* What the writers format, computed once (free it); NULL with a message
 * naming path when out of memory. */
MsRunSummary *ms_csv_write_summarize (const MsResults *results, const char *path, char *err,
                                      size_t errlen);

/* The metadata lines a sidecar holds, as a summary file of the inline form
 * would hold them (the samples' and the fit's); free them. NULL when out
 * of memory. */
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
