/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-cli-commands.h: the dispatch to memsweep's commands
 * (ms-cli-commands.c): each command's parser, found by the name the option
 * table (ms-cli-options.h) gives it. */
#pragma once

#include <stdio.h>

#include <stdbool.h>

/* Runs the command argv[1] names with argv + 1; false when no command has
 * that name. Its exit code in *rc. */
bool ms_cli_dispatch (int argc, char **argv, int *rc);
/* "memsweep VERSION" on standard output: memsweep --version and
 * memsweep CMD --version. */
void ms_cli_print_version (void);
/* The end of every --help: the installed manual's name and where to
 * report bugs. */
void ms_cli_print_help_end (FILE *out);
