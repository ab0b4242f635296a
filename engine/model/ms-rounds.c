/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-rounds.c: a cell measured over several rounds (which repetitions each
 * round ran, the GPU's state around it), its steady-state copies, and how
 * both travel through the samples file. */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ms-gpu-state.h"
#include "ms-i18n.h"
#include "ms-results.h"
#include "ms-rounds-private.h"
#include "ms-rounds.h"
#include "ms-stats.h"

const MsCellRound *
ms_cell_round_of_rep (const MsCell *cell, int rep)
{
  for (int i = 0; i < cell->n_rounds; i++) {
    const MsCellRound *r = &cell->rounds[i];
    if (rep >= r->first_rep && rep < r->first_rep + r->n_reps)
      return r;
  }
  return NULL;
}

int
ms_cell_round_flags (const MsCellRound *round)
{
  int flags = 0;
  const MsGpuState *a = &round->start, *b = &round->end;
  if (a->valid && b->valid) {
    int hi = a->sm_mhz > b->sm_mhz ? a->sm_mhz : b->sm_mhz;
    int lo = a->sm_mhz > b->sm_mhz ? b->sm_mhz : a->sm_mhz;
    if (hi - lo > 0.05 * hi)
      flags |= MS_STATE_CLOCK_CHANGED;
  }
  if (((a->valid ? a->throttle : 0) | (b->valid ? b->throttle : 0)) & MS_THROTTLE_SLOWING)
    flags |= MS_STATE_THROTTLED;
  return flags;
}

int
ms_cell_state_flags (const MsCell *cell)
{
  int flags = 0;
  for (int i = 0; i < cell->n_rounds; i++)
    flags |= ms_cell_round_flags (&cell->rounds[i]);
  return flags;
}

double
ms_cell_copy_gbps (const MsCell *cell, bool to_device)
{
  double rates[MS_MAX_COPY_SAMPLES];
  int n = 0;
  for (int i = 0; i < cell->n_copies; i++) {
    const MsCopySample *s = &cell->copies[i];
    if (s->to_device == to_device && s->gpu_us > 0)
      rates[n++] = s->bytes / s->gpu_us * 1e-3;
  }
  return ms_median (rates, n);
}

/* Room for n more copy samples: capacity doubles from 2, so it is the
 * power of two at or above n_copies. */
static bool
reserve_copies (MsCell *cell, int n)
{
  int need = cell->n_copies + n, cap = cell->n_copies ? 2 : 0;
  while (cap && cap < cell->n_copies)
    cap *= 2;
  if (need > MS_MAX_COPY_SAMPLES)
    return false;
  if (need <= cap)
    return true;
  int bigger = cap ? cap : 2;
  while (bigger < need)
    bigger *= 2;
  MsCopySample *copies = realloc (cell->copies, sizeof *copies * (size_t) bigger);
  if (!copies)
    return false;
  cell->copies = copies;
  return true;
}

bool
ms_cell_add_copy (MsCell *cell, const MsCopySample *sample)
{
  if (!reserve_copies (cell, 1))
    return false;
  cell->copies[cell->n_copies++] = *sample;
  return true;
}

/* Capacity is the power of two at or above n_rounds, from 2, as the
 * copies' (ms_cell_copy allocates the same). */
MsCellRound *
ms_cell_add_round (MsCell *cell)
{
  int cap = cell->n_rounds ? 2 : 0;
  while (cap && cap < cell->n_rounds)
    cap *= 2;
  if (cell->n_rounds >= MS_MAX_ROUNDS)
    return NULL;
  if (cell->n_rounds == cap) {
    int bigger = cap ? 2 * cap : 2;
    MsCellRound *rounds = realloc (cell->rounds, sizeof *rounds * (size_t) bigger);
    if (!rounds)
      return NULL;
    cell->rounds = rounds;
  }
  MsCellRound *r = &cell->rounds[cell->n_rounds++];
  memset (r, 0, sizeof *r);
  r->start.pstate = r->end.pstate = -1;
  return r;
}

bool
ms_cell_note_rep_round (MsCell *cell, int rep, int round)
{
  for (int i = 0; i < cell->n_rounds; i++) {
    MsCellRound *r = &cell->rounds[i];
    if (r->round != round)
      continue;
    int end = r->first_rep + r->n_reps;
    if (rep < r->first_rep) {
      r->n_reps = end - rep;
      r->first_rep = rep;
    } else if (rep >= end) {
      r->n_reps = rep + 1 - r->first_rep;
    }
    return true;
  }
  MsCellRound *r = ms_cell_add_round (cell);
  if (!r)
    return false;
  r->round = round;
  r->first_rep = rep;
  r->n_reps = 1;
  return true;
}

/* The instrumented end-to-end times beside the plain ones; rounds without
 * any read as none (-1). */
static bool
append_instr (MsCell *dst, int offset, const MsCell *round)
{
  if (!dst->e2e_instr_us && !round->e2e_instr_us)
    return true;
  double *instr = realloc (dst->e2e_instr_us,
                           sizeof (double) * (size_t) (offset + round->n_reps + 1));
  if (!instr)
    return false;
  if (!dst->e2e_instr_us)
    for (int i = 0; i < offset; i++)
      instr[i] = -1;
  dst->e2e_instr_us = instr;
  for (int i = 0; i < round->n_reps; i++)
    instr[offset + i] = round->e2e_instr_us ? round->e2e_instr_us[i] : -1;
  return true;
}

bool
ms_cell_append_round (MsCell *dst, const MsCell *round)
{
  int offset = dst->n_reps;
  if (dst->n_rounds + round->n_rounds > MS_MAX_ROUNDS || !reserve_copies (dst, round->n_copies))
    return false;
  double *e2e = realloc (dst->e2e_us, sizeof (double) * (size_t) (offset + round->n_reps + 1));
  if (!e2e)
    return false;
  dst->e2e_us = e2e;
  MsEvent *events =
    realloc (dst->events, sizeof (MsEvent) * (dst->n_events + round->n_events + 1));
  if (!events)
    return false;
  dst->events = events;
  memcpy (dst->e2e_us + offset, round->e2e_us, sizeof (double) * round->n_reps);
  if (!append_instr (dst, offset, round))
    return false;
  for (size_t i = 0; i < round->n_events; i++) {
    MsEvent ev = round->events[i];
    ev.rep += offset;
    dst->events[dst->n_events++] = ev;
  }
  for (int i = 0; i < round->n_rounds; i++) {
    MsCellRound *r = ms_cell_add_round (dst);
    if (!r)
      return false;
    *r = round->rounds[i];
    r->first_rep += offset;
  }
  for (int i = 0; i < round->n_copies; i++)
    dst->copies[dst->n_copies++] = round->copies[i];
  dst->n_reps = offset + round->n_reps;
  ms_cell_compute_stats (dst);
  return true;
}

bool
ms_results_put_cell (MsResults *results, const MsCell *cell)
{
  for (size_t i = 0; i < results->n_cells; i++) {
    MsCell *old = &results->cells[i];
    if (old->mode != cell->mode || old->exponent != cell->exponent ||
        strcmp (old->variant, cell->variant) != 0)
      continue;
    MsCell copy;
    if (!ms_cell_copy (&copy, cell))
      return false;
    ms_cell_clear (old);
    *old = copy;
    return true;
  }
  return ms_results_add_cell (results, cell);
}

/* Another process's rounds of the same cell join this run's: its
 * repetitions and rounds follow, its rounds renumbered past ours. A
 * failure replaces the cell, as a failed round does (ms-runner.c). */
static bool
append_process_cell (MsResults *dst, MsCell *cell, int round_offset, int process)
{
  for (int k = 0; k < cell->n_rounds; k++)
    cell->rounds[k].round += round_offset;
  for (int k = 0; k < cell->n_copies; k++)
    cell->copies[k].round += round_offset;
  MsCell *old = (MsCell *) ms_results_find_variant (dst, cell->mode, cell->exponent,
                                                     cell->variant);
  bool measured = cell->status == MS_CELL_OK || cell->status == MS_CELL_PARTIAL;
  if (!old)
    return ms_results_put_cell (dst, cell);
  if (measured && old->status == MS_CELL_OK)
    return ms_cell_append_round (old, cell);
  if (measured)
    return true; /* the old cell failed: it stays failed */
  char msg[sizeof cell->message];
  snprintf (msg, sizeof msg, "process %d: %.360s", process + 1, cell->message);
  snprintf (cell->message, sizeof cell->message, "%s", msg);
  return ms_results_put_cell (dst, cell);
}

bool
ms_results_append_process (MsResults *dst, const MsResults *src, int process)
{
  int offset = process * (src->sweep.rounds > 0 ? src->sweep.rounds : 1);
  for (size_t i = 0; i < src->n_cells; i++) {
    MsCell cell;
    if (!ms_cell_copy (&cell, &src->cells[i]))
      return false;
    bool ok = append_process_cell (dst, &cell, offset, process);
    ms_cell_clear (&cell);
    if (!ok)
      return false;
  }
  dst->sweep.processes = process + 1 > dst->sweep.processes ? process + 1 : dst->sweep.processes;
  return true;
}

/* ---- CSV columns -------------------------------------------------------- */

const char *
ms_state_flags_text (int flags)
{
  if (flags == (MS_STATE_CLOCK_CHANGED | MS_STATE_THROTTLED))
    return "clock-changed throttled";
  if (flags == MS_STATE_CLOCK_CHANGED)
    return "clock-changed";
  if (flags == MS_STATE_THROTTLED)
    return "throttled";
  return "steady";
}

static void
format_state (const MsGpuState *s, char fields[][MS_STATE_FIELD_LEN], int offset)
{
  if (!s->valid)
    return;
  snprintf (fields[MS_STATE_COL_SM_START + offset], MS_STATE_FIELD_LEN, "%d", s->sm_mhz);
  snprintf (fields[MS_STATE_COL_MEM_START + offset], MS_STATE_FIELD_LEN, "%d", s->mem_mhz);
  snprintf (fields[MS_STATE_COL_TEMP_START + offset], MS_STATE_FIELD_LEN, "%d", s->temp_c);
  if (s->pstate >= 0)
    snprintf (fields[MS_STATE_COL_PSTATE_START + offset], MS_STATE_FIELD_LEN, "P%d", s->pstate);
  snprintf (fields[MS_STATE_COL_THROTTLE_START + offset], MS_STATE_FIELD_LEN, "0x%" PRIx64,
            s->throttle);
}

void
ms_state_format (const MsCellRound *round, char fields[][MS_STATE_FIELD_LEN])
{
  for (int c = 0; c < MS_N_STATE_COLUMNS; c++)
    fields[c][0] = '\0';
  if (!round)
    return;
  if (round->stop != MS_STOP_CONTINUE)
    snprintf (fields[MS_STATE_COL_STOP], MS_STATE_FIELD_LEN, "%s",
              ms_stop_reason_name (round->stop));
  /* start columns sit at even offsets, end columns one after them */
  format_state (&round->start, fields, 0);
  format_state (&round->end, fields, 1);
  if (!round->start.valid && !round->end.valid)
    return;
  snprintf (fields[MS_STATE_COL_FLAGS], MS_STATE_FIELD_LEN, "%s",
            ms_state_flags_text (ms_cell_round_flags (round)));
}

static bool
parse_long (const char *s, int base, long long lo, long long hi, long long *out)
{
  char *end;
  errno = 0;
  long long v = strtoll (s, &end, base);
  if (errno || end == s || *end || v < lo || v > hi)
    return false;
  *out = v;
  return true;
}

/* The round's state at its start (offset 0) or end (1) from a row's state
 * fields (NULL entries: absent columns); false on a malformed value. All
 * empty leaves it invalid. */
static bool
parse_state (const char *const fields[MS_N_STATE_COLUMNS], int offset, MsGpuState *s)
{
  const char *sm = fields[MS_STATE_COL_SM_START + offset];
  const char *mem = fields[MS_STATE_COL_MEM_START + offset];
  const char *temp = fields[MS_STATE_COL_TEMP_START + offset];
  const char *ps = fields[MS_STATE_COL_PSTATE_START + offset];
  const char *thr = fields[MS_STATE_COL_THROTTLE_START + offset];
  long long v;
  memset (s, 0, sizeof *s);
  s->pstate = -1;
  if (!sm || !*sm)
    return true; /* unknown: NVML was not there */
  if (!parse_long (sm, 10, 0, 100000, &v))
    return false;
  s->sm_mhz = (int) v;
  if (mem && *mem && parse_long (mem, 10, 0, 100000, &v))
    s->mem_mhz = (int) v;
  else if (mem && *mem)
    return false;
  if (temp && *temp && parse_long (temp, 10, -100, 300, &v))
    s->temp_c = (int) v;
  else if (temp && *temp)
    return false;
  if (ps && *ps && ps[0] == 'P' && parse_long (ps + 1, 10, 0, 32, &v))
    s->pstate = (int) v;
  else if (ps && *ps)
    return false;
  if (thr && *thr && strncmp (thr, "0x", 2) == 0 && parse_long (thr + 2, 16, 0, INT64_MAX, &v))
    s->throttle = (uint64_t) v;
  else if (thr && *thr)
    return false;
  s->valid = true;
  return true;
}

/* ---- reading ------------------------------------------------------------ */

static bool
parse_stop_reason (const char *s, MsStopReason *out)
{
  for (MsStopReason r = MS_STOP_FIXED_COUNT; r <= MS_STOP_MAX_REPS; r++)
    if (strcmp (s, ms_stop_reason_name (r)) == 0) {
      *out = r;
      return true;
    }
  return false;
}

bool
ms_cell_read_round_number (MsCell *cell, int rep, bool is_e2e, int round,
                           const char *const state[MS_N_STATE_COLUMNS], char *why,
                           size_t whylen)
{
  if (!ms_cell_note_rep_round (cell, rep, round)) {
    snprintf (why, whylen, ms_gettext ("more than %d rounds"), MS_MAX_ROUNDS);
    return false;
  }
  const char *sm = state[MS_STATE_COL_SM_START], *stop = state[MS_STATE_COL_STOP];
  if (!is_e2e)
    return true;
  MsCellRound *r = NULL;
  for (int i = 0; i < cell->n_rounds; i++)
    if (cell->rounds[i].round == round)
      r = &cell->rounds[i];
  if (r && stop && *stop && !parse_stop_reason (stop, &r->stop)) {
    snprintf (why, whylen, ms_gettext ("stop '%.40s' is not a reason memsweep writes"), stop);
    return false;
  }
  if (!sm || !*sm)
    return true;
  MsGpuState start, end;
  if (!parse_state (state, 0, &start) || !parse_state (state, 1, &end)) {
    snprintf (why, whylen,
              ms_gettext ("a GPU state field (clocks, temperature, pstate, throttle) is "
                          "malformed"));
    return false;
  }
  if (r) {
    r->start = start;
    r->end = end;
  }
  return true;
}

