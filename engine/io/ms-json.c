/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-json.c: JSON read and written through json-c (see ms-json.h).
 *
 * The hand-written reader this replaced was faster: a 3.8 KB sidecar
 * (data/reference/h100-default-1-meta.json) parsed in 27-44 us against
 * json-c's 97-137 us (best of 5 x 2000 parses, the shared two-core
 * development machine, 2026-11-25). A sidecar is read once per file
 * opened, beside a CSV read that takes milliseconds, so that is no reason
 * to keep a parser of our own. */
#include "ms-json.h"

#include <json-c/json_tokener.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ms-i18n.h"
#include "ms-utf8.h"

/* memsweep's documents nest three deep; more is not one of them. */
#define MAX_DEPTH 16

/* json-c's reasons are English; these are the reader's, translated. */
static const char *
reason (enum json_tokener_error error)
{
  switch (error) {
  case json_tokener_error_depth:
    return ms_gettext ("nested too deep");
  case json_tokener_continue:
  case json_tokener_error_parse_eof:
    return ms_gettext ("the text ends inside a value");
  case json_tokener_error_parse_array:
    return ms_gettext ("expected ',' or ']'");
  case json_tokener_error_parse_object_key_name:
    return ms_gettext ("expected a member's name in quotes");
  case json_tokener_error_parse_object_key_sep:
    return ms_gettext ("expected ':' after a member's name");
  case json_tokener_error_parse_object_value_sep:
    return ms_gettext ("expected ',' or '}'");
  case json_tokener_error_parse_string:
    return ms_gettext ("an unknown escape in a string");
  case json_tokener_error_size:
    return ms_gettext ("out of memory");
  default:
    return ms_gettext ("expected a value");
  }
}

/* The line of text[at]. */
static int
line_at (const char *text, size_t at)
{
  int line = 1;
  for (const char *p = text; (p = memchr (p, '\n', (size_t)(text + at - p))); p++)
    line++;
  return line;
}

static MsJson *
refuse (const char *text, size_t at, const char *why, char *err, size_t errlen)
{
  snprintf (err, errlen, ms_gettext ("line %d: %s"), line_at (text, at), why);
  return NULL;
}

/* json-c's strict mode still takes a raw control character inside a
 * string, which JSON does not; outside one only tab, CR and LF may stand,
 * as white space. */
static const char *
control_character (const char *text, size_t len)
{
  for (size_t i = 0; i < len; i++)
    if ((unsigned char)text[i] < 0x20 && text[i] != '\t' && text[i] != '\n' && text[i] != '\r')
      return text + i;
  return NULL;
}

MsJson *
ms_json_parse (const char *text, size_t len, char *err, size_t errlen)
{
  size_t start = len >= 3 && memcmp (text, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
  const char *bad;
  if (memchr (text, '\0', len))
    return refuse (text, (size_t)((const char *)memchr (text, '\0', len) - text),
                   ms_gettext ("binary data (a NUL byte): not a JSON file"), err, errlen);
  if ((bad = control_character (text, len)))
    return refuse (text, (size_t)(bad - text), ms_gettext ("a control character inside a string"),
                   err, errlen);
  if (len - start > (size_t)INT32_MAX - 1)
    return refuse (text, start, ms_gettext ("out of memory"), err, errlen);
  struct json_tokener *tok = json_tokener_new_ex (MAX_DEPTH);
  if (!tok) {
    snprintf (err, errlen, "%s", ms_gettext ("out of memory"));
    return NULL;
  }
  json_tokener_set_flags (tok, JSON_TOKENER_STRICT);
  /* The closing NUL ends a number or word that ends the text. */
  MsJson *root = json_tokener_parse_ex (tok, text + start, (int)(len - start) + 1);
  enum json_tokener_error error = json_tokener_get_error (tok);
  size_t end = start + json_tokener_get_parse_end (tok);
  json_tokener_free (tok);
  if (error != json_tokener_success)
    return refuse (text, end < len ? end : len, reason (error), err, errlen);
  end += strspn (text + end, " \t\r\n");
  if (end < len) {
    json_object_put (root);
    return refuse (text, end, ms_gettext ("more after the value"), err, errlen);
  }
  /* JSON's null is a value, but never a document memsweep reads. */
  return root ? root : refuse (text, start, ms_gettext ("expected a value"), err, errlen);
}

void
ms_json_free (MsJson *value)
{
  json_object_put (value);
}

MsJson *
ms_json_member (const MsJson *object, const char *key)
{
  MsJson *member = NULL;
  if (json_object_get_type (object) != json_type_object)
    return NULL;
  return json_object_object_get_ex (object, key, &member) ? member : NULL;
}

const MsJsonMember *
ms_json_first_member (const MsJson *object)
{
  if (!json_object_is_type (object, json_type_object))
    return NULL;
  return json_object_get_object (object)->head;
}

const MsJsonMember *
ms_json_next_member (const MsJsonMember *member)
{
  return member->next;
}

const char *
ms_json_member_name (const MsJsonMember *member)
{
  return lh_entry_k (member);
}

MsJson *
ms_json_member_value (const MsJsonMember *member)
{
  return lh_entry_v (member);
}

const char *
ms_json_string (const MsJson *value)
{
  return json_object_get_type (value) == json_type_string ? json_object_get_string ((MsJson *)value)
                                                          : NULL;
}

const char *
ms_json_number_text (const MsJson *value)
{
  json_type type = json_object_get_type (value);
  /* A double read keeps its text, and json-c writes it back as read. */
  return type == json_type_int || type == json_type_double
             ? json_object_get_string ((MsJson *)value)
             : NULL;
}

MsJson *
ms_json_string_new (const char *text)
{
  size_t size = 3 * strlen (text) + 1;
  char *valid = malloc (size);
  if (!valid)
    return NULL;
  ms_utf8_make_valid (valid, size, text);
  MsJson *value = json_object_new_string (valid);
  free (valid);
  return value;
}

MsJson *
ms_json_number_new_text (const char *text)
{
  return json_object_new_double_s (strtod (text, NULL), text);
}

/* Kept by hand: json-c writes a double with "%.17g" and adds ".0" to one
 * without a fraction ("5.0" where docs/json.md promises "5"), and writes
 * NaN as NaN, which is no JSON; the text is handed to json-c whole. */
MsJson *
ms_json_number_new (double v)
{
  char text[32];
  if (!isfinite (v))
    return NULL;
  snprintf (text, sizeof text, "%.10g", v);
  /* A locale's decimal comma: the format has no other comma. */
  char *comma = strchr (text, ',');
  if (comma)
    *comma = '.';
  return json_object_new_double_s (v, text);
}

MsJson *
ms_json_keep_text (MsJson *value, const char *text)
{
  char *copy = strdup (text);
  if (value && copy)
    json_object_set_serializer (value, json_object_userdata_to_json_string, copy,
                                json_object_free_userdata);
  else
    free (copy);
  return value;
}

MsJson *
ms_json_object_new (void)
{
  return json_object_new_object ();
}

MsJson *
ms_json_array_new (void)
{
  return json_object_new_array ();
}

MsJson *
ms_json_int_new (long long v)
{
  return json_object_new_int64 (v);
}

void
ms_json_set (MsJson *object, const char *key, MsJson *value)
{
  json_object_object_add (object, key, value);
}

void
ms_json_append (MsJson *array, MsJson *value)
{
  json_object_array_add (array, value);
}

void
ms_json_set_string (MsJson *object, const char *key, const char *text)
{
  ms_json_set (object, key, text ? ms_json_string_new (text) : NULL);
}

void
ms_json_set_number (MsJson *object, const char *key, double v)
{
  ms_json_set (object, key, ms_json_number_new (v));
}

void
ms_json_set_int (MsJson *object, const char *key, long long v)
{
  ms_json_set (object, key, ms_json_int_new (v));
}

void
ms_json_set_bool (MsJson *object, const char *key, bool v)
{
  ms_json_set (object, key, json_object_new_boolean (v));
}

bool
ms_json_print (FILE *f, MsJson *document)
{
  bool ok = fputs (ms_json_text (document, MS_JSON_COMPACT), f) >= 0 && fputc ('\n', f) != EOF;
  json_object_put (document);
  return ok;
}

const char *
ms_json_text (MsJson *value, MsJsonLayout layout)
{
  static const int flags[] = {
    [MS_JSON_COMPACT] = JSON_C_TO_STRING_PLAIN,
    [MS_JSON_INDENTED] = JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED,
    [MS_JSON_ONE_LINE] = JSON_C_TO_STRING_SPACED,
  };
  return json_object_to_json_string_ext (value, flags[layout] | JSON_C_TO_STRING_NOSLASHESCAPE);
}

/* Kept by hand: json-c's reader takes NaN, Infinity and "1." as numbers,
 * which JSON does not, so it cannot say what may be written unquoted.
 * -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? */
static size_t
digits (const char *p)
{
  return strspn (p, "0123456789");
}

bool
ms_json_is_number (const char *text)
{
  const char *p = text + (*text == '-');
  size_t n = digits (p);
  if (n == 0 || (*p == '0' && n > 1))
    return false;
  p += n;
  if (*p == '.') {
    if ((n = digits (p + 1)) == 0)
      return false;
    p += 1 + n;
  }
  if (*p == 'e' || *p == 'E') {
    p += 1 + (p[1] == '+' || p[1] == '-');
    if ((n = digits (p)) == 0)
      return false;
    p += n;
  }
  return *p == '\0';
}
