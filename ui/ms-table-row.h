/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-table-row.h: one cell of one run as a row of the table, its columns as
 * text and numbers, and rows as CSV. */
#pragma once

#include <gio/gio.h>

#include "memsweep.h"

G_BEGIN_DECLS

typedef enum {
  MS_TABLE_COL_RUN,
  MS_TABLE_COL_MODE,
  MS_TABLE_COL_SIZE,
  MS_TABLE_COL_VARIANT, /* a lesson's setting ("copy=duplex") */
  /* The figures a class reads first come first: at 1024 pixels the rest
   * are past the right edge. */
  MS_TABLE_COL_E2E,
  MS_TABLE_COL_E2E_GBPS,
  MS_TABLE_COL_H2D_GBPS,
  MS_TABLE_COL_D2H_GBPS,
  MS_TABLE_COL_KERNEL,
  MS_TABLE_COL_OVERHEAD, /* instrumented / plain median e2e */
  MS_TABLE_COL_REPS,
  MS_TABLE_COL_E2E_MIN,
  MS_TABLE_COL_E2E_MAX,
  MS_TABLE_COL_STATUS,
  MS_TABLE_COL_ALLOC,    /* the costs lesson's: allocation (or register) on the host */
  MS_TABLE_COL_FREE,     /* and its free (or unregister) */
  MS_TABLE_COL_MESSAGE,
  MS_TABLE_N_COLS
} MsTableCol;

#define MS_TYPE_TABLE_ROW (ms_table_row_get_type ())
G_DECLARE_FINAL_TYPE (MsTableRow, ms_table_row, MS, TABLE_ROW, GObject)

/* What a row's numbers are: a sweep's or a lesson's times and rates, or
 * the costs lesson's allocation and free (no end-to-end time or rate). */
typedef enum {
  MS_TABLE_ROW_TIMES,
  MS_TABLE_ROW_COSTS,
} MsTableRowKind;

/* A copy of the cell's summary (no events or samples). */
MsTableRow *ms_table_row_new (const char *run, const MsCell *cell, MsTableRowKind kind);
/* The run in full (MsRun's description), the Run column's tooltip. */
void ms_table_row_set_run_description (MsTableRow *row, const char *description);
/* The kind of a run's rows. */
MsTableRowKind ms_table_row_kind_of (const MsResults *run);
/* Whether the column is one of the times and rates (none for costs rows). */
gboolean ms_table_col_is_time (MsTableCol col);
/* What the filter matches: the mode's name and title and the variant. */
char *ms_table_row_dup_search_text (MsTableRow *row);
/* The column's title, translated. */
const char *ms_table_col_title (MsTableCol col);
/* What the column's figures are, translated: its title's tooltip. */
const char *ms_table_col_description (MsTableCol col);
gboolean ms_table_col_is_number (MsTableCol col);
/* NAN where the column has no number for this row. */
double ms_table_row_number (MsTableRow *row, MsTableCol col);
char *ms_table_row_text (MsTableRow *row, MsTableCol col);
/* A cell's tooltip where its text is short for more (NULL: none). */
char *ms_table_row_tooltip (MsTableRow *row, MsTableCol col);
/* Rows without a number sort last either way round. */
int ms_table_row_compare (MsTableRow *a, MsTableRow *b, MsTableCol col);
/* The CSV header line, and one line per row (each ends in "\n"). */
void ms_table_rows_csv_header (GString *out);
void ms_table_row_append_csv (MsTableRow *row, GString *out);

G_END_DECLS
