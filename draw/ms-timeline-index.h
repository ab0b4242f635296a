/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-timeline-index.h: private to the timeline. One repetition's events
 * split into tracks (a stream lane's GPU bars; each kind of host bar), each
 * sorted by start and summarised in blocks, so that a frame touches the
 * events it shows and skips runs of sub-pixel bars a block at a time. */
#pragma once

#include "ms-timeline.h"

G_BEGIN_DECLS

/* Bar kinds: the GPU's view on a stream lane; on the host lane host work,
 * calls that blocked the host and asynchronous calls. */
enum { MS_BAR_GPU, MS_BAR_HOST_WORK, MS_BAR_HOST_BLOCKED, MS_BAR_HOST_ASYNC, MS_BAR_KINDS };

/* Whether an event's host part is drawn as a kernel's launch (ms-timeline.c's drawn_phase): a
 * kernel on a stream whose call took time. The legend keys it where drawn (the Streams
 * timeline's hatched launches went unkeyed). */
static inline gboolean
ms_timeline_event_launch (const MsEvent *ev)
{
  return ev->phase == MS_PHASE_KERNEL && ev->gpu_us >= 0 && ev->host_us > 0;
}

/* What a frame reads of one event on one side, packed: a million events
 * are read from a third of the memory the events take. */
typedef struct {
  double start_us, dur_us;
  guint event; /* index in the cell's events */
  guint8 phase;
} MsIndexEntry;

#define MS_INDEX_BLOCK 64

/* MS_INDEX_BLOCK entries of a track in a few numbers. */
typedef struct {
  double max_gap_us; /* between starts, the first against the entry before */
  double max_dur_us;
  double max_end_us; /* in the block */
  double reach_us;   /* the latest end in the track up to the block's end */
  double phase_us[MS_PHASE_COUNT];
  guint8 phase_first[MS_PHASE_COUNT]; /* offset of the first, 0xff: none */
} MsIndexBlock;

/* Stream lanes up to this many get a track each, and so merged bars; the
 * rest share one whose bars are never merged. */
#define MS_INDEX_MERGED_LANES 1024

typedef struct {
  const MsIndexEntry *entries; /* by start */
  const MsIndexBlock *blocks;
  guint n;
  int kind; /* MS_BAR_* */
  int lane; /* the stream lane of a merged GPU track, else -1 */
} MsIndexTrack;

struct _MsTimelineIndex {
  const MsEvent *events; /* the cell's */
  int rep;
  MsIndexEntry *entries;
  MsIndexBlock *blocks;
  MsIndexTrack *tracks;
  guint n_tracks;
  int n_lanes;
  /* Stream lanes (1..63) that hold only host functions: named for them. */
  guint64 host_func_lanes;
  /* The stream lanes are host threads, one each (a run of several
   * threads: "threads=N" in its variant), whatever stream they shared:
   * named "thread 1", "thread 2". */
  gboolean thread_lanes;
  gboolean seen[MS_PHASE_COUNT];
  /* Where the cell's repetitions lie: made once per cell, handed on from
   * index to index as the repetition changes, so that a repetition's index
   * reads only its events. */
  MsRepMap *reps;
};

/* previous: the index the new one replaces, or NULL; what it knows of the
 * same cell is taken over, as is `reps` (may be NULL) when complete. */
MsTimelineIndex *ms_timeline_index_new (const MsCell *cell, int rep, MsTimelineIndex *previous,
                                        MsRepMap *reps);
void ms_timeline_index_free (MsTimelineIndex *ix);
gboolean ms_timeline_index_matches (const MsTimelineIndex *ix, const MsCell *cell, int rep);
/* The first entry of t that may end at or after t_us (a block's start). */
guint ms_index_track_seek (const MsIndexTrack *t, double t_us);
/* A host operation "blocked" when the call was still running while the
 * GPU did most of the work it issued (ended at or after the work began):
 * pageable copies, synchronous copies; not a launch that returned before
 * its kernel started. */
gboolean ms_index_blocked_host (const MsEvent *ev);

G_END_DECLS
