/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-csv-blocks.c: the rows of a large samples file read on every core.
 *
 * After the header, the reading thread reads the file in blocks cut at line
 * ends; worker threads split each block's lines and parse their fields
 * (ms_csv_split_plain_row, ms_csv_parse_fields), which is most of a row's
 * cost, while the reading thread takes the blocks' rows in the file's
 * order, exactly as the stream read takes them (ms_csv_take_parsed, then
 * the record's checks in ms-csv-rows.c): the cells, every check and every
 * error's line are those of a read on one thread. A line a worker could
 * not split (quotes inside, spaces, CR, too many fields) or one libcsv is
 * in the middle of goes to libcsv there, line by line, as the stream read
 * does.
 *
 * The stream read (ms-csv-read.c) refuses a NUL byte when it reads the
 * 32 KiB chunk that holds it, before the chunk's rows: the rows before that
 * chunk are taken, and an error among them comes first. Here too: a row
 * whose line ends in or after that chunk is not taken, and a line that
 * runs into it gives libcsv only its bytes before it.
 *
 * A 10^6-row file (108 MB, made by bench/show-large.py) read on the 2-core
 * VM, busy with other builds (2026-11-25): 0.54-0.61 s wall and 0.33-0.41 s
 * CPU, against 1.47-1.65 s and 0.44-0.49 s for the stream read. Memory: a
 * few blocks of text and their parsed fields, some 2.5 MiB per thread. */
#define _GNU_SOURCE
#include <csv.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "memsweep.h"
#include "ms-csv-private.h"
#include "ms-csv-reader.h"
#include "ms-i18n.h"
#include "ms-input.h"

/* Workers beyond four parse no faster (the reading thread, which takes
 * every row, sets the pace) but each holds its blocks: on a 16-core host
 * the gzipped 10^7-row file peaked at 70 MiB with fifteen, 60 with four,
 * in about the same time (docs/measurements.md, "On a quiet host"). */
#define MS_CSV_MAX_PARSERS 4

/* A block's parsed fields take some 4 times its text (16 bytes a field),
 * up to 8 times as their array grows: 2.5 MiB or so per block, and a block
 * per thread and two more in flight. Smaller files are read on one
 * thread, within the stream read's bound (test-csv-memory). */
uint64_t ms_csv_blocks_min_bytes = 32u << 20;
size_t ms_csv_block_bytes = 256u << 10;

/* A line of a block. Rows of one cell differ from the row before in a few
 * fields (the repetition and the times): only those are parsed and taken,
 * the others stay as the row before left them. On the 10^6-row file this
 * took show's CPU time from 0.36-0.41 s to 0.28-0.33 s. */
typedef struct {
  size_t at, len;   /* in the block's text, the LF included (none on the last line) */
  uint64_t changed; /* a bit per field: its text is not the line before's */
  uint32_t fields;  /* fields in the row, 0 when libcsv takes the line */
  uint32_t first;   /* its first parsed field */
  uint32_t set;     /* the columns it gives */
} MsBlockLine;

#define MS_ALL_FIELDS UINT64_MAX

enum { BLOCK_FREE, BLOCK_FILLED, BLOCK_PARSING, BLOCK_PARSED };

typedef struct {
  int state;
  char *text;
  size_t len, cap;
  uint64_t start; /* the file offset of text[0] */
  MsBlockLine *lines;
  size_t n_lines, cap_lines;
  MsParsedField *fields;
  size_t n_fields, cap_fields;
  bool failed; /* out of memory while parsing */
} MsBlock;

typedef struct {
  MsReader *rd;
  MsBlock *blocks;
  int n_blocks;
  pthread_mutex_t lock;
  pthread_cond_t filled, parsed;
  long next_parse; /* the next block to parse, in file order */
  long filled_to;  /* blocks filled so far */
  bool done;       /* no block comes any more */
} MsBlockQueue;

/* A worker's fields of one row: room for a whole row at the least. */
static bool
reserve (void **array, size_t *cap, size_t need, size_t size)
{
  if (need <= *cap)
    return true;
  size_t n = *cap ? *cap : 256;
  while (n < need)
    n *= 2;
  void *p = realloc (*array, n * size);
  if (!p)
    return false;
  *array = p;
  *cap = n;
  return true;
}

/* A block's text is followed by this many zero bytes: a field's last word
 * is read whole. */
#define MS_BLOCK_PAD 8

static inline uint64_t
word_at (const char *p)
{
  uint64_t w;
  memcpy (&w, p, sizeof w);
  return w;
}

/* Whether two fields' texts are the same, a word at a time: a few bytes
 * each, where a call to memcmp took a seventh of the time and a byte loop
 * a sixth. */
static inline bool
same_text (const MsFieldText *a, const MsFieldText *b)
{
  size_t len = a->len, i = 0;
  if (len != b->len)
    return false;
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  for (; i + 8 <= len; i += 8)
    if (word_at (a->text + i) != word_at (b->text + i))
      return false;
  if (i == len)
    return true;
  /* The bytes past the field (the next fields, or the padding) left out. */
  uint64_t mask = ~0ull >> (64 - 8 * (len - i));
  return ((word_at (a->text + i) ^ word_at (b->text + i)) & mask) == 0;
#else
  for (; i < len; i++)
    if (a->text[i] != b->text[i])
      return false;
  return true;
#endif
}

/* Where field f of a split line starts: its opening quote, if any. */
static inline const char *
field_start (const MsFieldText *f, const char *line)
{
  return f->text > line && f->text[-1] == '"' ? f->text - 1 : f->text;
}

/* A line split like the line before (`before`, n_before fields, between
 * prev and prev_eol; both end in LF): rows of a cell share most bytes, at
 * the start and at the end. The fields before the first byte that differs
 * are the line before's, and so are those after the last (moved by the
 * difference in length) once splitting the bytes between meets one of
 * them: only those are split. -1 where this does not hold (the line is
 * then split whole). On the 10^7-row file splitting every field and
 * comparing it took a fifth of show's CPU time; this way show runs 11%
 * fewer instructions on 10^6 rows (callgrind, 4.05 against 4.55 G). */
static int
split_like_before (const char *line, const char *eol, const char *prev, const char *prev_eol,
                   const MsFieldText *before, int n_before, MsFieldText *now, int *kept,
                   int *kept_from)
{
  size_t len = (size_t) (eol - line), plen = (size_t) (prev_eol - prev);
  size_t min = len < plen ? len : plen, head = 0, tail = 0;
  if (len == 0 || (uint64_t) len > UINT32_MAX)
    return -1;
  while (head + 8 <= min && word_at (line + head) == word_at (prev + head))
    head += 8;
  while (head < min && line[head] == prev[head])
    head++;
  while (tail + 8 <= min - head && word_at (eol - tail - 8) == word_at (prev_eol - tail - 8))
    tail += 8;
  while (tail < min - head && eol[-(ptrdiff_t) tail - 1] == prev_eol[-(ptrdiff_t) tail - 1])
    tail++;
  /* Fields whose comma after them is among the same first bytes. */
  int k = 0;
  while (k + 1 < n_before && (size_t) (field_start (&before[k + 1], prev) - prev) - 1 < head)
    k++;
  /* Fields that start among the same last bytes. */
  int j = n_before;
  while (j - 1 > k && (size_t) (field_start (&before[j - 1], prev) - prev) >= plen - tail)
    j--;
  ptrdiff_t shift = line - prev;
  for (int i = 0; i < k; i++)
    now[i] = (MsFieldText) { before[i].text + shift, before[i].len };
  const char *from = field_start (&before[k], prev) + shift;
  const char *stop = j < n_before ? field_start (&before[j], prev) + shift + (ptrdiff_t) (len - plen)
                                  : NULL;
  bool stopped = false;
  int n = ms_csv_split_plain_fields (from, eol, now, k, stop, &stopped);
  *kept = k;
  if (n < 0 || !stopped)
    return n;
  if (n + (n_before - j) > MS_CSV_PLAIN_FIELDS)
    return -1;
  /* At the same index, a field of the same last bytes is the same. */
  if (n == j)
    *kept_from = j;
  shift += (ptrdiff_t) (len - plen);
  for (int i = j; i < n_before; i++)
    now[n++] = (MsFieldText) { before[i].text + shift, before[i].len };
  return n;
}

/* Splits the block's lines and parses the rows in the plain form. */
static void
parse_block (MsBlock *b, MsFieldParser *parser)
{
  b->n_lines = b->n_fields = 0;
  b->failed = false;
  MsFieldText split[2][MS_CSV_PLAIN_FIELDS];
  int n_before = -1; /* fields of the line before, when split */
  const char *prev = NULL, *prev_eol = NULL;
  int n_set = -1;    /* the columns of a row of n_set fields */
  uint32_t set = 0;
  for (size_t pos = 0; pos < b->len;) {
    const char *line = b->text + pos, *eol = memchr (line, '\n', b->len - pos);
    size_t len = eol ? (size_t) (eol - line) + 1 : b->len - pos;
    if (!reserve ((void **) &b->lines, &b->cap_lines, b->n_lines + 1, sizeof *b->lines) ||
        !reserve ((void **) &b->fields, &b->cap_fields, b->n_fields + MS_CSV_PLAIN_FIELDS,
                  sizeof *b->fields)) {
      b->failed = true;
      return;
    }
    MsBlockLine *l = &b->lines[b->n_lines++];
    *l = (MsBlockLine) { .at = pos, .len = len, .first = (uint32_t) b->n_fields };
    MsFieldText *now = split[b->n_lines & 1], *before = split[(b->n_lines - 1) & 1];
    /* The fields before kept and from kept_from on are the line before's. */
    int kept = 0, kept_from = MS_CSV_PLAIN_FIELDS;
    int n = !eol ? -1
            : n_before > 0 ? split_like_before (line, eol, prev, prev_eol, before, n_before, now,
                                                &kept, &kept_from)
                           : ms_csv_split_plain_row (line, eol, now);
    if (n > 0) {
      uint64_t changed = n_before < 0 ? MS_ALL_FIELDS : 0;
      for (int i = kept; i < n && i < kept_from && n_before >= 0; i++)
        if (i >= n_before || !same_text (&now[i], &before[i]))
          changed |= 1ull << i;
      if (n != n_set) {
        set = ms_csv_fields_set (parser, (size_t) n);
        n_set = n;
      }
      l->fields = (uint32_t) n;
      l->changed = changed;
      l->set = set;
      b->n_fields += ms_csv_parse_fields (parser, b->text, now, (size_t) n, changed,
                                          &b->fields[b->n_fields]);
    }
    n_before = n;
    prev = line;
    prev_eol = eol;
    pos += len;
  }
}

/* The next block in file order, parsed with the lock let go. */
static void
parse_next (MsBlockQueue *q, MsFieldParser *parser)
{
  MsBlock *b = &q->blocks[q->next_parse++ % q->n_blocks];
  b->state = BLOCK_PARSING;
  pthread_mutex_unlock (&q->lock);
  parse_block (b, parser);
  pthread_mutex_lock (&q->lock);
  b->state = BLOCK_PARSED;
  pthread_cond_broadcast (&q->parsed);
}

/* Blocks in file order, each by the first worker free. */
static void *
worker (void *data)
{
  MsBlockQueue *q = data;
  MsFieldParser parser = q->rd->field_parser;
  /* strtod, for the rare long number, reads '.' as the point. */
  locale_t old = ms_csv_enter_c_locale ();
  pthread_mutex_lock (&q->lock);
  for (;;) {
    while (q->next_parse == q->filled_to && !q->done)
      pthread_cond_wait (&q->filled, &q->lock);
    if (q->next_parse == q->filled_to)
      break;
    parse_next (q, &parser);
  }
  pthread_mutex_unlock (&q->lock);
  ms_csv_leave_c_locale (old);
  return NULL;
}

bool
ms_csv_take_plain_row (MsReader *rd, const char *line, const char *eol)
{
  MsFieldText field[MS_CSV_PLAIN_FIELDS];
  MsParsedField parsed[MS_CSV_PLAIN_FIELDS];
  int n = ms_csv_split_plain_row (line, eol, field);
  if (n < 0)
    return false;
  ms_csv_parse_fields (&rd->field_parser, line, field, (size_t) n, MS_ALL_FIELDS, parsed);
  ms_csv_take_parsed (rd, line, parsed, (size_t) n, MS_ALL_FIELDS,
                      ms_csv_fields_set (&rd->field_parser, (size_t) n));
  ms_csv_on_record ('\n', rd);
  rd->bounds = (MsCsvBounds) { 0 };
  return true;
}

bool
ms_csv_feed_to (MsReader *rd, struct csv_parser *parser, const char *text, size_t len,
                MsCsvFieldFunc field, MsCsvRecordFunc record, void *user)
{
  char why[160];
  if (!field) /* the samples reader's */
    field = rd->have_header ? ms_csv_on_field : ms_csv_on_header_field;
  if (csv_parse (parser, text, len, field, record ? record : ms_csv_on_record, user) != len)
    ms_csv_fail (rd, rd->line, "malformed CSV: %s", csv_strerror (csv_error (parser)));
  else if (!ms_csv_bound (&rd->bounds, parser, text, len, text[len - 1] == rd->eol, why,
                          sizeof why))
    ms_csv_fail (rd, rd->line, "%s", why);
  return !rd->failed;
}

void
ms_csv_end_rows (MsReader *rd, struct csv_parser *parser, MsCsvFieldFunc field,
                 MsCsvRecordFunc record, void *user)
{
  /* memsweep ends every line it writes: a row that the file's end, not a
   * line end, closes was cut (a copy stopped part-way, head -c), and
   * what it holds may be too. libcsv's state 0: between rows. */
  if (!rd->failed && parser->pstate != 0)
    ms_csv_fail (rd, rd->line,
                 rd->have_header ? MS_N_ ("its last row is cut: the file ends inside it")
                                 : MS_N_ ("its header row is cut: the file ends inside it"));
  if (!rd->failed)
    csv_fini (parser, field, record, user);
  csv_free (parser);
}

/* The stream read's state while blocks are read: where the file is read
 * to, the partial line at the end of the last block, and the first NUL. */
typedef struct {
  MsInput *input;
  uint64_t offset;
  char *carry;
  size_t carry_len, carry_cap;
  bool eof;
  uint64_t nul;     /* file offset of the first NUL byte, UINT64_MAX if none */
  uint64_t scanned; /* the bytes before it are known to hold no other */
  char *scan;       /* MS_CSV_CHUNK bytes for reading ahead of the blocks */
  int error;    /* errno of a read that failed, ENOMEM; said once the rows
                 * before it are taken */
} MsBlockReader;

static bool
read_more (MsReader *rd, MsBlockReader *in, MsBlock *b, size_t want)
{
  if (!reserve ((void **) &b->text, &b->cap, b->len + want + MS_BLOCK_PAD, 1)) {
    in->error = ENOMEM;
    return false;
  }
  ssize_t n = ms_input_pread (in->input, b->text + b->len, want, in->offset);
  if (n < 0) {
    in->error = errno ? errno : EIO;
    return false;
  }
  /* Only the bytes the file held when opened (ms-input.h); a file cut
   * short ends. */
  if (n == 0)
    in->eof = true;
  b->len += (size_t) n;
  in->offset += (size_t) n;
  rd->bytes_read = in->offset;
  return true;
}

/* Fills a block: the last block's partial line, then whole lines up to
 * about ms_csv_block_bytes (a longer line whole). False on an error. */
static bool
fill_block (MsReader *rd, MsBlockReader *in, MsBlock *b)
{
  b->len = 0;
  b->start = in->offset - in->carry_len;
  if (!reserve ((void **) &b->text, &b->cap,
                in->carry_len + ms_csv_block_bytes + MS_BLOCK_PAD, 1)) {
    in->error = ENOMEM;
    return false;
  }
  if (in->carry_len)
    memcpy (b->text, in->carry, in->carry_len);
  b->len = in->carry_len;
  in->carry_len = 0;
  size_t scanned = b->len;
  const char *last_eol = NULL;
  while (!in->eof) {
    if (!read_more (rd, in, b, ms_csv_block_bytes))
      return false;
    const char *nul = memchr (b->text + scanned, '\0', b->len - scanned);
    if (nul && in->nul == UINT64_MAX)
      in->nul = b->start + (uint64_t) (nul - b->text);
    if (in->scanned < in->offset)
      in->scanned = in->offset;
    last_eol = memrchr (b->text + scanned, '\n', b->len - scanned);
    scanned = b->len;
    if (last_eol || in->nul < in->offset)
      break;
    /* No row memsweep writes is that long: memory stays bounded. */
    if (b->len > MS_CSV_MAX_ROW_BYTES) {
      in->error = E2BIG;
      return false;
    }
  }
  /* The partial line after the last LF waits for the next block; after
   * a NUL no block comes, and the line stays, to be refused. */
  if (last_eol && !in->eof && in->nul >= in->offset) {
    size_t keep = (size_t) (last_eol + 1 - b->text);
    in->carry_len = b->len - keep;
    if (!reserve ((void **) &in->carry, &in->carry_cap, in->carry_len, 1)) {
      in->error = ENOMEM;
      return false;
    }
    if (in->carry_len)
      memcpy (in->carry, last_eol + 1, in->carry_len);
    b->len = keep;
  }
  memset (b->text + b->len, 0, MS_BLOCK_PAD);
  return true;
}

long
ms_csv_count_byte (const char *p, size_t len, char c)
{
  long n = 0;
  for (const char *end = p + len; (p = memchr (p, c, end - p)); p++)
    n++;
  return n;
}

/* Reads the bytes before `end` that no block has brought yet for a NUL
 * byte. A read error here is said when the blocks meet it. */
static void
scan_ahead (MsBlockReader *in, uint64_t end)
{
  if (!in->scan && in->scanned < end && !(in->scan = malloc (MS_CSV_CHUNK)))
    return;
  while (in->scanned < end && in->nul == UINT64_MAX) {
    size_t want = end - in->scanned < MS_CSV_CHUNK ? (size_t) (end - in->scanned) : MS_CSV_CHUNK;
    ssize_t n = ms_input_pread (in->input, in->scan, want, in->scanned);
    if (n <= 0)
      return;
    const char *nul = memchr (in->scan, '\0', (size_t) n);
    if (nul)
      in->nul = in->scanned + (uint64_t) (nul - in->scan);
    in->scanned += (uint64_t) n;
  }
}

/* The line of the first NUL byte, the line at file offset `at` being the
 * reader's: the line ends between are counted in the file. */
static long
nul_line (MsReader *rd, MsBlockReader *in, uint64_t at)
{
  long line = rd->line;
  char buf[4096];
  while (at < in->nul) {
    size_t want = in->nul - at < sizeof buf ? (size_t) (in->nul - at) : sizeof buf;
    ssize_t n = ms_input_pread (in->input, buf, want, at);
    if (n <= 0)
      break;
    line += ms_csv_count_byte (buf, (size_t) n, '\n');
    at += (uint64_t) n;
  }
  return line;
}

/* Takes block i's rows in order, as the stream read would. */
static void
take_block (MsBlockQueue *q, MsBlockReader *in, struct csv_parser *parser, long i)
{
  MsReader *rd = q->rd;
  MsBlock *b = &q->blocks[i % q->n_blocks];
  if (b->failed) {
    ms_csv_fail (rd, rd->line, "out of memory");
    return;
  }
  /* Whether the record's fields are those of the line before. */
  bool fields_before = false;
  for (size_t k = 0; k < b->n_lines && !rd->failed; k++) {
    const MsBlockLine *l = &b->lines[k];
    const char *text = b->text + l->at;
    bool eol = text[l->len - 1] == '\n';
    /* The stream read reads the chunk that holds a line's end (or its last
     * byte) before the line, and refuses a NUL byte anywhere in it: no
     * line ends in or after the chunk of the first NUL. */
    uint64_t end = b->start + l->at + l->len - 1;
    uint64_t chunk_end = end - end % MS_CSV_CHUNK + MS_CSV_CHUNK;
    if (in->scanned < chunk_end)
      scan_ahead (in, chunk_end);
    if (in->nul < chunk_end) {
      /* It gave libcsv the line's bytes before that chunk (a CR in them
       * ends a record). */
      uint64_t start = b->start + l->at, nul_chunk = in->nul - in->nul % MS_CSV_CHUNK;
      if (start < nul_chunk)
        ms_csv_feed_libcsv (rd, parser, text, (size_t) (nul_chunk - start));
      ms_csv_fail (rd, nul_line (rd, in, start), "binary data (a NUL byte): not a CSV file");
      return;
    }
    if (l->fields && parser->pstate == 0) {
      if (l->changed == MS_ALL_FIELDS || fields_before) {
        ms_csv_take_parsed (rd, b->text, &b->fields[l->first], l->fields, l->changed, l->set);
        ms_csv_on_record ('\n', rd);
      } else
        /* The line before went to libcsv: this one whole, split again. */
        ms_csv_take_plain_row (rd, text, text + l->len - 1);
      fields_before = true;
    } else {
      fields_before = false;
      if (!ms_csv_feed_libcsv (rd, parser, text, l->len))
        return;
    }
    if (eol)
      rd->line++;
  }
}

/* Fills every free block ahead of block `next`, for the workers. */
static void
fill_ahead (MsBlockQueue *q, MsBlockReader *in, long next)
{
  MsReader *rd = q->rd;
  while (!rd->failed && !in->eof && !in->error && in->nul >= in->offset &&
         q->filled_to < next + q->n_blocks) {
    MsBlock *b = &q->blocks[q->filled_to % q->n_blocks];
    if (!fill_block (rd, in, b))
      return;
    pthread_mutex_lock (&q->lock);
    b->state = BLOCK_FILLED;
    q->filled_to++;
    pthread_cond_signal (&q->filled);
    pthread_mutex_unlock (&q->lock);
  }
}

void
ms_csv_read_blocks (MsReader *rd, struct csv_parser *parser, MsInput *input, uint64_t start)
{
  /* A thread a core: where one inflates, a worker fewer, so that the
   * reading thread, which takes every row, does not share a core with
   * two others (docs/measurements.md, "A thread a core"). */
  int n_workers = ms_csv_threads () - (ms_input_inflates_ahead (input) ? 1 : 0);
  if (n_workers < 1)
    n_workers = 1;
  if (n_workers > MS_CSV_MAX_PARSERS)
    n_workers = MS_CSV_MAX_PARSERS;
  MsBlockQueue q = { .rd = rd, .n_blocks = n_workers + 2 };
  MsBlockReader in = { .input = input, .offset = start, .nul = UINT64_MAX, .scanned = start };
  pthread_t threads[MS_CSV_MAX_THREADS];
  int started = 0;
  q.blocks = calloc ((size_t) q.n_blocks, sizeof *q.blocks);
  if (!q.blocks) {
    ms_csv_fail (rd, rd->line, "out of memory");
    return;
  }
  pthread_mutex_init (&q.lock, NULL);
  pthread_cond_init (&q.filled, NULL);
  pthread_cond_init (&q.parsed, NULL);
  for (; started < n_workers; started++)
    if (pthread_create (&threads[started], NULL, worker, &q) != 0)
      break;
  MsFieldParser own = rd->field_parser;
  for (long i = 0; !rd->failed; i++) {
    fill_ahead (&q, &in, i);
    if (i == q.filled_to) {
      if (in.error == ENOMEM)
        ms_csv_fail (rd, rd->line, "out of memory");
      else if (in.error == E2BIG)
        ms_csv_fail (rd, rd->line, MS_CSV_LONG_ROW, MS_CSV_MAX_ROW_BYTES >> 10);
      else if (in.error)
        ms_csv_fail (rd, rd->line, "read error: %s",
                     ms_input_why (input)[0] ? ms_input_why (input) : strerror (in.error));
      break;
    }
    MsBlock *b = &q.blocks[i % q.n_blocks];
    pthread_mutex_lock (&q.lock);
    /* Without workers (none could start), this thread parses. */
    if (!started && b->state == BLOCK_FILLED)
      parse_next (&q, &own);
    while (b->state != BLOCK_PARSED)
      pthread_cond_wait (&q.parsed, &q.lock);
    pthread_mutex_unlock (&q.lock);
    take_block (&q, &in, parser, i);
    b->state = BLOCK_FREE;
  }
  pthread_mutex_lock (&q.lock);
  q.done = true;
  pthread_cond_broadcast (&q.filled);
  pthread_mutex_unlock (&q.lock);
  for (int t = 0; t < started; t++)
    pthread_join (threads[t], NULL);
  for (int k = 0; k < q.n_blocks; k++) {
    free (q.blocks[k].text);
    free (q.blocks[k].lines);
    free (q.blocks[k].fields);
  }
  free (q.blocks);
  free (in.carry);
  free (in.scan);
  pthread_cond_destroy (&q.parsed);
  pthread_cond_destroy (&q.filled);
  pthread_mutex_destroy (&q.lock);
}
