/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-cli-draw.h: the commands that draw (through the drawing library draw/,
 * no GTK and no display): plot (ms-cli-plot.c) and report
 * (ms-cli-report.c). Exit codes are ms-cli-common.h's (1: a file not
 * written, 2: bad usage or bad input file). */
#pragma once

#include <stdio.h>

int ms_cli_plot (int argc, char **argv);
int ms_cli_report (int argc, char **argv);
