/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-results.c: cells, their statistics and results. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "memsweep.h"
#include "ms-modes.h"
#include "ms-results.h"
#include "ms-run-to-run.h"
#include "ms-stats.h"
#include "ms-sweep.h"

_Static_assert (MS_PHASE_COUNT <= 127 && MS_MAX_STREAMS < 2047 && sizeof (MsEvent) == 48,
                "MsEvent's bit-fields hold every phase, lane and chunk");

static bool
phase_is_transfer_or_compute (MsPhase p)
{
  return p == MS_PHASE_PREFETCH || p == MS_PHASE_H2D || p == MS_PHASE_KERNEL ||
         p == MS_PHASE_D2H;
}

void
ms_cell_compute_stats (MsCell *cell)
{
  MsStatsScratch scratch = { 0 };
  ms_cell_compute_stats_scratch (cell, &scratch);
  ms_stats_scratch_clear (&scratch);
}

void
ms_stats_scratch_clear (MsStatsScratch *scratch)
{
  free (scratch->data);
  scratch->data = NULL;
  scratch->size = 0;
}

/* One block for every per-repetition array, kept in scratch: the doubles
 * first, then the counts and flags, so each stays aligned. */
static void *
scratch_block (MsStatsScratch *scratch, size_t size)
{
  if (size > scratch->size) {
    void *data = realloc (scratch->data, size);
    if (!data)
      return NULL;
    scratch->data = data;
    scratch->size = size;
  }
  return scratch->data;
}

/* Per repetition, for the phase being gathered. */
typedef struct {
  double *time, *host, *first, *last, *values;
  int *count;
  bool *all_gpu;
} MsPhaseSlots;

/* The statistics of phase p from its events: a phase's chunks on several
 * streams overlap, so it lasts from the first start to the last end on the
 * GPU clock. */
static void
phase_stats (const MsCell *cell, MsPhase p, const MsPhaseSlots *s, MsCellStats *st)
{
  int reps = cell->n_reps, n = 0, nh = 0;
  memset (s->count, 0, sizeof (int) * reps);
  for (size_t i = 0; i < cell->n_events; i++) {
    const MsEvent *ev = &cell->events[i];
    if (ev->phase != p || ev->rep < 0 || ev->rep >= reps)
      continue;
    int r = ev->rep;
    bool gpu = ev->gpu_us >= 0;
    double dur = gpu ? ev->gpu_us : ev->host_us;
    double start = gpu ? ev->gpu_start_us : ev->host_start_us;
    if (s->count[r] == 0) {
      s->first[r] = start;
      s->last[r] = start + dur;
      s->all_gpu[r] = gpu;
      s->time[r] = s->host[r] = 0;
    } else {
      s->first[r] = fmin (s->first[r], start);
      s->last[r] = fmax (s->last[r], start + dur);
      s->all_gpu[r] = s->all_gpu[r] && gpu;
    }
    s->time[r] += dur;
    s->host[r] += ev->host_us;
    s->count[r]++;
  }
  for (int r = 0; r < reps; r++)
    if (s->count[r])
      s->values[n++] = (s->count[r] > 1 && s->all_gpu[r]) ? s->last[r] - s->first[r] : s->time[r];
  ms_stat_compute_in_place (&st->phase[p], s->values, n);
  for (int r = 0; r < reps; r++)
    if (s->count[r])
      s->values[nh++] = s->host[r];
  ms_stat_compute_in_place (&st->phase_host[p], s->values, nh);
}

/* A pass over the events for which phases the cell has, their bytes and
 * each repetition's transfer and compute time; then a pass per phase it
 * has, so that the scratch holds one phase's slots at a time. */
void
ms_cell_compute_stats_scratch (MsCell *cell, MsStatsScratch *scratch)
{
  MsCellStats *st = &cell->stats;
  memset (st, 0, sizeof *st);
  int reps = cell->n_reps;
  if (reps <= 0)
    return;

  size_t per_rep = 6 * sizeof (double) + sizeof (int) + sizeof (bool);
  double *parts = scratch_block (scratch, (size_t) reps * per_rep);
  if (!parts)
    return;
  MsPhaseSlots slots = { .time = parts + reps };
  slots.host = slots.time + reps;
  slots.first = slots.host + reps;
  slots.last = slots.first + reps;
  slots.values = slots.last + reps;
  slots.count = (int *) (slots.values + reps);
  slots.all_gpu = (bool *) (slots.count + reps);
  memset (parts, 0, sizeof (double) * reps);
  memset (slots.all_gpu, 0, sizeof (bool) * reps);
  uint64_t phase_bytes[MS_PHASE_COUNT] = { 0 };
  uint32_t present = 0;
  _Static_assert (MS_PHASE_COUNT <= 32, "a phase is a bit of present");

  for (size_t i = 0; i < cell->n_events; i++) {
    const MsEvent *ev = &cell->events[i];
    if (ev->rep < 0 || ev->rep >= reps || (unsigned) ev->phase >= MS_PHASE_COUNT)
      continue;
    present |= 1u << ev->phase;
    if (ev->rep == 0)
      phase_bytes[ev->phase] += ev->bytes;
    if (phase_is_transfer_or_compute (ev->phase)) {
      parts[ev->rep] += ev->gpu_us >= 0 ? ev->gpu_us : ev->host_us;
      slots.all_gpu[ev->rep] = true;
    }
  }
  /* Only instrumented repetitions have phases: the plain ones are not 0 µs. */
  int n_parts = 0;
  for (int r = 0; r < reps; r++)
    if (slots.all_gpu[r])
      parts[n_parts++] = parts[r];
  for (int p = 0; p < MS_PHASE_COUNT; p++)
    if (present & (1u << p))
      phase_stats (cell, (MsPhase) p, &slots, st);
  /* The samples stay in run order for the CSV and the plots: sort a copy. */
  memcpy (slots.values, cell->e2e_us, sizeof (double) * reps);
  ms_stat_compute_in_place (&st->e2e, slots.values, reps);
  ms_two_states_find (slots.values, reps, &st->states);
  int n_instr = 0;
  for (int r = 0; cell->e2e_instr_us && r < reps; r++)
    if (cell->e2e_instr_us[r] >= 0)
      slots.values[n_instr++] = cell->e2e_instr_us[r];
  ms_stat_compute_in_place (&st->e2e_instr, slots.values, n_instr);
  ms_stat_compute_in_place (&st->parts_sum, parts, n_parts);

  MsPhase to_dev = ms_mode_to_device_phase (cell->mode);
  MsPhase to_host = ms_mode_to_host_phase (cell->mode);
  if (to_dev < MS_PHASE_COUNT && st->phase[to_dev].median > 0)
    st->h2d_gbps = phase_bytes[to_dev] / st->phase[to_dev].median * 1e-3;
  if (to_host < MS_PHASE_COUNT && st->phase[to_host].median > 0)
    st->d2h_gbps = phase_bytes[to_host] / st->phase[to_host].median * 1e-3;
  if (st->e2e.median > 0)
    st->e2e_gbps = 3.0 * ms_vector_bytes (cell->elements) / st->e2e.median * 1e-3;
}

void
ms_cell_clear (MsCell *cell)
{
  free (cell->e2e_us);
  free (cell->e2e_instr_us);
  free (cell->events);
  free (cell->copies);
  free (cell->rounds);
  cell->rounds = NULL;
  cell->n_rounds = 0;
  cell->e2e_us = NULL;
  cell->e2e_instr_us = NULL;
  cell->events = NULL;
  cell->copies = NULL;
  cell->n_events = 0;
  cell->n_reps = 0;
  cell->n_copies = 0;
}

/* A copy of n items of size bytes in room for cap of them; NULL for none
 * (n 0) or when out of memory. */
static void *
copy_items (const void *src, int n, int cap, size_t size)
{
  void *dst = n > 0 ? malloc (size * (size_t) cap) : NULL;
  if (dst)
    memcpy (dst, src, size * (size_t) n);
  return dst;
}

/* The capacity ms_cell_add_copy and ms_cell_add_round assume: the power of
 * two at or above n, from 2. */
static int
doubled_capacity (int n)
{
  int cap = 2;
  while (cap < n)
    cap *= 2;
  return cap;
}

bool
ms_cell_copy (MsCell *dst, const MsCell *src)
{
  int n_instr = src->e2e_instr_us ? src->n_reps : 0;
  *dst = *src;
  dst->rounds = copy_items (src->rounds, src->n_rounds, doubled_capacity (src->n_rounds),
                            sizeof (MsCellRound));
  dst->copies = copy_items (src->copies, src->n_copies, doubled_capacity (src->n_copies),
                            sizeof (MsCopySample));
  dst->e2e_us = copy_items (src->e2e_us, src->n_reps, src->n_reps, sizeof (double));
  dst->e2e_instr_us = copy_items (src->e2e_instr_us, n_instr, n_instr, sizeof (double));
  dst->events = copy_items (src->events, src->n_events, src->n_events, sizeof (MsEvent));
  if ((src->n_rounds > 0 && !dst->rounds) || (src->n_copies > 0 && !dst->copies) ||
      (src->n_reps > 0 && !dst->e2e_us) || (n_instr > 0 && !dst->e2e_instr_us) ||
      (src->n_events > 0 && !dst->events)) {
    ms_cell_clear (dst);
    return false;
  }
  return true;
}

bool
ms_cell_instr_overhead (const MsCell *cell, double *ratio, double *diff_us)
{
  const MsStat *plain = &cell->stats.e2e, *instr = &cell->stats.e2e_instr;
  bool ok = (cell->status == MS_CELL_OK || cell->status == MS_CELL_PARTIAL) && plain->n > 0 &&
            instr->n > 0 && plain->median > 0 && instr->median > 0;
  if (ratio)
    *ratio = ok ? instr->median / plain->median : 0;
  if (diff_us)
    *diff_us = ok ? instr->median - plain->median : 0;
  return ok;
}

bool
ms_cell_has_gpu_steps (const MsCell *cell)
{
  for (size_t i = 0; i < cell->n_events; i++)
    if (cell->events[i].gpu_us >= 0)
      return true;
  return false;
}

int
ms_cell_timeline_reps (const MsCell *cell, int *reps, int max)
{
  if (cell->n_reps <= 0)
    return 0;
  bool *has = calloc ((size_t) cell->n_reps, sizeof *has);
  if (!has)
    return 0;
  /* Where some repetition has a step the GPU timed, those alone: a
   * batched cell's plain repetitions keep only the call's host time, and
   * a timeline of one host bar was drawn for the lesson's copies. */
  bool gpu = ms_cell_has_gpu_steps (cell);
  for (size_t i = 0; i < cell->n_events; i++)
    if (cell->events[i].rep >= 0 && cell->events[i].rep < cell->n_reps
        && (!gpu || cell->events[i].gpu_us >= 0))
      has[cell->events[i].rep] = true;
  int n = 0;
  for (int r = 0; r < cell->n_reps; r++)
    if (has[r]) {
      if (reps && n < max)
        reps[n] = r;
      n++;
    }
  free (has);
  return n;
}

int
ms_cell_timeline_rep (const MsCell *cell, int k)
{
  if (k < 0 || cell->n_reps <= 0)
    return -1;
  int *reps = malloc (sizeof (int) * (size_t) cell->n_reps);
  int n = reps ? ms_cell_timeline_reps (cell, reps, cell->n_reps) : 0;
  int rep = k < n ? reps[k] : -1;
  free (reps);
  return rep;
}

int
ms_cell_default_timeline_rep (const MsCell *cell)
{
  int second = ms_cell_timeline_rep (cell, 1);
  int first = ms_cell_timeline_rep (cell, 0);
  return second >= 0 ? second : first >= 0 ? first : 0;
}

MsResults *
ms_results_new (const MsSweep *sweep, const MsDeviceInfo *device)
{
  MsResults *r = calloc (1, sizeof *r);
  if (!r)
    return NULL;
  if (sweep)
    r->sweep = *sweep;
  else
    ms_sweep_init_default (&r->sweep);
  if (device)
    r->device = *device;
  ms_run_to_run_clear (&r->run_to_run);
  time_t now = time (NULL);
  struct tm tm;
  gmtime_r (&now, &tm);
  strftime (r->date, sizeof r->date, "%Y-%m-%dT%H:%M:%SZ", &tm);
  snprintf (r->version, sizeof r->version, "%s", MS_VERSION);
  return r;
}

void
ms_results_free (MsResults *results)
{
  if (!results)
    return;
  for (size_t i = 0; i < results->n_cells; i++)
    ms_cell_clear (&results->cells[i]);
  free (results->cells);
  free (results);
}

bool
ms_results_add_cell (MsResults *results, const MsCell *cell)
{
  if (results->n_cells == results->cap_cells) {
    size_t cap = results->cap_cells ? results->cap_cells * 2 : 16;
    MsCell *cells = realloc (results->cells, cap * sizeof (MsCell));
    if (!cells)
      return false;
    results->cells = cells;
    results->cap_cells = cap;
  }
  if (!ms_cell_copy (&results->cells[results->n_cells], cell))
    return false;
  results->n_cells++;
  return true;
}

static int
by_mode_and_size (const void *pa, const void *pb)
{
  const MsCell *a = pa, *b = pb;
  if (a->mode != b->mode)
    return a->mode < b->mode ? -1 : 1;
  if (a->exponent != b->exponent)
    return a->exponent < b->exponent ? -1 : 1;
  return strcmp (a->variant, b->variant);
}

void
ms_results_sort_cells (MsResults *results)
{
  qsort (results->cells, results->n_cells, sizeof *results->cells, by_mode_and_size);
}

const MsCell *
ms_results_find_variant (const MsResults *results, MsMode mode, int exponent,
                         const char *variant)
{
  if (!variant)
    variant = "";
  for (size_t i = 0; i < results->n_cells; i++) {
    const MsCell *c = &results->cells[i];
    if (c->mode == mode && c->exponent == exponent && strcmp (c->variant, variant) == 0)
      return c;
  }
  return NULL;
}

bool
ms_results_device_unknown (const MsResults *results)
{
  const MsDeviceInfo *d = &results->device;
  bool named = d->name[0] && (d->present || strcmp (d->name, "none"));
  if (named || !results->metadata_unknown[0])
    return false;
  /* Cells of the host alone need no GPU, named or not. */
  for (size_t i = 0; i < results->n_cells; i++)
    if (ms_mode_uses_gpu (results->cells[i].mode))
      return true;
  return false;
}

const MsCell *
ms_results_find (const MsResults *results, MsMode mode, int exponent)
{
  const MsCell *plain = ms_results_find_variant (results, mode, exponent, "");
  if (plain)
    return plain;
  /* A plain sweep with knobs (run --reuse 4) names them in every cell of
   * the modes they reach: that cell stands for the size. Several variants
   * (an experiment) have no one cell to stand for it. */
  const MsCell *only = NULL;
  for (size_t i = 0; i < results->n_cells; i++)
    if (results->cells[i].mode == mode && results->cells[i].exponent == exponent) {
      if (only)
        return NULL;
      only = &results->cells[i];
    }
  return only;
}
