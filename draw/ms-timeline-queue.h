/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-timeline-queue.h: copies that waited. Copies of one direction go
 * through one copy engine, one at a time: a copy whose stream reached it
 * while another copy of its direction was still running waited for that
 * one to end, and its events span the wait too. The timeline draws that
 * part of its bar pale. Defined in ms-timeline-queue.c. */
#pragma once

#include "ms-timeline.h"

G_BEGIN_DECLS

/* Whether phase is a copy of one direction (h2d, d2h). */
gboolean ms_phase_is_copy (MsPhase phase);
/* For n copies of one direction (events on a stream), when each began to
 * move data: its start, or the end of the copy of that direction running
 * then, taken in the order the copies ended. began[i] for events[i]. */
void ms_copy_queue_began (const MsEvent *const *events, guint n, double *began);
/* Whether a copy of repetition rep with a bar in win waited a visible
 * while (more than 1 % of the window) behind another. */
gboolean ms_timeline_copies_waited (const MsCell *cell, int rep, const MsRepMap *reps,
                                    const MsTimeWindow *win);
/* Whether the cell ran all its GPU work on one stream though its lanes are
 * several: its variant says stream=legacy (the legacy default stream,
 * which every host thread shares, the lanes being the threads). Then any
 * GPU bar waited for the one before it, whatever its phase, and its
 * events span that wait. */
gboolean ms_timeline_one_stream (const MsCell *cell);
/* Whether, in such a cell, a GPU bar of repetition rep in win waited a
 * visible while behind another. */
gboolean ms_timeline_one_stream_waited (const MsCell *cell, int rep, const MsRepMap *reps,
                                        const MsTimeWindow *win);

G_END_DECLS
