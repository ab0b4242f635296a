/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-summary.c: a run's summary, its health and a row per cell (see
 * ms-summary.h). */
#include "ms-fit.h"
#include "ms-results.h"
#include "ms-rounds.h"
#include "ms-run-to-run.h"
#include "ms-summary.h"

#include <stdlib.h>

static void
summarize_cell (const MsResults *results, const MsCell *c, const MsFit *fit, MsCellSummary *s)
{
  const MsCellStats *st = &c->stats;
  s->cell = c;
  /* A cell read from a summary has its statistics and no repetitions. */
  s->ok = (c->status == MS_CELL_OK || c->status == MS_CELL_PARTIAL) &&
          (c->n_reps > 0 || (results->from_summary && st->e2e.n > 0));
  for (int p = 0; p < MS_PHASE_COUNT; p++)
    s->has_phase[p] = s->ok && st->phase[p].n > 0;
  s->fit = *fit;
  s->fitted = s->ok && fit->valid && ms_fit_residual_at (fit, c->exponent, &s->fit_residual);
  s->run_to_run =
    s->ok && ms_run_to_run_interval (&results->run_to_run, c, &s->rr_low_us, &s->rr_high_us);
  s->overhead = s->ok && ms_cell_instr_overhead (c, &s->overhead_ratio, &s->overhead_us);
  s->h2d_copy_gbps = ms_cell_copy_gbps (c, true);
  s->d2h_copy_gbps = ms_cell_copy_gbps (c, false);
  s->state_flags = ms_cell_state_flags (c);
  for (int i = 0; i < c->n_rounds; i++)
    s->state_known = s->state_known || c->rounds[i].start.valid;
}

MsRunSummary *
ms_results_summarize (const MsResults *results)
{
  MsRunSummary *summary =
    calloc (1, sizeof *summary + results->n_cells * sizeof summary->cells[0]);
  MsCellSummary *rows = summary ? summary->cells : NULL;
  MsFit fits[MS_MODE_COUNT], fit;
  bool fitted[MS_MODE_COUNT] = { false };
  if (!summary)
    return NULL;
  ms_health_compute (results, &summary->health);
  summary->n_cells = results->n_cells;
  for (size_t i = 0; i < results->n_cells; i++) {
    const MsCell *c = &results->cells[i];
    /* A plain sweep's fits once per mode; an experiment's per variant. */
    if (c->variant[0]) {
      fit = ms_results_fit_variant (results, c->mode, c->variant, MS_PHASE_COUNT);
      summarize_cell (results, c, &fit, &rows[i]);
      continue;
    }
    if (!fitted[c->mode]) {
      fits[c->mode] = ms_results_fit (results, c->mode, MS_PHASE_COUNT);
      fitted[c->mode] = true;
    }
    summarize_cell (results, c, &fits[c->mode], &rows[i]);
  }
  return summary;
}
