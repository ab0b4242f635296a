/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-run-to-run.h: the spread between whole runs, measured and applied
 * to a cell's interval. Defined in ms-run-to-run.c; its files are
 * files/ms-run-to-run-file.h's. */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "memsweep.h"

/* Run-to-run spread (ms-run-to-run.c). */
void ms_run_to_run_clear (MsRunToRun *rr);

/* From the results of n >= 3 separate invocations of one sweep. */
bool ms_run_to_run_measure (MsRunToRun *rr, MsResults *const *runs, int n, char *err,
                            size_t errlen);

/* Half-width in ln units of the 95% interval for another invocation's
 * median, 0 when the profile knows nothing of the mode. */
double ms_run_to_run_half_width (const MsRunToRun *rr, MsMode mode, int exponent);

/* The root mean square of the mode's cell values, -1 when it has none. */
double ms_run_to_run_mode_sd (const MsRunToRun *rr, MsMode mode);

/* The standard deviation of ln(median) between processes for a cell, its
 * own value moderated by the mode's pooled one in the same size band
 * (below 2^14, from 2^14), and the degrees of freedom of that estimate;
 * false when the profile knows nothing of the mode. */
bool ms_run_to_run_between (const MsRunToRun *rr, MsMode mode, int exponent, double *sd,
                            int *df);

/* The cell's end-to-end median with an interval that covers both the
 * within-run interval and the run-to-run spread; false without a profile
 * value for the cell. */
bool ms_run_to_run_interval (const MsRunToRun *rr, const MsCell *cell, double *lo, double *hi);
