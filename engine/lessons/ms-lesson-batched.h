/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-lesson-batched.h: the batched lesson's quoted pair, shared by its
 * takeaway and its picture (draw/ms-picture-batched.c), which rings it. */
#pragma once

#include "memsweep.h"

/* The pair the takeaway quotes: of the sources, the one where one call
 * per copy and the fastest batch at the lesson's size lie furthest apart,
 * their intervals apart; *mode, *each and *batch set. false when no
 * source decides. */
bool ms_batched_quoted (const MsResults *run, MsMode *mode, const MsCell **each,
                        const MsCell **batch);
