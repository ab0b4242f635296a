/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The limits a command needs to get as far as its work, and to write it,
 * whatever `ulimit -s`, `-t` and `-v` left it. */
#pragma once

#include <stdbool.h>
#include <stddef.h>

/* Raises the soft stack limit, and the stack of the threads started after,
 * to what a command needs where the hard limit allows; sets a CPU-time
 * limit's soft limit (equal to its hard one after `ulimit -t N`) a tenth
 * earlier, so that its SIGXCPU comes before the kernel's SIGKILL; checks that a
 * command that draws (plot, report) has the address space its fonts and
 * threads take; false, with why in err, where not (nothing has been
 * started or written then). argv[1] is the command. */
bool ms_cli_limits_ready (int argc, char **argv, char *err, size_t errlen);
