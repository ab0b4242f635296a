/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-compare-options.h: the options of a comparison between two runs, with
 * the one owner of the threshold's default, range, unit and parsing:
 * `memsweep compare` (--threshold) and the Compare page (its spin button
 * and "threshold" property) both take them from here. Defined in
 * ms-compare-options.c. Plain C, no GLib.
 *
 * The unit is percent of A's median, as people say it; the verdicts take a
 * fraction (ms_compare_options_fraction), converted here only. The range
 * is 0 to 100 %: a verdict calls B faster when B/A's interval lies below
 * 1 - t, which a threshold of 100 % or more puts at or below 0, where no
 * ratio of two times can lie; so a threshold above 100 % would make
 * "faster" impossible while "slower" stayed possible, a lopsided verdict.
 * (The command line took up to 1000 % before, the app 100 %.) */
#pragma once

#include <stdbool.h>
#include <stddef.h>

/* The threshold a comparison starts from, in percent: what the lent H100
 * and H200 can resolve between processes for most cells from 2^14
 * (docs/compare.md), and no more than 10. */
#define MS_COMPARE_DEFAULT_THRESHOLD_PCT 10.0
#define MS_COMPARE_MIN_THRESHOLD_PCT 0.0
#define MS_COMPARE_MAX_THRESHOLD_PCT 100.0

typedef struct {
  double threshold_pct; /* the difference that matters, in percent */
} MsCompareOptions;

/* The defaults. */
void ms_compare_options_init (MsCompareOptions *options);
/* Reads text ("5", "2.5": a plain decimal number of percent, C locale) as
 * the threshold; false with a message, options untouched, otherwise. */
bool ms_compare_options_parse_threshold (MsCompareOptions *options, const char *text, char *err,
                                         size_t errlen);
/* The threshold as the verdicts take it: a fraction (10 % is 0.1). */
double ms_compare_options_fraction (const MsCompareOptions *options);
/* The same for a threshold in percent. */
double ms_compare_threshold_fraction (double pct);
