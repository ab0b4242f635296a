/* ms-runner.c: runs a sweep cell by cell on the calling thread. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ms-backend.h"

static bool
cancel_requested (atomic_int *cancel)
{
  return cancel && atomic_load (cancel);
}

static void
describe_failure (MsCell *cell, MsCellStatus st, const MsRunOutput *out, int rep)
{
  char where[48];
  if (rep < 0)
    snprintf (where, sizeof where, "in a warm-up run");
  else
    snprintf (where, sizeof where, "in repetition %d", rep + 1);

  cell->status = st;
  if (st == MS_CELL_VERIFY_FAILED) {
    cell->mismatches = out->mismatches;
    cell->first_mismatch = out->first_mismatch;
    snprintf (cell->message, sizeof cell->message,
              "verification failed %s: %llu of %llu elements wrong, first at index %llu", where,
              (unsigned long long) out->mismatches, (unsigned long long) cell->elements,
              (unsigned long long) out->first_mismatch);
  } else if (st == MS_CELL_CANCELLED) {
    snprintf (cell->message, sizeof cell->message, "cancelled");
  } else {
    snprintf (cell->message, sizeof cell->message, "%s %s",
              out->error[0] ? out->error : "failed", where);
  }
}

/* Runs warm-ups and repetitions of one (mode, size). */
static void
run_cell (const MsSweep *sweep, MsBackend *backend, const MsDeviceInfo *info, MsCell *cell,
          atomic_int *cancel)
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
  out.max_events = 3 * sweep->streams + 16;
  out.events = calloc (out.max_events, sizeof (MsEvent));
  size_t cap = (size_t) sweep->reps * out.max_events;
  cell->events = calloc (cap, sizeof (MsEvent));
  cell->e2e_us = calloc (sweep->reps, sizeof (double));
  if (!out.events || !cell->events || !cell->e2e_us) {
    cell->status = MS_CELL_FAILED;
    snprintf (cell->message, sizeof cell->message, "out of host memory for the results");
    goto out;
  }

  MsRunArgs args = {
    .mode = cell->mode,
    .device = sweep->device,
    .n = cell->elements,
    .streams = sweep->streams,
    .order = sweep->order,
    .cancel = cancel,
  };
  for (int i = -sweep->warmup; i < sweep->reps; i++) {
    if (cancel_requested (cancel)) {
      cell->status = MS_CELL_CANCELLED;
      snprintf (cell->message, sizeof cell->message, "cancelled");
      goto out;
    }
    args.rep = i < 0 ? -1 : i;
    out.n_events = 0;
    out.e2e_us = -1;
    out.mismatches = 0;
    out.error[0] = '\0';
    MsCellStatus st = backend->run_once (backend, &args, &out);
    if (st != MS_CELL_OK) {
      describe_failure (cell, st, &out, args.rep);
      goto out;
    }
    if (i < 0)
      continue;
    for (int e = 0; e < out.n_events && cell->n_events < cap; e++) {
      MsEvent ev = out.events[e];
      ev.rep = i;
      cell->events[cell->n_events++] = ev;
    }
    cell->e2e_us[i] = out.e2e_us;
    cell->n_reps = i + 1;
  }
  cell->status = MS_CELL_OK;

out:
  free (out.events);
  if (cell->status != MS_CELL_OK)
    ms_cell_clear (cell);
  ms_cell_compute_stats (cell);
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
  MsResults *results = ms_results_new (sweep, &info);
  if (!results) {
    snprintf (err, errlen, "out of memory");
    return MS_RUN_INVALID;
  }
  *out = results;

  bool wants_gpu = false;
  for (int m = 0; m < MS_MODE_COUNT; m++)
    wants_gpu = wants_gpu || (sweep->modes[m] && ms_mode_uses_gpu (m));
  if (wants_gpu && !have_device) {
    snprintf (err, errlen, "no usable CUDA device: %s", info.error);
    return MS_RUN_NO_DEVICE;
  }

  int n_cells = ms_sweep_n_cells (sweep);
  int index = 0;
  /* Size-major order: every curve grows together while the sweep runs. */
  for (int e = sweep->min_exp; e <= sweep->max_exp; e += sweep->step) {
    for (int m = 0; m < MS_MODE_COUNT; m++) {
      if (!sweep->modes[m])
        continue;
      MsCell cell = { 0 };
      cell.mode = (MsMode) m;
      cell.exponent = e;
      cell.elements = 1ull << e;
      run_cell (sweep, backend, &info, &cell, cancel);
      bool added = ms_results_add_cell (results, &cell);
      ms_cell_clear (&cell);
      if (!added) {
        snprintf (err, errlen, "out of memory for the results");
        return MS_RUN_CANCELLED;
      }
      if (progress)
        progress (index, n_cells, &results->cells[results->n_cells - 1], user_data);
      index++;
      if (cancel_requested (cancel)) {
        snprintf (err, errlen, "cancelled after %d of %d cells", index, n_cells);
        return MS_RUN_CANCELLED;
      }
    }
  }
  return MS_RUN_OK;
}
