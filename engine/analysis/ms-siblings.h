/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-siblings.h: the card that differs from its siblings (ms-siblings.c).
 * The GPUs of one host, each measured by the same sweep in processes that
 * take turns (ms-turns.h), are each judged against the mean of the others,
 * mode by mode: a GPU is named in a mode when its figure is decided
 * FASTER or SLOWER than its siblings'. The host is alike when every GPU
 * is decided SAME as its siblings in every GPU mode. Plain C, no GLib. */
#pragma once

#include <stdbool.h>

#include "analysis/ms-turns.h"
#include "ms-verdict.h"

typedef struct {
  MsSiblingsResult result;
  bool judged[MS_MODE_COUNT]; /* the modes that had verdicts */
  /* GPU g's verdict in mode m, its figure over its siblings' mean (of
   * end-to-end times: 1.2 is 20% slower) and the interval; named where
   * it stands out (FASTER or SLOWER, and not one of a split). */
  MsTurnVerdict verdict[MS_MODE_COUNT][MS_MULTI_MAX_DEVICES];
  bool named[MS_MODE_COUNT][MS_MULTI_MAX_DEVICES];
  bool gpu_named[MS_MULTI_MAX_DEVICES]; /* in any mode */
  int n_named;
  /* Modes where GPUs differ but none stands out: two GPUs alone, or half
   * of them named or more. */
  bool split[MS_MODE_COUNT];
  int n_open; /* GPUs x modes still undecided */
} MsSiblingFinding;

/* Names the GPUs that differ from the verdicts of the turns, over the
 * modes judged[] asks for; no measuring: the tests give it fixed values. */
void ms_siblings_name (const MsTurns *turns, const bool *judged, MsSiblingFinding *finding);

/* How far the host mode's processes spread over the n runs (sd of their
 * values, ln), which touch no GPU and are never judged; in *processes how
 * many there were. NAN below two processes. */
double ms_siblings_host_spread (MsResults *const *runs, int n, int *processes);
