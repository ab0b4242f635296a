/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-cli-entries.h: the entry points of the commands (compare's, beside
 * its chart, is ms-cli-compare.h's, plot's and report's ms-cli-draw.h's);
 * each lives in ms-cli-COMMAND.c, and the option table (ms-cli-options.c)
 * names it as its command's parser. Exit codes are ms-cli-common.h's. */
#pragma once

#include <stdbool.h>

/* `memsweep __options`: the table as JSON (data/schema/memsweep-options.json)
 * for the man page and the shell completion (ms-cli-options-doc.c). */
int ms_cli_options_document (int argc, char **argv);

/* ms-cli-run.c; run's options are ms-cli-run-options.h's. */
int ms_cli_run (int argc, char **argv);
/* ms-cli-info.c: info, a device's facts, and modes. */
int ms_cli_info (int argc, char **argv);
int ms_cli_modes (int argc, char **argv);
/* ms-cli-show.c */
int ms_cli_show (int argc, char **argv);
/* ms-cli-calibrate.c */
int ms_cli_calibrate (int argc, char **argv);
/* ms-cli-fleet.c and ms-cli-fleet-report.c */
int ms_cli_fleet (int argc, char **argv);
int ms_cli_fleet_node (int argc, char **argv);
int ms_cli_fleet_report (int argc, char **argv);
/* ms-cli-lesson.c: lesson and the hidden __lesson-part. */
int ms_cli_lesson (int argc, char **argv);
int ms_cli_lesson_part (int argc, char **argv);
/* ms-cli-multi.c */
int ms_cli_multi (int argc, char **argv);
int ms_cli_peer (int argc, char **argv);
int ms_cli_portable (int argc, char **argv);
/* ms-cli-siblings.c: the card that differs from its siblings. */
int ms_cli_siblings (int argc, char **argv);
/* ms-cli-host-link.c: the host link under every GPU at once. */
int ms_cli_host_link (int argc, char **argv);
