/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-cli-extra.h: the command line beyond one GPU (ms-cli-multi.c: multi,
 * peer, portable; ms-cli-fleet.c: fleet, fleet-node, fleet-report;
 * ms-cli-calibrate.c: calibrate; ms-cli-lesson.c: lesson). Exit codes
 * are ms-cli-common.h's. */
#pragma once

#include <stdbool.h>
#include <stdio.h>

#include "memsweep.h"

/* true when argv[1] is one of these commands; its exit code in *rc. */
bool ms_cli_extra_dispatch (int argc, char **argv, int *rc);
void ms_cli_extra_usage (FILE *out);

/* ms-cli-calibrate.c */
int ms_cli_calibrate (int argc, char **argv);
/* ms-cli-fleet.c */
int ms_cli_fleet (int argc, char **argv);
int ms_cli_fleet_node (int argc, char **argv);
int ms_cli_fleet_report (int argc, char **argv);
/* ms-cli-lesson.c: lesson (part false) and the hidden __lesson-part. */
int ms_cli_lesson (int argc, char **argv, bool part);
/* ms-cli-lesson-table.c: the cells of a lesson's results and its finding. */
void ms_cli_lesson_table (FILE *out, const MsResults *results);
/* ms-cli-multi.c */
int ms_cli_multi (int argc, char **argv);
int ms_cli_peer (int argc, char **argv);
int ms_cli_portable (int argc, char **argv);
