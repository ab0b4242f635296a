/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-runner.c: runs a sweep cell by cell on the calling thread, in rounds,
 * with the GPU held at a steady clock and the thread pinned; the rules
 * inside a cell are ms-cell-driver.c's. */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ms-backend.h"
#include "ms-gpu-state.h"
#include "ms-i18n.h"

static bool
cancel_requested (atomic_int *cancel)
{
  return cancel && atomic_load (cancel);
}

static void
describe_failure (MsCell *cell, MsCellStatus st, const MsRunOutput *out, int warmup)
{
  char where[48];
  /* Allocation happens once, before the warm-ups. */
  if (out->failed_rep == MS_REP_SETUP || (out->failed_rep < 0 && warmup == 0))
    snprintf (where, sizeof where, ms_gettext ("before the first repetition"));
  else if (out->failed_rep < 0)
    snprintf (where, sizeof where, ms_gettext ("in a warm-up run"));
  else
    snprintf (where, sizeof where, ms_gettext ("in repetition %d"), out->failed_rep + 1);

  cell->status = st;
  if (st == MS_CELL_VERIFY_FAILED) {
    cell->mismatches = out->mismatches;
    cell->first_mismatch = out->first_mismatch;
    snprintf (cell->message, sizeof cell->message,
              ms_gettext ("verification failed %s: %llu of %llu elements wrong, first at index "
                          "%llu"), where,
              (unsigned long long) out->mismatches, (unsigned long long) cell->elements,
              (unsigned long long) out->first_mismatch);
  } else if (st == MS_CELL_CANCELLED) {
    snprintf (cell->message, sizeof cell->message, ms_gettext ("cancelled"));
  } else {
    /* TRANSLATORS: an error message, then where in the cell it happened
     * ("before the first repetition"); reorder with %2$s %1$s if needed. */
    snprintf (cell->message, sizeof cell->message, ms_gettext ("%s %s"),
              out->error[0] ? out->error : ms_gettext ("failed"), where);
  }
}

/* Runs one (mode, size): its warm-ups and repetitions in one backend call,
 * with the knobs that reach the cell's mode (ms_sweep_cell_knobs). */
static void
run_cell (const MsSweep *sweep, const MsKnobs *knobs, MsBackend *backend,
          const MsDeviceInfo *info, MsCell *cell, atomic_int *cancel)
{
  char why[256] = "";
  if (!backend->supports (backend, info, cell->mode, why, sizeof why)) {
    cell->status = MS_CELL_UNSUPPORTED;
    snprintf (cell->message, sizeof cell->message, "%s", why);
    return;
  }
  if (!backend->check_fit (backend, info, cell->mode, cell->elements, why, sizeof why)) {
    cell->status = MS_CELL_FAILED;
    snprintf (cell->message, sizeof cell->message, "%s", why);
    return;
  }

  MsRunOutput out = { 0 };
  MsRunArgs args = {
    .mode = cell->mode,
    .device = sweep->device,
    .n = cell->elements,
    .streams = sweep->streams,
    .order = sweep->order,
    .knobs = *knobs,
    .warmup = sweep->warmup,
    .reps = sweep->reps_rule == MS_REPS_FIXED ? sweep->reps : sweep->min_reps,
    .cancel = cancel,
    .rule = sweep,
  };
  MsCellStatus st = backend->run_cell (backend, &args, &out);
  if (st == MS_CELL_OK && sweep->reps_rule == MS_REPS_FIXED && out.n_reps != sweep->reps) {
    st = MS_CELL_FAILED;
    snprintf (out.error, sizeof out.error, ms_gettext ("backend kept %d of %d repetitions"),
              out.n_reps, sweep->reps);
  }
  if (st != MS_CELL_OK && st != MS_CELL_PARTIAL) {
    describe_failure (cell, st, &out, sweep->warmup);
    ms_run_output_clear (&out);
    return;
  }
  cell->status = st;
  if (st == MS_CELL_PARTIAL)
    snprintf (cell->message, sizeof cell->message,
              ms_gettext ("cancelled after %d of %d repetitions"), out.n_reps, sweep->reps);
  cell->events = out.events;
  cell->n_events = out.n_events;
  cell->e2e_us = out.e2e_us;
  cell->e2e_instr_us = out.e2e_instr_us;
  cell->n_reps = out.n_reps;
  cell->rounds[0].stop = out.stop;
  for (int i = 0; i < out.n_copies; i++)
    ms_cell_add_copy (cell, &out.copies[i]);
  cell->um = out.um;
  ms_cell_compute_stats (cell);
}

/* What the sweep keeps about the GPU's state while it runs. */
typedef struct {
  MsBackend *backend;
  int device;
  MsNvml *nvml;
  int steady_sm_mhz;
  atomic_int *cancel;
} MsGpuKeeper;

/* false ends the warm-up: on failure, and at once on a cancel. */
static bool
keeper_spin (void *user, double ms)
{
  MsGpuKeeper *k = user;
  return !cancel_requested (k->cancel) && k->backend->spin (k->backend, k->device, ms);
}

/* Pins the thread, then warms the GPU to a steady clock; records both. */
static void
prepare_gpu (MsGpuKeeper *k, MsDeviceInfo *info, bool wants_gpu, cpu_set_t *saved)
{
  k->nvml = wants_gpu ? ms_nvml_open (info->pci_bus_id) : NULL;
  int cpu = ms_pin_thread (k->nvml, saved, info->gpu_near_cpus, sizeof info->gpu_near_cpus);
  info->pinned = cpu >= 0;
  info->measuring_cpu = cpu >= 0 ? cpu : 0;
  if (wants_gpu && k->backend->spin)
    info->warmup_ms = ms_gpu_warm (k->nvml, keeper_spin, k, &k->steady_sm_mhz);
  info->steady_sm_mhz = k->steady_sm_mhz;
}

/* One round's visit to a cell, with the GPU's state before and after. */
static void
run_cell_in_round (const MsSweep *sweep, const MsKnobs *knobs, MsGpuKeeper *k,
                   const MsDeviceInfo *info, MsCell *cell, int round, atomic_int *cancel)
{
  MsGpuState start = { 0 }, end = { 0 };
  bool gpu = ms_mode_uses_gpu (cell->mode);
  if (gpu)
    ms_gpu_state_before_cell (k->nvml, k->backend->spin ? keeper_spin : NULL, k,
                              k->steady_sm_mhz, &start);
  run_cell (sweep, knobs, k->backend, info, cell, cancel);
  if (gpu)
    ms_nvml_sample (k->nvml, &end);
  if (cell->n_reps > 0 && cell->n_rounds == 0) {
    MsCellRound *r = &cell->rounds[0]; /* run_cell set stop */
    r->round = round;
    r->first_rep = 0;
    r->n_reps = cell->n_reps;
    r->start = start;
    r->end = end;
    cell->n_rounds = 1;
  }
  for (int i = 0; i < cell->n_copies; i++)
    cell->copies[i].round = round;
}

/* Folds a later round's run into the results: its repetitions join the
 * cell's; a failure replaces the cell (its numbers are no longer whole);
 * a cancel keeps what the earlier rounds measured. */
static const MsCell *
merge_round (MsResults *results, MsCell *cell, int round)
{
  MsCell *old = (MsCell *) ms_results_find_variant (results, cell->mode, cell->exponent,
                                                     cell->variant);
  if (round == 0 || !old)
    return ms_results_put_cell (results, cell)
             ? ms_results_find_variant (results, cell->mode, cell->exponent, cell->variant)
             : NULL;
  if ((cell->status == MS_CELL_OK || cell->status == MS_CELL_PARTIAL) &&
      old->status == MS_CELL_OK) {
    if (!ms_cell_append_round (old, cell))
      return NULL;
    if (cell->status == MS_CELL_PARTIAL) {
      old->status = MS_CELL_PARTIAL;
      snprintf (old->message, sizeof old->message, "round %d: %.360s", round + 1,
                cell->message);
    }
    return old;
  }
  if (cell->status != MS_CELL_CANCELLED) {
    char msg[sizeof cell->message];
    snprintf (msg, sizeof msg, "round %d: %.360s", round + 1, cell->message);
    snprintf (cell->message, sizeof cell->message, "%s", msg);
    return ms_results_put_cell (results, cell) ? old : NULL;
  }
  return old;
}

static MsRunStatus
run_rounds (const MsSweep *sweep, MsGpuKeeper *k, const MsDeviceInfo *info, MsResults *results,
            MsProgressFunc progress, void *user_data, atomic_int *cancel, char *err,
            size_t errlen)
{
  int n_cells = ms_sweep_n_cells (sweep) * sweep->rounds;
  int index = 0;
  for (int round = 0; round < sweep->rounds; round++) {
    /* Size-major order: every curve grows together while the sweep runs. */
    for (int e = sweep->min_exp; e <= sweep->max_exp; e += sweep->step) {
      for (int m = 0; m < MS_MODE_COUNT; m++) {
        if (!sweep->modes[m])
          continue;
        MsCell cell = { 0 };
        MsKnobs knobs;
        ms_sweep_cell_knobs (sweep, (MsMode) m, &knobs, cell.variant, sizeof cell.variant);
        const MsCell *prev = ms_results_find_variant (results, (MsMode) m, e, cell.variant);
        cell.mode = (MsMode) m;
        cell.exponent = e;
        cell.elements = 1ull << e;
        /* A cell that cannot run once is not run again. */
        if (!prev || prev->status == MS_CELL_OK)
          run_cell_in_round (sweep, &knobs, k, info, &cell, round, cancel);
        const MsCell *merged = prev && prev->status != MS_CELL_OK ? prev
                                                                   : merge_round (results, &cell,
                                                                                  round);
        ms_cell_clear (&cell);
        if (!merged) {
          snprintf (err, errlen, ms_gettext ("out of memory for the results"));
          return MS_RUN_CANCELLED;
        }
        if (progress)
          progress (index, n_cells, merged, user_data);
        index++;
        if (cancel_requested (cancel)) {
          /* The cell that saw the cancel is not finished unless it says so (a
           * partial cell kept some repetitions but is not finished). */
          bool cut = merged->status == MS_CELL_CANCELLED || merged->status == MS_CELL_PARTIAL;
          int done = cut ? index - 1 : index;
          snprintf (err, errlen, ms_gettext ("cancelled after %d of %d cells"), done, n_cells);
          return MS_RUN_CANCELLED;
        }
      }
    }
  }
  return MS_RUN_OK;
}

MsRunStatus
ms_sweep_run (const MsSweep *sweep, MsBackend *backend, MsProgressFunc progress,
              void *user_data, atomic_int *cancel, MsResults **out, char *err, size_t errlen)
{
  *out = NULL;
  if (!ms_sweep_validate (sweep, err, errlen))
    return MS_RUN_INVALID;

  MsDeviceInfo info;
  bool have_device = ms_backend_query_device (backend, sweep->device, &info);
  bool wants_gpu = false;
  for (int m = 0; m < MS_MODE_COUNT; m++)
    wants_gpu = wants_gpu || (sweep->modes[m] && ms_mode_uses_gpu (m));

  MsGpuKeeper keeper = { .backend = backend, .device = sweep->device, .cancel = cancel };
  cpu_set_t saved;
  CPU_ZERO (&saved);
  if (!wants_gpu || have_device)
    prepare_gpu (&keeper, &info, wants_gpu && have_device, &saved);
  MsResults *results = ms_results_new (sweep, &info);
  MsRunStatus status = MS_RUN_INVALID;
  if (!results)
    snprintf (err, errlen, ms_gettext ("out of memory"));
  else if (wants_gpu && !have_device) {
    snprintf (err, errlen, ms_gettext ("no usable CUDA device: %s"), info.error);
    status = MS_RUN_NO_DEVICE;
  } else {
    status = run_rounds (sweep, &keeper, &info, results, progress, user_data, cancel, err,
                         errlen);
  }
  ms_unpin_thread (&saved);
  ms_nvml_close (keeper.nvml);
  *out = results;
  return status;
}
