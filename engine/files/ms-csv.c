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
