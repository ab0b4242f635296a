/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-lesson-cache-state.h: what the cache-state lesson's caption and its
 * picture (draw/ms-picture-cache-state.c) both compute from a run: each
 * state of the host's stores against streamed stores in the same memory,
 * end to end, and the CPU's check of the result in write-combined memory
 * against ordinary memory, with the verdict of the run's own rule. */
#pragma once

#include "memsweep.h"
#include "analysis/ms-compare.h"

/* The states the lesson compares; the first of a mode is its reference. */
typedef enum {
  MS_CACHE_STATE_ORDINARY, /* ordinary stores, against streamed stores */
  MS_CACHE_STATE_FRESH,    /* new buffers every repetition, against streamed stores */
  MS_CACHE_STATE_KEPT,     /* inputs not rewritten since the first repetition */
  MS_CACHE_STATE_READ_WC,  /* the CPU's check of a result in write-combined memory,
                            * against one in ordinary memory */
  MS_CACHE_STATE_COUNT
} MsCacheState;

/* One comparison at one size: medians in µs (end to end, or the CPU's
 * check of the result for MS_CACHE_STATE_READ_WC), and this state's
 * against the reference's by the run's rule. */
typedef struct {
  MsMode mode;
  MsCacheState state;
  int exponent;
  double median_us, reference_us;
  MsJudgement judgement; /* ratio: median_us / reference_us */
} MsCacheStateRow;

/* The largest rows the lesson has (every mode's states and the check). */
#define MS_CACHE_STATE_MAX_ROWS 9

/* The comparisons the run has at exponent (-1: the largest size at which
 * a pageable copy differs by the rule, else the largest that has any),
 * pageable first, then pinned, write-combined and the check; their
 * count, at most max. */
int ms_cache_state_rows (const MsResults *r, int exponent, MsCacheStateRow *rows, int max);
/* The state in words, translated: "ordinary stores", "in write-combined
 * memory". */
const char *ms_cache_state_name (MsCacheState state);
/* Whether the slide draws row and its headline weighs it: ordinary
 * stores against streaming stores, each memory's one row (three memories
 * by four ways of writing were twelve cases for a class at once; the
 * details and the larger view keep every row). */
bool ms_cache_state_on_slide (const MsCacheStateRow *row);
/* Why the run cannot tell mode's copies from streamed stores, in buf: the
 * span of their 95% ranges against the band. False where a copy of mode
 * is told, or has none. */
bool ms_cache_state_why_untold (const MsCacheStateRow *rows, int n, MsMode mode, char *buf,
                                size_t len);
/* Where the rows are of a smaller size than the run's largest: the
 * largest size's pageable copies, their ratios and verdict, in buf. */
bool ms_cache_state_largest_note (const MsResults *r, char *buf, size_t len);
/* That note; else where the run cannot tell pageable copies apart at any
 * size: why a cache could still matter, in buf. */
bool ms_cache_state_cached_note (const MsResults *r, char *buf, size_t len);
/* Where a pinned or write-combined copy is slower after a way of writing
 * by the rule (the slowest): how much longer its copies in took by the
 * GPU's clock, at the rows' size and the largest, in buf. False where
 * none is, or the copies hold less than half the added time. */
bool ms_cache_state_engine_note (const MsResults *r, char *buf, size_t len);
