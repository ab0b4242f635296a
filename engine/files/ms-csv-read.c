/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-csv-read.c: reads samples files back through libcsv, rejecting
 * anything malformed with file:line and a reason.
 *
 * The file is streamed in fixed-size chunks: memory grows with the rows
 * kept, never with a number read from the file. Fields are parsed as libcsv
 * hands them over (no allocation or copy per field), and the cells built
 * here are handed to the results without a copy. Rows in the plain form
 * memsweep writes are split without libcsv (ms_csv_split_plain_row) into
 * the same callbacks; libcsv reads the header and every other row. After
 * the header, a large file's rows go to ms-csv-blocks.c, which parses
 * them on every core and takes them in the same order. */
#define _GNU_SOURCE
#include <csv.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "memsweep.h"
#include "ms-csv-io.h"
#include "ms-csv-private.h"
#include "ms-csv-reader.h"
#include "ms-file-kinds.h"
#include "ms-input.h"
#include "ms-meta-sidecar.h"
#include "ms-results.h"

/* UTF-16: a byte order mark, or text whose first characters each have a
 * NUL on the same side (ASCII in UTF-16LE or BE). NUL bytes in any other
 * pattern are binary data, and said so. */
static bool
looks_utf16 (const unsigned char *u, size_t len)
{
  if (len >= 2 && ((u[0] == 0xFF && u[1] == 0xFE) || (u[0] == 0xFE && u[1] == 0xFF)))
    return true;
  size_t n = (len < 64 ? len : 64) & ~(size_t) 1;
  int zero = n < 2 ? -1 : u[0] == 0 ? 0 : u[1] == 0 ? 1 : -1;
  if (zero < 0)
    return false;
  for (size_t i = 0; i < n; i += 2)
    if (u[i + zero] != 0 || u[i + 1 - zero] == 0 || u[i + 1 - zero] >= 0x80)
      return false;
  return true;
}

/* Leading '#' lines are metadata; libcsv sees only what follows. Lines may
 * cross chunks, so a line is collected (up to a bound) until its end. */
static size_t
take_metadata (MsReader *rd, MsResults *r, const char *buf, size_t len)
{
  size_t pos = 0;
  while (pos < len && rd->in_preamble) {
    if (!rd->in_meta) {
      if (buf[pos] != '#') {
        rd->in_preamble = false;
        break;
      }
      rd->in_meta = true;
      rd->meta_len = 0;
    }
    const char *eol = memchr (buf + pos, rd->eol, len - pos);
    size_t n = eol ? (size_t) (eol - (buf + pos)) : len - pos;
    size_t room = sizeof rd->meta - 1 - rd->meta_len;
    memcpy (rd->meta + rd->meta_len, buf + pos, n < room ? n : room);
    rd->meta_len += n < room ? n : room;
    pos += n;
    if (eol) {
      ms_csv_take_metadata_line (rd, r, rd->meta, rd->meta_len);
      rd->in_meta = false;
      /* A '#' line holds no row: as many as blank lines may stand in a
       * row, not a bomb of them. */
      if (rd->line > MS_CSV_MAX_EMPTY_LINES)
        ms_csv_fail (rd, rd->line, MS_CSV_EMPTY_LINES, MS_CSV_MAX_EMPTY_LINES);
      rd->line++;
      pos++;
    }
  }
  return rd->failed ? len : pos;
}

bool ms_csv_plain_rows = true;

/* Feeds libcsv one line at a time so that errors can name the line.
 * Where the rest of a large file can go to ms_csv_read_blocks (the header
 * read, at a line's start), stops there and returns how far it read. */
static size_t
parse_lines (MsReader *rd, struct csv_parser *parser, const char *buf, size_t len,
             uint64_t offset)
{
  size_t pos = 0;
  /* libcsv's state 0: between rows. */
  bool plain = ms_csv_plain_rows && rd->eol == '\n';
  while (pos < len && !rd->failed) {
    if (plain && rd->have_header && parser->pstate == 0 &&
        (rd->size_unknown || (rd->file_size > offset + pos &&
                              rd->file_size - (offset + pos) >= ms_csv_blocks_min_bytes)))
      return pos;
    const char *eol = memchr (buf + pos, rd->eol, len - pos);
    size_t n = eol ? (size_t) (eol - (buf + pos)) + 1 : len - pos;
    if (!(plain && eol && rd->have_header && parser->pstate == 0 &&
          ms_csv_take_plain_row (rd, buf + pos, eol)) &&
        !ms_csv_feed_libcsv (rd, parser, buf + pos, n))
      return len;
    pos += n;
    if (eol)
      rd->line++;
  }
  return len;
}

/* The chunk at file offset `offset`; returns how much of it was read (all
 * of it unless the rest of the file goes to ms_csv_read_blocks). The
 * file's first bytes tell its encoding, byte order mark and which byte
 * ends lines. */
static size_t
feed_chunk (MsReader *rd, MsResults *r, struct csv_parser *parser, const char *buf, size_t len,
            uint64_t offset)
{
  size_t used = 0;
  if (offset == 0) {
    if (looks_utf16 ((const unsigned char *) buf, len)) {
      ms_csv_fail (rd, 1, "UTF-16 text is not supported: save the file as UTF-8");
      return len;
    }
    rd->eol = ms_csv_line_end (buf, len);
    used = len >= 3 && memcmp (buf, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
  }
  const char *nul = memchr (buf, '\0', len);
  if (nul) {
    ms_csv_fail (rd, rd->line + ms_csv_count_byte (buf, nul - buf, rd->eol),
                 "binary data (a NUL byte): not a CSV file");
    return len;
  }
  used += rd->in_preamble ? take_metadata (rd, r, buf + used, len - used) : 0;
  return used + parse_lines (rd, parser, buf + used, len - used, offset + used);
}

static void
read_stream (MsReader *rd, MsResults *r, MsInput *in)
{
  struct csv_parser parser;
  char *buf = malloc (MS_CSV_CHUNK);
  if (!buf || csv_init (&parser, 0) != 0) {
    free (buf);
    ms_csv_fail (rd, rd->line, "out of memory");
    return;
  }
  /* Only the bytes the file held when opened (ms-input.h): one that keeps
   * growing (a log, a writer gone wrong) is not read forever. */
  while (!rd->failed) {
    ssize_t n = ms_input_read (in, buf, MS_CSV_CHUNK);
    if (n < 0) {
      /* The file's fault (damaged gzip data, a disk error), not a line's. */
      if (!rd->failed)
        snprintf (rd->err, rd->errlen, "%s", ms_input_error (in));
      rd->failed = true;
      break;
    }
    if (n == 0)
      break;
    uint64_t offset = rd->bytes_read;
    rd->bytes_read += (size_t) n;
    size_t used = feed_chunk (rd, r, &parser, buf, (size_t) n, offset);
    if (used < (size_t) n && !rd->failed) {
      ms_csv_read_blocks (rd, &parser, in, offset + used);
      break;
    }
  }
  ms_csv_end_rows (rd, &parser, rd->have_header ? ms_csv_on_field : ms_csv_on_header_field,
                   ms_csv_on_record, rd);
  free (buf);
}

/* Why a samples file is read again (read_either). */
typedef enum {
  READ_ONCE,
  READ_AGAIN_WHOLE,   /* rows came back to a cell whose samples were dropped */
  READ_AGAIN_CHECKED, /* its sidecar's lines, taken on trust, were another file's */
} ReadAgain;

/* in: the file at path, open; figures: ms_csv_read_figures's reading;
 * trust: its sidecar's lines may be taken before its bytes are checked;
 * *again: whether and why it must be read again. */
static MsResults *
read_samples (MsInput *in, const char *path, bool figures, bool trust, ReadAgain *again,
              char *err, size_t errlen)
{
  MsReader *rd;
  MsResults *r = ms_csv_results_for_reading (path, (void **) &rd, sizeof *rd, err, errlen);
  if (!r)
    return NULL;
  uint64_t size = ms_input_size (in);
  ms_csv_reader_init (rd, path, size == MS_INPUT_SIZE_UNKNOWN ? 0 : size, err, errlen);
  rd->size_unknown = size == MS_INPUT_SIZE_UNKNOWN;
  rd->figures_of = figures ? r : NULL;

  locale_t old = ms_csv_enter_c_locale ();
  /* Standard input has no sidecar beside it: its metadata is unknown
   * (ms_meta_sidecar_lines says so). The sidecar's check hashes the bytes
   * as the rows are read: the file is read once. */
  char head[4];
  ssize_t n = ms_input_pread (in, head, sizeof head, 0);
  size_t len = n > 0 ? (size_t) n : 0;
  MsSidecarHash *pending = trust ? ms_meta_sidecar_hash_begin (in, path) : NULL;
  if (!ms_csv_take_sidecar (rd, r, path, head, len, size, pending, err, errlen))
    rd->failed = true;
  read_stream (rd, r, in);
  bool stands = ms_meta_sidecar_hash_end (in, pending);
  if (!rd->failed && !rd->have_header)
    ms_csv_fail (rd, rd->line, "no header row: the file holds no samples");
  /* No writer of memsweep's leaves a header without rows (a run stopped
   * before any cell writes nothing): such a file is cut, not an empty run. */
  if (!rd->failed && rd->n_order == 0)
    ms_csv_fail (rd, rd->line, "no rows: the file holds its header only");
  if (!rd->failed)
    ms_csv_finish_cells (rd, r);
  if (!rd->failed)
    ms_um_pending_attach (&rd->um, r);
  if (!rd->failed)
    ms_link_pending_attach (&rd->link, r);
  ms_csv_leave_c_locale (old);

  bool failed = rd->failed || !stands;
  *again = !stands ? READ_AGAIN_CHECKED : rd->needs_samples ? READ_AGAIN_WHOLE : READ_ONCE;
  ms_csv_reader_clear (rd);
  free (rd);
  if (failed) {
    ms_results_free (r);
    return NULL;
  }
  return r;
}

/* Where the table of kinds looks for a summary's title or header row. */
#define KIND_HEAD_BYTES 4096

/* A summary or samples, as the table of kinds tells them apart, through
 * one open; figures: ms_csv_read_figures's reading. */
static MsResults *
read_either (const char *path, bool figures, char *err, size_t errlen)
{
  MsInput *in = ms_input_open (path, true, err, errlen);
  if (!in)
    return NULL;
  char head[KIND_HEAD_BYTES];
  ssize_t n = ms_input_pread (in, head, sizeof head, 0);
  ReadAgain again = READ_ONCE;
  /* Past a head of notes, no further than a stream keeps for the reader
   * that follows. */
  MsResults *r = n > 0 && ms_file_kind_of_input (in, head, (size_t) n, MS_INPUT_WINDOW / 2) ==
                              MS_FILE_KIND_SUMMARY
                   ? ms_csv_read_summary_input (in, path, err, errlen)
                   : read_samples (in, path, figures, true, &again, err, errlen);
  ms_input_close (in);
  /* Rows that came back to a finished cell (a file whose rounds visit
   * every cell in turn, or edited by hand): read it again, whole. Lines
   * its sidecar gave on trust that the bytes did not bear out: again,
   * the sidecar checked first, never on trust again. */
  bool whole = false, checked = false;
  while (again != READ_ONCE && (in = ms_input_open (path, true, err, errlen))) {
    whole = whole || again == READ_AGAIN_WHOLE;
    checked = checked || again == READ_AGAIN_CHECKED;
    r = read_samples (in, path, figures && !whole, !checked, &again, err, errlen);
    ms_input_close (in);
  }
  return r;
}

MsResults *
ms_csv_read_samples (const char *path, char *err, size_t errlen)
{
  return read_either (path, false, err, errlen);
}

MsResults *
ms_csv_read_figures (const char *path, char *err, size_t errlen)
{
  return read_either (path, true, err, errlen);
}
