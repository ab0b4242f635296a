/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-cli-show.h: `memsweep show` (ms-cli-show.c). Exit codes are
 * ms-cli-common.h's. */
#pragma once

int ms_cli_show (int argc, char **argv);
void ms_cli_show_help (void);
