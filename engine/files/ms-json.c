/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-json.c: a strict JSON reader (RFC 8259) for the small documents
 * memsweep writes, and the string escapes its writers use. */
#include "ms-json.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ms-i18n.h"
#include "ms-utf8.h"

/* memsweep's documents nest three deep; more is not one of them. */
#define MAX_DEPTH 16
#define MAX_ITEMS 100000

typedef struct {
  const char *p, *end;
  int line;
  char *err;
  size_t errlen;
  bool failed;
} Parser;

static bool
fail (Parser *ps, const char *why)
{
  if (!ps->failed)
    snprintf (ps->err, ps->errlen, ms_gettext ("line %d: %s"), ps->line, why);
  ps->failed = true;
  return false;
}

static void
skip_space (Parser *ps)
{
  for (; ps->p < ps->end; ps->p++) {
    if (*ps->p == '\n')
      ps->line++;
    else if (*ps->p != ' ' && *ps->p != '\t' && *ps->p != '\r')
      break;
  }
}

static bool
take (Parser *ps, char c)
{
  skip_space (ps);
  if (ps->p < ps->end && *ps->p == c) {
    ps->p++;
    return true;
  }
  return false;
}

static void
put_utf8 (char **o, uint32_t c)
{
  char *out = *o;
  if (c < 0x80) {
    *out++ = (char) c;
  } else if (c < 0x800) {
    *out++ = (char) (0xC0 | (c >> 6));
    *out++ = (char) (0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    *out++ = (char) (0xE0 | (c >> 12));
    *out++ = (char) (0x80 | ((c >> 6) & 0x3F));
    *out++ = (char) (0x80 | (c & 0x3F));
  } else {
    *out++ = (char) (0xF0 | (c >> 18));
    *out++ = (char) (0x80 | ((c >> 12) & 0x3F));
    *out++ = (char) (0x80 | ((c >> 6) & 0x3F));
    *out++ = (char) (0x80 | (c & 0x3F));
  }
  *o = out;
}

static bool
hex4 (Parser *ps, uint32_t *out)
{
  uint32_t v = 0;
  if (ps->end - ps->p < 4)
    return false;
  for (int i = 0; i < 4; i++) {
    char c = *ps->p++;
    int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
            : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
    if (d < 0)
      return false;
    v = v * 16 + (uint32_t) d;
  }
  *out = v;
  return true;
}

/* \uXXXX, a surrogate pair taken whole. */
static bool
unicode_escape (Parser *ps, char **o)
{
  uint32_t c, low;
  if (!hex4 (ps, &c))
    return false;
  if (c >= 0xDC00 && c <= 0xDFFF)
    return false;
  if (c >= 0xD800 && c <= 0xDBFF) {
    if (ps->end - ps->p < 2 || ps->p[0] != '\\' || ps->p[1] != 'u')
      return false;
    ps->p += 2;
    if (!hex4 (ps, &low) || low < 0xDC00 || low > 0xDFFF)
      return false;
    c = 0x10000 + ((c - 0xD800) << 10) + (low - 0xDC00);
  }
  if (c == 0)
    return false; /* a NUL would cut the text short */
  put_utf8 (o, c);
  return true;
}

/* A string after its opening quote; its UTF-8 is never longer than the
 * escaped text. */
static char *
parse_string (Parser *ps)
{
  const char *start = ps->p;
  const char *q = start;
  while (q < ps->end && *q != '"')
    q += *q == '\\' && q + 1 < ps->end ? 2 : 1;
  char *text = malloc ((size_t) (q - start) + 1), *o = text;
  if (!text) {
    fail (ps, ms_gettext ("out of memory"));
    return NULL;
  }
  static const char plain[] = "\"\\/bfnrt", actual[] = "\"\\/\b\f\n\r\t";
  while (ps->p < ps->end && *ps->p != '"') {
    unsigned char c = (unsigned char) *ps->p++;
    if (c < 0x20) {
      fail (ps, ms_gettext ("a control character inside a string"));
      break;
    }
    if (c != '\\') {
      *o++ = (char) c;
      continue;
    }
    const char *e = ps->p < ps->end ? strchr (plain, *ps->p) : NULL;
    if (e && *e) {
      *o++ = actual[e - plain];
      ps->p++;
    } else if (ps->p < ps->end && *ps->p == 'u') {
      ps->p++;
      if (!unicode_escape (ps, &o)) {
        fail (ps, ms_gettext ("a malformed \\u escape"));
        break;
      }
    } else {
      fail (ps, ms_gettext ("an unknown escape in a string"));
      break;
    }
  }
  if (!ps->failed && ps->p >= ps->end)
    fail (ps, ms_gettext ("a string without its closing quote"));
  if (ps->failed) {
    free (text);
    return NULL;
  }
  ps->p++;
  *o = '\0';
  return text;
}

/* -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? */
static size_t
number_length (const char *p, const char *end)
{
  const char *s = p;
  if (p < end && *p == '-')
    p++;
  if (p < end && *p == '0')
    p++;
  else if (p < end && *p >= '1' && *p <= '9')
    while (p < end && *p >= '0' && *p <= '9')
      p++;
  else
    return 0;
  if (p < end && *p == '.') {
    const char *d = ++p;
    while (p < end && *p >= '0' && *p <= '9')
      p++;
    if (p == d)
      return 0;
  }
  if (p < end && (*p == 'e' || *p == 'E')) {
    p++;
    if (p < end && (*p == '+' || *p == '-'))
      p++;
    const char *d = p;
    while (p < end && *p >= '0' && *p <= '9')
      p++;
    if (p == d)
      return 0;
  }
  return (size_t) (p - s);
}

bool
ms_json_is_number (const char *text)
{
  size_t len = strlen (text);
  return len > 0 && number_length (text, text + len) == len;
}

static bool parse_value (Parser *ps, MsJson *out, int depth);

static bool
add_item (Parser *ps, MsJson *parent, size_t *cap, MsJson **slot)
{
  if (parent->n_items == MAX_ITEMS)
    return fail (ps, ms_gettext ("too many items"));
  if (parent->n_items == *cap) {
    size_t n = *cap ? 2 * *cap : 8;
    MsJson *grown = realloc (parent->items, n * sizeof *grown);
    if (!grown)
      return fail (ps, ms_gettext ("out of memory"));
    parent->items = grown;
    *cap = n;
  }
  *slot = &parent->items[parent->n_items++];
  memset (*slot, 0, sizeof **slot);
  return true;
}

/* An array or an object after its opening bracket. */
static bool
parse_items (Parser *ps, MsJson *out, int depth, bool object)
{
  char close = object ? '}' : ']';
  size_t cap = 0;
  if (take (ps, close))
    return true;
  do {
    MsJson *item = NULL;
    char *key = NULL;
    if (object) {
      if (!take (ps, '"'))
        return fail (ps, ms_gettext ("expected a member's name in quotes"));
      if (!(key = parse_string (ps)))
        return false;
      if (!take (ps, ':')) {
        free (key);
        return fail (ps, ms_gettext ("expected ':' after a member's name"));
      }
    }
    if (!add_item (ps, out, &cap, &item)) {
      free (key);
      return false;
    }
    item->key = key;
    if (!parse_value (ps, item, depth + 1))
      return false;
  } while (take (ps, ','));
  if (!take (ps, close))
    return fail (ps, object ? ms_gettext ("expected ',' or '}'")
                            : ms_gettext ("expected ',' or ']'"));
  return true;
}

static bool
parse_literal (Parser *ps, MsJson *out)
{
  static const struct {
    const char *word;
    MsJsonType type;
  } words[] = { { "null", MS_JSON_NULL }, { "true", MS_JSON_TRUE }, { "false", MS_JSON_FALSE } };
  for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
    size_t n = strlen (words[i].word);
    if ((size_t) (ps->end - ps->p) >= n && memcmp (ps->p, words[i].word, n) == 0) {
      ps->p += n;
      out->type = words[i].type;
      return true;
    }
  }
  size_t n = number_length (ps->p, ps->end);
  if (n == 0)
    return fail (ps, ms_gettext ("expected a value"));
  out->type = MS_JSON_NUMBER;
  out->text = strndup (ps->p, n);
  ps->p += n;
  return out->text ? true : fail (ps, ms_gettext ("out of memory"));
}

static bool
parse_value (Parser *ps, MsJson *out, int depth)
{
  if (depth > MAX_DEPTH)
    return fail (ps, ms_gettext ("nested too deep"));
  skip_space (ps);
  if (ps->p >= ps->end)
    return fail (ps, ms_gettext ("expected a value"));
  switch (*ps->p) {
  case '"':
    ps->p++;
    out->type = MS_JSON_STRING;
    return (out->text = parse_string (ps)) != NULL;
  case '[':
  case '{':
    out->type = *ps->p == '{' ? MS_JSON_OBJECT : MS_JSON_ARRAY;
    ps->p++;
    return parse_items (ps, out, depth, out->type == MS_JSON_OBJECT);
  default: return parse_literal (ps, out);
  }
}

MsJson *
ms_json_parse (const char *text, size_t len, char *err, size_t errlen)
{
  Parser ps = { .p = text, .end = text + len, .line = 1, .err = err, .errlen = errlen };
  MsJson *root = calloc (1, sizeof *root);
  if (!root) {
    snprintf (err, errlen, "%s", ms_gettext ("out of memory"));
    return NULL;
  }
  if (len >= 3 && memcmp (text, "\xEF\xBB\xBF", 3) == 0)
    ps.p += 3;
  if (memchr (text, '\0', len))
    fail (&ps, ms_gettext ("binary data (a NUL byte): not a JSON file"));
  else if (parse_value (&ps, root, 0)) {
    skip_space (&ps);
    if (ps.p != ps.end)
      fail (&ps, ms_gettext ("more after the value"));
  }
  if (ps.failed) {
    ms_json_free (root);
    return NULL;
  }
  return root;
}

static void
clear (MsJson *v)
{
  for (size_t i = 0; i < v->n_items; i++)
    clear (&v->items[i]);
  free (v->items);
  free (v->text);
  free (v->key);
}

void
ms_json_free (MsJson *value)
{
  if (!value)
    return;
  clear (value);
  free (value);
}

const MsJson *
ms_json_member (const MsJson *object, const char *key)
{
  if (!object || object->type != MS_JSON_OBJECT)
    return NULL;
  for (size_t i = 0; i < object->n_items; i++)
    if (strcmp (object->items[i].key, key) == 0)
      return &object->items[i];
  return NULL;
}

void
ms_json_write_string (FILE *f, const char *text)
{
  const unsigned char *p = (const unsigned char *) text;
  size_t left = strlen (text);
  fputc ('"', f);
  while (left > 0) {
    /* A byte that starts no character (a file name that is not UTF-8)
     * becomes U+FFFD: what is written must read back as JSON. */
    size_t n = ms_utf8_char_length ((const char *) p, left);
    if (n == 0)
      fputs ("\\ufffd", f);
    else if (*p == '"' || *p == '\\')
      fprintf (f, "\\%c", *p);
    else if (*p == '\n')
      fputs ("\\n", f);
    else if (*p == '\t')
      fputs ("\\t", f);
    else if (*p < 0x20 || *p == 0x7F)
      fprintf (f, "\\u%04x", *p);
    else
      fwrite (p, 1, n, f);
    p += n ? n : 1;
    left -= n ? n : 1;
  }
  fputc ('"', f);
}
