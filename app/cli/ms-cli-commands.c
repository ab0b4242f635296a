/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-cli-commands.c: the dispatch to memsweep's commands: each command's
 * parser as the option table (ms-cli-options.c) names it, --help and
 * --version read first. A new command: its ms-cli-COMMAND.c and its line
 * in the option table. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>

#include "ms-cli-commands.h"
#include "ms-cli-parse.h"
#include "ms-cli-options.h"
#include "ms-cli-common.h"
#include "ms-cli-run-options.h"
#include "memsweep.h"
#include "ms-i18n.h"
#ifdef MS_DRAW_HELPER
#include "ms-cli-draw-helper.h"
#endif

/* -h is --help for every command: said here once rather than in each
 * command's parser. Only before "--", where the run options begin. */
static void
short_help_is_help (int argc, char **argv)
{
  static char help[] = "--help";
  for (int i = 2; i < argc && strcmp (argv[i], "--") != 0; i++)
    if (strcmp (argv[i], "-h") == 0)
      argv[i] = help;
}

void
ms_cli_print_version (void)
{
  printf ("memsweep %s\n", MS_VERSION);
  fputs (ms_gettext ("License GPL-3.0-or-later: GNU GPL version 3 or later "
                     "<https://gnu.org/licenses/gpl.html>.\n"
                     "This is free software: you are free to change and redistribute it.\n"
                     "There is NO WARRANTY, to the extent permitted by law.\n"),
         stdout);
}

void
ms_cli_print_help_end (FILE *out)
{
  fprintf (out, ms_gettext ("\nThe manual: man memsweep. Report bugs at %s.\n"),
           MS_CLI_BUG_URL);
}

/* CMD --help, by any abbreviation the parser takes, from the table:
 * the command's synopsis, its options (run's sweep settings too), exit
 * statuses and where to read and report. */
static int
help (const MsCliCommand *c)
{
  ms_cli_command_synopsis (stdout, c);
  fputs (ms_gettext ("\nOptions:\n"), stdout);
  ms_cli_options_usage (stdout, c);
  if (strcmp (c->name, "run") == 0)
    ms_cli_run_settings_usage (stdout);
  ms_cli_exits_usage (stdout, c);
  ms_cli_print_help_end (stdout);
  return EXIT_OK;
}

bool
ms_cli_dispatch (int argc, char **argv, int *rc)
{
  short_help_is_help (argc, argv);
  const MsCliCommand *c = ms_cli_command_find (argv[1]);
#ifdef MS_DRAW_HELPER
  /* The commands that draw run in memsweep-draw, help included. */
  if (c && ms_cli_draw_helper_wanted (argc - 1, argv + 1)) {
    *rc = ms_cli_draw_helper_run (argv);
    return true;
  }
#endif
  if (!c || !c->run)
    return false;
  ms_cli_set_command (c->name);
  if (c->flags & MS_CLI_HIDDEN) {
    *rc = c->run (argc - 1, argv + 1);
    return true;
  }
  /* --help and --version are options like any other, read by the one
   * parser (abbreviations too) before the command's own reading. */
  /* Their text goes to standard output, which, as every command's
   * output, may not be another run's file or an input (the output plan). */
  if (!ms_cli_options_known (c, argc - 1, argv + 1))
    *rc = EXIT_USAGE;
  else if (ms_cli_args_give (c, argc - 1, argv + 1, 'h'))
    *rc = ms_cli_plan_file ("--help", "-") ? help (c) : EXIT_USAGE;
  else if (ms_cli_args_give (c, argc - 1, argv + 1, MS_CLI_KEY_VERSION)) {
    *rc = ms_cli_plan_file ("--version", "-") ? EXIT_OK : EXIT_USAGE;
    if (*rc == EXIT_OK)
      ms_cli_print_version ();
  } else
    *rc = c->run (argc - 1, argv + 1);
  return true;
}
