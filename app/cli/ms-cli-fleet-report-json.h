/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-cli-fleet-report-json.h: fleet-report's table as JSON or as a table for
 * the other formats
 * (ms-cli-fleet-report-json.c). */
#pragma once

#include <stdbool.h>
#include <stdio.h>

#include "ms-cli-output.h"
#include "ms-engine.h"

/* The report's document on f, the nodes of the table only when
 * only_outliers; false when a write failed. */
bool ms_cli_fleet_report_json (FILE *f, const MsFleetReport *r, bool only_outliers);
/* The same as a table (CSV, markdown): a node a row, per figure its GB/s,
 * deviation, flag, verdict, why and where its spread between processes
 * came from (columns named after the figure: pinned_h2d_gbps ...). */
MsCliTable *ms_cli_fleet_report_table (const MsFleetReport *r, bool only_outliers);
