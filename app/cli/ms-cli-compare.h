/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-cli-compare.h: `memsweep compare A B` (ms-cli-compare.c) and its chart
 * (ms-cli-compare-plot.c, built with the drawing library). Exit codes are
 * ms-cli-common.h's: 0 no difference, 1 a difference, 2 bad input. */
#pragma once

#include <stdbool.h>

#include "ms-engine.h"

int ms_cli_compare (int argc, char **argv);
/* Whether path names a chart format (.png, .svg, .pdf), said before any
 * work; false after a message. */
bool ms_cli_compare_plot_name_ok (const char *path);
/* The difference chart into path (.png, .svg, .pdf); false after a
 * message. */
bool ms_cli_compare_plot (const char *path, const MsComparison *cmp, const MsResults *a,
                          const MsResults *b);
