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

/* The document of results (an MsResults) on f: a command's JSON output
 * (MsCliDocument's json). */
void ms_json_write (FILE *f, void *results);
/* A new document with its first two members: the name of its schema
 * (data/schema/SCHEMA.json) and the schema's version. */
MsJson *ms_json_document (const char *schema, int version);
/* A text member, null when there is no text (NULL or ""). */
void ms_json_set_text (MsJson *o, const char *key, const char *text);
/* {"gen": G, "width": W}: a PCIe link, for every document. */
MsJson *ms_json_link (int gen, int width);
/* The results' device object (data/schema/), for other documents. */
MsJson *ms_json_device (const MsDeviceInfo *d);
/* The same with the key figures judged against env ("envelope": null when
 * NULL); the health is always there. */
bool ms_json_write_judged (FILE *f, const MsResults *results, const MsEnvelopes *env);
