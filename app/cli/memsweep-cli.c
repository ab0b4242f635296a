/* SPDX-License-Identifier: GPL-3.0-or-later */
/* memsweep: the command line's main: the usage text, and the dispatch to
 * the commands (ms-cli-commands.c) named in their table (ms-cli-options.c). */
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
#include "ms-cli-commands.h"
#include "ms-cli-options.h"
#include "ms-cli-parse.h"
#include "ms-cli-common.h"
#include "ms-cli-environment.h"
#include "ms-cli-run-options.h"
#include "ms-cli-limits.h"

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
  ms_cli_print_help_end (out);
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
    ms_cli_dispatch (3, help_argv, &rc);
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
    ms_cli_print_version ();
    return ms_cli_stdout_status ();
  }
  int rc;
  if (ms_cli_dispatch (argc, argv, &rc))
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
