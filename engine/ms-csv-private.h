/* ms-csv-private.h: what the CSV reader and writer share. */
#pragma once

#include <locale.h>

/* Switches this thread to the C locale, so numbers use '.' whatever the
 * process locale is; returns the previous locale for ms_csv_leave_c_locale. */
locale_t ms_csv_enter_c_locale (void);
void ms_csv_leave_c_locale (locale_t old);
