/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-csv-column-table.h: the samples and summary files' columns as data,
 * made from their one list (ms-csv-column-list.h), defined in
 * ms-csv-column-table.c: what the header, the readers and the column-table
 * test look up. Plain C. */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "memsweep.h"
#include "ms-csv-column-list.h"
#include "ms-gpu-state.h"

typedef enum {
  MS_CSV_STRING,
  MS_CSV_INTEGER,
  MS_CSV_NUMBER,
} MsCsvType;

typedef struct {
  const char *name; /* a phase's column: the part after "<phase>_" */
  MsCsvType type;
  const char *unit;
  /* One sentence for the Table Schema and docs/csv.md; a phase's column
   * says "the phase" where its phase goes. */
  const char *description;
  /* Samples: the MS_STATE_COL_ field a GPU state column holds, or -1. */
  int state;
  /* Samples: its value is the row's own (PART ROW), and may be empty. */
  bool row;
  /* Summary: written even when empty in every row (a reader needs it). */
  bool always;
} MsCsvColumn;

#define MS_CSV_COLUMN_ID(ID, ...) MS_SAMPLES_COLUMN_##ID,
enum { MS_SAMPLES_COLUMN_LIST (MS_CSV_COLUMN_ID) MS_N_SAMPLES_COLUMNS };
#undef MS_CSV_COLUMN_ID
/* MS_SUMMARY_PHASES: the place of the phases' columns, an entry of the
 * table without a name. */
#define MS_CSV_COLUMN_ID(ID, ...) MS_SUMMARY_COLUMN_##ID,
#define MS_CSV_PHASES_ID() MS_SUMMARY_PHASES,
enum { MS_SUMMARY_COLUMN_LIST (MS_CSV_COLUMN_ID, MS_CSV_PHASES_ID) MS_N_SUMMARY_COLUMNS };
#undef MS_CSV_COLUMN_ID
#undef MS_CSV_PHASES_ID
#define MS_CSV_COLUMN_ID(ID, ...) MS_SUMMARY_PHASE_COLUMN_##ID,
enum { MS_SUMMARY_PHASE_COLUMN_LIST (MS_CSV_COLUMN_ID) MS_N_SUMMARY_PHASE_COLUMNS };
#undef MS_CSV_COLUMN_ID

extern const MsCsvColumn ms_samples_columns[MS_N_SAMPLES_COLUMNS];
/* The summary's columns; the phases' at MS_SUMMARY_PHASES. */
extern const MsCsvColumn ms_summary_columns[MS_N_SUMMARY_COLUMNS];
extern const MsCsvColumn ms_summary_phase_columns[MS_N_SUMMARY_PHASE_COLUMNS];

/* The name of a GPU state column (MS_STATE_COL_ index). */
const char *ms_state_column_name (int index);
/* "<phase>_<name>" of a phase's summary column into buf. */
void ms_summary_phase_column_name (int column, MsPhase phase, char *buf, size_t len);

/* The description of a phase's column for one phase into buf: "the phase"
 * becomes "the h2d phase (copies host to device)". */
void ms_summary_phase_column_description (int column, MsPhase phase, char *buf, size_t len);

/* Calls fn with every column of the summary in the file's order, the
 * phases' among them, and its full name. */
typedef void (*MsCsvColumnFunc) (const MsCsvColumn *column, const char *name, void *data);
void ms_summary_columns_foreach (MsCsvColumnFunc fn, void *data);
