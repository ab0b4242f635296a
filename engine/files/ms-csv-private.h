/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-csv-private.h: what the CSV reader and writer share. */
#pragma once

#include <locale.h>
#include <stdbool.h>
#include <stdio.h>

#include "memsweep.h"

/* The samples file's row of an instrumented repetition's end-to-end time
 * (host_us), beside the plain repetition's "e2e" row of the same rep.
 * Files from before plain repetitions have none: their "e2e" rows were
 * instrumented repetitions. */
#define MS_E2E_INSTR_ROW "e2e_instrumented"

/* Switches this thread to the C locale, so numbers use '.' whatever the
 * process locale is; returns the previous locale for ms_csv_leave_c_locale. */
locale_t ms_csv_enter_c_locale (void);
void ms_csv_leave_c_locale (locale_t old);
