/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-lesson-types.h: the lessons' vocabulary: their ids (from their list,
 * ms-lesson-list.h), a lesson as everyone sees it, its parts and options.
 * Types only; the functions are declared in the headers of the files that
 * define them (ms-lesson-table.h, ms-lesson-run.h, ms-lesson-caption.h).
 * Here rather than in memsweep.h, so that the engine's shared types know
 * no lesson: only the lessons, and those above them, include it (outside
 * engine/ through ms-lessons.h or ms-engine.h). */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "memsweep.h"
#include "ms-lesson-list.h"

/* A lesson's id: its line of ms-lesson-list.h, the order of the cards. */
typedef enum {
#define MS_LESSON_ID(id, name, kind, picture) MS_TOPIC_##id,
  MS_LESSON_LIST (MS_LESSON_ID)
#undef MS_LESSON_ID
  MS_TOPIC_COUNT
} MsLessonTopic;

/* A lesson as everyone sees it: the public part of its record
 * (engine/lessons/ms-lesson-record.h); its cards and captions are in
 * ms-lesson-caption.h. Texts are untranslated (MS_N_): show
 * them through ms_gettext; files store them as they are. */
typedef struct {
  /* The one name: `memsweep lesson NAME`, `memsweep-gtk --lesson NAME`,
   * the metadata's experiment, reference files lesson-NAME-samples.csv. */
  const char *name;
  /* An older name that settings, scripts or files may still hold: accepted
   * on input, never written; NULL when none. */
  const char *alias;
  const char *experiment; /* name, or "" for a lesson a plain sweep measures */
  const char *modes;      /* the modes it compares ("pageable,pinned") */
  bool plain;             /* a plain sweep of these modes answers it too */
  const char *title;
  const char *question;
  const char *reason;     /* why it is measured, and what to look for */
} MsLessonTopicInfo;

/* A lesson runs as parts: one sweep (or the costs table) per setting, in
 * this process or, isolated, in a fresh one with an environment variable
 * set or removed (CUDA_DEVICE_MAX_CONNECTIONS must be set before the CUDA
 * context exists; the first context's cost needs a process without one). */
#define MS_LESSON_MAX_PARTS 48

typedef struct {
  MsSweep sweep;       /* modes, knobs and variant of this part */
  bool costs;          /* the costs table instead of a sweep */
  bool isolated;       /* in a fresh process */
  const char *env;     /* for an isolated part: "NAME=VALUE" to set, or */
  const char *env_unset; /* a name to remove from the environment; or NULL */
  bool probe;          /* a probe lesson's part: its cells (ms-probe-cells.h) */
  int probe_part;      /* which of the probe's parts, its own numbering */
} MsLessonPart;

/* A lesson's option (`memsweep lesson NAME --option KEY=VALUE`): a number
 * with its default and range. help is untranslated (MS_N_). */
typedef struct {
  const char *key; /* "kernel-us" */
  double def, min, max;
  bool integer;
  const char *help;
} MsLessonOption;

/* Runs parts (indices into ms_lesson_parts) in a fresh process, all with
 * the same environment, and returns their results; the front end provides
 * it (the command line runs itself). NULL with a message on failure. */
typedef MsResults *(*MsIsolatedFunc) (const char *name, const MsSweep *base, const int *parts,
                                      int n_parts, void *user, char *err, size_t errlen);
