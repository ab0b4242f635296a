/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-cli-parse.h: the one parser of every command's options
 * (ms-cli-parse.c), reading what the option table gives the command
 * (ms_cli_option_keys): one abbreviation rule (a name's unique prefix, as
 * getopt_long's), one form for what it refuses, "memsweep COMMAND: ..."
 * and "Try 'memsweep COMMAND --help'.". */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "ms-cli-options.h"

/* A command line being read. */
typedef struct {
  const MsCliKey *keys;
  int argc;
  char **argv;      /* argv[0] the command's name */
  int next;         /* the next argument to read */
  int operand;      /* where the operands read so far begin */
  bool first_operand_ends; /* fleet: the first operand ends the options */
  bool ended;
  bool silent; /* refuses without a word */
  const char *value; /* the value of the option returned; NULL for a flag */
  const char *name;  /* its whole name */
  const MsCliOption *option; /* its line of the table; NULL for run's settings */
  const char *bound; /* the last option ms_cli_args_next_bound stored */
  unsigned char given[MS_CLI_MAX_OPTIONS]; /* how often each key was given */
} MsCliArgs;

/* Starts reading argv for the options the table gives command (the command
 * run's name may read run's table, for the run options another hands on). */
void ms_cli_args_init (MsCliArgs *a, const char *command, int argc, char **argv);
/* The key of the next option, with a->value; -1 at the end, where
 * argv[a->operand..argc) are the operands in their order (argv is
 * reordered, options first, as getopt_long does; "--" ends the options);
 * '?' after a message when an option is unknown, ambiguous, lacks its
 * value, has one it does not take or is given twice. */
int ms_cli_args_next (MsCliArgs *a);
/* The operands, once ms_cli_args_next returned -1. */
int ms_cli_args_n_operands (const MsCliArgs *a);

/* Whether argv (argv[0] the command's name) holds only options of the
 * command c, each once (but those that repeat), none without the options
 * it acts through (the table's needs): read to the end by the one parser
 * before the command's own reading, so that every command refuses alike
 * and before any work. False after the message. argv is reordered as
 * the command's reading would. */
bool ms_cli_options_known (const MsCliCommand *c, int argc, char **argv);
/* Whether argv (argv[0] the command's name) gives c's option with key,
 * read silently (argv is left as it is). */
bool ms_cli_args_give (const MsCliCommand *c, int argc, char **argv, int key);
/* Whether the command line argv (argv[1] the command) stops on its first
 * SIGINT, SIGTERM or SIGHUP: its command does, or an option given does
 * (compare --live). Read before anything else, so that main can catch
 * those signals first. */
bool ms_cli_stops_on_signals (int argc, char **argv);
/* The name (name (i) for i from 0 until NULL) nearest to the len
 * letters of word, where it is close enough to be a slip (an edit for
 * every three letters, one at least); NULL where none is. */
const char *ms_cli_nearest (const char *word, size_t len, const char *(*name) (int i));
