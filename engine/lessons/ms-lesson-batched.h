/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-lesson-batched.h: the batched lesson's quoted pair, shared by its
 * takeaway and its picture (draw/ms-picture-batched.c), which rings it. */
#pragma once

#include "memsweep.h"

/* The copies per sample of the run's cells (0: none). */
int ms_batched_count (const MsResults *run);
/* Submission s's cell of mode at exp, NULL when not measured: 0 one call
 * per copy, 1 to 3 one batch in stream order, in any order, read during
 * the call. */
const MsCell *ms_batched_cell (const MsResults *run, MsMode mode, int exp, int count, int s);
/* The pair the takeaway quotes: of the sources, the one where one call
 * per copy and the fastest batch at the lesson's size lie furthest apart,
 * their intervals apart; *mode, *each and *batch set. false when no
 * source decides. */
bool ms_batched_quoted (const MsResults *run, MsMode *mode, const MsCell **each,
                        const MsCell **batch);
