/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-cli-extra.h: the command line beyond one GPU (ms-cli-multi.c: multi,
 * peer, portable; ms-cli-fleet.c: fleet, fleet-node, fleet-report;
 * ms-cli-calibrate.c: calibrate). Exit
 * codes are memsweep-cli.c's: 0 ok, 1 runtime failure, 2 usage, 3 no
 * device. */
#pragma once

#include <stdbool.h>
#include <stdio.h>

#include "memsweep.h"

enum {
  EXIT_OK = 0,
  EXIT_RUNTIME = 1,
  EXIT_USAGE = 2,
  EXIT_NO_DEVICE = 3,
};

/* true when argv[1] is one of these commands; its exit code in *rc. */
bool ms_cli_extra_dispatch (int argc, char **argv, int *rc);
void ms_cli_extra_usage (FILE *out);

/* ms-cli-calibrate.c */
int ms_cli_calibrate (int argc, char **argv);
/* ms-cli-fleet.c */
int ms_cli_fleet (int argc, char **argv);
int ms_cli_fleet_node (int argc, char **argv);
int ms_cli_fleet_report (int argc, char **argv);
/* memsweep-cli.c: the first SIGINT, SIGTERM or SIGHUP sets the flag
 * returned (as for run), a second one ends memsweep. */
atomic_int *ms_cli_stop_on_signals (void);
/* memsweep-cli.c: path (and the summary beside a samples file) is read by
 * this command, so no output may replace it. */
void ms_cli_protect_input (const char *path);
/* memsweep-cli.c: whether path can be written (ms_atomic_file_check), said
 * before any work; false after "memsweep: --out: why". */
bool ms_cli_output_ok (const char *path);
/* memsweep-cli.c: the run options a command hands on to `memsweep run`
 * (calibrate, fleet, fleet-node), parsed and checked once, as run would,
 * before anything starts. The output is the caller's (prefix, checked as
 * run's --out), so --out and --help are refused, and --profile and
 * --no-profile unless allow_profile. -1 when they are fine, else the exit
 * status after a message. */
int ms_cli_check_run_options (const char *command, const char *prefix, bool allow_profile,
                              int argc, char **argv);
/* memsweep-cli.c: a whole number for option opt, or false with a message. */
bool ms_cli_parse_int (const char *opt, const char *value, int *out);
/* memsweep-cli.c: a decimal number (no hexadecimal, inf or nan) for option
 * opt, or false with a message. */
bool ms_cli_parse_double (const char *opt, const char *value, double *out);
/* ms-cli-lesson.c: lesson (part false) and the hidden __lesson-part. */
int ms_cli_lesson (int argc, char **argv, bool part);
/* ms-cli-lesson.c: run --reuse R, the reuse lesson's knob: 1..64. */
bool ms_cli_parse_reuse (const char *value, int *reuse);
/* ms-cli-lesson-table.c: the cells of a lesson's results and its finding. */
void ms_cli_lesson_table (FILE *out, const MsResults *results);
/* ms-cli-multi.c */
int ms_cli_multi (int argc, char **argv);
int ms_cli_peer (int argc, char **argv);
int ms_cli_portable (int argc, char **argv);
