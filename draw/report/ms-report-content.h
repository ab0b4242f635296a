/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-report-content.h: what a report says, shared by the PDF and HTML
 * writers: the title page's facts, the summary table's rows and the
 * captions, every sentence a template filled from the run. */
#pragma once

#include "memsweep.h"
#include <glib.h>

G_BEGIN_DECLS

typedef struct {
  GPtrArray *runs;  /* MsResults*, not owned */
  const char *generated; /* when the report was made, ISO 8601 */
} MsReportInput;

/* Key, value, key, value... of one run: device facts, PCIe link, driver,
 * settings, date, version, note. */
GStrv ms_report_facts (const MsResults *run);

#define MS_REPORT_TABLE_COLUMNS 9
const char *ms_report_table_heading (guint column);
/* The cells of row i of a run's table (its cells in file order). */
void ms_report_table_row (const MsResults *run, guint i, char *cols[MS_REPORT_TABLE_COLUMNS]);
void ms_report_table_row_clear (char *cols[MS_REPORT_TABLE_COLUMNS]);

/* The lessons the data shows (pinned against pageable, the fastest mode,
 * the fixed cost, prefetching, the PCIe link), only those the run's cells
 * support. */
GStrv ms_report_captions (const MsResults *run);

G_END_DECLS

G_BEGIN_DECLS

/* The report as a multi-page PDF (ms-report-pdf.c): title page, every
 * chart the runs support, the breakdown, the summary table over as many
 * pages as it needs, the captions. Through an atomic file. */
gboolean ms_report_write_pdf (const char *path, const MsReportInput *input, GError **error);
/* The same as one HTML page (ms-report-html.c): the charts as inline SVG
 * with real text, the table as a <table>. */
gboolean ms_report_write_html (const char *path, const MsReportInput *input, GError **error);

G_END_DECLS
