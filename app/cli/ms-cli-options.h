/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-cli-options.h: the one table of memsweep's commands and their options
 * (ms-cli-options.c): what each parser's getopt_long table, the usage, the
 * man page and the shell completion come from. Every command reads it;
 * the dispatch to the commands is ms-cli-commands.h's. */
#pragma once

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

/* One option of a command (ms-cli-options.c's table). */
typedef struct {
  const char *name;  /* without the "--" */
  const char *value; /* what it takes, as the usage names it; NULL: a flag */
  int key;           /* getopt_long's value for it */
  const char *help;  /* one line, untranslated (MS_N_) */
  unsigned flags;    /* MS_CLI_STOPS_ON_SIGNALS: given, the command stops on signals */
  /* The options it acts through, '|' between them ("export-csv|out"):
   * given without any of them it would do nothing, and is refused
   * (ms_cli_options_known); NULL: it always acts. */
  const char *needs;
} MsCliOption;

enum {
  MS_CLI_RUN_SETTINGS = 1 << 0, /* takes run's sweep settings (the engine's table) */
  MS_CLI_HIDDEN = 1 << 1,       /* memsweep running itself: in no usage */
  MS_CLI_OWN_OPTION_LINES = 1 << 2, /* its --help describes each option itself */
  MS_CLI_STOPS_ON_SIGNALS = 1 << 3, /* the first SIGINT, SIGTERM or SIGHUP stops its work
                                     * (of an option: where it is given) */
};
/* plot --view's own view beside the drawing library's
 * (MS_REPORT_VIEW_LIST): a lesson's picture. */
#define MS_CLI_LESSON_VIEW "lesson"
/* lesson's operand that lists the lessons instead of running one */
#define MS_CLI_LESSON_LIST "list"
/* The most options a command's getopt table holds, --help included. */
#define MS_CLI_MAX_OPTIONS 32

typedef struct {
  const char *name;
  const char *operands; /* what follows the options, or NULL */
  const char *summary;  /* one line, untranslated (MS_N_) */
  const MsCliOption *options; /* ends with a NULL name */
  unsigned flags;
} MsCliCommand;

/* The i-th command of the table, NULL past its end. */
const MsCliCommand *ms_cli_command_nth (int i);
/* The command called name, or NULL. */
const MsCliCommand *ms_cli_command_find (const char *name);
/* Whether the command line argv (argv[1] the command) stops on its first
 * SIGINT, SIGTERM or SIGHUP: its command does, or an option given does
 * (compare --live). Read before anything else, so that main can catch
 * those signals first. */
bool ms_cli_stops_on_signals (int argc, char **argv);
/* getopt_long's table for the command's options and --help, from the one
 * table; NULL for no such command. */
const struct option *ms_cli_getopt_table (const char *name);

/* The command's options from the table, for the --help of a command
 * whose usage does not describe each one. */
void ms_cli_options_usage (FILE *out, const MsCliCommand *c);
/* The usage lines of the commands beyond one GPU (multi ... lesson). */
void ms_cli_more_commands_usage (FILE *out);
/* One of those commands' usage lines, for its --help. */
void ms_cli_command_usage (FILE *out, const char *command);
