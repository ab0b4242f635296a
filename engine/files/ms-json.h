/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-json.h: the small JSON documents memsweep writes beside its CSV files
 * (PREFIX-meta.json), written and read back. The reader takes untrusted
 * text: bounded in depth and size, every refusal with its line and why.
 * A number keeps its text as written, so that a value reaches its checker
 * (ms-meta.c) exactly as a '#' line would hand it over. Plain C, no GLib. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef enum {
  MS_JSON_NULL,
  MS_JSON_FALSE,
  MS_JSON_TRUE,
  MS_JSON_NUMBER,
  MS_JSON_STRING,
  MS_JSON_ARRAY,
  MS_JSON_OBJECT,
} MsJsonType;

typedef struct MsJson MsJson;
struct MsJson {
  MsJsonType type;
  char *text;    /* a string's UTF-8 (unescaped) or a number's digits */
  char *key;     /* the member's name in its object; NULL in an array */
  MsJson *items; /* an array's elements or an object's members */
  size_t n_items;
};

/* Parses text (len bytes); NULL with "line N: why" in err. */
MsJson *ms_json_parse (const char *text, size_t len, char *err, size_t errlen);
void ms_json_free (MsJson *value);
/* The member key of an object; NULL when absent or value is no object. */
const MsJson *ms_json_member (const MsJson *object, const char *key);

/* Writes text as a JSON string, quoted, with the escapes it needs. */
void ms_json_write_string (FILE *f, const char *text);
/* Whether text is a number as JSON writes it (a value that may be written
 * unquoted). */
bool ms_json_is_number (const char *text);
