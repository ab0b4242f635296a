/* ms-runner.c: runs a sweep cell by cell on the calling thread; the rules
 * inside a cell are ms-cell-driver.c's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ms-backend.h"
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

/* Runs one (mode, size): its warm-ups and repetitions in one backend call. */
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
  MsRunArgs args = {
    .mode = cell->mode,
    .device = sweep->device,
    .n = cell->elements,
    .streams = sweep->streams,
    .order = sweep->order,
    .warmup = sweep->warmup,
    .reps = sweep->reps,
    .cancel = cancel,
  };
  MsCellStatus st = backend->run_cell (backend, &args, &out);
  if (st == MS_CELL_OK && out.n_reps != sweep->reps) {
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
  cell->n_reps = out.n_reps;
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
    snprintf (err, errlen, ms_gettext ("out of memory"));
    return MS_RUN_INVALID;
  }
  *out = results;

  bool wants_gpu = false;
  for (int m = 0; m < MS_MODE_COUNT; m++)
    wants_gpu = wants_gpu || (sweep->modes[m] && ms_mode_uses_gpu (m));
  if (wants_gpu && !have_device) {
    snprintf (err, errlen, ms_gettext ("no usable CUDA device: %s"), info.error);
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
        snprintf (err, errlen, ms_gettext ("out of memory for the results"));
        return MS_RUN_CANCELLED;
      }
      if (progress)
        progress (index, n_cells, &results->cells[results->n_cells - 1], user_data);
      index++;
      if (cancel_requested (cancel)) {
        /* The cell that saw the cancel is not finished unless it says so. */
        int done = results->cells[results->n_cells - 1].status == MS_CELL_CANCELLED ? index - 1
                                                                                    : index;
        snprintf (err, errlen, ms_gettext ("cancelled after %d of %d cells"), done, n_cells);
        return MS_RUN_CANCELLED;
      }
    }
  }
  return MS_RUN_OK;
}
