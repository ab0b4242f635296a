/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-lesson-issue-order.h: what the issue-order lesson's picture and
 * caption share with its parts. Defined in ms-lesson-issue-order.c. */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "memsweep.h"

/* The issue-order lesson's variant: "queue=single/order=depth/K=4"
 * (ms-lesson-issue-order.c). */
void ms_lesson_streams_variant (char *buf, size_t len, bool single_queue, MsIssueOrder order,
                                int streams);

/* The pair the takeaway quotes: plain repetitions (no timers) of both
 * orders at the most streams measured, on one hardware queue where the
 * run has it, else the default queues, at the largest size with them;
 * *depth, *breadth, *streams and *single set, and whether their intervals
 * lie apart returned in *apart. false when the run has no such pair. */
bool ms_issue_order_quoted (const MsResults *r, const MsCell **depth, const MsCell **breadth,
                            int *streams, bool *single, bool *apart);
/* Whether the orders' end-to-end times at one setting are the same by the
 * lessons' rule (ms_caption_judge): intervals that merely meet may still be
 * too wide to rule out a difference as large as the one the timers made,
 * and then the run cannot tell. */
bool ms_issue_order_same (const MsCell *depth, const MsCell *breadth);
/* The same work in one stream (K = 1) at c's size, where nothing can overlap:
 * the yardstick of how much the streams overlapped. One stream has one order,
 * so the quickest of its cells on either queue setting; NULL: none. */
const MsCell *ms_issue_order_one_stream (const MsResults *r, const MsCell *c);
/* The usual queues: CUDA's default when CUDA_DEVICE_MAX_CONNECTIONS is
 * unset, as ms_lesson_set_queues leaves it for every part but one queue's. */
#define MS_ISSUE_ORDER_USUAL_QUEUES 8
/* How long each step of kernels alone spins, in µs. */
#define MS_ISSUE_ORDER_SPIN_US 50.0
/* The streams of the variants beside the copies (what memsweep does around
 * its repetitions left out, kernels alone). */
#define MS_ISSUE_ORDER_AROUND_K 16
/* Kernels alone (work=kernels: every step one block spinning, no copies), both orders at
 * exponent e on one queue (single) or the usual ones, in *depth and *breadth; false where the run
 * has no such pair. */
bool ms_issue_order_kernels (const MsResults *r, int e, bool single, const MsCell **depth,
                             const MsCell **breadth);
/* Where one-queue breadth-first (breadth) saved more against one stream (one) than the add, which
 * is all it could save if the queue held the copies in issue order: that sentence in buf. */
bool ms_issue_order_copies_free (const MsCell *one, const MsCell *breadth, char *buf,
                                 size_t len);
/* Whether the two cells' 95% ranges lie apart (ms_caption_apart). */
bool ms_issue_order_apart (const MsCell *a, const MsCell *b);
/* The longer-running of a depth-first and a breadth-first cell, by name ("depth-first"), and how
 * many times as long it took by their medians in *times. */
const char *ms_issue_order_longer (const MsCell *depth, const MsCell *breadth, double *times);
