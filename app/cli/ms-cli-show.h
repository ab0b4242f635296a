/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-cli-show.h: `memsweep show` (ms-cli-show.c), and what it shares with
 * memsweep-cli.c. Exit codes are memsweep-cli.c's. */
#pragma once

#include <stdbool.h>

int ms_cli_show (int argc, char **argv);
void ms_cli_show_help (void);

/* memsweep-cli.c: whether standard output took everything (a message
 * when not); --format table|json. */
bool ms_cli_stdout_ok (void);
bool ms_cli_parse_format (const char *arg, bool *json);
/* The exit status paragraph of every --help, translated. */
const char *ms_cli_exit_status (void);
