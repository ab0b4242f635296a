/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-siblings.h: the card that differs from its siblings (ms-siblings.c).
 * The GPUs of one host, each measured by the same sweep in processes that
 * take turns, are judged pair by pair with the per-mode verdicts of
 * `compare` (ms-compare.h: each mode's cells pooled into one verdict); a
 * GPU is named in a mode when it is decided FASTER or SLOWER, the same
 * way, than most of its siblings. Plain C, no GLib. */
#pragma once

#include <stdbool.h>

#include "analysis/ms-compare.h"
#include "devices/ms-topo.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  int n; /* GPUs, in slot order */
  /* The pooled verdict of slot b against slot a in each mode (b FASTER:
   * b is the faster), with its ratio b/a; MS_VERDICT_AMBIGUOUS where
   * nothing was decided, has_mode false where neither ran the mode. */
  MsVerdict verdict[MS_MODE_COUNT][MS_MULTI_MAX_DEVICES][MS_MULTI_MAX_DEVICES];
  double ratio[MS_MODE_COUNT][MS_MULTI_MAX_DEVICES][MS_MULTI_MAX_DEVICES];
  bool has_mode[MS_MODE_COUNT];
} MsSiblingVerdicts;

typedef enum {
  MS_SIBLINGS_SAME,      /* every pair decided SAME in every mode */
  MS_SIBLINGS_DIFFERS,   /* a GPU named, or two GPUs that differ */
  MS_SIBLINGS_UNDECIDED, /* no GPU named, but some pair is AMBIGUOUS or
                          * decided different on its own */
} MsSiblingsResult;

typedef struct {
  MsSiblingsResult result;
  /* GPU g differs from its siblings in mode m: faster or slower than the
   * most of them; ratio: the median of its pooled ratios over them (of
   * end-to-end times: 1.2 is 20% slower). */
  bool named[MS_MODE_COUNT][MS_MULTI_MAX_DEVICES];
  MsVerdict direction[MS_MODE_COUNT][MS_MULTI_MAX_DEVICES];
  double ratio[MS_MODE_COUNT][MS_MULTI_MAX_DEVICES];
  bool gpu_named[MS_MULTI_MAX_DEVICES]; /* in any mode */
  int n_named;
  /* Modes where GPUs differ but no GPU stands out: two GPUs alone, or the
   * GPUs split into groups of which none is the most. */
  bool split[MS_MODE_COUNT];
  int n_ambiguous; /* pairs x modes still AMBIGUOUS */
  int n_isolated;  /* pairs x modes decided different with no GPU named */
} MsSiblingFinding;

/* The verdicts of every ordered pair of runs (runs[i]: slot i's merged
 * compare-grade run), each mode pooled; false with a message when two runs
 * share no cell. */
bool ms_siblings_judge (MsResults *const *runs, int n, double threshold, MsFigure figure,
                        MsSiblingVerdicts *verdicts, char *err, size_t errlen);

/* Names the GPUs that differ from their siblings; no measuring, no
 * timing: the tests give it fixed verdicts. */
void ms_siblings_name (const MsSiblingVerdicts *verdicts, MsSiblingFinding *finding);

/* "same", "differs", "undecided": stable, for JSON. */
const char *ms_siblings_result_key (MsSiblingsResult result);

#ifdef __cplusplus
}
#endif
