/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-cli-results-table.h: a run's cells as one table (ms-cli-output.h),
 * for --format csv and markdown and the exports of run, show and lesson:
 * a row per cell, the columns of the summary CSV's key figures. */
#pragma once

#include "memsweep.h"
#include "ms-cli-output.h"

MsCliTable *ms_cli_results_table (const MsResults *results);
