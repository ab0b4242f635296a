/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-csv-keep.h: a run's pair of files written at its names, or kept
 * where the output plan allows when they cannot take it (ms-csv-keep.c):
 * where a run's writing is decided, above the files themselves
 * (files/ms-csv-writer.h). */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "memsweep.h"

/* Writes PREFIX-samples.csv and PREFIX-summary.csv with one run id: both
 * temporaries are complete before either is renamed, and a failure at any
 * step leaves both old files as they were. */
bool ms_csv_write_pair (const MsResults *results, const char *samples_path,
                        const char *summary_path, char *err, size_t errlen);
/* The same, with *kept set when the pair could not be written at its names
 * but was kept in a folder of its own (said in err): false with *kept
 * false means what was measured is in memory only. */
bool ms_csv_write_pair_or_keep (const MsResults *results, const char *samples_path,
                                const char *summary_path, bool *kept, char *err, size_t errlen);
