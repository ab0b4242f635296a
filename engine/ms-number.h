/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-number.h: the one rule for a whole decimal number read from text (a
 * variant's value, a small file's field). Defined in ms-number.c; it sits
 * in the engine's top room so that every room may read numbers alike. */
#pragma once

#include <stdbool.h>

/* A whole decimal number in lo..hi. */
bool ms_parse_long (const char *text, long lo, long hi, long *out);
