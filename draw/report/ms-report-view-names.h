/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-report-view-names.h: the views drawn without widgets and their
 * names, the one list: ms-report-views.c parses `plot --view` with it,
 * and the command line's option table (app/cli/ms-cli-options-doc.c)
 * offers the same names to the shells' completion, also in a memsweep
 * that draws through its helper and links no drawing library. Plain C,
 * no GLib, for that reason. */
#pragma once

/* X (ID, "name") for each view, in the order of MsReportView. */
#define MS_REPORT_VIEW_LIST(X)                                                                     \
  X (BANDWIDTH, "bandwidth")                                                                       \
  X (H2D, "h2d")                                                                                   \
  X (D2H, "d2h")                                                                                   \
  X (TIME, "time")                                                                                 \
  X (BREAKDOWN, "breakdown")                                                                       \
  X (TIMELINE, "timeline")

#define MS_REPORT_VIEW_ENUM_ITEM(id, name) MS_REPORT_VIEW_##id,
#define MS_REPORT_VIEW_NAME_ITEM(id, name) name,

typedef enum { MS_REPORT_VIEW_LIST (MS_REPORT_VIEW_ENUM_ITEM) MS_REPORT_N_VIEWS } MsReportView;
