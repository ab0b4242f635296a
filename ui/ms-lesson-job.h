/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-lesson-job.h: a lesson's run on a worker thread (its experiment, or a
 * plain sweep of its modes), or its reference run read from a file, as
 * ms-sweep-job.c runs the sweep: the worker gets copies, results come
 * back to the main context, and the owner (the session) may go away
 * meanwhile. */
#pragma once

#include <gio/gio.h>

#include "ms-job-engine.h"
#include "ms-lessons.h"
#include "ms-run.h"

G_BEGIN_DECLS

typedef struct _MsLessonJob MsLessonJob;

/* Main context; the owner is alive. fraction: 0..1. */
typedef void (*MsLessonJobProgress) (GObject *owner, MsLessonTopic topic, double fraction);
/* Main context, once, when the owner is still alive: run (a lesson run,
 * transfer full) or NULL with error. */
typedef void (*MsLessonJobDone) (GObject *owner, MsLessonJob *job, MsLessonTopic topic,
                                 MsRun *run, const char *error);

/* Measures topic on the sizes, repetitions and device of base, with
 * engine's backend (NULL: the system's). */
MsLessonJob *ms_lesson_job_run (GObject *owner, MsLessonTopic topic, const MsSweep *base,
                                MsJobEngine *engine, MsLessonJobProgress progress,
                                MsLessonJobDone done);
/* Reads the first of paths that answers topic. */
MsLessonJob *ms_lesson_job_load (GObject *owner, MsLessonTopic topic, const char *const *paths,
                                 MsLessonJobDone done);
/* The portable lesson's three buffers when it ran on 2 or more GPUs, else
 * NULL; valid in the done callback. */
const MsPortableResults *ms_lesson_job_get_portable (MsLessonJob *job);
/* Stops a run at the next repetition; done still comes, with what was
 * measured. */
void ms_lesson_job_cancel (MsLessonJob *job);

G_END_DECLS
