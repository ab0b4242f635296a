/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-verdict.h: what a verdict is, once, in the top room so that every
 * room that writes, reads or draws one sees the same (ms-verdict.c): the
 * verdict between two figures and a sibling check's result, their stable
 * words for files and JSON, and the band a ratio must lie in to be called
 * SAME. The rule that decides (analysis/ms-verdict-rule.h) and the file
 * that reads a check back (files/ms-siblings-file.h) both use these.
 * Plain C, no GLib. */
#pragma once

#include <stdbool.h>

typedef enum {
  MS_VERDICT_SAME,
  MS_VERDICT_FASTER, /* B faster than A */
  MS_VERDICT_SLOWER, /* B slower than A */
  MS_VERDICT_AMBIGUOUS,
  MS_VERDICT_COUNT
} MsVerdict;

/* A sibling check's result for the host (analysis/ms-siblings.h). */
typedef enum {
  MS_SIBLINGS_ALIKE,     /* every GPU SAME as its siblings in every mode judged */
  MS_SIBLINGS_DIFFERS,   /* a GPU named, or GPUs that split into groups */
  MS_SIBLINGS_UNDECIDED, /* no GPU named, some GPU and mode still open */
  MS_SIBLINGS_RESULT_COUNT
} MsSiblingsResult;

/* "same", "faster", "slower", "ambiguous": stable, for files and JSON. */
const char *ms_verdict_key (MsVerdict verdict);
/* The verdict a key names; false (out untouched) for none. */
bool ms_verdict_from_key (const char *key, MsVerdict *out);
/* "SAME", "FASTER", ...: translated, for tables. */
const char *ms_verdict_label (MsVerdict verdict);

/* "alike", "differs", "undecided": stable, for JSON. */
const char *ms_siblings_result_key (MsSiblingsResult result);
bool ms_siblings_result_from_key (const char *key, MsSiblingsResult *out);

/* The SAME band for threshold t (a fraction: 0.05 is 5%): a ratio's
 * interval inside lo..hi is SAME. The one place its shape is written; the
 * rule, the pooled verdicts and the pictures that draw it ask here. */
void ms_verdict_band (double threshold, double *lo, double *hi);
/* The smallest change, as a fraction, that an interval widened by the
 * factor widen (its upper bound over its ratio) would call different:
 * the band's upper bound, widened. */
double ms_verdict_band_detectable (double threshold, double widen);
