/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-lesson-run.c: a lesson's parts (one sweep per setting, tagged with
 * its variant), running them here or in a fresh process, and merging
 * their cells into one result (docs/lessons.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ms-i18n.h"
#include "ms-lesson-private.h"

#define MAX_CONNECTIONS "CUDA_DEVICE_MAX_CONNECTIONS"

static const int reuse_factors[] = { 1, 2, 4, 8, 16 };
static const int stream_counts[] = { 1, 2, 4, 8, 16 };
#define N_OF(a) ((int) (sizeof (a) / sizeof (a)[0]))

typedef MsPartList PartList;
#define add_part ms_lesson_add_part

MsLessonPart *
ms_lesson_add_part (MsPartList *list, const char *modes, const char *variant)
{
  if (list->n >= list->max)
    return NULL;
  MsLessonPart *p = &list->parts[list->n++];
  memset (p, 0, sizeof *p);
  p->sweep = *list->base;
  memset (&p->sweep.knobs, 0, sizeof p->sweep.knobs);
  char err[128];
  ms_sweep_set_modes (&p->sweep, modes, err, sizeof err);
  snprintf (p->sweep.variant, sizeof p->sweep.variant, "%s", variant);
  /* A lesson has few cells, and some take their figures from the phases
   * (duplex, the staged copies): every repetition keeps its twin. */
  p->sweep.instr_reps = 0;
  return p;
}

static void
reuse_parts (PartList *l)
{
  static const char *const access_names[] = { "", "read", "write" };
  char v[MS_VARIANT_LEN];
  for (int i = 0; i < N_OF (reuse_factors); i++) {
    int r = reuse_factors[i];
    snprintf (v, sizeof v, "R=%d", r);
    MsLessonPart *p = add_part (l, "pinned,zero-copy,uva,managed", v);
    if (p)
      p->sweep.knobs.reuse = r;
    for (int acc = MS_ACCESS_READ; acc <= MS_ACCESS_WRITE; acc++) {
      snprintf (v, sizeof v, "R=%d/access=%s", r, access_names[acc]);
      p = add_part (l, "zero-copy", v);
      if (p) {
        p->sweep.knobs.reuse = r;
        p->sweep.knobs.access = (MsAccess) acc;
      }
    }
  }
}

static void
duplex_parts (PartList *l)
{
  static const char *const names[] = { NULL, "copy=h2d", "copy=d2h", "copy=duplex" };
  for (int d = MS_DUPLEX_H2D; d <= MS_DUPLEX_BOTH; d++) {
    MsLessonPart *p = add_part (l, "pinned", names[d]);
    if (p)
      p->sweep.knobs.duplex = (MsDuplex) d;
  }
}

void
ms_lesson_streams_variant (char *buf, size_t len, bool single_queue, MsIssueOrder order,
                           int streams)
{
  snprintf (buf, len, "queue=%s/order=%s/K=%d", single_queue ? "single" : "default",
            order == MS_ORDER_BREADTH_FIRST ? "breadth" : "depth", streams);
}

/* One streams part in a fresh process: one queue (the variable set) or the
 * default (the variable removed, whatever the caller's environment says);
 * timers: the observer effect, an event pair around every step and the
 * end-to-end time from those instrumented repetitions. */
static bool
add_order_part (PartList *l, bool single, MsIssueOrder order, int k, bool timers)
{
  char v[MS_VARIANT_LEN];
  ms_lesson_streams_variant (v, sizeof v, single, order, k);
  if (timers)
    strncat (v, "/timers=per-step", sizeof v - strlen (v) - 1);
  MsLessonPart *p = add_part (l, "streams", v);
  if (!p)
    return false;
  p->sweep.streams = k;
  p->sweep.order = order;
  p->sweep.knobs.timers_per_step = timers;
  p->isolated = true;
  p->env = single ? MAX_CONNECTIONS "=1" : NULL;
  p->env_unset = single ? NULL : MAX_CONNECTIONS;
  return true;
}

/* Every setting in a fresh process; the one-queue parts, with and without
 * per-step timers, share one. */
static void
issue_order_parts (PartList *l)
{
  for (int single = 1; single >= 0; single--)
    for (int timers = 0; timers <= single; timers++)
      for (int o = 0; o < 2; o++)
        for (int i = 0; i < N_OF (stream_counts); i++)
          if (!add_order_part (l, single, o ? MS_ORDER_BREADTH_FIRST : MS_ORDER_DEPTH_FIRST,
                               stream_counts[i], timers))
            return;
  for (int o = 0; o < 2; o++) {
    MsLessonPart *p = add_part (l, "streams", o ? "queue=default/order=breadth/K=4/host=work"
                                                : "queue=default/order=depth/K=4/host=work");
    if (!p)
      return;
    p->sweep.streams = 4;
    p->sweep.order = o ? MS_ORDER_BREADTH_FIRST : MS_ORDER_DEPTH_FIRST;
    p->sweep.knobs.host_work = true;
    p->isolated = true;
    p->env_unset = MAX_CONNECTIONS;
  }
}

static void
cache_state_parts (PartList *l)
{
  char v[MS_VARIANT_LEN];
  for (int s = 0; s < MS_STORES_COUNT; s++) {
    snprintf (v, sizeof v, "stores=%s", ms_sweep_stores_name ((MsHostStores) s));
    MsLessonPart *p = add_part (l, "pinned,write-combined", v);
    if (p)
      p->sweep.knobs.stores = (MsHostStores) s;
  }
  MsLessonPart *p = add_part (l, "write-combined", "stores=streamed/read=wc");
  if (p)
    p->sweep.knobs.read_wc = true;
}

/* Every cell also gets a counted repetition after its timed ones (CUPTI's
 * unified-memory counters: MsUmCounts). */
static void
managed_parts (PartList *l)
{
  MsLessonPart *p = add_part (l, "managed,managed-prefetch", "touch=first");
  if (p)
    p->sweep.knobs.um_counts = true;
  p = add_part (l, "managed", "touch=resident");
  if (p) {
    p->sweep.knobs.resident = true;
    p->sweep.knobs.um_counts = true;
  }
}

static void
costs_parts (PartList *l)
{
  MsLessonPart *p = add_part (l, "device", "cost=all");
  if (p) {
    p->costs = true;
    p->isolated = true;
  }
}

static const struct {
  const char *name;
  void (*parts) (PartList *l);
  const char *settings;
} builders[] = {
  { "reuse", reuse_parts,
    "R=1,2,4,8,16 for pinned, zero-copy, uva, managed; zero-copy also read-only and write-only" },
  { "duplex", duplex_parts, "pinned: one vector to the device, to the host, and both at once" },
  { "issue-order", issue_order_parts,
    "streams K=1,2,4,8,16, depth and breadth, with " MAX_CONNECTIONS "=1 and the default, each "
    "in a fresh process; one queue also with an event pair per step (timers=per-step); host "
    "work beside the copies at K=4" },
  { "cache-state", cache_state_parts,
    "pinned and write-combined inputs written with streaming stores, ordinary stores, or "
    "fresh buffers; write-combined result read by the CPU" },
  { "managed-touch", managed_parts,
    "managed first touch and on resident pages; managed-prefetch; page faults and migrations "
    "counted by CUPTI in one extra repetition per cell" },
  { "costs", costs_parts,
    "context creation, cudaMalloc, cudaMallocHost, malloc, cudaHostRegister and their frees, "
    "in a fresh process" },
};

int
ms_lesson_parts (const char *name, const MsSweep *base, MsLessonPart *parts, int max)
{
  PartList list = { parts, 0, max, base };
  const MsProbeLesson *probe = ms_probe_lesson_find (name);
  if (probe)
    probe->parts (&list);
  for (int i = 0; name && i < N_OF (builders); i++)
    if (strcmp (builders[i].name, name) == 0)
      builders[i].parts (&list);
  return list.n;
}

const char *
ms_lesson_settings (const char *name)
{
  const MsProbeLesson *probe = ms_probe_lesson_find (name);
  if (probe)
    return probe->settings;
  for (int i = 0; name && i < N_OF (builders); i++)
    if (strcmp (builders[i].name, name) == 0)
      return builders[i].settings;
  return NULL;
}

/* Moves every cell of part into all (keeping all's sweep and device). */
static bool
merge_part (MsResults *all, const MsResults *part)
{
  for (size_t i = 0; i < part->n_cells; i++)
    if (!ms_results_put_cell (all, &part->cells[i]))
      return false;
  for (int m = 0; m < MS_MODE_COUNT; m++)
    all->sweep.modes[m] = all->sweep.modes[m] || part->sweep.modes[m];
  /* The PCIe counters span the parts: from the first part's reading to the
   * last one's; a part that could not read them makes them unreadable. */
  MsLinkCounter *mine[] = { &all->aer_correctable, &all->replays };
  const MsLinkCounter *theirs[] = { &part->aer_correctable, &part->replays };
  for (int i = 0; i < 2; i++)
    if (mine[i]->state == MS_COUNTER_READ && theirs[i]->state == MS_COUNTER_READ)
      mine[i]->after = theirs[i]->after;
    else if (theirs[i]->state != MS_COUNTER_UNKNOWN)
      mine[i]->state = MS_COUNTER_NOT_READABLE;
  return true;
}

/* Progress over all parts: each part's cells count after the earlier ones'. */
typedef struct {
  MsProgressFunc progress;
  void *user_data;
  int offset;
} PartProgress;

static void
on_part_progress (int index, int n_cells, const MsCell *cell, void *user)
{
  PartProgress *pp = user;
  (void) n_cells;
  if (pp->progress)
    pp->progress (pp->offset + index, 0, cell, pp->user_data);
}

static void on_part_progress (int index, int n_cells, const MsCell *cell, void *user);

static MsRunStatus
run_probe_part (const MsLessonPart *part, MsBackend *backend, PartProgress *pp,
                atomic_int *cancel, MsResults **out, char *err, size_t errlen)
{
  const MsProbeLesson *lesson = ms_probe_lesson_for_probe ((MsProbe) part->probe);
  MsProbeCell *cells = lesson ? calloc (MS_PROBE_MAX_CELLS, sizeof *cells) : NULL;
  if (!cells) {
    *out = NULL;
    snprintf (err, errlen, ms_gettext ("out of memory"));
    return MS_RUN_CANCELLED;
  }
  int n = lesson->cells (&part->sweep, part->probe_part, cells, MS_PROBE_MAX_CELLS);
  MsRunStatus st = ms_lesson_run_probe (&part->sweep, (MsProbe) part->probe, cells, n, backend,
                                        on_part_progress, pp, cancel, out, err, errlen);
  free (cells);
  return st;
}

static MsRunStatus
run_one_part (const MsLessonPart *part, MsBackend *backend, PartProgress *pp, atomic_int *cancel,
              MsResults **out, char *err, size_t errlen)
{
  if (part->costs)
    return ms_lesson_run_costs (&part->sweep, backend, cancel, out, err, errlen);
  if (part->probe)
    return run_probe_part (part, backend, pp, cancel, out, err, errlen);
  return ms_sweep_run (&part->sweep, backend, on_part_progress, pp, cancel, out, err, errlen);
}

static void
label_results (MsResults *r, const char *name, const char *options)
{
  snprintf (r->experiment, sizeof r->experiment, "%s", name);
  const char *settings = ms_lesson_settings (name);
  /* The options given, after the settings they change. */
  snprintf (r->experiment_settings, sizeof r->experiment_settings, "%s%s%s",
            settings ? settings : "", options && *options ? "; options " : "",
            options ? options : "");
}

/* Adds part results to *all (taking them over when *all is NULL). */
static bool
take_part (MsResults **all, MsResults *part, const char *name, const char *base_options)
{
  if (!*all) {
    /* The first part's sweep describes the lesson's sizes and device; the
     * settings that differ live in the cells' variants. */
    *all = part;
    (*all)->sweep.variant[0] = '\0';
    memset (&(*all)->sweep.knobs, 0, sizeof (*all)->sweep.knobs);
    label_results (*all, name, base_options);
    return true;
  }
  bool ok = merge_part (*all, part);
  ms_results_free (part);
  return ok;
}

MsRunStatus
ms_lesson_run_parts (const char *name, const MsSweep *base, const int *parts, int n_parts,
                     MsBackend *backend, MsProgressFunc progress, void *user_data,
                     atomic_int *cancel, MsResults **out, char *err, size_t errlen)
{
  MsLessonPart all_parts[MS_LESSON_MAX_PARTS];
  int n_all = ms_lesson_parts (name, base, all_parts, MS_LESSON_MAX_PARTS);
  PartProgress pp = { progress, user_data, 0 };
  MsRunStatus st = MS_RUN_OK;
  *out = NULL;
  if (n_all == 0) {
    snprintf (err, errlen, ms_gettext ("unknown lesson '%s'"), name ? name : "");
    return MS_RUN_INVALID;
  }
  for (int i = 0; i < n_parts && st == MS_RUN_OK; i++) {
    if (parts[i] < 0 || parts[i] >= n_all) {
      snprintf (err, errlen, ms_gettext ("lesson '%s' has no part %d"), name, parts[i]);
      return MS_RUN_INVALID;
    }
    MsResults *r = NULL;
    st = run_one_part (&all_parts[parts[i]], backend, &pp, cancel, &r, err, errlen);
    if (!r)
      break;
    pp.offset += (int) r->n_cells;
    if (!take_part (out, r, name, base->options)) {
      snprintf (err, errlen, ms_gettext ("out of memory for the results"));
      return MS_RUN_CANCELLED;
    }
  }
  return st;
}

/* The run of parts [first, end) that shares where and how it runs. */
static int
same_setting_end (const MsLessonPart *parts, int n, int first)
{
  int end = first + 1;
  while (end < n && parts[end].isolated == parts[first].isolated &&
         !parts[end].costs == !parts[first].costs && parts[end].probe == parts[first].probe &&
         (parts[end].env == parts[first].env ||
          (parts[end].env && parts[first].env && !strcmp (parts[end].env, parts[first].env))) &&
         parts[end].env_unset == parts[first].env_unset)
    end++;
  return end;
}

MsRunStatus
ms_lesson_run (const char *name, const MsSweep *base, MsBackend *backend,
               MsIsolatedFunc isolated, void *isolated_user, MsProgressFunc progress,
               void *user_data, atomic_int *cancel, MsResults **out, char *err, size_t errlen)
{
  MsLessonPart parts[MS_LESSON_MAX_PARTS];
  int n = ms_lesson_parts (name, base, parts, MS_LESSON_MAX_PARTS);
  *out = NULL;
  if (n == 0) {
    snprintf (err, errlen, ms_gettext ("unknown lesson '%s'"), name ? name : "");
    return MS_RUN_INVALID;
  }
  if (!ms_lesson_check_options (name, base->options, err, errlen))
    return MS_RUN_INVALID;
  for (int i = 0; i < n; i++)
    if (!parts[i].costs && !parts[i].probe && !ms_sweep_validate (&parts[i].sweep, err, errlen))
      return MS_RUN_INVALID;
  MsRunStatus st = MS_RUN_OK;
  for (int first = 0; first < n && st == MS_RUN_OK;) {
    int end = same_setting_end (parts, n, first);
    int idx[MS_LESSON_MAX_PARTS];
    for (int i = first; i < end; i++)
      idx[i - first] = i;
    MsResults *r = NULL;
    if (parts[first].isolated && isolated) {
      r = isolated (name, base, idx, end - first, isolated_user, err, errlen);
      /* A failed child ends the lesson; what earlier parts measured stays. */
      if (!r)
        st = *out ? MS_RUN_CANCELLED : MS_RUN_NO_DEVICE;
      else if (cancel && atomic_load (cancel))
        st = MS_RUN_CANCELLED;
    } else {
      st = ms_lesson_run_parts (name, base, idx, end - first, backend, progress, user_data,
                                cancel, &r, err, errlen);
    }
    if (r && !take_part (out, r, name, base->options)) {
      snprintf (err, errlen, ms_gettext ("out of memory for the results"));
      return MS_RUN_CANCELLED;
    }
    if (*out)
      label_results (*out, name, base->options);
    first = end;
  }
  return st;
}
