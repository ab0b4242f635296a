/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-csv-cells.c: where the samples reader keeps its cells. They are built
 * in one growing array that becomes the results' cells at the end, so a
 * cell's fixed structures (statistics, rounds, copies: most of MsCell) are
 * never held twice; what only reading needs sits in a small builder beside
 * it. Allocations grow with the rows read: a repetition number read from
 * the file reserves memory only while the file is long enough to hold the
 * end-to-end rows that number implies. */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "memsweep.h"
#include "ms-csv-reader.h"
#include "ms-gpu-clock.h"
#include "ms-modes.h"
#include "ms-results.h"

/* The fewest bytes an end-to-end row takes ("uva,1,0,e2e,,1,ok" and an end
 * of line): a cell with R repetitions needs R of them. */
#define MS_CSV_MIN_E2E_ROW 18

void
ms_csv_reader_clear (MsReader *rd)
{
  for (int i = 0; i < rd->n_order; i++) {
    /* After a successful read the cells belong to the results. */
    if (rd->cell_array)
      ms_cell_clear (&rd->cell_array[i]);
    free (rd->order[i]->rep_flags);
    free (rd->order[i]);
  }
  free (rd->cell_array);
  free (rd->order);
  free (rd->stamps);
  ms_meta_pending_clear (&rd->um);
  ms_meta_pending_clear (&rd->link);
  ms_stats_scratch_clear (&rd->scratch);
}

/* Room for one more cell. The cells move when their array grows: each
 * builder's pointer follows. The first array is large enough for a
 * default sweep (121 cells) and past malloc's mmap threshold: a page of it
 * costs memory only once a cell is made in it (nothing zeroes it ahead),
 * and growing it remaps instead of copying and leaving a hole in the heap. */
static bool
grow_cells (MsReader *rd)
{
  int cap = rd->cap_order ? rd->cap_order * 2 : 128;
  MsCellBuilder **order = realloc (rd->order, cap * sizeof *order);
  if (!order)
    return false;
  rd->order = order;
  /* Not zeroed: a page is touched only once a cell is made in it. */
  MsCell *cells = realloc (rd->cell_array, cap * sizeof *cells);
  if (!cells)
    return false;
  for (int i = 0; i < rd->n_order; i++)
    order[i]->cell = &cells[i];
  rd->cell_array = cells;
  rd->cap_order = cap;
  return true;
}

/* The cell of (mode, size, variant), made on first sight; NULL after
 * saying why: out of memory, too many variants, or more cells than the
 * file's size affords. A cell costs about 3 KiB (its statistics and rounds)
 * whatever its file gave, so past the cells of any sweep each new one
 * needs as many bytes of file, and memory stays within about twice the
 * file's size. */
MsCellBuilder *
ms_csv_get_cell (MsReader *rd, MsMode mode, int exponent, const char *variant)
{
  MsCellBuilder **slot = &rd->cells[mode][exponent];
  int n_variants = 0;
  /* Most files have no variants: "" against "" without a call. */
  for (; *slot; slot = &(*slot)->next_variant, n_variants++)
    if ((*slot)->cell->variant[0] == variant[0] &&
        (!variant[0] || strcmp ((*slot)->cell->variant, variant) == 0))
      return *slot;
  MsCellBuilder *b = NULL;
  if (n_variants >= MS_CSV_MAX_VARIANTS)
    ms_csv_fail (rd, rd->record_line, "more than %d variants of %s 2^%d", MS_CSV_MAX_VARIANTS,
                 ms_mode_name (mode), exponent);
  else if (rd->n_order >= MS_CSV_FREE_CELLS &&
           (uint64_t) (rd->n_order + 1) * MS_CSV_CELL_FILE_BYTES > ms_csv_known_bytes (rd))
    ms_csv_fail (rd, rd->record_line,
                 "more cells than a file of this size holds: %d cells in %llu bytes",
                 rd->n_order + 1, (unsigned long long) ms_csv_known_bytes (rd));
  else if ((rd->n_order == rd->cap_order && !grow_cells (rd)) || !(b = calloc (1, sizeof *b)))
    ms_csv_fail (rd, rd->record_line, "out of memory");
  if (!b)
    return NULL;
  b->cell = &rd->cell_array[rd->n_order];
  memset (b->cell, 0, sizeof *b->cell);
  b->cell->mode = mode;
  b->cell->exponent = exponent;
  b->cell->elements = 1ull << exponent;
  /* The field was checked to be shorter than a variant. */
  size_t len = strnlen (variant, sizeof b->cell->variant - 1);
  memcpy (b->cell->variant, variant, len);
  b->cell->variant[len] = '\0';
  b->first_line = rd->record_line;
  *slot = b;
  rd->order[rd->n_order++] = b;
  return b;
}

/* Makes room for repetition rep. The cell then has rep + 1 repetitions,
 * each of which needs an end-to-end row: refuse counts the file is too
 * short to hold, before allocating for them. */
bool
ms_csv_reserve_rep (MsReader *rd, MsCellBuilder *b, uint64_t rep, long line)
{
  uint64_t bytes = ms_csv_known_bytes (rd);
  uint64_t budget = bytes / MS_CSV_MIN_E2E_ROW + 1;
  uint64_t have = (uint64_t) b->cell->n_reps;
  if (rep >= have && rd->reps_claimed + (rep + 1 - have) > budget) {
    ms_csv_fail (rd, line,
                 "repetition %llu of %s 2^%d needs %llu end-to-end rows in all, more than "
                 "a file of %llu bytes can hold",
                 (unsigned long long) rep, ms_mode_name (b->cell->mode), b->cell->exponent,
                 (unsigned long long) (rd->reps_claimed + rep + 1 - have),
                 (unsigned long long) bytes);
    return false;
  }
  if (rep < b->cap_reps)
    return true;
  uint64_t cap = b->cap_reps ? b->cap_reps * 2 : 16;
  uint64_t spare = budget > rd->rep_slots ? budget - rd->rep_slots : 0;
  if (cap > b->cap_reps + spare)
    cap = b->cap_reps + spare;
  if (cap < rep + 1)
    cap = rep + 1;
  double *e2e = realloc (b->cell->e2e_us, cap * sizeof (double));
  if (e2e)
    b->cell->e2e_us = e2e;
  if (e2e && b->cell->e2e_instr_us) {
    double *instr = realloc (b->cell->e2e_instr_us, cap * sizeof (double));
    if (instr) {
      for (uint64_t i = b->cap_reps; i < cap; i++)
        instr[i] = -1;
      b->cell->e2e_instr_us = instr;
    }
    e2e = instr;
  }
  uint8_t *flags = e2e ? realloc (b->rep_flags, cap) : NULL;
  if (!flags) {
    ms_csv_fail (rd, line, "out of memory");
    return false;
  }
  b->rep_flags = flags;
  memset (flags + b->cap_reps, 0, cap - b->cap_reps);
  rd->rep_slots += cap - b->cap_reps;
  b->cap_reps = cap;
  return true;
}

/* Gives back the unused tail of a cell's events: in place, so cheap. */
void
ms_csv_trim_events (MsCellBuilder *b)
{
  MsCell *c = b->cell;
  if (c->n_events && c->n_events < b->cap_events) {
    MsEvent *ev = realloc (c->events, c->n_events * sizeof (MsEvent));
    if (ev) {
      c->events = ev;
      b->cap_events = c->n_events;
    }
  }
  b->trimmed = true;
}

static int
compare_u64 (const void *a, const void *b)
{
  uint64_t x = *(const uint64_t *) a, y = *(const uint64_t *) b;
  return x < y ? -1 : x > y;
}

/* For a cell whose repetitions came apart, duplicates are found by sorting
 * the keys of its events once. */
static void
check_unordered (MsReader *rd, MsCellBuilder *b)
{
  MsCell *c = b->cell;
  uint64_t *keys = malloc (c->n_events * sizeof (uint64_t) + 1);
  if (!keys) {
    ms_csv_fail (rd, b->first_line, "out of memory");
    return;
  }
  for (size_t i = 0; i < c->n_events; i++) {
    const MsEvent *ev = &c->events[i];
    keys[i] = (uint64_t) ev->rep << 24 | (uint64_t) ev->phase << 16 | (uint64_t) ev->lane << 8 |
              (uint64_t) ev->chunk;
  }
  qsort (keys, c->n_events, sizeof (uint64_t), compare_u64);
  for (size_t i = 1; i < c->n_events; i++)
    if (keys[i] == keys[i - 1]) {
      ms_csv_fail (rd, b->first_line,
                   "duplicate %s row for %s 2^%d repetition %d lane %d chunk %d",
                   ms_phase_name ((MsPhase) (keys[i] >> 16 & 0xff)), ms_mode_name (c->mode),
                   c->exponent, (int) (keys[i] >> 24), (int) (keys[i] >> 8 & 0xff),
                   (int) (keys[i] & 0xff));
      break;
    }
  free (keys);
}

int
ms_csv_threads (void)
{
  cpu_set_t set;
  int n = sched_getaffinity (0, sizeof set, &set) == 0 ? CPU_COUNT (&set) : 1;
  return n < 1 ? 1 : n > MS_CSV_MAX_THREADS ? MS_CSV_MAX_THREADS : n;
}

/* A cell whose rows are all read: its statistics. */
static void
finish_cell (MsCellBuilder *b, MsStatsScratch *scratch)
{
  free (b->rep_flags);
  b->rep_flags = NULL;
  ms_csv_trim_events (b);
  /* The end-to-end times' unused tail, once no row can add one. */
  MsCell *c = b->cell;
  if (c->n_reps > 0 && (uint64_t) c->n_reps < b->cap_reps) {
    double *e2e = realloc (c->e2e_us, c->n_reps * sizeof (double));
    if (e2e)
      c->e2e_us = e2e;
    double *instr = c->e2e_instr_us ? realloc (c->e2e_instr_us, c->n_reps * sizeof (double))
                                    : NULL;
    if (instr)
      c->e2e_instr_us = instr;
  }
  /* Files written before the alignment read as those written after. */
  ms_gpu_clock_align (c->events, c->n_events);
  ms_cell_compute_stats_scratch (c, scratch);
  b->finished = true;
}

/* Whether a cell has repetitions, each with its end-to-end row; with rd,
 * one that has not is refused with its reason. */
static bool
cell_complete (MsReader *rd, const MsCellBuilder *b)
{
  const MsCell *c = b->cell;
  /* Copy rows alone make no cell: memsweep writes an 'ok' cell with its
   * repetitions, and one without any as a 'none' row of another status. */
  if (c->n_reps == 0 && c->status == MS_CELL_OK) {
    if (rd)
      ms_csv_fail (rd, b->first_line, "%s 2^%d has status 'ok' but no repetitions",
                   ms_mode_name (c->mode), c->exponent);
    return false;
  }
  for (int rep = 0; rep < c->n_reps; rep++)
    if (!(b->rep_flags[rep] & MS_REP_E2E)) {
      if (rd)
        ms_csv_fail (rd, b->first_line,
                     "%s 2^%d has no end-to-end row for repetition %d (file cut short?)",
                     ms_mode_name (c->mode), c->exponent, rep);
      return false;
    }
  return true;
}

/* The samples of a finished cell, which figures need no more: n_reps and
 * the statistics stay, as a summary file's cells have them. */
static void
drop_samples (MsCellBuilder *b)
{
  MsCell *c = b->cell;
  free (c->events);
  free (c->e2e_us);
  free (c->e2e_instr_us);
  c->events = NULL;
  c->e2e_us = c->e2e_instr_us = NULL;
  c->n_events = 0;
  b->cap_events = 0;
}

bool
ms_csv_figures_step (MsReader *rd, MsCellBuilder *b)
{
  /* A lesson's table reads its cells' samples (the CLI's lesson table). */
  if (rd->figures_of && rd->figures_of->experiment[0])
    rd->figures_of = NULL;
  if (!rd->figures_of || b == rd->open_cell)
    return true;
  if (b->finished) {
    rd->needs_samples = rd->failed = true;
    return false;
  }
  MsCellBuilder *done = rd->open_cell;
  rd->open_cell = b;
  /* One that would be refused is left to the checks at the end. */
  if (done && !done->unordered && cell_complete (NULL, done)) {
    finish_cell (done, &rd->scratch);
    drop_samples (done);
  }
  return true;
}

typedef struct {
  MsReader *rd;
  atomic_int next; /* the next cell to finish */
} MsFinishQueue;

/* Cells, each by the first thread free: their statistics are apart. */
static void *
finish_cells_of (void *data)
{
  MsFinishQueue *q = data;
  MsStatsScratch scratch = { 0 };
  for (int i; (i = atomic_fetch_add (&q->next, 1)) < q->rd->n_order;)
    if (!q->rd->order[i]->finished)
      finish_cell (q->rd->order[i], &scratch);
  ms_stats_scratch_clear (&scratch);
  return NULL;
}

void
ms_csv_finish_cells (MsReader *rd, MsResults *r)
{
  for (int i = 0; i < rd->n_order && !rd->failed; i++) {
    MsCellBuilder *b = rd->order[i];
    if (b->finished)
      continue;
    if (!cell_complete (rd, b))
      return;
    if (b->unordered)
      check_unordered (rd, b);
  }
  if (rd->failed || rd->n_order == 0)
    return;
  /* What only reading needed goes before the statistics' scratch comes,
   * so that the two peaks do not stack. */
  free (rd->stamps);
  rd->stamps = NULL;
  /* The statistics of a large file's cells (a fifth of show's CPU time on
   * a 10^6-row file, in perf's profile) on every core. */
  MsFinishQueue q = { .rd = rd };
  atomic_init (&q.next, 0);
  pthread_t threads[MS_CSV_MAX_THREADS];
  int n = 0;
  if (ms_csv_known_bytes (rd) >= ms_csv_blocks_min_bytes)
    for (int want = ms_csv_threads () - 1; n < want; n++)
      if (pthread_create (&threads[n], NULL, finish_cells_of, &q) != 0)
        break;
  finish_cells_of (&q);
  for (int t = 0; t < n; t++)
    pthread_join (threads[t], NULL);
  /* Figures only: no cell keeps samples, the last ones read included. */
  for (int i = 0; rd->figures_of && i < rd->n_order; i++)
    drop_samples (rd->order[i]);
  /* The cells become the results': no copy, only the array's unused tail
   * is given back. */
  MsCell *cells = realloc (rd->cell_array, rd->n_order * sizeof *cells);
  r->cells = cells ? cells : rd->cell_array;
  r->n_cells = r->cap_cells = (size_t) rd->n_order;
  rd->cell_array = NULL;
}
