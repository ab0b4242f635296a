/* SPDX-License-Identifier: GPL-3.0-or-later */
/* memsweep: the command line's main: the usage text, and the dispatch to
 * the commands named in their table (ms-cli-options.c), each command's
 * --help and --version read first. A new command: its ms-cli-COMMAND.c and
 * its line in the table. */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "memsweep.h"
#include "ms-engine.h"
#include "ms-i18n.h"
#include "ms-cli-options.h"
#include "ms-cli-parse.h"
#include "ms-cli-common.h"
#include "ms-cli-run-options.h"
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

static void
print_version (void)
{
  printf ("memsweep %s\n", MS_VERSION);
  fputs (ms_gettext ("License GPL-3.0-or-later: GNU GPL version 3 or later "
                     "<https://gnu.org/licenses/gpl.html>.\n"
                     "This is free software: you are free to change and redistribute it.\n"
                     "There is NO WARRANTY, to the extent permitted by law.\n"),
         stdout);
}

static void
print_help_end (FILE *out)
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
  if (c->flags & MS_CLI_RUN_SETTINGS)
    ms_cli_run_settings_usage (stdout);
  ms_cli_exits_usage (stdout, c);
  print_help_end (stdout);
  return EXIT_OK;
}

static bool
dispatch (int argc, char **argv, int *rc)
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
      print_version ();
  } else
    *rc = c->run (argc - 1, argv + 1);
  return true;
}

/* The commands and what they do, from the one table (ms-cli-options.c). */
static void
usage (FILE *out)
{
  fprintf (out, "%s", ms_gettext ("Usage: memsweep COMMAND [OPTIONS]\n"
                                  "\n"
                                  "Measures CUDA host<->device memory modes with a verified vector "
                                  "add.\n"
                                  "\n"
                                  "Commands:\n"));
  for (int i = 0; ms_cli_command_nth (i); i++) {
    const MsCliCommand *c = ms_cli_command_nth (i);
    char head[64];
    snprintf (head, sizeof head, "%s %s", c->name, c->operands ? c->operands : "");
    if (!(c->flags & MS_CLI_HIDDEN))
      fprintf (out, "  %-28s %s\n", head, ms_gettext (c->summary));
  }
  fprintf (out, ms_gettext ("\n'memsweep COMMAND --help' (or -h) describes one command and "
                            "its options;\n'man memsweep' describes them all.\n\n"));
  fputs (ms_gettext ("Options of run:\n"), out);
  ms_cli_options_usage (out, ms_cli_command_find ("run"));
  ms_cli_run_settings_usage (out);
  ms_cli_exits_usage (out, NULL);
  fputs (ms_gettext ("compare and fleet-report have statuses of their own: see their --help.\n"), out);
  fputc ('\n', out);
  ms_cli_print_environment (out);
  print_help_end (out);
}

/* Whether arg is name or an abbreviation of it ("--hel", "--vers"), as
 * the one parser reads a command's options. */
static bool
abbreviates (const char *arg, const char *name)
{
  size_t n = strlen (arg);
  return n > 2 && n <= strlen (name) && strncmp (arg, name, n) == 0;
}

/* The name of the i-th command a user is shown, "" for a hidden one. */
static const char *
shown_command (int i)
{
  const MsCliCommand *c = ms_cli_command_nth (i);
  return !c ? NULL : c->flags & MS_CLI_HIDDEN ? "" : c->name;
}

static int
unknown_command (const char *cmd)
{
  const char *near = ms_cli_nearest (cmd, strlen (cmd), shown_command);
  if (near)
    /* TRANSLATORS: "memsweep: unknown command 'shwo' (did you mean show?)" */
    fprintf (stderr, ms_gettext ("memsweep: unknown command '%s' (did you mean %s?)\n"), cmd,
             near);
  else
    fprintf (stderr, ms_gettext ("memsweep: unknown command '%s'\n"), cmd);
  fputs (ms_gettext ("Try 'memsweep --help'.\n"), stderr);
  return EXIT_USAGE;
}

static int
run_command (int argc, char **argv)
{
  if (argc < 2) {
    usage (stderr);
    return EXIT_USAGE;
  }
  const char *cmd = argv[1];
  /* help CMD is CMD --help. */
  if (strcmp (cmd, "help") == 0 && argc > 2) {
    const MsCliCommand *c = ms_cli_command_find (argv[2]);
    if (!c || (c->flags & MS_CLI_HIDDEN))
      return unknown_command (argv[2]);
    char *help_argv[] = { argv[0], argv[2], (char *) "--help", NULL };
    int rc = EXIT_USAGE;
    dispatch (3, help_argv, &rc);
    return rc;
  }
  if (abbreviates (cmd, "--help") || strcmp (cmd, "-h") == 0 || strcmp (cmd, "help") == 0) {
    usage (stdout);
    return ms_cli_stdout_status ();
  }
  if (abbreviates (cmd, "--version")) {
    if (argc > 2) {
      ms_cli_error (ms_gettext ("--version takes no arguments\n"));
      return EXIT_USAGE;
    }
    print_version ();
    return ms_cli_stdout_status ();
  }
  int rc;
  if (dispatch (argc, argv, &rc))
    return rc;
  return unknown_command (cmd);
}

static void
say_notice (const char *sentence)
{
  ms_cli_error (ms_gettext ("note: %s\n"), sentence);
}

/* Standard input, output or error closed at start (`>&-`): the next file
 * memsweep opened would take its number, and what is meant for standard
 * output would go into it (a process folder's log, deleted with it: a
 * profile lost with exit 0). Each closed one is held by /dev/null opened
 * the other way, so that it stays unusable as it was: writing to it or
 * reading from it fails with EBADF, as on a closed descriptor, and the
 * output plan refuses `-` before any work. */
static void
hold_closed_standard_descriptors (void)
{
  for (int fd = STDIN_FILENO; fd <= STDERR_FILENO; fd++) {
    if (fcntl (fd, F_GETFD) >= 0)
      continue;
    int held = open ("/dev/null", (fd == STDIN_FILENO ? O_WRONLY : O_RDONLY));
    if (held >= 0 && held != fd) {
      dup2 (held, fd);
      close (held);
    }
  }
}

int
main (int argc, char **argv)
{
  hold_closed_standard_descriptors ();
  /* A command that stops on a signal (run, lesson, calibrate, fleet-node,
   * compare --live) gets its stop handlers on its first line, before any
   * other work (the locale takes milliseconds) and before any other
   * handler: had the clean-up handlers below caught SIGINT, SIGTERM and
   * SIGHUP first, until the command replaced them, a signal in between
   * would end it (128 + signal) although it already showed those signals
   * as caught, and whoever sends one as soon as they are (the signals
   * test, a supervisor) met that window. Before main, while the loader
   * maps the libraries, a signal ends memsweep as it would any program:
   * nothing has been started or written then (docs/cli.md). */
  if (ms_cli_stops_on_signals (argc, argv))
    ms_cli_stop_on_signals ();
  /* Messages and character widths follow the user's locale; numbers stay in
   * the C locale so that tables print '.' like the files do. */
  setlocale (LC_ALL, "");
  setlocale (LC_NUMERIC, "C");
  ms_i18n_bind ();
  textdomain (GETTEXT_PACKAGE);
  /* A closed pipe ends no command before its files are written; a reader
   * that stopped reading is then a quiet success (ms_cli_stdout_ok). */
  signal (SIGPIPE, SIG_IGN);
  /* No command leaves a temporary file behind when a signal ends it; the
   * clean-up leaves the stop handlers (and ignored signals) alone. */
  ms_atomic_file_clean_up_on_signals ();
  /* No output of a command replaces a file the command has read. */
  ms_atomic_file_protect_what_is_read ();
  /* Every command writes only the files its output plan holds
   * (ms-output-plan.h), each checked before any work. */
  ms_output_plan_start ();
  /* Where standard input is held, and the room it needs, is said. */
  ms_input_set_notice (say_notice);
  /* Under a small `ulimit -s` a command would die of SIGSEGV on its way
   * to measuring, and under a small `ulimit -v` plot and report in their
   * fonts; refused before any work instead. */
  char err[256];
  if (!ms_cli_limits_ready (argc, argv, err, sizeof err)) {
    const MsCliCommand *c = argc > 1 ? ms_cli_command_find (argv[1]) : NULL;
    ms_cli_set_command (c ? c->name : NULL);
    ms_cli_error ("%s\n", err);
    return EXIT_RUNTIME;
  }
  int rc = run_command (argc, argv);
  /* Standard input that found no room in TMPDIR to be held failed for
   * want of room to write, not for what it holds: that has its own
   * status. */
  if (rc == EXIT_USAGE && ms_input_holding_failed ())
    rc = EXIT_WRITE;
  /* Every command's output, help and dry runs included, must arrive. */
  if (rc == EXIT_OK)
    rc = ms_cli_stdout_status ();
  /* A process of a command stopped by its CPU-time limit tells its
   * supervisor so, which then starts no further process. */
  return ms_supervisor_exit_status (rc);
}
