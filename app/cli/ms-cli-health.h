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
/* The "Health" and "Envelope" paragraphs; env NULL says why (env_why). */
void ms_cli_health (FILE *out, const MsResults *results, const MsEnvelopes *env,
                    const char *env_why);
