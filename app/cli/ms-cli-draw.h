/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-cli-draw.h: the commands that draw (through the drawing library draw/,
 * no GTK and no display): plot (ms-cli-plot.c) and report
 * (ms-cli-report.c). Exit codes are ms-cli-common.h's (1: a file not
 * written, 2: bad usage or bad input file). */
#pragma once

#include <glib.h>

#include "memsweep.h"
#include "ms-lessons.h" /* MsLessonTopic */

int ms_cli_plot (int argc, char **argv);
int ms_cli_report (int argc, char **argv);

/* The status of a picture or report drawn into path: EXIT_OK after "PATH:
 * written" (--verbose) when written (ok), and without a word when path is
 * standard output ("/dev/stdout") and its reader has gone (plot --out - |
 * head), else EXIT_WRITE after the error. */
int ms_cli_drawn (const char *path, bool ok, const GError *error);
/* Whether any font can be drawn with; says why not (fontconfig under
 * `ulimit -n 8`) on stderr. Every drawing command asks before it draws:
 * without fonts its text would come out as nothing. */
bool ms_cli_draw_fonts_ready (void);

/* The lesson a drawing of run (read from path) shows: lesson's, when
 * named (--lesson, for a plain sweep that answers a lesson), else its
 * experiment's. Prints why and returns MS_TOPIC_COUNT when none. */
MsLessonTopic ms_cli_draw_lesson (const MsResults *run, const char *lesson, const char *path);
