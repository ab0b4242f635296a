/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-results.h: a run's results and its cells: made, copied, found,
 * sorted, freed, and each cell's statistics and timelines. Defined in
 * ms-results.c. */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "memsweep.h"

MsResults *ms_results_new (const MsSweep *sweep, const MsDeviceInfo *device);

void ms_results_free (MsResults *results);

/* Takes a deep copy of cell. */
bool ms_results_add_cell (MsResults *results, const MsCell *cell);

/* The cell of a plain sweep (variant ""); where there is none, the one
 * cell of that mode and size whatever its variant (a plain sweep whose
 * knobs name it); NULL when there is none or there are several. */
const MsCell *ms_results_find (const MsResults *results, MsMode mode, int exponent);

/* The cells in the modes' order, size by size, variant by variant: a
 * compare-grade run's, whose first round visited them in a random order,
 * are kept so, and a file's first rows are then a GPU mode's, where a data
 * tool that types columns from them (polars reads 100 rows) meets every
 * column. Not for a lesson's run, whose cells are in its own order. */
void ms_results_sort_cells (MsResults *results);

/* The cell of (mode, size, variant); NULL variant reads as "". */
const MsCell *ms_results_find_variant (const MsResults *results, MsMode mode, int exponent,
                                       const char *variant);

/* Whether the run's device is unknown though its cells used one: a file read
 * without its metadata (a summary copied alone), not a run of the host alone
 * (its file's "none", or cells of the host's modes only), which the app had
 * taken it for ("CPU", "No GPU in this run"). */
bool ms_results_device_unknown (const MsResults *results);

void ms_cell_clear (MsCell *cell);

/* The instrumentation overhead of a cell: median instrumented end-to-end
 * time over the median plain one, and their difference in microseconds.
 * false when the cell has no instrumented or no plain median (older files,
 * failed cells, the timers=per-step cells). */
bool ms_cell_instr_overhead (const MsCell *cell, double *ratio, double *diff_us);

/* Whether some step of the cell has a GPU time (gpu_us >= 0). */
bool ms_cell_has_gpu_steps (const MsCell *cell);
/* The repetitions that have a timeline (the instrumented ones: the first
 * sweep.instr_reps of each round; every one in older files; where some
 * has a step the GPU timed, only those), in order:
 * writes up to max indices to reps (may be NULL) and returns how many
 * there are. 0 for a summary file's cells. */
int ms_cell_timeline_reps (const MsCell *cell, int *reps, int max);

/* The k-th (from 0) of those repetitions; -1 when there is none. */
int ms_cell_timeline_rep (const MsCell *cell, int k);

/* The repetition a timeline opens on: the second with a timeline (the
 * first also shows the allocation, made before the warm-ups), else the
 * first, else 0. */
int ms_cell_default_timeline_rep (const MsCell *cell);

bool ms_cell_copy (MsCell *dst, const MsCell *src);

void ms_cell_compute_stats (MsCell *cell);

void ms_cell_compute_stats_scratch (MsCell *cell, MsStatsScratch *scratch);

void ms_stats_scratch_clear (MsStatsScratch *scratch);
