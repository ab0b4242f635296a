/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-variant.h: a cell's variant ("key=value" pairs joined by '/'): its
 * check, its values, and the variants a run's cells hold. Defined in
 * ms-variant.c. */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "memsweep.h"

/* Variants (ms-variant.c). Valid: "" or shorter than MS_VARIANT_LEN, made
 * of letters, digits and "=/._,+:-", starting with a letter or digit. */
bool ms_variant_valid (const char *variant);

/* The value of key in a variant ("order" in "queue=single/order=breadth"
 * gives "breadth"); false when absent. */
bool ms_variant_get (const char *variant, const char *key, char *value, size_t len);

/* The same as a whole number; false when absent or not a number. */
bool ms_variant_get_int (const char *variant, const char *key, int *value);

/* The distinct variants of the cells of a mode (all modes with
 * MS_MODE_COUNT), in the order first seen: at most max pointers into the
 * cells' own strings; returns how many it wrote. */
int ms_results_variants (const MsResults *results, MsMode mode, const char **variants, int max);
