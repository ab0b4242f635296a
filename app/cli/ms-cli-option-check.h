/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-cli-option-check.h: every command's options checked against the one
 * option table before its parser runs (ms-cli-option-check.c), so that an
 * unknown option, an ambiguous abbreviation or a missing value is said in
 * one form by every command. */
#pragma once

#include <stdbool.h>

#include "ms-cli-options.h"

/* Whether argv (argv[0] the command's name) holds only options of the
 * command c (and, for a command that takes run's settings, run's), up to
 * "--". False after "memsweep: CMD: unknown option '--X'" (or "...
 * option '--X' is ambiguous", "... option '--X' needs a value") and
 * "Try 'memsweep CMD --help'." on standard error. argv is left in its
 * order. */
bool ms_cli_options_known (const MsCliCommand *c, int argc, char **argv);
