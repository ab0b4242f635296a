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
/* One call per copy's time a copy over the batch's, both as the
 * captions write them (ms_caption_time). */
double ms_batched_ratio (const MsCell *each, const MsCell *batch, int count);
/* The pair the picture labels, into mark: the lowest ratio where the batch
 * was slower, else the first measured pair; tally[verdict + 1] counted
 * up. Returns how many pairs, 0 when none. */
int ms_batched_marks (const MsResults *run, MsBatchedPair *mark, int tally[3]);
/* 1 where the batch saved time, -1 where it cost time (the medians'
 * intervals apart: the ratio's range misses 1), else 0. */
int ms_batched_verdict (const MsBatchedPair *pair);
