/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-cli-lesson-table.h: a lesson's results as the command line prints
 * them (ms-cli-lesson-table.c), for lesson and show. */
#pragma once

#include <stdio.h>

#include "memsweep.h"

/* The cells of a lesson's results and its finding. */
void ms_cli_lesson_table (FILE *out, const MsResults *results);
