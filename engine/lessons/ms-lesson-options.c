/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-lesson-options.c: a lesson's own options, "key=value,key=value"
 * (memsweep lesson NAME --option KEY=VALUE): checked once against the
 * lesson's table, read with their defaults by the lesson's file
 * (ms-lesson-record.h; ms-lesson-table.c finds the table by name). */
#define _GNU_SOURCE /* strchrnul */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ms-i18n.h"
#include "ms-lesson-record.h"

static const MsLessonOption *
find_option (const MsLessonOption *options, const char *key, size_t key_len)
{
  for (int i = 0; options && options[i].key; i++)
    if (strlen (options[i].key) == key_len && strncmp (options[i].key, key, key_len) == 0)
      return &options[i];
  return NULL;
}

/* Whether buf is written as the command line's options are: an optional
 * '-', decimal digits, and (not for a whole number) a fraction and an
 * exponent. strtod alone would also take "0x40", "+60", " 5", "inf" and,
 * for a whole number, "1e3". */
static bool
is_plain_number (const char *buf, bool integer)
{
  const char *p = buf + (*buf == '-');
  size_t digits = strspn (p, "0123456789");
  p += digits;
  if (integer)
    return digits > 0 && *p == '\0';
  if (*p == '.') {
    size_t fraction = strspn (p + 1, "0123456789");
    digits += fraction;
    p += 1 + fraction;
  }
  if (digits > 0 && (*p == 'e' || *p == 'E')) {
    p += 1 + (p[1] == '-' || p[1] == '+');
    size_t exponent = strspn (p, "0123456789");
    if (exponent == 0)
      return false;
    p += exponent;
  }
  return digits > 0 && *p == '\0';
}

/* The value after "key=" up to the next ',' as a number; false when it is
 * not one (or nothing). strict: only in the form is_plain_number takes, as
 * a value given is checked (a file's value is read as it was written). */
static bool
parse_value (const char *text, size_t len, bool strict, bool integer, double *out)
{
  char buf[64];
  if (len == 0 || len >= sizeof buf)
    return false;
  memcpy (buf, text, len);
  buf[len] = '\0';
  if (strict && !is_plain_number (buf, integer))
    return false;
  char *end;
  errno = 0;
  *out = strtod (buf, &end);
  return errno == 0 && *end == '\0' && isfinite (*out);
}

/* One "key=value" item of options, [item, item_end). */
static bool
check_item (const char *name, const MsLessonOption *options, const char *item,
            const char *item_end, char *err, size_t errlen)
{
  const char *eq = memchr (item, '=', (size_t) (item_end - item));
  size_t key_len = eq ? (size_t) (eq - item) : (size_t) (item_end - item);
  const MsLessonOption *o = find_option (options, item, key_len);
  double v;
  if (!o) {
    snprintf (err, errlen, ms_gettext ("lesson '%s' has no option '%.*s'"), name, (int) key_len,
              item);
    return false;
  }
  if (!eq || !parse_value (eq + 1, (size_t) (item_end - eq - 1), true, o->integer, &v) ||
      (o->integer && v != floor (v))) {
    snprintf (err, errlen,
              o->integer ? ms_gettext ("option '%s' of lesson '%s' takes a whole number")
                         : ms_gettext ("option '%s' of lesson '%s' takes a number"),
              o->key, name);
    return false;
  }
  if (v < o->min || v > o->max) {
    snprintf (err, errlen, ms_gettext ("option '%s' of lesson '%s': %g is outside %g..%g"),
              o->key, name, v, o->min, o->max);
    return false;
  }
  return true;
}

bool
ms_lesson_options_check (const MsLessonOption *table, const char *name, const char *options,
                         char *err, size_t errlen)
{
  for (const char *p = options; p && *p;) {
    const char *end = strchrnul (p, ',');
    if (!check_item (name, table, p, end, err, errlen))
      return false;
    /* Each key once: a second one would silently win. */
    const char *eq = memchr (p, '=', (size_t) (end - p));
    size_t key_len = (size_t) (eq - p);
    for (const char *q = *end ? end + 1 : end; *q;) {
      if (strncmp (q, p, key_len + 1) == 0) {
        snprintf (err, errlen, ms_gettext ("option '%.*s' of lesson '%s' is given twice"),
                  (int) key_len, p, name);
        return false;
      }
      const char *next = strchr (q, ',');
      q = next ? next + 1 : q + strlen (q);
    }
    p = *end ? end + 1 : end;
  }
  return true;
}

double
ms_lesson_option_in (const MsLessonOption *options, const char *values, const char *key)
{
  const MsLessonOption *o = find_option (options, key, strlen (key));
  size_t key_len = strlen (key);
  for (const char *p = values; o && p && *p;) {
    const char *end = strchrnul (p, ',');
    double v;
    if (strncmp (p, key, key_len) == 0 && p[key_len] == '=' &&
        parse_value (p + key_len + 1, (size_t) (end - p - key_len - 1), false, false, &v))
      return v;
    p = *end ? end + 1 : end;
  }
  return o ? o->def : 0;
}
