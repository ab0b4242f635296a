/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-cli-run-options.h: the options of `memsweep run` (ms-cli-run-options.c):
 * their help, their parsing and checks, and the check that calibrate,
 * fleet and fleet-node apply to the run options they hand on. Exit codes
 * are ms-cli-common.h's. */
#pragma once

#include <limits.h>
#include <stdbool.h>

#include "memsweep.h"
#include "ms-cli-output.h"

/* The fewest runs calibrate measures a profile from (ms_run_to_run_measure);
 * a profile whose runs are not known (its table piped in alone) is taken
 * as of these. */
#define MS_CLI_PROFILE_MIN_RUNS 3

/* Room for the engine's sweep settings (checked where they are parsed). */
#define MS_CLI_MAX_SETTINGS 32

typedef struct {
  MsSweep sweep;
  const char *prefix;
  MsCliOutput output; /* --format, --export-*; --quiet and --verbose are the process's */
  const char *fixed_opt, *adaptive_opt; /* the repetition rule's options given */
  const char *profile; /* --profile FILE */
  MsRunToRun profile_rr; /* its contents, read once by ms_cli_run_options_parse */
  char profile_device[256]; /* "": not known (a table piped in alone) */
  bool no_profile;
  bool grade; /* --grade: the compare-grade settings where none were given */
  bool given[MS_CLI_MAX_SETTINGS]; /* which settings the command line gave */
  char samples_path[PATH_MAX];
  char summary_path[PATH_MAX];
} MsCliRunOptions;

/* run's sweep settings and how a signal stops a sweep, translated, for
 * memsweep --help and run --help. */
void ms_cli_run_settings_usage (FILE *out);
/* Options, validation and the output files, all before anything is
 * measured (argv[0] is "run"). -1 to go on, or the exit status. */
int ms_cli_run_options_parse (MsCliRunOptions *o, int argc, char **argv);
/* The run options a command hands on to `memsweep run` (calibrate, fleet,
 * fleet-node), parsed and checked once, as run would, before anything
 * starts. The output is the caller's (prefix, checked as run's --out), so
 * --out and --help are refused, and --profile and --no-profile unless
 * allow_profile. -1 when they are fine, else the exit status after a
 * message. */
int ms_cli_check_run_options (const char *command, const char *prefix, bool allow_profile,
                              int argc, char **argv);
/* A side's run options (siblings --run, compare --live --a/--b), split
 * as a shell splits words (blanks, '...', "..." with \" \\ \$ \` and a
 * backslash outside quotes; nothing expanded), every word read by run's
 * parser: only sweep settings, which alone reach a side's processes, and
 * none of reserved (the settings the command sets itself, NULL-ended).
 * The words, NULL-ended in one block (free it), *n their count; NULL
 * after "memsweep COMMAND: OPTION: why". */
char **ms_cli_side_words (const char *option, const char *text, const char *const *reserved,
                          int *n);
/* fixed (NULL-ended, "run" first), then those words after their "run",
 * read by ms_cli_run_options_parse into *o without planning outputs: its
 * status. */
int ms_cli_side_parse (const char *const *fixed, char **words, int n, MsCliRunOptions *o);
/* Whether those words give run's option name, by any abbreviation. */
bool ms_cli_side_gives (char **words, int n, const char *name);
