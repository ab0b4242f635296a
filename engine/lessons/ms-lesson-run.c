/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-lesson-run.c: running a lesson: its parts (one sweep per setting,
 * tagged with its variant, or a probe's cells), here or in a fresh
 * process, and merging their cells into one result (docs/lessons.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ms-i18n.h"
#include "ms-lesson-costs-private.h"
#include "ms-lesson-record.h"
#include "ms-lesson-run.h"
#include "ms-lesson-table.h"
#include "ms-results.h"
#include "ms-rounds.h"
#include "ms-runner.h"
#include "ms-sweep.h"

int
ms_lesson_parts (const char *name, const MsSweep *base, MsLessonPart *parts, int max)
{
  MsPartList list = { parts, 0, max, base };
  /* A lesson with an experiment of its own: a plain sweep has no parts. */
  MsLessonTopic topic = ms_lesson_topic_for_experiment (name);
  const MsLesson *lesson = ms_lesson_record (topic);
  if (lesson && lesson->parts)
    lesson->parts (&list);
  else if (lesson && ms_lesson_kind (topic) == MS_LESSON_KIND_PROBE)
    ms_lesson_add_probe_part (&list, 0);
  return list.n;
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

static MsRunStatus
run_probe_part (MsLessonTopic id, const MsLessonPart *part, MsBackend *backend,
                PartProgress *pp, atomic_int *cancel, MsResults **out, char *err, size_t errlen)
{
  const MsLesson *lesson = ms_lesson_record (id);
  MsProbeCell *cells = lesson && lesson->cells ? calloc (MS_PROBE_MAX_CELLS, sizeof *cells) : NULL;
  if (!cells) {
    *out = NULL;
    snprintf (err, errlen, ms_gettext ("out of memory"));
    return MS_RUN_CANCELLED;
  }
  int n = lesson->cells (&part->sweep, part->probe_part, cells, MS_PROBE_MAX_CELLS);
  MsRunStatus st = ms_lesson_run_probe (&part->sweep, id, cells, n, backend, on_part_progress, pp,
                                        cancel, out, err, errlen);
  free (cells);
  return st;
}

static MsRunStatus
run_one_part (MsLessonTopic id, const MsLessonPart *part, MsBackend *backend, PartProgress *pp,
              atomic_int *cancel, MsResults **out, char *err, size_t errlen)
{
  if (part->costs)
    return ms_lesson_run_costs (&part->sweep, backend, cancel, out, err, errlen);
  if (part->probe)
    return run_probe_part (id, part, backend, pp, cancel, out, err, errlen);
  return ms_sweep_run (&part->sweep, backend, on_part_progress, pp, cancel, out, err, errlen);
}

static void
label_results (MsResults *r, const char *name, const char *options)
{
  /* Files get the lesson's one name, even when it was asked for by its
   * alias. */
  const MsLessonTopicInfo *lesson = ms_lesson_find (name);
  snprintf (r->experiment, sizeof r->experiment, "%s", lesson ? lesson->name : name);
  r->experiment_reason = ms_lesson_reason (r->experiment);
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
    st = run_one_part (ms_lesson_topic_for_experiment (name), &all_parts[parts[i]], backend, &pp,
                       cancel, &r, err, errlen);
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
