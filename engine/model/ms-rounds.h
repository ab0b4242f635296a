/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-rounds.h: a cell's rounds and steady-state copies, and a
 * compare-grade run's processes joined into one result. Defined in
 * ms-rounds.c. */
#pragma once

#include <stdbool.h>

#include "memsweep.h"

/* Rounds and steady-state copies (ms-rounds.c). */
const MsCellRound *ms_cell_round_of_rep (const MsCell *cell, int rep);

int ms_cell_round_flags (const MsCellRound *round); /* MS_STATE_* bits */

/* Any round of the cell flagged. */
int ms_cell_state_flags (const MsCell *cell);

/* Median steady-state copy rate in GB/s for a direction, 0 when none. */
double ms_cell_copy_gbps (const MsCell *cell, bool to_device);

/* A new round at the end of the cell's, zeroed but for its pstates (-1:
 * unknown); NULL at MS_MAX_ROUNDS or out of memory. */
MsCellRound *ms_cell_add_round (MsCell *cell);

/* Adds or replaces the cell with the same mode, size and variant. */
bool ms_results_put_cell (MsResults *results, const MsCell *cell);

/* The rounds of process number `process` (from 0) of a compare-grade run,
 * src, joined to dst's cells: src's round k becomes process * rounds + k.
 * dst then counts at least process + 1 processes. */
bool ms_results_append_process (MsResults *dst, const MsResults *src, int process);
