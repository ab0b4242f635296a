/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-csv-reader.h: the samples reader's state, shared by the streaming
 * part (ms-csv-read.c), the fields (ms-csv-fields.c), the rows
 * (ms-csv-rows.c) and the cells (ms-csv-cells.c). */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "files/ms-health-meta.h"
#include "memsweep.h"
#include "model/ms-rounds-private.h"
#include "ms-csv-number.h"
#include "ms-gpu-state.h"
#include "ms-health.h"
#include "ms-i18n.h"
#include "ms-um-counts.h"

struct MsInput;

#define MS_CSV_MAX_COLUMNS 4096
#define MS_CSV_MAX_REP 1000000
/* Variants of one (mode, size): an experiment has a few dozen. */
#define MS_CSV_MAX_VARIANTS 256
/* Longer fields keep their first bytes and their length: no number or name
 * is that long, and a message is cut to MsCell's buffer anyway. */
#define MS_CSV_FIELD_MAX 400

/* The limits of every CSV read (docs/csv.md, "Limits"), whatever the
 * input: what a reader holds or walks through before it refuses. A quoted
 * field may hold line breaks, so lines alone bound nothing. No file
 * memsweep writes comes near them: its longest field is a header's name
 * or a message of a few hundred bytes, its longest row the header (some
 * 80 KiB with MS_CSV_MAX_COLUMNS names), and it writes no blank line. */
#define MS_CSV_MAX_FIELD_BYTES (64u << 10)
#define MS_CSV_MAX_ROW_BYTES (1u << 20)
#define MS_CSV_MAX_EMPTY_LINES 65536
#define MS_CSV_LONG_FIELD MS_N_ ("a field longer than %u KiB: not one memsweep writes")
#define MS_CSV_LONG_ROW MS_N_ ("a line or row longer than %u KiB: not one memsweep writes")
#define MS_CSV_EMPTY_LINES MS_N_ ("more than %u lines in a row that hold no data")

/* Where a read stands against those limits (ms_csv_bound). */
typedef struct {
  uint64_t row_bytes;   /* of the row (or blank line) being read */
  uint32_t empty_lines; /* lines in a row that held no data, so far */
  bool line_data;       /* the line being read holds data so far */
} MsCsvBounds;

enum {
  MS_COL_MODE,
  MS_COL_ELEMENTS,
  MS_COL_REP,
  MS_COL_PHASE,
  MS_COL_LANE,
  MS_COL_CHUNK,
  MS_COL_HOST_START,
  MS_COL_HOST,
  MS_COL_GPU_START,
  MS_COL_GPU,
  MS_COL_BYTES,
  MS_COL_STATUS,
  MS_COL_MISMATCHES,
  MS_COL_FIRST_MISMATCH,
  MS_COL_MESSAGE,
  MS_COL_ROUND,
  MS_COL_VARIANT,
  MS_COL_STATE, /* the first of MS_N_STATE_COLUMNS, in MS_STATE_COL_ order */
  MS_CSV_N_COLS = MS_COL_STATE + MS_N_STATE_COLUMNS
};
_Static_assert (MS_CSV_N_COLS <= 32, "a record's columns are bits of a uint32_t");

/* A field of the current record, parsed as it arrives. Its text is kept
 * only where needed: the message, and anything that did not parse (for the
 * error). */
typedef struct {
  size_t len; /* the field's full length, may exceed MS_CSV_FIELD_MAX */
  bool ok;    /* parsed as its column's kind */
  int name;   /* mode, phase or status: index in the reader's names */
  uint64_t count;
  double value;
  char text[MS_CSV_FIELD_MAX + 1];
} MsField;

enum { MS_REP_E2E = 1, MS_REP_PHASES = 2, MS_REP_E2E_INSTR = 4 };

/* What reading a cell needs beside the cell itself (ms-csv-cells.c). */
typedef struct MsCellBuilder MsCellBuilder;
struct MsCellBuilder {
  MsCell *cell; /* in the reader's cell array, which may move as it grows */
  MsCellBuilder *next_variant; /* of the same mode and size */
  size_t cap_events;
  size_t cap_reps;
  uint8_t *rep_flags; /* MS_REP_E2E, MS_REP_PHASES per repetition */
  bool seen, have_none;
  bool unordered; /* a repetition's phase rows came apart: check at the end */
  bool trimmed;   /* events cut to their count once the file moved on */
  bool finished;  /* statistics computed (figures only: its samples freed) */
  long first_line;
  uint64_t copies_seen[(MS_MAX_COPY_SAMPLES + 63) / 64]; /* bit per copy row index */
};

/* Which run last had a (phase, lane, chunk), and on which line. */
typedef struct {
  uint32_t run;
  uint32_t line;
} MsStamp;

/* A text and its length: a field of a row split without libcsv, as
 * libcsv's callbacks get it, or a name a field may hold. */
typedef struct {
  const char *text;
  size_t len;
} MsFieldText;

/* The phase names after the pipeline's. */
enum {
  MS_PHASE_E2E = MS_PHASE_COUNT,
  MS_PHASE_NONE,
  MS_PHASE_COPY_H2D,
  MS_PHASE_COPY_D2H,
  MS_PHASE_E2E_INSTR, /* MS_E2E_INSTR_ROW */
  MS_PHASE_NAMES
};

/* Names a row may hold, and the last one a lookup matched. */
typedef struct {
  MsFieldText names[MS_PHASE_NAMES];
  int n;
  int last;
} MsNames;

/* What parsing fields needs of the reader, copied for each thread: the
 * header's columns, and the names, whose lookups remember their last match. */
typedef struct {
  const int8_t *field_col;
  MsNames modes, phases, statuses; /* phases: then MS_PHASE_E2E.. above */
} MsFieldParser;

typedef struct {
  const char *path;
  char *err;
  size_t errlen;
  bool failed;
  /* The plain size known when opened (a gzip file's recorded size; 0 for
   * standard input): with the bytes read, bounds what the file can claim
   * (ms_csv_known_bytes). */
  uint64_t file_size;
  bool size_unknown; /* standard input: read as a large file */
  uint64_t bytes_read;
  MsCsvBounds bounds;

  /* Streaming. */
  char eol; /* '\n', or '\r' for CR-only files */
  long line;        /* line being parsed */
  long record_line; /* first line of the record being collected */
  bool in_preamble, in_meta;
  char meta[512];
  MsMetaPending um; /* "# um-counts:" lines until the cells exist */
  MsMetaPending link; /* "# pcie-link-under-load" lines, the same */
  size_t meta_len;

  /* Records. */
  bool have_header;
  int col[MS_CSV_N_COLS]; /* index of each column, -1 if absent */
  int8_t field_col[MS_CSV_MAX_COLUMNS]; /* column of each field index, -1 if unused */
  MsField fields[MS_CSV_N_COLS];
  uint32_t fields_set, header_set; /* bit per column: given in this record, in the header */
  size_t n_fields;
  size_t n_header_fields; /* a row with more is refused as such, not by a shifted field */
  bool too_many_fields;

  MsFieldParser field_parser; /* its field_col is the array above */

  /* Cells: the first of each (mode, size), which chains the others of
   * other variants; all of them as first seen, with their cells in
   * cell_array in the same order (handed to the results at the end). */
  MsCellBuilder *cells[MS_MODE_COUNT][MS_MAX_EXPONENT + 1];
  MsCellBuilder **order;
  MsCell *cell_array;
  int n_order, cap_order;
  uint64_t reps_claimed; /* sum of every cell's repetition count */
  uint64_t rep_slots;    /* repetition slots allocated, for all cells */

  /* Duplicate phase rows: the rows of one (cell, repetition) come together,
   * so a stamp per (phase, lane, chunk) finds a repeat in constant time. */
  uint32_t run;
  MsCellBuilder *run_cell;
  long run_rep;
  MsStamp *stamps; /* [lane][chunk][phase]: the few lanes and chunks in use
                      * share a few pages */

  /* The GPU state fields of the last end-to-end row, and its cell and
   * round: every repetition of a round repeats them, and they are checked
   * and parsed once. */
  const MsCellBuilder *state_cell;
  uint64_t state_round;
  size_t state_len;
  char state_text[MS_N_STATE_COLUMNS * (MS_STATE_FIELD_LEN + 1)];

  /* Figures only (ms_csv_read_figures): the results being read, while
   * every cell's samples may go once its statistics are computed; NULL
   * keeps every sample. */
  const MsResults *figures_of;
  MsCellBuilder *open_cell; /* the cell the last row went to */
  MsStatsScratch scratch;   /* for the cells finished as the rows move on */
  bool needs_samples;       /* a finished cell's rows came back: read again */
} MsReader;

/* Whether rows in the plain forms memsweep writes are split without
 * libcsv (the default); the fuzzing target turns it off to compare. */
extern bool ms_csv_plain_rows;

/* Files with at least ms_csv_blocks_min_bytes after their header are split
 * into blocks of about ms_csv_block_bytes at line ends, whose rows are
 * split and parsed on every core (ms-csv-blocks.c). The tests make both
 * small, to compare with the stream read on one thread. */
extern uint64_t ms_csv_blocks_min_bytes;
extern size_t ms_csv_block_bytes;

/* The most fields a row split without libcsv has. */
#define MS_CSV_PLAIN_FIELDS 64

/* The files call one way only: ms-csv-read.c (the stream) -> ms-csv-blocks.c
 * (large files' rows on every core) -> ms-csv-rows.c
 * (records and rows) -> ms-csv-cells.c (cells) -> ms-csv-fields.c (the
 * reader's state, the header, fields and errors); ms-csv-meta.c reads the
 * metadata lines for the stream and the summary reader. */

/* ms-csv-fields.c */
/* Results to read path into, labelled as the file, and the reader's state
 * (size bytes, zeroed) in *reader; NULL when out of memory (said in err).
 * The summary reader's too. */
MsResults *ms_csv_results_for_reading (const char *path, void **reader, size_t size, char *err,
                                       size_t errlen);
/* The byte that ends lines: CR alone in files from classic Mac OS tools. */
char ms_csv_line_end (const char *buf, size_t len);
struct csv_parser;
/* Text just fed to parser (a line with its end when ends_line, or a part
 * of one) against the limits: false, with the refusal (translated) in why,
 * when one is broken. Every CSV read calls it after each csv_parse. */
bool ms_csv_bound (MsCsvBounds *b, const struct csv_parser *parser, const char *text,
                   size_t len, bool ends_line, char *why, size_t whylen);
void ms_csv_fail (MsReader *rd, long line, const char *fmt, ...)
  __attribute__ ((format (printf, 3, 4)));
void ms_csv_reader_init (MsReader *rd, const char *path, uint64_t file_size, char *err,
                         size_t errlen);
/* The header record is complete: the columns it lacks are refused. */
void ms_csv_header_done (MsReader *rd);
/* libcsv's field callbacks. */
void ms_csv_on_header_field (void *data, size_t len, void *user);
void ms_csv_on_field (void *data, size_t len, void *user);
/* Splits a line in the plain form memsweep writes (fields plain or quoted
 * without a quote inside, ending in LF at eol, no longer than
 * MS_CSV_MAX_FIELD_BYTES) into at most MS_CSV_PLAIN_FIELDS fields; -1 for
 * any other line, left to libcsv, which refuses a field too long. */
int ms_csv_split_plain_row (const char *line, const char *eol, MsFieldText *fields);
/* The same from p, a field's start, on, into fields[n] on; stops at eol,
 * or before a field that starts at `stop` (*stopped then set). The fields
 * so far, or -1. */
int ms_csv_split_plain_fields (const char *p, const char *eol, MsFieldText *fields, int n,
                               const char *stop, bool *stopped);

/* A field parsed away from the reader (on another thread): what
 * ms_csv_on_field sets in the record's MsField, with the text left in
 * the block it came from. */
typedef struct {
  uint32_t len; /* a split line is at most MS_CSV_MAX_FIELD_BYTES */
  bool ok;
  bool keep_text; /* text_at holds where the text is: the field's kind
                   * keeps it, or it did not parse */
  int8_t name;
  union {
    uint64_t count;
    double value;
    size_t text_at; /* from the block's start */
  };
} MsParsedField;

/* The fields of a split row that are in `changed` (a bit per field), those
 * of a column into out; returns how many. */
size_t ms_csv_parse_fields (MsFieldParser *p, const char *block, const MsFieldText *fields,
                            size_t n, uint64_t changed, MsParsedField *out);
/* The columns that the first n fields of a row give (fields_set). */
uint32_t ms_csv_fields_set (const MsFieldParser *p, size_t n);
/* A row parsed by ms_csv_parse_fields, with n fields in all, as the
 * record's fields: those in `changed`; the others are as the record before
 * left them. The caller ends the record (ms_csv_on_record). */
void ms_csv_take_parsed (MsReader *rd, const char *block, const MsParsedField *parsed, size_t n,
                         uint64_t changed, uint32_t set);

/* ms-csv-blocks.c */
/* The stream read's chunk (ms-csv-read.c): a NUL byte is refused with the
 * chunk that holds it, and the block read refuses it as the stream would. */
#define MS_CSV_CHUNK (32 * 1024)
long ms_csv_count_byte (const char *p, size_t len, char c);
/* A row in the plain form memsweep writes, split without libcsv
 * (ms_csv_split_plain_row) into the same callbacks and taken; false, and
 * nothing taken, for any other row (left to libcsv). */
bool ms_csv_take_plain_row (MsReader *rd, const char *line, const char *eol);
/* libcsv takes a line (or a part of one), as far as rd's limits allow,
 * into the callbacks given (NULL: the samples reader's); false after
 * saying why it could not. */
typedef void (*MsCsvFieldFunc) (void *data, size_t len, void *user);
typedef void (*MsCsvRecordFunc) (int term, void *user);
bool ms_csv_feed_to (MsReader *rd, struct csv_parser *parser, const char *text, size_t len,
                     MsCsvFieldFunc field, MsCsvRecordFunc record, void *user);
#define ms_csv_feed_libcsv(rd, parser, text, len)                                                 \
  ms_csv_feed_to ((rd), (parser), (text), (len), NULL, NULL, (rd))
/* The file's end: a row it cuts is refused, else libcsv
 * hands over what it holds; the parser freed either way. */
void ms_csv_end_rows (MsReader *rd, struct csv_parser *parser, MsCsvFieldFunc field,
                      MsCsvRecordFunc record, void *user);
/* The rows from file offset start (a line's start, libcsv between rows,
 * the header read) to the end, parsed on every core. */
void ms_csv_read_blocks (MsReader *rd, struct csv_parser *parser, struct MsInput *in,
                         uint64_t start);

/* The bytes the file is known to hold: its size when opened, or what was
 * read of it when that is more (a stream). */
static inline uint64_t
ms_csv_known_bytes (const MsReader *rd)
{
  return rd->file_size > rd->bytes_read ? rd->file_size : rd->bytes_read;
}

/* ms-csv-cells.c */
/* More cells than any sweep holds (9 modes x 29 sizes) are free; past
 * them, each needs this many bytes of file. */
#define MS_CSV_FREE_CELLS 512
#define MS_CSV_CELL_FILE_BYTES 3072
MsCellBuilder *ms_csv_get_cell (MsReader *rd, MsMode mode, int exponent, const char *variant);
bool ms_csv_reserve_rep (MsReader *rd, MsCellBuilder *b, uint64_t rep, long line);
void ms_csv_trim_events (MsCellBuilder *b);
/* Checks the cells, computes their statistics (a large file's on every
 * core) and hands the cells over to r in the file's order, trimmed to
 * their size, without copying them. */
void ms_csv_finish_cells (MsReader *rd, MsResults *r);
/* Figures only: a row for cell b. When the rows move on from a complete
 * cell, that cell is finished and its samples freed, so memory holds about
 * one cell's samples. Returns false (the reading stops, needs_samples set)
 * when rows come back to a cell already finished: the file must be read
 * keeping every sample. */
bool ms_csv_figures_step (MsReader *rd, MsCellBuilder *b);
/* The threads worth starting: the cores this process may run on. */
#define MS_CSV_MAX_THREADS 16
int ms_csv_threads (void);
void ms_csv_reader_clear (MsReader *rd);

/* ms-csv-summary.c: a summary from the input the samples reader opened
 * (ms_csv_read_samples hands a summary on by its head). */
MsResults *ms_csv_read_summary_input (struct MsInput *in, const char *path, char *err,
                                      size_t errlen);

/* ms-csv-rows.c: libcsv's record callback, also called after
 * ms_csv_take_parsed; checks the row and adds it to its cell. */
void ms_csv_on_record (int term, void *user);

/* ms-csv-meta.c */
/* A file without metadata lines (head: its first len bytes; size: its
 * plain size) has its metadata in its sidecar, read first as the lines
 * would have been (through rd's pending lines, or into r without rd);
 * without it, the metadata is unknown and results say why. pending: the
 * file's bytes are being hashed as they are read, and the lines are taken
 * on trust until then (ms_meta_sidecar_hash_begin). False when a sidecar
 * is there but unread (said in err). */
struct MsSidecarHash;
bool ms_csv_take_sidecar (MsReader *rd, MsResults *r, const char *path, const char *head,
                          size_t len, uint64_t size, struct MsSidecarHash *pending,
                          char *err, size_t errlen);
/* A metadata line: through rd's pending lines, or straight into r
 * without rd (a summary). */
void ms_csv_take_metadata_line (MsReader *rd, MsResults *r, const char *line, size_t len);
