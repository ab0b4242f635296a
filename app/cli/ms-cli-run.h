/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-cli-run.h: `memsweep run` (ms-cli-run.c); its options are
 * ms-cli-run-options.h's. Exit codes are ms-cli-common.h's. */
#pragma once

int ms_cli_run (int argc, char **argv);
