/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-json.h: JSON through json-c (docs/architecture.md says why json-c):
 * the reader of the small documents memsweep writes beside its CSV files
 * (PREFIX-meta.json), which takes untrusted text, bounded in depth, every
 * refusal with its line and why, translated; and what its writers share,
 * so that every document memsweep writes escapes and formats alike. A
 * number read keeps its text as written, so that a value reaches its
 * checker (ms-meta.c) exactly as a '#' line would hand it over. Plain C,
 * no GLib. */
#pragma once

#include <json-c/json.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* A JSON value is json-c's own; NULL is JSON's null. */
typedef struct json_object MsJson;

/* Parses text (len bytes, and a NUL after them); NULL with "line N: why"
 * in err. */
MsJson *ms_json_parse (const char *text, size_t len, char *err, size_t errlen);
void ms_json_free (MsJson *value);
/* The member key of an object; NULL when absent or value is no object. */
MsJson *ms_json_member (const MsJson *object, const char *key);
/* An object's members in their order: the first, then each one's next;
 * NULL at the end, or when object is no object. */
typedef struct lh_entry MsJsonMember;
const MsJsonMember *ms_json_first_member (const MsJson *object);
const MsJsonMember *ms_json_next_member (const MsJsonMember *member);
const char *ms_json_member_name (const MsJsonMember *member);
MsJson *ms_json_member_value (const MsJsonMember *member);
/* A string's UTF-8; NULL when value is no string. */
const char *ms_json_string (const MsJson *value);
/* A number's text as it was written; NULL when value is no number. */
const char *ms_json_number_text (const MsJson *value);

/* A string value; a byte that starts no character (a file name that is
 * not UTF-8) becomes U+FFFD, since what is written must read back. */
MsJson *ms_json_string_new (const char *text);
/* A number written as text says (text must pass ms_json_is_number). */
MsJson *ms_json_number_new_text (const char *text);
/* A double as memsweep's JSON writes it ("%.10g", docs/json.md); NULL
 * (JSON's null) when it is not finite. */
MsJson *ms_json_number_new (double v);
/* value, written as its own text in place of json-c's layout of it (an
 * object kept on one line inside an indented document, say); value is
 * returned. */
MsJson *ms_json_keep_text (MsJson *value, const char *text);

/* Building a document: an empty object or array; member key of object set
 * to value (which the object then owns; NULL is JSON's null); value
 * appended to array. A string, a double (as ms_json_number_new), an
 * integer or a truth value as a member. */
MsJson *ms_json_object_new (void);
MsJson *ms_json_array_new (void);
MsJson *ms_json_int_new (long long v);
void ms_json_set (MsJson *object, const char *key, MsJson *value);
void ms_json_append (MsJson *array, MsJson *value);
void ms_json_set_string (MsJson *object, const char *key, const char *text);
void ms_json_set_number (MsJson *object, const char *key, double v);
void ms_json_set_int (MsJson *object, const char *key, long long v);
void ms_json_set_bool (MsJson *object, const char *key, bool v);
/* Writes document on one line (MS_JSON_COMPACT) and a line end, then frees
 * it; false when the write failed. Every command's JSON goes out so. */
bool ms_json_print (FILE *f, MsJson *document);

/* How a document is laid out: MS_JSON_COMPACT on one line with no spaces
 * (the command line's output), MS_JSON_INDENTED two spaces a level with a
 * space after ':' (the sidecar), MS_JSON_ONE_LINE on one line with a space
 * after '{', ':' and ',' (the sidecar's file entries). */
typedef enum { MS_JSON_COMPACT, MS_JSON_INDENTED, MS_JSON_ONE_LINE } MsJsonLayout;
/* The text of value laid out so; it lives until value is freed or written
 * again. */
const char *ms_json_text (MsJson *value, MsJsonLayout layout);
/* Whether text is a number as JSON writes it (a value that may be written
 * unquoted). */
bool ms_json_is_number (const char *text);
