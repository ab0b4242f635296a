/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-cli-commands.h: memsweep's commands: the one table that names them
 * and dispatches to them (ms-cli-commands.c), the usage lines of the
 * commands beyond one GPU, and the entry points of the commands that have
 * no header of their own. Each command lives in ms-cli-COMMAND.c; exit
 * codes are ms-cli-common.h's. */
#pragma once

#include <stdbool.h>
#include <stdio.h>

/* Runs the command argv[1] names with argv + 1; false when no command has
 * that name. Its exit code in *rc. */
bool ms_cli_dispatch (int argc, char **argv, int *rc);
/* The usage lines of the commands beyond one GPU (multi ... lesson). */
void ms_cli_more_commands_usage (FILE *out);
/* One of those commands' usage lines, for its --help. */
void ms_cli_command_usage (FILE *out, const char *command);

/* ms-cli-calibrate.c */
int ms_cli_calibrate (int argc, char **argv);
/* ms-cli-fleet.c and ms-cli-fleet-report.c */
int ms_cli_fleet (int argc, char **argv);
int ms_cli_fleet_node (int argc, char **argv);
int ms_cli_fleet_report (int argc, char **argv);
/* ms-cli-lesson.c: lesson (part false) and the hidden __lesson-part. */
int ms_cli_lesson (int argc, char **argv, bool part);
/* ms-cli-multi.c */
int ms_cli_multi (int argc, char **argv);
int ms_cli_peer (int argc, char **argv);
int ms_cli_portable (int argc, char **argv);
