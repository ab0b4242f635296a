/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-cli-environment.h: what memsweep reads from its environment, the
 * files it keeps, and examples (ms-cli-environment.c). */
#pragma once

#include <stdio.h>

/* A name (a variable, a path, a command) and what it does; help is
 * untranslated (MS_N_). Each list ends with a NULL name. */
typedef struct {
  const char *name;
  const char *help;
} MsCliNote;

extern const MsCliNote ms_cli_environment[], ms_cli_files[], ms_cli_examples[];
/* The environment and the examples, translated, for `memsweep --help`. */
void ms_cli_print_environment (FILE *out);
