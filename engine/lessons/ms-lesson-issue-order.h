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
/* Whether the two cells' 95% ranges lie apart (ms_caption_apart). */
bool ms_issue_order_apart (const MsCell *a, const MsCell *b);
/* c's time against one's, as both are written: "18% less than one stream" or "4% more than one
 * stream" (bare: "18% less", where the sentence names one stream once). */
const char *ms_issue_order_against_one (const MsCell *one, const MsCell *c, bool bare, char *buf,
                                        size_t len);
/* Why the order matters little, from one stream's steps (timed with an event pair each, drawn in
 * its bar on the slide): the add's share of its time, and where the orders d and b saved more than
 * the add takes, that most of the saving came from the copies (not which overlapped: the run does
 * not show it); "" where the cell has no steps or neither order saved time beyond the spread. */
const char *ms_issue_order_why (const MsCell *one, const MsCell *d, const MsCell *b, char *buf,
                                size_t len);
