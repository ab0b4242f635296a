/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-cli-compare.h: the chart of `memsweep compare A B --plot`
 * (ms-cli-compare-plot.c, built with the drawing library). */
#pragma once

#include <stdbool.h>

#include "ms-engine.h"

/* Whether path names a chart format (.png, .svg, .pdf), said before any
 * work; false after a message. */
bool ms_cli_compare_plot_name_ok (const char *path);
/* The difference chart into path (.png, .svg, .pdf); false after a
 * message. */
bool ms_cli_compare_plot (const char *path, const MsComparison *cmp, const MsResults *a,
                          const MsResults *b);
