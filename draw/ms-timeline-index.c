/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-timeline-index.c: one repetition's events in tracks by start, with
 * block summaries. Built once per cell and repetition, kept in the layout;
 * a frame then costs what it shows, not what the cell holds. */
#include "ms-engine.h"
#include "ms-timeline-index.h"

#include <math.h>
#include <string.h>

/* A few events kept to tell a cell replaced at the same address. */
#define N_PROBES 17

static void
index_probes (const MsCell *cell, MsEvent *probe)
{
  memset (probe, 0, N_PROBES * sizeof *probe);
  for (guint i = 0; i < N_PROBES && cell->n_events; i++)
    probe[i] = cell->events[(cell->n_events - 1) * i / (N_PROBES - 1)];
}

gboolean
ms_timeline_index_matches (const MsTimelineIndex *ix, const MsCell *cell, int rep)
{
  return ix && ix->rep == rep && ms_rep_map_matches (ix->reps, cell);
}

/* ---- the repetition map ------------------------------------------------- */

struct _MsRepMap {
  gatomicrefcount ref;
  const MsEvent *events; /* which cell, as in the index */
  size_t n_events;
  MsEvent probe[N_PROBES];
  size_t scanned; /* events read so far */
  /* Per repetition, the first event and one past the last, [2r] and
   * [2r + 1]; SIZE_MAX at [2r] for a repetition not seen (yet). */
  size_t *range;
  int n_reps, cap_reps;
};

MsRepMap *
ms_rep_map_new (const MsCell *cell)
{
  MsRepMap *m = g_new0 (MsRepMap, 1);
  g_atomic_ref_count_init (&m->ref);
  m->events = cell->events;
  m->n_events = cell->n_events;
  index_probes (cell, m->probe);
  return m;
}

MsRepMap *
ms_rep_map_ref (MsRepMap *m)
{
  g_atomic_ref_count_inc (&m->ref);
  return m;
}

void
ms_rep_map_unref (MsRepMap *m)
{
  if (m && g_atomic_ref_count_dec (&m->ref)) {
    g_free (m->range);
    g_free (m);
  }
}

gboolean
ms_rep_map_matches (const MsRepMap *m, const MsCell *cell)
{
  MsEvent probe[N_PROBES];
  if (!m || !cell || m->events != cell->events || m->n_events != cell->n_events)
    return FALSE;
  index_probes (cell, probe);
  return memcmp (probe, m->probe, sizeof probe) == 0;
}

gboolean
ms_rep_map_complete (const MsRepMap *m)
{
  return m && m->scanned == m->n_events;
}

static void
grow_reps (MsRepMap *m, int rep)
{
  int cap = MAX (rep + 1, MAX (2 * m->cap_reps, 64));
  m->range = g_renew (size_t, m->range, 2 * (size_t) cap);
  for (int r = m->cap_reps; r < cap; r++) {
    m->range[2 * r] = SIZE_MAX;
    m->range[2 * r + 1] = 0;
  }
  m->cap_reps = cap;
}

/* One pass, in steps that look at the clock now and then: a cell of a
 * million events is read in a few milliseconds. */
#define FILL_STEP 16384

gboolean
ms_rep_map_fill (MsRepMap *m, const MsCell *cell, gint64 deadline_us)
{
  g_return_val_if_fail (ms_rep_map_matches (m, cell), FALSE);
  while (m->scanned < m->n_events) {
    size_t end = MIN (m->n_events, m->scanned + FILL_STEP);
    for (size_t i = m->scanned; i < end; i++) {
      int r = cell->events[i].rep;
      if (r < 0)
        continue;
      if (r >= m->cap_reps)
        grow_reps (m, r);
      if (m->range[2 * r] == SIZE_MAX)
        m->range[2 * r] = i;
      m->range[2 * r + 1] = i + 1;
      m->n_reps = MAX (m->n_reps, r + 1);
    }
    m->scanned = end;
    if (deadline_us && m->scanned < m->n_events && g_get_monotonic_time () >= deadline_us)
      return FALSE;
  }
  return TRUE;
}

void
ms_rep_map_range (const MsRepMap *m, int rep, size_t *first, size_t *end)
{
  *first = *end = 0;
  if (m && rep >= 0 && rep < m->n_reps && m->range[2 * rep] != SIZE_MAX) {
    *first = m->range[2 * rep];
    *end = m->range[2 * rep + 1];
  }
}

void
ms_rep_map_bounds (const MsRepMap *m, const MsCell *cell, int rep, size_t *first, size_t *end)
{
  if (!cell) {
    *first = *end = 0;
  } else if (ms_rep_map_complete (m) && ms_rep_map_matches (m, cell)) {
    ms_rep_map_range (m, rep, first, end);
  } else {
    *first = 0;
    *end = cell->n_events;
  }
}

/* The call was still running for most of the GPU work it issued: on the
 * common axis (host and GPU times both from the repetition's origin) the
 * host call and the GPU work overlap for three quarters of the GPU time.
 * A launch that took as long as its kernel but returned before the GPU
 * started (queued behind a copy) did not block: comparing durations alone
 * said it did. The GPU's origin event is recorded right after the host's
 * origin is read, so the two clocks agree to within that one call. */
gboolean
ms_index_blocked_host (const MsEvent *ev)
{
  if (!(ev->gpu_us > 2) || ev->gpu_start_us < 0)
    return FALSE;
  double overlap = MIN (ev->host_start_us + ev->host_us, ev->gpu_start_us + ev->gpu_us) -
                   MAX (ev->host_start_us, ev->gpu_start_us);
  return overlap >= 0.75 * ev->gpu_us;
}

/* The tracks an event of the repetition goes to, -1 for none: its GPU bar
 * (lanes beyond the merged ones share the track after them) and its host
 * bar. Without a finite start an event has no place on the axis. */
static void
event_tracks (const MsEvent *ev, int n_merged, int *gpu, int *host)
{
  *gpu = *host = -1;
  if ((unsigned) ev->phase >= MS_PHASE_COUNT)
    return;
  gboolean on_stream = ev->gpu_us >= 0;
  if (on_stream && isfinite (ev->gpu_start_us) && isfinite (ev->gpu_us))
    *gpu = ev->lane >= 0 && ev->lane < n_merged ? ev->lane : n_merged;
  /* A kernel's host part of no length marks no call (a lesson's stamps
   * taken on the GPU alone): drawn, it put specks where the host did
   * nothing. */
  if (!isfinite (ev->host_start_us) || !isfinite (ev->host_us)
      || (ev->phase == MS_PHASE_KERNEL && !(ev->host_us > 0)))
    return;
  int kind = !on_stream                   ? MS_BAR_HOST_WORK
             : ms_index_blocked_host (ev) ? MS_BAR_HOST_BLOCKED
                                          : MS_BAR_HOST_ASYNC;
  *host = n_merged + kind;
}

static int
cmp_start (const void *a, const void *b)
{
  double x = ((const MsIndexEntry *) a)->start_us, y = ((const MsIndexEntry *) b)->start_us;
  return (x > y) - (x < y);
}

/* Sorts by start unless in order already (the usual case: events are
 * recorded as they happen). */
static void
sort_entries (MsIndexEntry *entries, guint n)
{
  for (guint i = 1; i < n; i++)
    if (entries[i - 1].start_us > entries[i].start_us) {
      qsort (entries, n, sizeof *entries, cmp_start);
      return;
    }
}

static void
summarise_track (MsIndexEntry *e, guint n, MsIndexBlock *blocks)
{
  double reach = -INFINITY;
  for (guint b = 0; b * MS_INDEX_BLOCK < n; b++) {
    MsIndexBlock *blk = &blocks[b];
    memset (blk, 0, sizeof *blk);
    memset (blk->phase_first, 0xff, sizeof blk->phase_first);
    blk->max_end_us = -INFINITY;
    guint i0 = b * MS_INDEX_BLOCK, i1 = MIN (n, i0 + MS_INDEX_BLOCK);
    for (guint i = i0; i < i1; i++) {
      if (i > 0)
        blk->max_gap_us = MAX (blk->max_gap_us, e[i].start_us - e[i - 1].start_us);
      blk->max_dur_us = MAX (blk->max_dur_us, e[i].dur_us);
      blk->max_end_us = MAX (blk->max_end_us, e[i].start_us + e[i].dur_us);
      blk->phase_us[e[i].phase] += e[i].dur_us;
      if (blk->phase_first[e[i].phase] == 0xff)
        blk->phase_first[e[i].phase] = (guint8) (i - i0);
    }
    reach = MAX (reach, blk->max_end_us);
    blk->reach_us = reach;
  }
}

/* Counts the entries per track (counts[t]), or with entries fills them in
 * the events' order from the offsets in next[t]. */
static void
index_pass (MsTimelineIndex *ix, const MsCell *cell, int n_merged, guint *counts,
            guint *next)
{
  size_t first, end;
  ms_rep_map_range (ix->reps, ix->rep, &first, &end);
  for (size_t i = first; i < end; i++) {
    const MsEvent *ev = &cell->events[i];
    int gpu, host;
    if (ev->rep != ix->rep)
      continue;
    event_tracks (ev, n_merged, &gpu, &host);
    if (gpu >= 0 && counts)
      counts[gpu]++;
    else if (gpu >= 0)
      ix->entries[next[gpu]++] =
        (MsIndexEntry){ ev->gpu_start_us, ev->gpu_us, (guint) i, (guint8) ev->phase };
    if (host >= 0 && counts)
      counts[host]++;
    else if (host >= 0)
      ix->entries[next[host]++] =
        (MsIndexEntry){ ev->host_start_us, ev->host_us, (guint) i, (guint8) ev->phase };
  }
}

/* The repetition's entries in tracks: merged GPU lanes, the unmerged
 * ones, then the host kinds; each sorted and summarised. */
static void
build_tracks (MsTimelineIndex *ix, const MsCell *cell)
{
  int n_merged = MIN (ix->n_lanes, MS_INDEX_MERGED_LANES);
  ix->n_tracks = n_merged + MS_BAR_KINDS;
  ix->tracks = g_new0 (MsIndexTrack, ix->n_tracks);
  g_autofree guint *counts = g_new0 (guint, ix->n_tracks);
  g_autofree guint *next = g_new0 (guint, ix->n_tracks);
  index_pass (ix, cell, n_merged, counts, NULL);
  guint total = 0, n_blocks = 0;
  for (guint t = 0; t < ix->n_tracks; t++) {
    next[t] = total;
    total += counts[t];
    n_blocks += (counts[t] + MS_INDEX_BLOCK - 1) / MS_INDEX_BLOCK;
  }
  ix->entries = g_new (MsIndexEntry, MAX (total, 1));
  ix->blocks = g_new (MsIndexBlock, MAX (n_blocks, 1));
  index_pass (ix, cell, n_merged, NULL, next);

  guint at = 0, at_block = 0;
  for (guint t = 0; t < ix->n_tracks; t++) {
    MsIndexTrack *track = &ix->tracks[t];
    track->entries = ix->entries + at;
    track->blocks = ix->blocks + at_block;
    track->n = counts[t];
    track->kind = (int) t < n_merged ? MS_BAR_GPU : (int) t - n_merged;
    track->lane = (int) t < n_merged ? (int) t : -1;
    sort_entries (ix->entries + at, track->n);
    summarise_track (ix->entries + at, track->n, ix->blocks + at_block);
    at += track->n;
    at_block += (track->n + MS_INDEX_BLOCK - 1) / MS_INDEX_BLOCK;
  }
}

/* The map of the cell's repetitions: the one given or the previous
 * index's when complete for this cell, else one made here at once. */
static MsRepMap *
index_rep_map (const MsCell *cell, MsTimelineIndex *previous, MsRepMap *reps)
{
  if (ms_rep_map_complete (reps) && ms_rep_map_matches (reps, cell))
    return ms_rep_map_ref (reps);
  if (previous && ms_rep_map_complete (previous->reps) && ms_rep_map_matches (previous->reps, cell))
    return ms_rep_map_ref (previous->reps);
  MsRepMap *m = ms_rep_map_new (cell);
  ms_rep_map_fill (m, cell, 0);
  return m;
}

MsTimelineIndex *
ms_timeline_index_new (const MsCell *cell, int rep, MsTimelineIndex *previous, MsRepMap *reps)
{
  MsTimelineIndex *ix = g_new0 (MsTimelineIndex, 1);
  ix->events = cell->events;
  ix->rep = rep;
  ix->reps = index_rep_map (cell, previous, reps);
  size_t first, end;
  ms_rep_map_range (ix->reps, rep, &first, &end);
  int max_lane = 0;
  guint64 other_lanes = 0;
  for (size_t i = first; i < end; i++)
    if (cell->events[i].rep == rep) {
      int lane = cell->events[i].lane;
      if (lane > 0 && lane < 64) {
        if (cell->events[i].phase == MS_PHASE_HOST_FUNC)
          ix->host_func_lanes |= G_GUINT64_CONSTANT (1) << lane;
        else
          other_lanes |= G_GUINT64_CONSTANT (1) << lane;
      }
      max_lane = MAX (max_lane, cell->events[i].lane);
      if ((unsigned) cell->events[i].phase < MS_PHASE_COUNT)
        ix->seen[cell->events[i].phase] = TRUE;
      if (ms_timeline_event_launch (&cell->events[i]))
        ix->seen[MS_PHASE_LAUNCH] = TRUE;
    }
  ix->n_lanes = max_lane + 1;
  ix->host_func_lanes &= ~other_lanes;
  int threads = 0;
  ix->thread_lanes = ms_variant_get_int (cell->variant, "threads", &threads) && threads > 0;

  build_tracks (ix, cell);
  return ix;
}

void
ms_timeline_index_free (MsTimelineIndex *ix)
{
  if (!ix)
    return;
  g_free (ix->entries);
  g_free (ix->blocks);
  g_free (ix->tracks);
  ms_rep_map_unref (ix->reps);
  g_free (ix);
}

guint
ms_index_track_seek (const MsIndexTrack *t, double t_us)
{
  /* The reach only grows: the first block that reaches t_us. */
  guint lo = 0, hi = (t->n + MS_INDEX_BLOCK - 1) / MS_INDEX_BLOCK;
  while (lo < hi) {
    guint mid = lo + (hi - lo) / 2;
    if (t->blocks[mid].reach_us < t_us)
      lo = mid + 1;
    else
      hi = mid;
  }
  return MIN (t->n, lo * MS_INDEX_BLOCK);
}
