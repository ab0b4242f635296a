/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-run-read.c: a run read from its file, then what its lesson adds
 * (ms-run-read.h). */
#include "memsweep.h"
#include "ms-csv-io.h"
#include "ms-lesson-record.h"
#include "ms-lesson-table.h"
#include "ms-run-read.h"

/* A lesson's kernels aligned to their launches (nothing for a sweep or a
 * lesson without; idempotent), and the reason its file's metadata gives. */
static MsResults *
lesson_part (MsResults *r)
{
  if (!r)
    return NULL;
  r->experiment_reason = ms_lesson_reason (r->experiment);
  MsLessonTopic id = ms_lesson_topic_for_experiment (r->experiment);
  for (size_t i = 0; i < r->n_cells; i++)
    ms_lesson_align_kernels (r->cells[i].events, r->cells[i].n_events, id);
  return r;
}

MsResults *
ms_run_read_samples (const char *path, char *err, size_t errlen)
{
  return lesson_part (ms_csv_read_samples (path, err, errlen));
}

MsResults *
ms_run_read_figures (const char *path, char *err, size_t errlen)
{
  return lesson_part (ms_csv_read_figures (path, err, errlen));
}
