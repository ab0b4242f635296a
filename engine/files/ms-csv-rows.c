/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-csv-rows.c: the samples reader's rows: every row is checked and added
 * to its cell (kept in ms-csv-cells.c). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "memsweep.h"
#include "ms-csv-column-table.h"
#include "ms-csv-field.h"
#include "ms-csv-reader.h"
#include "ms-i18n.h"
#include "ms-modes.h"
#include "ms-utf8.h"

#define N_LANES (MS_MAX_STREAMS + 1)
#define N_STAMPS (MS_PHASE_COUNT * N_LANES * MS_MAX_STREAMS)

/* A field's text, fit for an error message: at most 40 bytes, control
 * characters escaped. */
static const char *
shown (const MsField *f, char *buf, size_t size)
{
  /* A count that parsed but is out of range kept no text. */
  if (f->ok) {
    snprintf (buf, size, "%llu", (unsigned long long) f->count);
    return buf;
  }
  size_t o = 0;
  for (size_t i = 0; i < f->len && i < 40 && i < MS_CSV_FIELD_MAX && o + 5 < size; i++) {
    unsigned char ch = (unsigned char) f->text[i];
    if (ch < 0x20 || ch == 0x7f)
      o += snprintf (buf + o, size - o, "\\x%02x", ch);
    else
      buf[o++] = (char) ch;
  }
  buf[o] = '\0';
  return buf;
}

static bool
field_count (const MsField *f, uint64_t max, uint64_t *out)
{
  *out = f->count;
  return f->ok && f->count <= max;
}

typedef struct {
  MsMode mode;
  int exponent;
  uint64_t elements, rep, lane, chunk, bytes, mismatches, first_mismatch, round;
  MsCellStatus status;
  MsPhase phase;  /* MS_PHASE_COUNT for e2e, none and copies */
  int phase_name; /* index in the reader's phase names */
  bool is_e2e, is_none, is_copy, is_e2e_instr;
} MsRow;

/* The index of a mode, phase or status field's name; -1 after saying it
 * is unknown. */
static int
known_name (MsReader *rd, int col)
{
  const MsField *f = &rd->fields[col];
  char s[200];
  if (f->ok)
    return f->name;
  ms_csv_fail (rd, rd->record_line,
               col == MS_COL_MODE    ? MS_N_ ("unknown mode '%s'")
               : col == MS_COL_PHASE ? MS_N_ ("unknown phase '%s'")
                                     : MS_N_ ("unknown status '%s'"),
               shown (f, s, sizeof s));
  return -1;
}

/* A whole number from 0 to max; false after saying it is not. */
static bool
whole_number (MsReader *rd, int col, uint64_t max, uint64_t *out)
{
  char s[200];
  if (field_count (&rd->fields[col], max, out))
    return true;
  ms_csv_fail (rd, rd->record_line,
               col == MS_COL_REP     ? MS_N_ ("rep '%s' is not a whole number from 0 to %d")
               : col == MS_COL_LANE  ? MS_N_ ("lane '%s' is not a whole number from 0 to %d")
               : col == MS_COL_CHUNK ? MS_N_ ("chunk '%s' is not a whole number from 0 to %d")
                                     : MS_N_ ("round '%s' is not a whole number from 0 to %d"),
               shown (&rd->fields[col], s, sizeof s), (int) max);
  return false;
}

static bool
parse_keys (MsReader *rd, MsRow *row)
{
  const MsField *f = rd->fields;
  char s[200];
  int mode = known_name (rd, MS_COL_MODE);
  if (mode < 0)
    return false;
  row->mode = (MsMode) mode;
  uint64_t e = 0;
  if (!field_count (&f[MS_COL_ELEMENTS], 1ull << MS_MAX_EXPONENT, &e) || e == 0 || (e & (e - 1))) {
    ms_csv_fail (rd, rd->record_line, "elements '%s' is not a power of two from 1 to 2^%d",
                 shown (&f[MS_COL_ELEMENTS], s, sizeof s), MS_MAX_EXPONENT);
    return false;
  }
  row->elements = e;
  row->exponent = __builtin_ctzll (e);
  if (!whole_number (rd, MS_COL_REP, MS_CSV_MAX_REP - 1, &row->rep))
    return false;
  int phase = known_name (rd, MS_COL_PHASE);
  if (phase < 0)
    return false;
  row->phase_name = phase;
  row->is_e2e = phase == MS_PHASE_E2E;
  row->is_e2e_instr = phase == MS_PHASE_E2E_INSTR;
  row->is_none = phase == MS_PHASE_NONE;
  row->is_copy = phase == MS_PHASE_COPY_H2D || phase == MS_PHASE_COPY_D2H;
  row->phase = phase < MS_PHASE_COUNT ? (MsPhase) phase : MS_PHASE_COUNT;
  int status = known_name (rd, MS_COL_STATUS);
  row->status = (MsCellStatus) status;
  return status >= 0;
}

static bool
parse_counts (MsReader *rd, MsRow *row)
{
  const MsField *f = rd->fields;
  long line = rd->record_line;
  char s[200];
  row->lane = row->chunk = row->bytes = row->mismatches = row->first_mismatch = row->round = 0;
  if ((rd->col[MS_COL_LANE] >= 0 && !whole_number (rd, MS_COL_LANE, MS_MAX_STREAMS, &row->lane)) ||
      (rd->col[MS_COL_CHUNK] >= 0 &&
       !whole_number (rd, MS_COL_CHUNK, MS_MAX_STREAMS - 1, &row->chunk)))
    return false;
  /* A steady-state copy row times a burst of copies of one vector; a
   * kernel of the reuse lesson touches its vectors up to MS_MAX_REUSE times. */
  bool reuse = row->phase == MS_PHASE_KERNEL;
  uint64_t vectors = row->is_copy ? MS_COPY_BURST : reuse ? 3 * MS_MAX_REUSE : 3;
  if (f[MS_COL_BYTES].len &&
      !field_count (&f[MS_COL_BYTES], vectors * ms_vector_bytes (row->elements), &row->bytes)) {
    char n[16];
    snprintf (n, sizeof n, "%d", (int) vectors);
    ms_csv_fail (rd, line, "bytes '%s' is not a byte count up to %s vectors",
                 shown (&f[MS_COL_BYTES], s, sizeof s),
                 row->is_copy || reuse ? n : ms_gettext ("three"));
    return false;
  }
  if (f[MS_COL_ROUND].len && !whole_number (rd, MS_COL_ROUND, MS_MAX_ROUNDS - 1, &row->round))
    return false;
  if ((f[MS_COL_MISMATCHES].len &&
       !field_count (&f[MS_COL_MISMATCHES], row->elements, &row->mismatches)) ||
      (f[MS_COL_FIRST_MISMATCH].len &&
       !field_count (&f[MS_COL_FIRST_MISMATCH], row->elements - 1, &row->first_mismatch))) {
    ms_csv_fail (rd, line, "mismatch count or index out of range");
    return false;
  }
  return true;
}

/* The first row of a cell gives its status and message; later rows must
 * agree. A 'none' row stands for a cell without samples, alone. */
static bool
check_cell (MsReader *rd, MsCellBuilder *b, const MsRow *row)
{
  MsCell *cell = b->cell;
  long line = rd->record_line;
  if (!b->seen) {
    b->seen = true;
    cell->status = row->status;
    cell->mismatches = row->mismatches;
    cell->first_mismatch = row->first_mismatch;
    const char *msg = ms_csv_field_unguarded (rd->fields[MS_COL_MESSAGE].text);
    /* The field may have been cut to its buffer: whole characters only. */
    ms_utf8_copy (cell->message, sizeof cell->message, msg);
    cell->message[ms_utf8_prefix (cell->message, strlen (cell->message))] = '\0';
  } else if (cell->status != row->status) {
    ms_csv_fail (rd, line, "status '%s' contradicts '%s' given for %s 2^%d on line %ld",
                 ms_cell_status_name (row->status), ms_cell_status_name (cell->status),
                 ms_mode_name (row->mode), row->exponent, b->first_line);
    return false;
  }
  if (row->is_none) {
    if (row->status == MS_CELL_OK)
      ms_csv_fail (rd, line, "a 'none' row is for a cell without samples, but its status is 'ok'");
    else if (b->have_none)
      ms_csv_fail (rd, line, "duplicate 'none' row for %s 2^%d (first on line %ld)",
                   ms_mode_name (row->mode), row->exponent, b->first_line);
    b->have_none = true;
    return false;
  }
  /* A partial cell keeps the repetitions it finished. */
  if (row->status != MS_CELL_OK && row->status != MS_CELL_PARTIAL) {
    ms_csv_fail (rd, line, "%s row for a cell whose status is '%s'",
                 rd->field_parser.phases.names[row->phase_name].text,
                 ms_cell_status_name (row->status));
    return false;
  }
  return true;
}

/* An end-to-end time, of a plain or an instrumented repetition. The
 * instrumented times' array is made on the first such row (room for the
 * repetitions reserved so far), so files without them keep none. */
static void
add_e2e (MsReader *rd, MsCellBuilder *b, const MsRow *row)
{
  const MsField *f = &rd->fields[MS_COL_HOST];
  bool instr = row->is_e2e_instr;
  uint8_t flag = instr ? MS_REP_E2E_INSTR : MS_REP_E2E;
  char s[200];
  if (!f->ok || (instr && f->value < 0)) {
    ms_csv_fail (rd, rd->record_line,
                 instr ? MS_N_ ("instrumented end-to-end time '%s' is not a time in microseconds")
                       : MS_N_ ("end-to-end time '%s' is not a time in microseconds"),
                 shown (f, s, sizeof s));
    return;
  }
  if (b->rep_flags[row->rep] & flag) {
    ms_csv_fail (rd, rd->record_line,
                 instr ? MS_N_ ("duplicate instrumented end-to-end row for %s 2^%d repetition %llu")
                       : MS_N_ ("duplicate end-to-end row for %s 2^%d repetition %llu"),
                 ms_mode_name (row->mode), row->exponent, (unsigned long long) row->rep);
    return;
  }
  if (instr && !b->cell->e2e_instr_us) {
    b->cell->e2e_instr_us = malloc (b->cap_reps * sizeof (double));
    if (!b->cell->e2e_instr_us) {
      ms_csv_fail (rd, rd->record_line, "out of memory");
      return;
    }
    for (uint64_t i = 0; i < b->cap_reps; i++)
      b->cell->e2e_instr_us[i] = -1;
  }
  b->rep_flags[row->rep] |= flag;
  (instr ? b->cell->e2e_instr_us : b->cell->e2e_us)[row->rep] = f->value;
}

/* Empty means absent (-1) where allowed. */
static bool
parse_time (const MsField *f, double *out, bool allow_empty)
{
  if (f->len == 0) {
    *out = -1;
    return allow_empty;
  }
  *out = f->value;
  return f->ok;
}

static bool
check_duplicate (MsReader *rd, MsCellBuilder *b, const MsRow *row)
{
  if (b != rd->run_cell || (long) row->rep != rd->run_rep) {
    if (b->rep_flags[row->rep] & MS_REP_PHASES)
      b->unordered = true;
    b->rep_flags[row->rep] |= MS_REP_PHASES;
    rd->run++;
    rd->run_cell = b;
    rd->run_rep = (long) row->rep;
  }
  if (!rd->stamps) {
    rd->stamps = calloc (N_STAMPS, sizeof (MsStamp));
    if (!rd->stamps) {
      ms_csv_fail (rd, rd->record_line, "out of memory");
      return false;
    }
  }
  MsStamp *stamp =
    &rd->stamps[((size_t) row->lane * MS_MAX_STREAMS + row->chunk) * MS_PHASE_COUNT + row->phase];
  if (stamp->run == rd->run) {
    ms_csv_fail (rd, rd->record_line,
                 "duplicate %s row for %s 2^%d repetition %llu lane %llu chunk %llu "
                 "(also on line %lu)",
                 ms_phase_name (row->phase), ms_mode_name (row->mode), row->exponent,
                 (unsigned long long) row->rep, (unsigned long long) row->lane,
                 (unsigned long long) row->chunk, (unsigned long) stamp->line);
    return false;
  }
  stamp->run = rd->run;
  stamp->line = rd->record_line > UINT32_MAX ? UINT32_MAX : (uint32_t) rd->record_line;
  return true;
}

static void
add_event (MsReader *rd, MsCellBuilder *b, const MsRow *row)
{
  const MsField *f = rd->fields;
  double host_start, host, gpu_start, gpu;
  if (!parse_time (&f[MS_COL_HOST_START], &host_start, false) ||
      !parse_time (&f[MS_COL_HOST], &host, false) ||
      !parse_time (&f[MS_COL_GPU_START], &gpu_start, true) ||
      !parse_time (&f[MS_COL_GPU], &gpu, true)) {
    ms_csv_fail (rd, rd->record_line, "a time field is not a number of microseconds >= 0");
    return;
  }
  if ((gpu < 0) != (gpu_start < 0)) {
    ms_csv_fail (rd, rd->record_line,
                 "gpu_us and gpu_start_us must both be given or both be empty");
    return;
  }
  /* Cells come one after the other: the previous one is most likely
   * complete. Only once per cell, so that rows alternating between cells
   * cannot make every row copy an array. */
  if (rd->run_cell && rd->run_cell != b && !rd->run_cell->trimmed)
    ms_csv_trim_events (rd->run_cell);
  if (!check_duplicate (rd, b, row))
    return;
  MsCell *cell = b->cell;
  if (cell->n_events == b->cap_events) {
    /* Growing by half keeps the unused tail of the array small; a trimmed
     * array may hold a single event, hence the constant. */
    size_t cap = b->cap_events + b->cap_events / 2 + 64;
    MsEvent *ev = realloc (cell->events, cap * sizeof (MsEvent));
    if (!ev) {
      ms_csv_fail (rd, rd->record_line, "out of memory");
      return;
    }
    cell->events = ev;
    b->cap_events = cap;
  }
  cell->events[cell->n_events++] = (MsEvent) {
    .phase = row->phase,
    .lane = (int) row->lane,
    .chunk = (int) row->chunk,
    .rep = (int) row->rep,
    .host_start_us = host_start,
    .host_us = host,
    .gpu_start_us = gpu_start,
    .gpu_us = gpu,
    .bytes = row->bytes,
  };
}

/* The GPU state fields in the forms ms_state_format writes: digits ('-'
 * first for a temperature), "P" and digits, "0x" and hex digits; no spaces
 * or signs, which strtoll would let through. The flags and stop reason are
 * words, matched whole where read. */
static bool
state_form_ok (int state_col, const MsField *f)
{
  if (f->len == 0)
    return true;
  if (f->len >= MS_STATE_FIELD_LEN)
    return false;
  /* Only now: len may exceed the text kept, and so the array. */
  const char *p = f->text, *end = f->text + f->len;
  switch (state_col) {
  case MS_STATE_COL_FLAGS:
  case MS_STATE_COL_STOP:
    return true;
  case MS_STATE_COL_TEMP_START:
  case MS_STATE_COL_TEMP_END:
    p += *p == '-';
    break;
  case MS_STATE_COL_PSTATE_START:
  case MS_STATE_COL_PSTATE_END:
    p += *p == 'P';
    break;
  case MS_STATE_COL_THROTTLE_START:
  case MS_STATE_COL_THROTTLE_END:
    if (f->len < 3 || p[0] != '0' || p[1] != 'x')
      return false;
    for (p += 2; p < end; p++)
      if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f') || (*p >= 'A' && *p <= 'F')))
        return false;
    return true;
  default:
    break;
  }
  if (p == end)
    return false;
  for (; p < end; p++)
    if (*p < '0' || *p > '9')
      return false;
  return true;
}

/* Whether the state fields of an end-to-end row are those of the last one
 * of the same cell and round; if not, they are remembered for the next. */
static bool
same_state (MsReader *rd, const MsCellBuilder *b, const MsRow *row)
{
  char text[sizeof rd->state_text];
  size_t len = 0;
  for (int c = 0; c < MS_N_STATE_COLUMNS; c++) {
    const MsField *f = &rd->fields[MS_COL_STATE + c];
    if (rd->col[MS_COL_STATE + c] < 0)
      continue;
    /* Longer fields are malformed: never taken as known. */
    if (f->len >= MS_STATE_FIELD_LEN) {
      rd->state_cell = NULL;
      return false;
    }
    text[len++] = (char) f->len;
    memcpy (text + len, f->text, f->len);
    len += f->len;
  }
  if (rd->state_cell == b && rd->state_round == row->round && rd->state_len == len &&
      memcmp (rd->state_text, text, len) == 0)
    return true;
  rd->state_cell = b;
  rd->state_round = row->round;
  rd->state_len = len;
  memcpy (rd->state_text, text, len);
  return false;
}

/* The round of a row and, on end-to-end rows, the GPU state of that round
 * (ms-rounds.c). Files without these columns read as one round. */
static void
read_round (MsReader *rd, MsCellBuilder *b, const MsRow *row)
{
  /* Most rows are phase rows, which only say which round their repetition
   * belongs to: that much without the state's buffers. */
  if (!row->is_e2e) {
    if (!ms_cell_note_rep_round (b->cell, (int) row->rep, (int) row->round))
      ms_csv_fail (rd, rd->record_line, "more than %d rounds", MS_MAX_ROUNDS);
    return;
  }
  const char *state[MS_N_STATE_COLUMNS] = { NULL };
  char why[160];
  why[0] = '\0';
  /* The same state as the round's last row: it was checked and read. */
  if ((rd->header_set >> MS_COL_STATE) && !same_state (rd, b, row))
    for (int c = 0; c < MS_N_STATE_COLUMNS; c++) {
      const MsField *f = &rd->fields[MS_COL_STATE + c];
      if (rd->col[MS_COL_STATE + c] < 0)
        continue;
      if (!state_form_ok (c, f)) {
        char s[200];
        ms_csv_fail (rd, rd->record_line, "GPU state field %s '%s' is malformed",
                     ms_state_column_name (c), shown (f, s, sizeof s));
        return;
      }
      state[c] = f->text;
    }
  if (!ms_cell_read_round_number (b->cell, (int) row->rep, row->is_e2e, (int) row->round,
                                  state, why, sizeof why))
    ms_csv_fail (rd, rd->record_line, "%s", why);
}

/* A steady-state copy row: its repetition is its index among the cell's
 * copies, so a repeated index is a duplicate row. */
static void
add_copy (MsReader *rd, MsCellBuilder *b, const MsRow *row)
{
  const MsField *f = &rd->fields[MS_COL_GPU];
  char s[200];
  if (!f->ok || f->value <= 0) {
    /* A time that parsed kept no text. */
    if (f->ok)
      snprintf (s, sizeof s, "%g", f->value);
    ms_csv_fail (rd, rd->record_line, "steady-state copy time '%s' is not a positive time",
                 f->ok ? s : shown (f, s, sizeof s));
    return;
  }
  if (row->rep >= MS_MAX_COPY_SAMPLES) {
    ms_csv_fail (rd, rd->record_line, "steady-state copy index %llu is not below %d",
                 (unsigned long long) row->rep, MS_MAX_COPY_SAMPLES);
    return;
  }
  uint64_t bit = 1ull << (row->rep % 64), *seen = &b->copies_seen[row->rep / 64];
  if (*seen & bit) {
    ms_csv_fail (rd, rd->record_line, "duplicate steady-state copy row %llu for %s 2^%d",
                 (unsigned long long) row->rep, ms_mode_name (row->mode), row->exponent);
    return;
  }
  *seen |= bit;
  MsCopySample sample = {
    .to_device = row->phase_name == MS_PHASE_COPY_H2D,
    .gpu_us = f->value,
    .bytes = row->bytes,
    .round = (int) row->round,
  };
  if (!ms_cell_add_copy (b->cell, &sample))
    ms_csv_fail (rd, rd->record_line, "more than %d steady-state copy rows for one cell",
                 MS_MAX_COPY_SAMPLES);
}

static void
handle_row (MsReader *rd)
{
  MsRow row;
  if (!parse_keys (rd, &row) || !parse_counts (rd, &row))
    return;
  const MsField *vf = &rd->fields[MS_COL_VARIANT];
  char s[200];
  if (vf->len > 0 && !vf->ok) {
    ms_csv_fail (rd, rd->record_line, "variant '%s' is not key=value pairs of %d bytes at most",
                 shown (vf, s, sizeof s), MS_VARIANT_LEN - 1);
    return;
  }
  MsCellBuilder *b = ms_csv_get_cell (rd, row.mode, row.exponent, vf->len > 0 ? vf->text : "");
  if (!b || !ms_csv_figures_step (rd, b) || !check_cell (rd, b, &row))
    return;
  if (row.is_copy) {
    add_copy (rd, b, &row);
    return;
  }
  if (!ms_csv_reserve_rep (rd, b, row.rep, rd->record_line))
    return;
  if (row.is_e2e || row.is_e2e_instr)
    add_e2e (rd, b, &row);
  else
    add_event (rd, b, &row);
  if (!rd->failed)
    read_round (rd, b, &row);
  if (!rd->failed && (int) row.rep + 1 > b->cell->n_reps) {
    rd->reps_claimed += row.rep + 1 - b->cell->n_reps;
    b->cell->n_reps = (int) row.rep + 1;
  }
}

/* What (MsField){ 0 } holds, without writing its 400-byte text: a row
 * short of many columns cost half of show's time. */
static inline void
clear_field (MsField *f)
{
  f->len = 0;
  f->ok = false;
  f->name = 0;
  f->count = 0;
  f->value = 0;
  f->text[0] = '\0';
}

void
ms_csv_on_record (int term, void *user)
{
  (void) term;
  MsReader *rd = user;
  if (!rd->failed && rd->n_fields > 0) {
    if (rd->too_many_fields)
      ms_csv_fail (rd, rd->record_line, "more than %d columns", MS_CSV_MAX_COLUMNS);
    else if (!rd->have_header)
      ms_csv_header_done (rd);
    else if (rd->n_fields > rd->n_header_fields)
      ms_csv_fail (rd, rd->record_line, "too many fields: %d where the header has %d",
                   (int) rd->n_fields, (int) rd->n_header_fields);
    else {
      /* A short row: the columns it lacks read as empty. */
      uint32_t missing = rd->header_set & ~rd->fields_set;
      for (int c = 0; missing; c++, missing >>= 1)
        if (missing & 1)
          clear_field (&rd->fields[c]);
      handle_row (rd);
    }
  }
  rd->fields_set = 0;
  rd->n_fields = 0;
  rd->too_many_fields = false;
}
