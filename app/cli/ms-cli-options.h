/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-cli-options.h: the one table of memsweep's commands and their options
 * (ms-cli-options.c): what each parser's getopt_long table, the usage, the
 * man page and the shell completion come from, and the commands' parsers
 * it names. Every command reads it; main (memsweep-cli.c) dispatches. */
#pragma once

#include <stdbool.h>
#include <stdio.h>

/* What an option's value is, and how a bound one is read into its field
 * (ms_cli_args_next_bound), checked once for every command, as git's
 * parse-options binds each option; an option without a value is a flag,
 * its field a bool set true. `memsweep __options` names the kind too. */
typedef enum {
  MS_CLI_TEXT,         /* const char **: the value as given */
  MS_CLI_INPUT,        /* the same: a file the command reads */
  MS_CLI_OUTPUT,       /* the same: a file it writes (--out, --plot, an export, --dir) */
  MS_CLI_PREFIX,       /* the same: a name to which the names of its files are added */
  MS_CLI_HANDED_ON,    /* the same, empty too: run options or an argument handed on */
  MS_CLI_CHOICE,       /* const char **: one of the words of its value */
  MS_CLI_COUNT,        /* int *: a whole number from min to max */
  MS_CLI_COUNT_OR_ALL, /* int *: the same, or "all" (MS_CLI_ALL) */
  MS_CLI_DEVICES,      /* const char **: "all" or at least min GPUs (ms_cli_devices_ok) */
  MS_CLI_SETTING,      /* int *: a whole number in the range of run's sweep setting
                        * of the same name (the engine's table: --reps, --device) */
  MS_CLI_NUMBER,       /* double *: a number, with range over min (and under
                        * max, where above min) */
} MsCliKind;

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
  MsCliKind kind; /* its value's */
  int min, max;
  const char *range; /* MS_CLI_NUMBER's, as its refusal says it (MS_N_) */
} MsCliOption;

enum {
  MS_CLI_RUN_SETTINGS = 1 << 0, /* takes run's sweep settings (the engine's table) */
  MS_CLI_HIDDEN = 1 << 1,       /* memsweep running itself: in no usage */
  MS_CLI_STOPS_ON_SIGNALS = 1 << 3, /* the first SIGINT, SIGTERM or SIGHUP stops its work
                                     * (of an option: where it is given) */
  MS_CLI_HANDS_ON_RUN_OPTIONS = 1 << 5, /* what follows its "--" or first operand is
                                         * run's (fleet) */
  MS_CLI_REPEATS = 1 << 4,          /* of an option: may be given more than once (each
                                     * export, each sbatch argument); any other twice is
                                     * refused, as the second would replace the first */
};
/* The parser's key of run's i-th sweep setting (the engine's table). */
#define MS_CLI_KEY_SETTING(i) (256 + (i))
/* plot --view's own view beside the drawing library's
 * (MS_REPORT_VIEW_LIST): a lesson's picture. */
#define MS_CLI_LESSON_VIEW "lesson"
/* lesson's operand that lists the lessons instead of running one */
#define MS_CLI_LESSON_LIST "list"
/* The parser's key of --version, which every command reads as --help. */
#define MS_CLI_KEY_VERSION 0x1100
/* The most options a command's parser reads, run's settings, --help and
 * --version included. */
#define MS_CLI_MAX_OPTIONS 80

/* One exit status of a command and what it means (MS_N_); code
 * MS_CLI_EXIT_SIGNAL stands for 128 + N, a signal N that ended it. */
typedef struct {
  int code;
  const char *meaning;
} MsCliExit;
#define MS_CLI_EXIT_SIGNAL 128

typedef struct {
  const char *name;
  const char *operands; /* what follows the options, or NULL */
  const char *summary;  /* one line, untranslated (MS_N_) */
  const MsCliOption *options; /* ends with a NULL name */
  unsigned flags;
  const MsCliExit *exits; /* its exit statuses, the one list --help, the man page
                           * and docs/cli.md give; ends with a NULL meaning */
  /* Its parser (below); NULL for a drawing command in a build
   * that hands it to memsweep-draw (ms-cli-draw-helper.h). The cli-docs
   * test runs every command of the table. */
  int (*run) (int argc, char **argv);
} MsCliCommand;

/* A name (a variable, a path, a command) and what it does; help is
 * untranslated (MS_N_). Each list ends with a NULL name. */
typedef struct {
  const char *name;
  const char *help;
} MsCliNote;
/* What memsweep reads from its environment, the files it keeps, and
 * examples. */
extern const MsCliNote ms_cli_environment[], ms_cli_files[], ms_cli_examples[];
/* The environment and the examples, translated, for `memsweep --help`. */
void ms_cli_print_environment (FILE *out);

/* The i-th command of the table, NULL past its end. */
const MsCliCommand *ms_cli_command_nth (int i);
/* The command called name, or NULL. */
const MsCliCommand *ms_cli_command_find (const char *name);
/* One option as the parser reads it (ms-cli-parse.h). */
typedef struct {
  const char *name; /* without the "--" */
  bool takes_value;
  bool repeats; /* MS_CLI_REPEATS */
  int key;
  const char *needs; /* MsCliOption's */
  const MsCliOption *option; /* its line of the table; NULL for run's settings */
} MsCliKey;
/* What the parser reads for the command: its options, then, for one that
 * takes run's settings, run's own options it lacks and every setting
 * (calibrate hands them on), then --help; ends with a NULL name. NULL
 * for no such command. */
const MsCliKey *ms_cli_option_keys (const char *name);
/* What command's option name takes, as the table names it ("png|svg|pdf"),
 * or NULL. */
const char *ms_cli_option_value (const char *command, const char *name);

/* The table's line of each of the command's options, for its --help. */
void ms_cli_options_usage (FILE *out, const MsCliCommand *c);
/* "Usage: memsweep CMD [OPTIONS] OPERANDS" and what it does, translated:
 * the head of its --help. */
void ms_cli_command_synopsis (FILE *out, const MsCliCommand *c);
/* "Exit status:" and a line per status of the command (NULL: those every
 * command shares), translated, for its --help. */
void ms_cli_exits_usage (FILE *out, const MsCliCommand *c);
/* The command's exit statuses (NULL: those every command shares); ends
 * with a NULL meaning. */
const MsCliExit *ms_cli_exits (const MsCliCommand *c);
/* "0", "5" or "128+N". */
void ms_cli_exit_code (const MsCliExit *e, char *buf, size_t len);

/* The commands' parsers, each in its ms-cli-COMMAND.c or the file of its
 * family (info and modes, fleet*, lesson*, multi and peer and portable;
 * __options: -options-doc); plot's and report's are ms-cli-draw.h's. */
int ms_cli_options_document (int argc, char **argv);
int ms_cli_run (int argc, char **argv);
int ms_cli_info (int argc, char **argv);
int ms_cli_modes (int argc, char **argv);
int ms_cli_show (int argc, char **argv);
int ms_cli_compare (int argc, char **argv);
int ms_cli_calibrate (int argc, char **argv);
int ms_cli_fleet (int argc, char **argv);
int ms_cli_fleet_node (int argc, char **argv);
int ms_cli_fleet_report (int argc, char **argv);
int ms_cli_lesson (int argc, char **argv);
int ms_cli_lesson_part (int argc, char **argv);
int ms_cli_multi (int argc, char **argv);
int ms_cli_peer (int argc, char **argv);
int ms_cli_portable (int argc, char **argv);
int ms_cli_siblings (int argc, char **argv);
int ms_cli_host_link (int argc, char **argv);
