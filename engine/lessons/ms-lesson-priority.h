/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-lesson-priority.h: the stream-priorities lesson's cells, shared by
 * its caption, its picture and kernels/lesson-priority.cu (which mirrors
 * the argument numbers). */
#pragma once

#include <stddef.h>

#include "memsweep.h"

/* Which stream the short kernels go to. */
typedef enum {
  MS_PRIORITY_HIGH, /* the greatest priority */
  MS_PRIORITY_LOW,  /* a second stream of the least priority, as the long kernel's */
  MS_PRIORITY_NONE, /* no short kernels: the long kernel alone */
  MS_PRIORITY_SHORTS_COUNT
} MsPriorityShorts;

/* What a cell's figure is. */
typedef enum {
  MS_PRIORITY_WAIT, /* the median wait of a run's short kernels, launch to start */
  MS_PRIORITY_LONG, /* the long kernel's time, launch to its end (host clock) */
  MS_PRIORITY_FIGURE_COUNT
} MsPriorityFigure;

/* arg[] of the probe. */
enum {
  MS_PRIORITY_ARG_WAVES,
  MS_PRIORITY_ARG_BLOCK_US,
  MS_PRIORITY_ARG_SHORT_US,
  MS_PRIORITY_ARG_GAP_US,
  MS_PRIORITY_ARG_SHORTS,
  MS_PRIORITY_ARG_FIGURE,
  MS_PRIORITY_ARG_COUNT
};

/* "prio=high/wait/W=40/blk=50/sk=10/gap=100". */
void ms_priority_variant (char *buf, size_t len, MsPriorityShorts shorts, MsPriorityFigure figure,
                          int waves, int block_us, int short_us, int gap_us);
/* The run's cell of shorts and figure (any settings), or NULL. */
/* A wait as the lesson writes it: to a tenth of a µs from 10 to 100 µs,
 * so that two waits divided give the fold the line quotes from the
 * medians; else as ms_caption_time. */
const char *ms_priority_wait_words (double us, char *buf, size_t len);

const MsCell *ms_priority_cell (const MsResults *r, MsPriorityShorts shorts,
                                MsPriorityFigure figure);
