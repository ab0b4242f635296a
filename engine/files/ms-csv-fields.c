/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-csv-fields.c: the samples reader's header and fields: libcsv's
 * callbacks, which parse each field as it arrives (no copy, no allocation)
 * into the record's slot for its column. */
#define _GNU_SOURCE
#include <csv.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "memsweep.h"
#include "ms-csv-column-table.h"
#include "ms-csv-private.h"
#include "ms-csv-reader.h"
#include "ms-gzip-file.h"
#include "ms-i18n.h"
#include "ms-results.h"
#include "ms-modes.h"
#include "ms-utf8.h"
#include "ms-variant.h"

enum { KIND_TEXT, KIND_COUNT, KIND_TIME, KIND_MODE, KIND_PHASE, KIND_STATUS, KIND_VARIANT };

/* The columns the reader takes: their names are the column list's
 * (ms-csv-column-list.h); required ones must be in the header. The GPU
 * state columns follow, in MS_STATE_COL_ order: text, checked on rows that
 * give them. */
static const struct {
  int16_t column; /* MS_SAMPLES_COLUMN_ */
  bool required;
  uint8_t kind;
} read_columns[MS_CSV_N_COLS] = {
  [MS_COL_MODE] = { MS_SAMPLES_COLUMN_MODE, true, KIND_MODE },
  [MS_COL_ELEMENTS] = { MS_SAMPLES_COLUMN_ELEMENTS, true, KIND_COUNT },
  [MS_COL_REP] = { MS_SAMPLES_COLUMN_REP, true, KIND_COUNT },
  [MS_COL_PHASE] = { MS_SAMPLES_COLUMN_PHASE, true, KIND_PHASE },
  [MS_COL_LANE] = { MS_SAMPLES_COLUMN_LANE, false, KIND_COUNT },
  [MS_COL_CHUNK] = { MS_SAMPLES_COLUMN_CHUNK, false, KIND_COUNT },
  /* Left out of a file whose cells all failed (empty in every row); a row
   * that needs a time without them is refused. */
  [MS_COL_HOST_START] = { MS_SAMPLES_COLUMN_HOST_START_US, false, KIND_TIME },
  [MS_COL_HOST] = { MS_SAMPLES_COLUMN_HOST_US, false, KIND_TIME },
  [MS_COL_GPU_START] = { MS_SAMPLES_COLUMN_GPU_START_US, false, KIND_TIME },
  [MS_COL_GPU] = { MS_SAMPLES_COLUMN_GPU_US, false, KIND_TIME },
  [MS_COL_BYTES] = { MS_SAMPLES_COLUMN_BYTES, false, KIND_COUNT },
  [MS_COL_STATUS] = { MS_SAMPLES_COLUMN_STATUS, true, KIND_STATUS },
  [MS_COL_MISMATCHES] = { MS_SAMPLES_COLUMN_MISMATCHES, false, KIND_COUNT },
  [MS_COL_FIRST_MISMATCH] = { MS_SAMPLES_COLUMN_FIRST_MISMATCH, false, KIND_COUNT },
  [MS_COL_MESSAGE] = { MS_SAMPLES_COLUMN_MESSAGE, false, KIND_TEXT },
  [MS_COL_ROUND] = { MS_SAMPLES_COLUMN_ROUND, false, KIND_COUNT },
  [MS_COL_VARIANT] = { MS_SAMPLES_COLUMN_VARIANT, false, KIND_VARIANT },
};
_Static_assert ((int) MS_MODE_COUNT <= (int) MS_PHASE_NAMES &&
                  (int) MS_CELL_STATUS_COUNT <= (int) MS_PHASE_NAMES,
                "MsNames holds every mode and status");

static const char *
column_name (int c)
{
  return c >= MS_COL_STATE ? ms_state_column_name (c - MS_COL_STATE)
                           : ms_samples_columns[read_columns[c].column].name;
}

static void
add_name (MsNames *names, const char *text)
{
  names->names[names->n++] = (MsFieldText) { text, strlen (text) };
}

static inline bool
same_name (const MsFieldText *name, const char *text, size_t len)
{
  if (name->len != len)
    return false;
  for (size_t i = 0; i < len; i++)
    if (name->text[i] != text[i])
      return false;
  return true;
}

/* The index of text in names, or -1. Rows come in runs of one mode and
 * status, and phases in their order: the last match and the one after it
 * are tried first. */
static inline int
find_name (MsNames *names, const char *text, size_t len)
{
  int last = names->last, next = last + 1 < names->n ? last + 1 : 0;
  if (same_name (&names->names[last], text, len))
    return last;
  if (same_name (&names->names[next], text, len))
    return names->last = next;
  for (int i = 0; i < names->n; i++)
    if (same_name (&names->names[i], text, len))
      return names->last = i;
  return -1;
}

void
ms_csv_reader_init (MsReader *rd, const char *path, uint64_t file_size, char *err, size_t errlen)
{
  rd->path = path;
  rd->err = err;
  rd->errlen = errlen;
  rd->file_size = file_size;
  rd->eol = '\n';
  rd->line = 1;
  rd->in_preamble = true;
  for (int c = 0; c < MS_CSV_N_COLS; c++)
    rd->col[c] = -1;
  memset (rd->field_col, -1, sizeof rd->field_col);
  rd->run_rep = -1;
  MsFieldParser *fp = &rd->field_parser;
  fp->field_col = rd->field_col;
  for (int m = 0; m < MS_MODE_COUNT; m++)
    add_name (&fp->modes, ms_mode_name ((MsMode) m));
  for (int p = 0; p < MS_PHASE_COUNT; p++)
    add_name (&fp->phases, ms_phase_name ((MsPhase) p));
  add_name (&fp->phases, "e2e");
  add_name (&fp->phases, "none");
  add_name (&fp->phases, MS_COPY_PHASE_H2D);
  add_name (&fp->phases, MS_COPY_PHASE_D2H);
  add_name (&fp->phases, MS_E2E_INSTR_ROW);
  for (int st = 0; st < MS_CELL_STATUS_COUNT; st++)
    add_name (&fp->statuses, ms_cell_status_name ((MsCellStatus) st));
}

void
ms_csv_header_done (MsReader *rd)
{
  for (int c = 0; c < MS_CSV_N_COLS; c++)
    if (read_columns[c].required && rd->col[c] < 0) {
      ms_csv_fail (rd, rd->record_line,
                   "missing column '%s' (is this a memsweep samples file?)",
                   column_name (c));
      return;
    }
  for (int c = 0; c < MS_CSV_N_COLS; c++)
    if (rd->col[c] >= 0)
      rd->header_set |= 1u << c;
  rd->n_header_fields = rd->n_fields;
  rd->have_header = true;
}

/* Out of line: the message and fields in error only. */
static void __attribute__ ((noinline))
copy_text (MsField *f, const char *data, size_t len)
{
  size_t keep = len < MS_CSV_FIELD_MAX ? len : MS_CSV_FIELD_MAX;
  memcpy (f->text, data, keep);
  f->text[keep] = '\0';
}

/* Most text fields are empty: the message of a cell that went well, the
 * GPU state on phase rows, the variant of a plain sweep. */
static inline void
keep_text (MsField *f, const char *data, size_t len)
{
  if (len == 0)
    f->text[0] = '\0';
  else
    copy_text (f, data, len);
}

/* A variant's text is kept (it names the cell); ok when it is one. */
static bool __attribute__ ((noinline))
variant_ok (const char *data, size_t len)
{
  if (len == 0)
    return true;
  if (len >= MS_VARIANT_LEN)
    return false;
  char text[MS_VARIANT_LEN];
  memcpy (text, data, len);
  text[len] = '\0';
  return ms_variant_valid (text);
}

/* A field of column kind `kind` at data, parsed; its text, where kept, is
 * `at` bytes from the block's start. One place for what every kind keeps,
 * for the rows split here and those libcsv hands over. */
static inline void
parse_field (MsFieldParser *p, int kind, const char *data, size_t len, size_t at, MsParsedField *pf)
{
  pf->len = (uint32_t) len;
  pf->name = -1;
  pf->text_at = at;
  switch (kind) {
  case KIND_COUNT:
    pf->ok = ms_csv_parse_count (data, len, &pf->count);
    break;
  case KIND_TIME:
    pf->ok = ms_csv_parse_decimal (data, len, &pf->value);
    break;
  case KIND_MODE:
  case KIND_PHASE:
  case KIND_STATUS:
    pf->name = (int8_t) find_name (kind == KIND_MODE    ? &p->modes
                                   : kind == KIND_PHASE ? &p->phases
                                                        : &p->statuses,
                                   data, len);
    pf->ok = pf->name >= 0;
    break;
  case KIND_VARIANT:
    pf->ok = variant_ok (data, len);
    break;
  default:
    pf->ok = false;
  }
  /* A parsed value overwrote text_at: only where no text is kept. */
  pf->keep_text = kind == KIND_VARIANT || !pf->ok;
  if (pf->keep_text)
    pf->text_at = at;
}

/* The parsed field as the record's field of its column. Whatever its
 * kind, the same stores: the count, value or name of a field of another
 * kind, or of one that did not parse, is never read (ms-csv-rows.c reads
 * them only after ok), and a row costs fewer branches. */
static inline void
apply_field (MsField *f, const MsParsedField *pf, const char *block)
{
  f->len = pf->len;
  f->ok = pf->ok;
  f->name = pf->name;
  f->count = pf->count;
  f->value = pf->value;
  if (pf->keep_text)
    keep_text (f, block + pf->text_at, pf->len);
}

/* The index of the record's next field, of len bytes; false past
 * MS_CSV_MAX_COLUMNS or past the field limit (said). */
static inline bool
next_field (MsReader *rd, size_t len, size_t *i)
{
  if (rd->n_fields == 0)
    rd->record_line = rd->line;
  if (len > MS_CSV_MAX_FIELD_BYTES) {
    ms_csv_fail (rd, rd->line, MS_CSV_LONG_FIELD, MS_CSV_MAX_FIELD_BYTES >> 10);
    return false;
  }
  *i = rd->n_fields++;
  if (*i < MS_CSV_MAX_COLUMNS)
    return true;
  rd->too_many_fields = true;
  return false;
}

void
ms_csv_on_header_field (void *data, size_t len, void *user)
{
  MsReader *rd = user;
  size_t i;
  if (!next_field (rd, len, &i))
    return;
  /* A column named twice is refused (the read ends there). */
  for (int c = 0; c < MS_CSV_N_COLS; c++) {
    const char *known = column_name (c);
    if (strlen (known) != len || memcmp (data, known, len) != 0)
      continue;
    if (rd->col[c] >= 0)
      ms_csv_fail (rd, rd->record_line, "column '%s' appears twice", known);
    rd->col[c] = (int) i;
    rd->field_col[i] = (int8_t) c;
    return;
  }
}

void
ms_csv_on_field (void *data, size_t len, void *user)
{
  MsReader *rd = user;
  size_t i;
  /* Field i of a record: the column it belongs to, if any, takes it. */
  int c = next_field (rd, len, &i) ? rd->field_col[i] : -1;
  if (c < 0)
    return;
  rd->fields_set |= 1u << c;
  MsParsedField pf;
  parse_field (&rd->field_parser, read_columns[c].kind, data, len, 0, &pf);
  apply_field (&rd->fields[c], &pf, data);
  /* Only a line split here is bounded: libcsv's fields may be longer. */
  rd->fields[c].len = len;
}

size_t
ms_csv_parse_fields (MsFieldParser *p, const char *block, const MsFieldText *fields, size_t n,
                     uint64_t changed, MsParsedField *out)
{
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    int c = p->field_col[i];
    if (c >= 0 && (changed >> i & 1))
      parse_field (p, read_columns[c].kind, fields[i].text, fields[i].len,
                   (size_t) (fields[i].text - block), &out[k++]);
  }
  return k;
}

uint32_t
ms_csv_fields_set (const MsFieldParser *p, size_t n)
{
  uint32_t set = 0;
  for (size_t i = 0; i < n; i++)
    if (p->field_col[i] >= 0)
      set |= 1u << p->field_col[i];
  return set;
}

void
ms_csv_take_parsed (MsReader *rd, const char *block, const MsParsedField *parsed, size_t n,
                    uint64_t changed, uint32_t set)
{
  rd->record_line = rd->line;
  rd->n_fields = n;
  rd->fields_set |= set;
  for (size_t i = 0; i < n; i++) {
    int c = rd->field_col[i];
    if (c >= 0 && (changed >> i & 1))
      apply_field (&rd->fields[c], parsed++, block);
  }
}

/* The rows memsweep writes, split without libcsv: fields plain or quoted
 * without a quote inside, the line ending in LF. The fields are exactly
 * what libcsv would hand over (tests/fuzz/fuzz-csv.c reads every input
 * both ways); any other row is left to it. libcsv copies every byte into
 * its field buffer and calls back per field: a whole read of a 10^6-row
 * file took 0.67-0.78 s of CPU through libcsv alone, 0.42-0.58 s with
 * this splitter (the stream read, 2-core VM, 2026-11-25). Bytes that end
 * a plain unquoted field, and those that make a row need libcsv: quotes,
 * the spaces and tabs it trims, and CR, which ends a row. */
enum { BYTE_PLAIN, BYTE_COMMA, BYTE_EOL, BYTE_LIBCSV };

static const uint8_t byte_class[256] = {
  [','] = BYTE_COMMA, ['\n'] = BYTE_EOL,   ['"'] = BYTE_LIBCSV,
  [' '] = BYTE_LIBCSV, ['\t'] = BYTE_LIBCSV, ['\r'] = BYTE_LIBCSV,
};

int
ms_csv_split_plain_fields (const char *p, const char *eol, MsFieldText *field, int n,
                           const char *stop, bool *stopped)
{
  /* No field split here is longer than the limit: libcsv refuses it. */
  if (eol - p > (ptrdiff_t) MS_CSV_MAX_FIELD_BYTES)
    return -1;
  for (;;) {
    if (p == stop) {
      *stopped = true;
      return n;
    }
    const char *start = p, *end;
    if (*p == '"') {
      end = memchr (p + 1, '"', eol - (p + 1));
      if (!end || (end[1] != ',' && end[1] != '\n'))
        return -1;
      start = p + 1;
      p = end + 1;
    } else {
      uint8_t c;
      while ((c = byte_class[(unsigned char) *p]) == BYTE_PLAIN)
        p++;
      if (c == BYTE_LIBCSV)
        return -1;
      end = p;
    }
    if (n == MS_CSV_PLAIN_FIELDS)
      return -1;
    field[n].text = start;
    field[n++].len = (size_t) (end - start);
    if (p == eol)
      return n;
    p++; /* the comma */
  }
}

int
ms_csv_split_plain_row (const char *line, const char *eol, MsFieldText *field)
{
  if (line == eol)
    return -1; /* libcsv skips empty lines */
  return ms_csv_split_plain_fields (line, eol, field, 0, NULL, NULL);
}

/* The message is translated: ms_csv_fail is an xgettext keyword
 * (po/meson.build). */
void
ms_csv_fail (MsReader *rd, long line, const char *fmt, ...)
{
  if (rd->failed)
    return;
  rd->failed = true;
  int n = snprintf (rd->err, rd->errlen, "%s:%ld: ", rd->path, line);
  if (n < 0 || (size_t) n >= rd->errlen)
    return;
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (rd->err + n, rd->errlen - n, ms_gettext (fmt), ap);
  va_end (ap);
}

char
ms_csv_line_end (const char *buf, size_t len)
{
  const char *cr = memchr (buf, '\r', len), *lf = memchr (buf, '\n', len);
  return cr && (!lf || cr < lf) && cr + 1 < buf + len && cr[1] != '\n' ? '\r' : '\n';
}

bool
ms_csv_bound (MsCsvBounds *b, const struct csv_parser *parser, const char *text, size_t len,
              bool ends_line, char *why, size_t whylen)
{
  b->row_bytes += len;
  /* libcsv skips a line of blanks between rows: it holds no data. */
  for (size_t i = 0; !b->line_data && i < len; i++)
    b->line_data = text[i] != ' ' && text[i] != '\t' && text[i] != '\r' && text[i] != '\n';
  /* A field libcsv is still gathering; one it handed over was checked by
   * its callback. */
  if (parser->entry_pos > MS_CSV_MAX_FIELD_BYTES)
    snprintf (why, whylen, ms_gettext (MS_CSV_LONG_FIELD), MS_CSV_MAX_FIELD_BYTES >> 10);
  else if (b->row_bytes > MS_CSV_MAX_ROW_BYTES)
    snprintf (why, whylen, ms_gettext (MS_CSV_LONG_ROW), MS_CSV_MAX_ROW_BYTES >> 10);
  else if (ends_line && (b->empty_lines = b->line_data ? 0 : b->empty_lines + 1) >
                          MS_CSV_MAX_EMPTY_LINES)
    snprintf (why, whylen, ms_gettext (MS_CSV_EMPTY_LINES), MS_CSV_MAX_EMPTY_LINES);
  else {
    /* libcsv's state 0: between rows. A line inside a quoted field is
     * the row's, data or not. */
    if (ends_line && parser->pstate == 0)
      b->row_bytes = 0;
    if (ends_line)
      b->line_data = parser->pstate != 0;
    return true;
  }
  return false;
}

MsResults *
ms_csv_results_for_reading (const char *path, void **reader, size_t size, char *err, size_t errlen)
{
  *reader = calloc (1, size);
  MsResults *r = ms_results_new (NULL, NULL);
  if (!*reader || !r) {
    snprintf (err, errlen, ms_gettext ("%s: out of memory"), path);
    free (*reader);
    ms_results_free (r);
    return NULL;
  }
  r->date[0] = '\0';
  /* What a file that does not name a rule setting meant. Files from before
   * the adaptive rule have no reps-rule key: fixed count; those without
   * instrumented-reps paired every repetition with an instrumented one. */
  r->sweep.reps_rule = MS_REPS_FIXED;
  r->sweep.instr_reps = 0;
  ms_utf8_copy (r->label, sizeof r->label, strrchr (path, '/') ? strrchr (path, '/') + 1 : path);
  /* A compressed file is labelled as its plain content's file is. */
  r->label_gzipped = ms_gzip_stem_len (r->label) < strlen (r->label);
  r->label[ms_gzip_stem_len (r->label)] = '\0';
  return r;
}
