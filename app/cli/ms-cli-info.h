/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-cli-info.h: `memsweep info` and `memsweep modes` (ms-cli-info.c): the
 * device and the memory modes. Exit codes are ms-cli-common.h's. */
#pragma once

int ms_cli_info (int argc, char **argv);
int ms_cli_modes (int argc, char **argv);
