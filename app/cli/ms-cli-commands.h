/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-cli-commands.h: memsweep's commands: the one table that names them
 * and dispatches to them (ms-cli-commands.c), the usage lines of the
 * commands beyond one GPU, and the entry points of the commands that have
 * no header of their own. Each command lives in ms-cli-COMMAND.c; exit
 * codes are ms-cli-common.h's. */
#pragma once

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

/* One option of a command (ms-cli-commands.c's table). */
typedef struct {
  const char *name;  /* without the "--" */
  const char *value; /* what it takes, as the usage names it; NULL: a flag */
  int key;           /* getopt_long's value for it */
  const char *help;  /* one line, untranslated (MS_N_) */
} MsCliOption;

enum {
  MS_CLI_RUN_SETTINGS = 1 << 0, /* takes run's sweep settings (the engine's table) */
  MS_CLI_HIDDEN = 1 << 1,       /* memsweep running itself: in no usage */
  MS_CLI_OWN_OPTION_LINES = 1 << 2, /* its --help describes each option itself */
};
/* The most options a command's getopt table holds, --help included. */
#define MS_CLI_MAX_OPTIONS 32

typedef struct {
  const char *name;
  int (*run) (int argc, char **argv);
  const char *operands; /* what follows the options, or NULL */
  const char *summary;  /* one line, untranslated (MS_N_) */
  const MsCliOption *options; /* ends with a NULL name */
  unsigned flags;
} MsCliCommand;

/* The i-th command of the table, NULL past its end. */
const MsCliCommand *ms_cli_command_nth (int i);
/* The command called name, or NULL. */
const MsCliCommand *ms_cli_command_find (const char *name);
/* getopt_long's table for the command's options and --help, from the one
 * table; NULL for no such command. */
const struct option *ms_cli_getopt_table (const char *name);
/* `memsweep __options`: the table as JSON (data/schema/memsweep-options.json)
 * for the man page and the shell completion (ms-cli-options-doc.c). */
int ms_cli_options_document (int argc, char **argv);

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
