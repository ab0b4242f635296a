/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-cli-results-table.c: a run's cells as one table (ms-cli-results-table.h).
 * Long form, a row per cell, so that data tools read it as they read the
 * summary CSV (the same column names; docs/csv.md). */
#include <math.h>

#include "ms-cli-results-table.h"
#include "ms-engine.h"

enum {
  COL_MODE,
  COL_VARIANT,
  COL_ELEMENTS,
  COL_BYTES,
  COL_STATUS,
  COL_REPS,
  COL_MEDIAN,
  COL_CI_LOW,
  COL_CI_HIGH,
  COL_E2E_GBPS,
  COL_H2D_GBPS,
  COL_D2H_GBPS,
  N_COLUMNS,
};

static const MsCliColumn columns[N_COLUMNS] = {
  [COL_MODE] = { "mode" },
  [COL_VARIANT] = { "variant" },
  [COL_ELEMENTS] = { "elements", true },
  [COL_BYTES] = { "bytes_per_vector", true },
  [COL_STATUS] = { "status" },
  [COL_REPS] = { "reps", true },
  [COL_MEDIAN] = { "e2e_median_us", true },
  [COL_CI_LOW] = { "e2e_ci_low_us", true },
  [COL_CI_HIGH] = { "e2e_ci_high_us", true },
  [COL_E2E_GBPS] = { "e2e_gbps", true },
  [COL_H2D_GBPS] = { "h2d_gbps", true },
  [COL_D2H_GBPS] = { "d2h_gbps", true },
};

/* A figure of a cell with numbers; none (empty) otherwise, or when zero
 * (a rate of a mode that copies nothing). */
static double
figure (bool has, double value)
{
  return has && value > 0 ? value : NAN;
}

MsCliTable *
ms_cli_results_table (const MsResults *r)
{
  MsCliTable *t = ms_cli_table_new (columns, N_COLUMNS);
  for (size_t i = 0; i < r->n_cells; i++) {
    const MsCell *c = &r->cells[i];
    const MsCellStats *s = &c->stats;
    bool has = c->status == MS_CELL_OK || c->status == MS_CELL_PARTIAL;
    ms_cli_table_add_row (t);
    ms_cli_table_text (t, COL_MODE, ms_mode_name (c->mode));
    ms_cli_table_text (t, COL_VARIANT, c->variant);
    ms_cli_table_integer (t, COL_ELEMENTS, (long long) c->elements);
    ms_cli_table_integer (t, COL_BYTES, (long long) (c->elements * sizeof (float)));
    ms_cli_table_text (t, COL_STATUS, ms_cell_status_name (c->status));
    ms_cli_table_integer (t, COL_REPS, c->n_reps);
    ms_cli_table_number (t, COL_MEDIAN, figure (has, s->e2e.median), 3);
    ms_cli_table_number (t, COL_CI_LOW, figure (has, s->e2e.ci_low), 3);
    ms_cli_table_number (t, COL_CI_HIGH, figure (has, s->e2e.ci_high), 3);
    ms_cli_table_number (t, COL_E2E_GBPS, figure (has, s->e2e_gbps), 3);
    ms_cli_table_number (t, COL_H2D_GBPS, figure (has, s->h2d_gbps), 3);
    ms_cli_table_number (t, COL_D2H_GBPS, figure (has, s->d2h_gbps), 3);
  }
  return t;
}
