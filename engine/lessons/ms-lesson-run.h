/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-lesson-run.h: a lesson's parts and their running, in this process
 * or isolated in a fresh one. Defined in ms-lesson-run.c. */
#pragma once

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#include "memsweep.h"
#include "ms-lesson-types.h"

/* The parts of lesson name on the sizes, repetitions and device of base;
 * 0 for an unknown name. */
int ms_lesson_parts (const char *name, const MsSweep *base, MsLessonPart *parts, int max);

/* Runs the parts given in this process (the isolated child uses it). */
MsRunStatus ms_lesson_run_parts (const char *name, const MsSweep *base, const int *parts,
                                 int n_parts, MsBackend *backend, MsProgressFunc progress,
                                 void *user_data, atomic_int *cancel, MsResults **out,
                                 char *err, size_t errlen);

/* Runs a whole lesson: its parts in order, the isolated ones through
 * isolated (in this process when NULL), every cell merged into one result
 * with the experiment's name and settings. */
MsRunStatus ms_lesson_run (const char *name, const MsSweep *base, MsBackend *backend,
                           MsIsolatedFunc isolated, void *isolated_user, MsProgressFunc progress,
                           void *user_data, atomic_int *cancel, MsResults **out, char *err,
                           size_t errlen);
