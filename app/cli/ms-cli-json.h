/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-cli-json.h: results as JSON for scripts and server tools (schema in
 * docs/json.md): settings, device facts, per cell the statistics with their
 * confidence intervals and status, per mode the fit. Always valid JSON:
 * strings escaped (invalid UTF-8 replaced), NaN and infinities as null.
 * GLib-free. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "memsweep.h"
#include "ms-engine.h"

#define MS_JSON_SCHEMA_VERSION 1

/* Writes the document to f; false when a write failed. */
bool ms_json_write (FILE *f, const MsResults *results);
/* The same through an atomic file (ms-atomic-file.h). */
bool ms_json_write_file (const char *path, const MsResults *results, char *err, size_t errlen);
/* For other documents (ms-cli-compare.c): a string escaped as above, a
 * number (null when not finite); numbers in the C locale between
 * ms_json_begin and ms_json_end (its return value). */
void ms_json_put_string (FILE *f, const char *s);
void ms_json_put_number (FILE *f, double v);
void *ms_json_begin (void);
/* "device":{...}, the results' device object (data/schema/). */
void ms_json_put_device (FILE *f, const MsDeviceInfo *d);
void ms_json_end (void *state);
/* Both with the key figures judged against env ("envelope": null when
 * NULL); the health is always there. */
bool ms_json_write_judged (FILE *f, const MsResults *results, const MsEnvelopes *env);
bool ms_json_write_file_judged (const char *path, const MsResults *results,
                                const MsEnvelopes *env, char *err, size_t errlen);
