/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-summary.h: a run's summary: its link and clock health and a row per
 * cell, the cell's statistics and the figures computed from the whole run
 * that its row gives (the fit of its mode or variant and its residual at
 * the cell's size, the interval for another run's median, the timers'
 * overhead, the copy bursts' rates, the GPU's state). Computed once
 * (ms-summary.c) and handed to the files' writer, which only formats.
 * Plain C, no GLib. */
#pragma once

#include <stdbool.h>

#include "memsweep.h"
#include "ms-health.h"

typedef struct {
  const MsCell *cell;
  /* Ok or partial with repetitions (read from a summary: with a median). */
  bool ok;
  bool has_phase[MS_PHASE_COUNT]; /* ok and the phase was measured */
  /* The end-to-end fit of the cell's mode (an experiment's: of its
   * variant); fitted: ok, the fit valid and its residual here known. */
  MsFit fit;
  bool fitted;
  double fit_residual;
  /* The interval for another run's median, when a run-to-run profile
   * was applied. */
  bool run_to_run;
  double rr_low_us, rr_high_us;
  /* Instrumented over plain repetitions (ms_cell_instr_overhead). */
  bool overhead;
  double overhead_ratio, overhead_us;
  double h2d_copy_gbps, d2h_copy_gbps; /* 0: no bursts */
  /* Some round's GPU state was read; the worst of the rounds. */
  bool state_known;
  int state_flags;
} MsCellSummary;

typedef struct {
  MsHealth health;
  size_t n_cells;
  MsCellSummary cells[]; /* one per cell of the results, in their order */
} MsRunSummary;

/* NULL when out of memory. Freed with free (). */
MsRunSummary *ms_results_summarize (const MsResults *results);
