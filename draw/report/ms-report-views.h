/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-report-views.h: the app's views drawn without widgets, for
 * `memsweep plot`, the report and the app's exports: which views a set of
 * runs can show (a summary file has no events), how each is drawn, and the
 * caption that names the device, date, version and settings. */
#pragma once

#include "memsweep.h"
#include "ms-draw.h"
#include "ms-report-view-names.h"

G_BEGIN_DECLS

/* The view called name (MS_REPORT_VIEW_LIST's); FALSE for none. */
gboolean ms_report_view_from_name (const char *name, MsReportView *out);
const char *ms_report_view_name (MsReportView view);

/* NULL when the view can be drawn from runs (MsResults*), else why not. */
const char *ms_report_view_unavailable (GPtrArray *runs, MsReportView view);

typedef struct {
  GPtrArray *runs; /* MsResults* */
  MsReportView view;
  MsChartStyle style;
  /* The timeline's cell (of the first run) and repetition; NULL:
   * ms_report_timeline_cell's. */
  const MsCell *timeline_cell;
  int timeline_rep;
  /* The timeline opens on the data movement, as the app's; TRUE: on the
   * whole repetition (allocation, initialisation, verification too). */
  gboolean timeline_all_phases;
} MsReportViewJob;

/* An MsDrawFunc: job is an MsReportViewJob. */
void ms_report_view_draw (cairo_t *cr, double width, double height, gpointer job);

/* The cell and repetition the timeline shows: the pinned mode (else the
 * first with events) at the largest size, a repetition past the first
 * (which holds the allocation) when there is one. */
const MsCell *ms_report_timeline_cell (const MsResults *run, int *rep);
int ms_report_run_largest_exponent (const MsResults *run);

/* One line per run (device, PCIe link, driver, date, memsweep version),
 * then the settings: one line when the runs share them, else one per run
 * with its name. */
char *ms_report_caption (GPtrArray *runs);
/* The caption of a view: the timeline's names only the run it shows. */
char *ms_report_view_caption (GPtrArray *runs, MsReportView view);
/* A bandwidth or time chart's caption: what its bars are, then
 * ms_report_caption. */
char *ms_report_chart_caption (GPtrArray *runs);
/* The caption of a lesson's picture: its takeaway (the card's caption;
 * none when NULL), then the run's device, date, version and settings. */
char *ms_report_lesson_caption (const char *takeaway, const MsResults *run);
char *ms_report_settings_text (const MsResults *run);

G_END_DECLS
