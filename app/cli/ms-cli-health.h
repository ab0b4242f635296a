/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-cli-health.h: a run's link and clock health and its figures against
 * their reference envelope, in words, for `memsweep show` and the text
 * report (ms-cli-health.c). GLib-free. */
#pragma once

#include <stdio.h>

#include "memsweep.h"
#include "ms-engine.h"

/* The envelopes to judge against: path ("-": standard input), else the default file
 * (ms_envelopes_default_path); NULL with why. Refused rows are printed
 * to standard error as warnings, "file:line: why". */
MsEnvelopes *ms_cli_load_envelopes (const char *path, char *why, size_t whylen);

/* Which the user named, --envelopes (option, not NULL) or the variable
 * MEMSWEEP_ENVELOPES, as its name; NULL where neither: the installed
 * file, not named, only goes unjudged when it cannot be read. */
const char *ms_cli_envelopes_named (const char *option);

/* Whether the envelope file the user named, if any, can be read; said
 * on standard error when not (an input that cannot be read: exit 2). */
bool ms_cli_envelopes_usable (const char *option);
/* The "Health" and "Envelope" paragraphs; env NULL says why (env_why). */
void ms_cli_health (FILE *out, const MsResults *results, const MsEnvelopes *env,
                    const char *env_why);
