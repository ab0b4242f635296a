/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-run-read.h: a run read from its file as the lessons see it: the CSV
 * reader's results (files/ms-csv-io.h), then, for a lesson's run, its
 * kernels aligned to their launches and its reason named. The CSV reader
 * knows no lesson; the app, the command line and the tests read runs
 * through here. Defined in ms-run-read.c. */
#pragma once

#include <stddef.h>

#include "memsweep.h"

/* ms_csv_read_samples's results, the lesson's part done. */
MsResults *ms_run_read_samples (const char *path, char *err, size_t errlen);
/* ms_csv_read_figures's results, the lesson's part done. */
MsResults *ms_run_read_figures (const char *path, char *err, size_t errlen);
