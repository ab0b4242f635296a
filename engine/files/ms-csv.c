/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-csv.c: what the CSV reader and writer share.
 *
 * Numbers are written and read in the C locale whatever the process locale
 * is (the GTK app sets the user's), so '.' is always the decimal point.
 */
#define _GNU_SOURCE
#include <locale.h>
#include <pthread.h>

#include "ms-csv-private.h"
#include "ms-meta.h"

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
  ms_meta_printf (f, MS_META_REPS_RULE, "%s",
                  sweep->reps_rule == MS_REPS_FIXED ? "fixed" : "adaptive");
  ms_meta_printf (f, MS_META_MIN_REPS, "%d", sweep->min_reps);
  ms_meta_printf (f, MS_META_CI_TARGET_PCT, "%g", sweep->ci_target_pct);
  ms_meta_printf (f, MS_META_CELL_BUDGET_MS, "%g", sweep->cell_budget_ms);
  ms_meta_printf (f, MS_META_INSTR_REPS, "%d", sweep->instr_reps);
}
