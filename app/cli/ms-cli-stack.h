/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The stack every command needs, whatever `ulimit -s` left it. */
#pragma once

#include <stdbool.h>
#include <stddef.h>

/* Raises the soft stack limit, and the stack of the threads started after,
 * to what a command needs where the hard limit allows; false, with why in
 * err, where it does not (nothing has been started or written then). */
bool ms_cli_stack_ready (char *err, size_t errlen);
