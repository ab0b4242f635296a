/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-cli-draw-helper.h: in a build whose memsweep draws through the
 * program memsweep-draw (meson -Dcli_draw=helper: the Debian packages
 * memsweep and memsweep-plot), the commands that draw handed over to it
 * (ms-cli-draw-helper.c). memsweep itself then needs no Cairo, Pango or
 * GLib, so a GPU server installs none of them. */
#pragma once

#include <stdbool.h>

/* Whether the command argv[0] (plot, report, or compare with --plot) draws. */
bool ms_cli_draw_helper_wanted (int argc, char **argv);
/* Runs memsweep-draw with main's argv in place of this process; returns
 * only when it cannot (a message, EXIT_USAGE). */
int ms_cli_draw_helper_run (char **argv);
