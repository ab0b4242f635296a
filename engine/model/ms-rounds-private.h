/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-rounds-private.h: the engine's side of a cell's rounds: appending a
 * round's repetitions and copies, and the GPU state's CSV columns of a
 * round, written and read back. Defined in ms-rounds.c; private to the
 * engine and its tests (the public part is ms-rounds.h). */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "memsweep.h"

/* Appends one round's run of a cell (reps numbered from 0, one entry in
 * rounds, copies of that round) to dst, renumbering its repetitions after
 * dst's; recomputes the statistics. */
bool ms_cell_append_round (MsCell *dst, const MsCell *round);
/* Records that repetition rep belongs to round (reading files). */
bool ms_cell_note_rep_round (MsCell *cell, int rep, int round);
bool ms_cell_add_copy (MsCell *cell, const MsCopySample *sample);

/* ---- CSV columns of the GPU state --------------------------------------- */

enum {
  MS_STATE_COL_SM_START,
  MS_STATE_COL_SM_END,
  MS_STATE_COL_MEM_START,
  MS_STATE_COL_MEM_END,
  MS_STATE_COL_TEMP_START,
  MS_STATE_COL_TEMP_END,
  MS_STATE_COL_PSTATE_START,
  MS_STATE_COL_PSTATE_END,
  MS_STATE_COL_THROTTLE_START,
  MS_STATE_COL_THROTTLE_END,
  MS_STATE_COL_FLAGS,
  MS_STATE_COL_STOP, /* why the round's repetitions ended */
  MS_N_STATE_COLUMNS
};
/* Their names are in the CSV files' column list (ms_state_column_name). */
#define MS_STATE_FIELD_LEN 48
/* "steady", "clock-changed", "throttled" or both. */
const char *ms_state_flags_text (int flags);
/* Fields of a round's state as text; the state's are empty when it is
 * unknown, the stop reason's when that is. */
void ms_state_format (const MsCellRound *round, char fields[][MS_STATE_FIELD_LEN]);
/* Reading a samples file: a row's round (0 to MS_MAX_ROUNDS - 1) and, on
 * end-to-end rows, the state columns (NULL entries: absent); false with
 * why set on a malformed value. */
bool ms_cell_read_round_number (MsCell *cell, int rep, bool is_e2e, int round,
                                const char *const state[MS_N_STATE_COLUMNS], char *why,
                                size_t whylen);
/* "h2d_copy", "d2h_copy": the samples file's rows for steady copies. */
#define MS_COPY_PHASE_H2D "h2d_copy"
#define MS_COPY_PHASE_D2H "d2h_copy"
