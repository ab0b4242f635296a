/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-table-model.h: every cell of every run as a GListModel of MsTableRow,
 * made only when a row is asked for: opening a run costs the table nothing
 * until its rows show, and a new run changes only its own rows. */
#pragma once

#include <gio/gio.h>

#include "memsweep.h"
#include "ms-table-row.h"

G_BEGIN_DECLS

#define MS_TYPE_TABLE_MODEL (ms_table_model_get_type ())
G_DECLARE_FINAL_TYPE (MsTableModel, ms_table_model, MS, TABLE_MODEL, GObject)

/* Runs from ms-run.h, held by the model. Emits items-changed only over the
 * rows of runs that came, went or changed (cells or repetitions added).
 * Returns the first row that changed (the number of rows: none did). */
guint ms_table_model_set_runs (MsTableModel *self, GPtrArray *runs);
/* Shows only the first `limit` rows (G_MAXUINT: all, the default), so that
 * a view can take rows a few at a time; items-changed stays exact. */
void ms_table_model_set_limit (MsTableModel *self, guint limit);
guint ms_table_model_get_limit (MsTableModel *self);
/* Every row, shown or beyond the limit. */
guint ms_table_model_get_n_all (MsTableModel *self);
/* Whether a run gives the column anything: a variant, the costs lesson's
 * allocation and free, the times and rates of every other run. */
gboolean ms_table_model_has_column (MsTableModel *self, MsTableCol col);

G_END_DECLS
