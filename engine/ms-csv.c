/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-csv.c: what the CSV reader and writer share.
 *
 * Numbers are written and read in the C locale whatever the process locale
 * is (the GTK app sets the user's), so '.' is always the decimal point.
 */
#define _GNU_SOURCE
#include <locale.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "ms-csv-private.h"

static locale_t c_locale;
static pthread_once_t c_locale_once = PTHREAD_ONCE_INIT;

static void
make_c_locale (void)
{
  c_locale = newlocale (LC_ALL_MASK, "C", (locale_t) 0);
}

locale_t
ms_csv_enter_c_locale (void)
{
  pthread_once (&c_locale_once, make_c_locale);
  return c_locale ? uselocale (c_locale) : (locale_t) 0;
}

void
ms_csv_leave_c_locale (locale_t old)
{
  if (old)
    uselocale (old);
}

void
ms_csv_write_rule_metadata (FILE *f, const MsSweep *sweep)
{
  fprintf (f, "# reps-rule: %s\n", sweep->reps_rule == MS_REPS_FIXED ? "fixed" : "adaptive");
  fprintf (f, "# min-reps: %d\n", sweep->min_reps);
  fprintf (f, "# ci-target-pct: %g\n", sweep->ci_target_pct);
  fprintf (f, "# cell-budget-ms: %g\n", sweep->cell_budget_ms);
}

/* A finite number, or false. */
static bool
read_number (const char *value, double *out)
{
  char *end;
  double v = strtod (value, &end);
  if (end == value || *end || !isfinite (v))
    return false;
  *out = v;
  return true;
}

bool
ms_csv_read_rule_metadata (MsSweep *sweep, const char *key, const char *value)
{
  double v;
  if (strcmp (key, "reps-rule") == 0) {
    if (strcmp (value, "fixed") == 0)
      sweep->reps_rule = MS_REPS_FIXED;
    else if (strcmp (value, "adaptive") == 0)
      sweep->reps_rule = MS_REPS_ADAPTIVE;
  } else if (strcmp (key, "min-reps") == 0) {
    if (read_number (value, &v) && v >= 0 && v <= MS_MAX_REPS && v == floor (v))
      sweep->min_reps = (int) v;
  } else if (strcmp (key, "ci-target-pct") == 0) {
    if (read_number (value, &v))
      sweep->ci_target_pct = v;
  } else if (strcmp (key, "cell-budget-ms") == 0) {
    if (read_number (value, &v))
      sweep->cell_budget_ms = v;
  } else {
    return false;
  }
  return true;
}
