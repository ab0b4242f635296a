/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-cli-draw.h: the commands that draw (through the ui drawing library,
 * no GTK and no display): plot (ms-cli-plot.c) and report
 * (ms-cli-report.c). Exit codes are memsweep-cli.c's: 0 ok, 1 runtime
 * failure (a file not written), 2 bad usage or bad input file. */
#pragma once

#include <glib.h>
#include <stdio.h>

int ms_cli_plot (int argc, char **argv);
int ms_cli_report (int argc, char **argv);
void ms_cli_draw_usage (FILE *out);

/* Reads every file (samples or summary) into a new array of MsResults*;
 * NULL after printing the first file's error. */
GPtrArray *ms_cli_load_runs (char **paths, int n);
/* "memsweep: MESSAGE" on stderr, control characters escaped. */
void ms_cli_print_error (const GError *error);
