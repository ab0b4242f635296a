/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The limits a command needs to get as far as its work, whatever
 * `ulimit -s` and `ulimit -v` left it. */
#pragma once

#include <stdbool.h>
#include <stddef.h>

/* Raises the soft stack limit, and the stack of the threads started after,
 * to what a command needs where the hard limit allows, and checks that a
 * command that draws (plot, report) has the address space its fonts and
 * threads take; false, with why in err, where not (nothing has been
 * started or written then). argv[1] is the command. */
bool ms_cli_limits_ready (int argc, char **argv, char *err, size_t errlen);
