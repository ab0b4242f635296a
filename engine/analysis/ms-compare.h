/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-compare.h: verdicts between two runs (ms-compare.c), and the one rule
 * the fleet report also judges its nodes by.
 *
 * A verdict says how B stands against A on one figure, from each side's
 * median and its 95% interval and a threshold t (a fraction: 0.05 is 5%):
 *
 *   differ  = |median B - median A| > t * median A   (strictly more)
 *   apart   = the two intervals do not overlap (touching is overlapping)
 *
 *   FASTER or SLOWER  differ, apart, and both intervals valid
 *   SAME              not differ: the medians are within the threshold,
 *                     whether or not the intervals overlap (a difference
 *                     the threshold calls too small is no difference, even
 *                     when the intervals show it is real)
 *   AMBIGUOUS         differ, but the intervals overlap, or either interval
 *                     is not a 95% interval (fewer than 6 repetitions, where
 *                     min..max is all there is), or either side has no
 *                     median (a failed cell): the medians say a difference,
 *                     the data cannot back it
 *
 * So a difference is claimed only when both the size (the threshold) and
 * the evidence (apart intervals) are there; ambiguous is never counted as a
 * difference. When a run carries a run-to-run profile (ms-run-to-run.c),
 * each cell's interval is first widened by it, as the calibrated interval
 * is: runs differ by more than one run's interval shows.
 *
 * Plain C, no GLib. */
#pragma once

#include "memsweep.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  MS_VERDICT_SAME,
  MS_VERDICT_FASTER, /* B faster than A */
  MS_VERDICT_SLOWER, /* B slower than A */
  MS_VERDICT_AMBIGUOUS,
  MS_VERDICT_COUNT
} MsVerdict;

/* A median and its interval; valid: a 95% interval (ms_median_ci_ranks). A
 * median <= 0 or NaN is "none". */
typedef struct {
  double median, lo, hi;
  bool valid;
} MsInterval;

/* "same", "faster", "slower", "ambiguous": stable, for files and JSON. */
const char *ms_verdict_key (MsVerdict verdict);
/* "SAME", "FASTER", ...: translated, for tables. */
const char *ms_verdict_label (MsVerdict verdict);

/* B against A. lower_is_faster: the figure is a time (true) or a rate
 * (false). threshold: a fraction, >= 0. */
MsVerdict ms_verdict_judge (const MsInterval *a, const MsInterval *b, double threshold,
                            bool lower_is_faster);

/* A cell's end-to-end median (its plain repetitions) with its interval,
 * widened by rr when rr is valid and knows the cell's mode. */
MsInterval ms_compare_cell_interval (const MsCell *cell, const MsRunToRun *rr);

typedef struct {
  MsMode mode;
  int exponent;
  char variant[MS_VARIANT_LEN];
  bool in_a, in_b;   /* only one of them: the cell is in that run only */
  MsInterval a, b;   /* end-to-end microseconds */
  double ratio;      /* b.median / a.median; NAN without both */
  MsVerdict verdict; /* cells in both runs only */
} MsCompareCell;

typedef struct {
  int count[MS_VERDICT_COUNT];
  int only_a, only_b;
  int n_common;
  double median_ratio; /* of the common cells' ratios; NAN when none */
} MsCompareSummary;

typedef struct {
  MsCompareCell *cells; /* by mode, variant, size; then the cells of one run */
  size_t n_cells;
  double threshold;
  bool widened; /* a run-to-run profile widened the intervals */
  MsCompareSummary mode[MS_MODE_COUNT];
  MsCompareSummary all;
} MsComparison;

/* Every cell of a and b (of mode only, unless mode is MS_MODE_COUNT).
 * Each run's intervals are widened by its run-to-run profile, or by the
 * other run's when it has none (the spread lies in the machine, not in the
 * file). NULL with a message when no cell is common to both. */
MsComparison *ms_compare_results (const MsResults *a, const MsResults *b, double threshold,
                                  MsMode mode, char *err, size_t errlen);
void ms_comparison_free (MsComparison *comparison);
/* Any FASTER or SLOWER cell. */
bool ms_comparison_differs (const MsComparison *comparison);

/* What a file holds, from its first line. */
typedef enum {
  MS_FILE_KIND_UNKNOWN,
  MS_FILE_KIND_SAMPLES, /* a samples or summary file: one run */
  MS_FILE_KIND_PEER,    /* a peer matrix (ms-peer-file.h) */
  MS_FILE_KIND_MULTI,   /* a sweep on several GPUs (ms-multi-file.h) */
  MS_FILE_KIND_UNREADABLE,
} MsFileKind;

MsFileKind ms_file_kind (const char *path);
/* "a samples file", "a peer matrix", ...: translated. */
const char *ms_file_kind_describe (MsFileKind kind);

#ifdef __cplusplus
}
#endif
