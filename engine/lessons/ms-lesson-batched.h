/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-lesson-batched.h: the batched lesson's cells and ratios, shared by its
 * takeaway and its picture (draw/ms-picture-batched.c). */
#pragma once

#include "memsweep.h"

/* The copies per sample of the run's cells (0: none). */
int ms_batched_count (const MsResults *run);
/* Submission s's cell of mode at exp, NULL when not measured: 0 one call
 * per copy, 1 to 3 one batch in stream order, in any order, read during
 * the call. */
const MsCell *ms_batched_cell (const MsResults *run, MsMode mode, int exp, int count, int s);
/* One source at one size: one call per copy against the batch in stream
 * order (the call's plain use), and ratio, the first's median over the
 * second's (above 1: the batch was faster). */
typedef struct {
  MsMode mode;
  const MsCell *each, *batch;
  double ratio;
} MsBatchedPair;
/* The pairs at the smallest size the run holds, a source each, into
 * smallest (what the takeaway quotes and the picture labels),
 * tally[verdict + 1] counted up for every pair of every size, and upto
 * the largest exponent up to which every source was faster at every size
 * (8 less one where the first was not); returns how many pairs smallest
 * holds, 0 when none. */
int ms_batched_smallest (const MsResults *run, MsBatchedPair smallest[2], int tally[3], int *upto);
/* 1 where the batch saved time, -1 where it cost time (the medians'
 * intervals apart: the ratio's range misses 1), else 0. */
int ms_batched_verdict (const MsBatchedPair *pair);
