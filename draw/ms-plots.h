/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-plots.h: chart data from results: bandwidth and time against size,
 * one series per (run, mode). */
#pragma once

#include "memsweep.h"
#include "ms-chart.h"

G_BEGIN_DECLS

typedef enum {
  MS_METRIC_E2E_BANDWIDTH,
  MS_METRIC_H2D_BANDWIDTH,
  MS_METRIC_D2H_BANDWIDTH,
  MS_METRIC_E2E_TIME,
} MsMetric;

/* runs: MsResults*; hidden: series labels the user switched off (may be
 * NULL). */
MsChartData *ms_plot_build (GPtrArray *runs, MsMetric metric, gboolean log_y, GHashTable *hidden);
/* Drops the series of modes outside modes ("pageable,pinned", a lesson's
 * filter; NULL or "": keeps all); with runs open and nothing left, the
 * empty chart names the filter. */
void ms_plot_keep_modes (MsChartData *data, const char *modes, gboolean runs_open);

/* Legend label of a series: the mode, plus the run when comparing. */
char *ms_plot_series_label (const MsResults *run, MsMode mode, gboolean comparing);

/* Why a cell has no value or a partial one ("cancelled after 3 of 10
 * repetitions", "failed: out of memory"); NULL for a complete cell. */
char *ms_plot_cell_note (const MsResults *run, const MsCell *cell);

/* The run's name, or one made from its metadata: device, kind (the
 * lesson's title, "sweep" or "summary"), date and time, and sizes other
 * than the default ("H100 80GB HBM3 · sweep · 2026-11-22 08:14 · 2^22…2^28"). */
char *ms_plot_run_label (const MsResults *run);
/* Whether the curves draw run: a lesson's cells are settings, not a sweep
 * over sizes (its card and the table show them); the pages that follow the
 * curves (the link health, Compare) leave it out as they do. */
gboolean ms_plot_run_drawn (const MsResults *run);

/* Every run (MsResults*) on one line, for a chart that names its runs in
 * the picture (presentation mode): each one's ms_plot_run_label, its GPU
 * added after a name the user gave. NULL with no runs. Free with g_free. */
char *ms_plot_runs_line (GPtrArray *runs);

G_END_DECLS
