/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-cli-common.h: what the command line's commands share (ms-cli-common.c):
 * exit codes, stopping on signals, option values, the state of standard
 * output. memsweep-cli.c dispatches to the commands (ms-cli-*.c), which use
 * these; nothing here calls back up. */
#pragma once

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

#include "memsweep.h"
#include "ms-engine.h"

enum {
  EXIT_OK = 0,
  EXIT_RUNTIME = 1,
  EXIT_USAGE = 2,
  EXIT_NO_DEVICE = 3, /* only this: no usable GPU */
  EXIT_WRITE = 4,     /* an output file (or TMPDIR's) could not be written */
};

/* The first SIGINT, SIGTERM or SIGHUP sets the flag returned (a sweep then
 * stops and writes what it has), a second one ends memsweep. */
atomic_int *ms_cli_stop_on_signals (void);
/* The monotonic clock, in seconds. */
double ms_cli_now_s (void);
/* "SIGINT", "SIGTERM" or "SIGHUP". */
const char *ms_cli_signal_name (int sig);
/* A sweep stopped (st MS_RUN_CANCELLED) before any cell kept a
 * repetition: said ("SIGINT: stopped before any cell was measured:
 * nothing written"), and true: its caller writes nothing, since an empty
 * pair would look like a run (run_err names the stop without a signal). */
bool ms_cli_stopped_before_any_cell (MsRunStatus st, const MsResults *results, const char *run_err);
/* "WHY: stopped before any cell was measured: nothing written", on
 * standard error. */
void ms_cli_say_stopped_before_any_cell (const char *why);

/* The command line's one rule for whole numbers: decimal digits after an
 * optional '-' and nothing else (no blanks, '+', hexadecimal or trailing
 * text), from min to max. Every whole-number option, and every whole
 * number inside an option's value (WxH, MIN:MAX), is read by it. */
bool ms_cli_whole_number (const char *text, long long min, long long max, long long *out);
/* text split at sep into at most max whole numbers from 0 to hi, each by
 * that rule, into out: their count, or -1 (no message) when a piece is
 * empty, is not one, or there are more. */
int ms_cli_whole_number_list (const char *text, char sep, int max, int hi, int *out);
/* A whole number or a number for option opt, or false with a message. */
bool ms_cli_parse_int (const char *opt, const char *value, int *out);
/* A whole number from min to max for option opt, or false with a message
 * that names the range. */
bool ms_cli_parse_count (const char *opt, const char *value, int min, int max, int *out);
/* A count given as "all" (MS_CLI_COUNT_OR_ALL, ms-cli-output.h). */
#define MS_CLI_ALL (-1)
bool ms_cli_parse_double (const char *opt, const char *value, double *out);
/* A list of GPUs (--devices): "all", or at least min indices separated by
 * commas, each by the rule for whole numbers ("1, 2", "+1" or "0x1" are
 * none), said before any GPU is asked; the engine then checks them
 * against the GPUs it sees (ms_multi_parse_devices). False after a
 * message naming opt and list. */
bool ms_cli_devices_ok (const char *opt, const char *list, int min);
/* The GPUs of list ("all", or indices; NULL: all) among those this host
 * has: into devices (*n of them, at least min), GPU 0's description into
 * *first where not NULL.
 * -1: go on; else the exit status after a message (who: its "memsweep
 * COMMAND"): EXIT_NO_DEVICE without a usable GPU, else EXIT_USAGE. */
int ms_cli_resolve_devices (const char *who, const char *list, int min, int *devices, int *n,
                            MsDeviceInfo *first);
/* The facts of each of devices[0..n) into info. */
void ms_cli_query_devices (const int *devices, int n, MsDeviceInfo *info);

/* The envelope file a verdict will be judged against, which no output may
 * replace: the one named by an option (NULL: none), else
 * $MEMSWEEP_ENVELOPES or the installed one. */
void ms_cli_protect_envelopes (const char *option);

/* Protects paths[0..n) (ms_csv_pair_protect), the runs a command reads
 * (compare, plot, report), and says on standard error where two are one
 * file: by name or by device and inode (a link, a second name). Such a run is read twice, as
 * if it were two (compare A A is the verdict rule's own check: every
 * cell the same), so it is said, not refused. */
void ms_cli_note_same_inputs (char *const *paths, int n);
/* Whether path, given as option, can be written (ms_atomic_file_check),
 * said before any work, and added to the command's output plan
 * (ms-output-plan.h); false after "memsweep CMD: OPTION: why". "-" is
 * standard output, which holds one document. */
bool ms_cli_plan_file (const char *option, const char *path);
/* A folder the command made for its processes, added to the plan. */
bool ms_cli_plan_folder (const char *option, const char *path);
/* While true (nested), the run options a command hands on are checked as
 * run checks them but their outputs stay out of the command's plan: they
 * are the started runs' own. */
void ms_cli_plan_pause (bool pause);

/* `-` names standard input or output where a command reads or writes one
 * file (show -, show --out -); a PREFIX names several files, which
 * standard output cannot hold: false after "memsweep CMD: OPTION -: why". */
#define MS_CLI_STDIO "-"

/* path as the reader takes it, protected from every output: "-" is
 * standard input, which the one reader holds to read again
 * (ms-input.h), and which one command reads once (a second "-" is
 * refused); NULL after a message. */
const char *ms_cli_input_path (const char *path);
/* Whether path holds a run (or what no reader knows, for the reader to
 * say); else false after saying which of memsweep's kinds it is and what
 * reads it (ms-file-kinds.h). */
bool ms_cli_is_run (const char *path);

/* What a run's pair holds: its samples, then its summary. */
#define MS_CLI_RUN_PAIR ((const MsFileKind[]) { MS_FILE_KIND_SAMPLES, MS_FILE_KIND_SUMMARY })

/* Whether the files at paths[0..n), written together with one sidecar
 * (a run's pair, a profile, a peer matrix), each to hold kinds[i], can be
 * written, the sidecar included (ms_meta_sidecar_check_targets: never
 * another file set's; ms_output_plan_add_set: never measurements of
 * another kind), said before any work; false after "memsweep CMD: OPTION:
 * why". */
bool ms_cli_outputs_ok (const char *option, const char *const *paths, const MsFileKind *kinds,
                        int n);
/* (The files and their sidecar go into the command's output plan.) */

/* Whether the pair a run writes under prefix can be written, for a command
 * that makes the prefix itself: false after "memsweep COMMAND: GIVEN_BY:
 * why", naming what the user gave (--dir, TMPDIR), not run's --out. */
bool ms_cli_prefix_ok (const char *given_by, const char *prefix);

/* Where a command's runs go while they are measured: $TMPDIR, else /tmp. */
const char *ms_cli_tmp_folder (void);
/* Whether that folder is one to make files in, said before any work;
 * false after "memsweep COMMAND: TMPDIR: FOLDER: no folder for the runs". */
bool ms_cli_tmp_folder_ok (const char *command);
/* Where memsweep's bugs are reported (every --help says it). */
#define MS_CLI_BUG_URL "https://github.com/memsweep/memsweep/issues"
/* Whether the experiment switches a measuring process would run under
 * parse: text (given by option), else MEMSWEEP_EXPERIMENT; said before
 * any process starts, false after "memsweep COMMAND: [OPTION: ]why". */
bool ms_cli_experiment_ok (const char *option, const char *text);

/* The limits a command needs to get as far as its work, and to write it,
 * whatever `ulimit -s`, `-t`, `-v` and `-n` left it (ms-cli-limits.c):
 * raises the soft stack limit, and the stack of the threads started
 * after, to what a command needs where the hard limit allows; sets a
 * CPU-time limit's soft limit (equal to its hard one after `ulimit -t N`)
 * a tenth earlier, so that its SIGXCPU comes before the kernel's SIGKILL;
 * checks that a command that draws (plot, report) has the address space
 * and the open files its fonts and threads take; false, with why in err,
 * where not (nothing has been started or written then). argv[1] is the
 * command. */
bool ms_cli_limits_ready (int argc, char **argv, char *err, size_t errlen);
/* The command that runs (main's dispatch sets it), whose name begins
 * every message: "memsweep COMMAND: ...". NULL before one is known. */
void ms_cli_set_command (const char *name);
const char *ms_cli_command (void);
/* "memsweep COMMAND: " (or "memsweep: " before a command is known), then
 * the message, on standard error. */
void ms_cli_error (const char *format, ...) __attribute__ ((format (printf, 1, 2)));
/* The same with the arguments in a va_list (ms_cli_say's progress lines). */
void ms_cli_error_v (const char *format, va_list args) __attribute__ ((format (printf, 1, 0)));

/* "Try 'memsweep COMMAND --help'." on stderr; EXIT_USAGE. */
int ms_cli_bad_usage (const char *command);
/* Whether standard output is other than the inputs protected so far (as
 * cat refuses `cat f >> f`); false after a message. Called before the
 * first table of a command that reads files. */
bool ms_cli_stdout_not_input (void);

/* The format the drawing command writes out in, into word (room for the
 * longest of the words its --format takes in the option table, "png|svg|pdf"):
 * format (NULL: none given), else out's extension among them, which must
 * agree with the one given. Standard output ("-") takes a format given, a
 * binary one only off a terminal. False after a message. */
bool ms_cli_drawn_format (const char *command, const char *out, const char *format, char *word);
/* Whether standard output took everything (a message when not); a reader
 * that stopped reading counts as having taken it. */
bool ms_cli_stdout_ok (void);
/* EXIT_OK, or EXIT_WRITE when standard output did not take everything
 * (said by ms_cli_stdout_ok): an output not written, in every command. */
int ms_cli_stdout_status (void);
/* A command's exit status for its outputs: EXIT_WRITE when a file (an
 * export, --out) or standard output was not written, else EXIT_OK. */
int ms_cli_output_status (bool files_written);
/* Whether standard output is a pipe or socket whose reader has gone. */
bool ms_cli_stdout_reader_gone (void);

#ifdef MS_HAVE_DRAW
#include <glib.h>

/* Reads every file (samples or summary) into a new array of MsResults*;
 * NULL after printing the first file's error. */
GPtrArray *ms_cli_load_runs (char **paths, int n);
/* "memsweep CMD: MESSAGE" on stderr, control characters escaped. */
void ms_cli_print_error (const GError *error);
#endif
