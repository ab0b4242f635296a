/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-cli-results-table.h: a run's cells as the command line gives them
 * (ms-cli-results-table.c). */
#pragma once

#include <stdio.h>

#include "memsweep.h"
#include "ms-cli-output.h"

/* As one table (ms-cli-output.h), for --format csv and markdown and the
 * exports of run, show and lesson: a row per cell, the columns of the
 * summary CSV's key figures. */
MsCliTable *ms_cli_results_table (const MsResults *results);
/* The cells of a lesson's results and its finding, as lesson and show
 * print them. */
void ms_cli_lesson_table (FILE *out, const MsResults *results);
