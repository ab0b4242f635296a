/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-utf8.h: UTF-8 checks for text read from files, and cuts that keep
 * whole characters, so that nothing memsweep reads or shows holds half a
 * character. Plain C, no GLib. */
#pragma once

#include <stdbool.h>
#include <stddef.h>

/* Whether s[0..len) is well-formed UTF-8 (no overlong forms, surrogates or
 * code points past U+10FFFF); *bad gets the offset of the first bad byte. */
bool ms_utf8_valid (const char *s, size_t len, size_t *bad);
/* The length of the well-formed character at s (at most left bytes), or 0
 * for a byte that starts none. */
size_t ms_utf8_char_length (const char *s, size_t left);
/* Whether s holds a control character: C0, DEL or C1. */
bool ms_utf8_has_control (const char *s);
/* The longest prefix of s[0..len) that ends on a character boundary. */
size_t ms_utf8_prefix (const char *s, size_t len);
/* snprintf (dst, size, "%s", src), cut before a character rather than
 * inside one. */
void ms_utf8_copy (char *dst, size_t size, const char *src);
/* src with every byte that starts no well-formed character replaced by
 * U+FFFD, as the JSON writers write it (a name that is not UTF-8 text),
 * cut before a character where it does not fit in size. */
void ms_utf8_make_valid (char *dst, size_t size, const char *src);
