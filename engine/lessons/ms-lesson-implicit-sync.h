/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-lesson-implicit-sync.h: the implicit-synchronisation lesson's cells read
 * back (engine/lessons/ms-lesson-implicit-sync.c): which operation, stream kind
 * and queues a cell is, and whether its two kernels overlapped. The
 * caption and the picture judge the cells the same way. */
#pragma once

#include <stdbool.h>

#include "memsweep.h"

/* The operations between the two launches, in the matrix's row order
 * (mirrored by kernels/lesson-implicit-sync.cu). MS_SYNC_OP_ALONE is the
 * one-kernel cell the others are counted in. */
typedef enum {
  MS_SYNC_OP_ALONE,
  MS_SYNC_OP_NONE,
  MS_SYNC_OP_MALLOC,
  MS_SYNC_OP_FREE,
  MS_SYNC_OP_MALLOC_ASYNC,
  MS_SYNC_OP_FREE_ASYNC,
  MS_SYNC_OP_MALLOC_HOST,
  MS_SYNC_OP_FREE_HOST,
  MS_SYNC_OP_REGISTER,
  MS_SYNC_OP_MEMSET,
  MS_SYNC_OP_MEMSET_ASYNC,
  MS_SYNC_OP_MEMCPY_D2D,
  MS_SYNC_OP_KERNEL_LEGACY,
  MS_SYNC_OP_KERNEL_PER_THREAD,
  MS_SYNC_OP_EVENT_RECORD,
  MS_SYNC_OP_COUNT
} MsSyncOp;

/* The matrix's columns: stream kind x hardware queues. */
#define MS_SYNC_N_COLUMNS 4
#define MS_SYNC_COLUMN(non_blocking, default_queues) ((non_blocking) * 2 + (default_queues))

typedef enum {
  MS_SYNC_MISSING,    /* the run lacks the cell or its references */
  MS_SYNC_OVERLAPPED, /* about one kernel's time */
  MS_SYNC_SERIALISED, /* about two */
  MS_SYNC_UNDECIDED,  /* the call itself took most of a kernel's time */
} MsSyncVerdict;

/* A call that takes more than this share of a kernel's time leaves the
 * host clock unable to tell the two cases apart: the kernels' own GPU
 * stamps can show them overlapped, else the verdict is undecided. */
#define MS_SYNC_UNDECIDED_CALL_SHARE 0.75

typedef struct {
  MsSyncVerdict verdict;
  double us;      /* the median, host clock from the first launch to the end */
  double times;   /* us in single-kernel times */
  double call_us; /* the call's host time (instrumented samples), 0 when none */
  /* Undecided, by the stamps: the call returned only after the first
   * kernel ended, held_us (the median) after it, and the second began
   * after that (the call held the host; whether it waited for the kernel,
   * they cannot say); NAN otherwise. */
  double held_us;
} MsSyncJudged;

/* The variant of a cell: "op=malloc/s=block/q=1". */
void ms_implicit_sync_variant (char *buf, size_t len, MsSyncOp op, bool non_blocking,
                               bool default_queues);
/* The call in the operation's row ("cudaMalloc"), untranslated. */
const char *ms_implicit_sync_op_label (MsSyncOp op);
/* Whether the material lists the operation as one that synchronises. */
bool ms_implicit_sync_op_listed (MsSyncOp op);
/* The column's label ("blocking, 1 queue"), translated. */
const char *ms_implicit_sync_column_label (int column);
/* Judges op in column against the run's one-kernel and nothing-between
 * cells of the same queues. */
MsSyncVerdict ms_implicit_sync_judge (const MsResults *r, MsSyncOp op, int column,
                                      MsSyncJudged *out);
/* Whether j, undecided by the host clock, held the host past the first
 * kernel's end by the stamps (held_us): the one test of a drawn "held". */
bool ms_implicit_sync_held_past (const MsSyncJudged *j);
/* Whether op kept the two kernels apart in column: serialised, or held the
 * host past the first kernel's end (out as ms_implicit_sync_judge's). */
bool ms_implicit_sync_kept_apart (const MsResults *r, MsSyncOp op, int column, MsSyncJudged *out);
/* Whether the takeaway counts op among the calls that stopped the overlap:
 * a listed call that serialised somewhere, or one off the list that kept
 * the kernels apart wherever the listed ones serialised. */
bool ms_implicit_sync_counted (const MsResults *r, MsSyncOp op);
