/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-lesson-private.h: what a lesson's own file provides. The sweep
 * lessons are listed in ms-lesson.c and built in ms-lesson-run.c; each
 * probe lesson (ms-probe-cells.h) lives in one file, engine/ms-lesson-NAME.c,
 * with its reason, options, parts, cells and caption together, and is
 * listed once in ms-lesson-probes.c. */
#pragma once

#include "ms-lesson-caption.h"
#include "ms-probe-cells.h"

typedef struct {
  MsLessonPart *parts;
  int n, max;
  const MsSweep *base;
} MsPartList;

/* A new part on the base sweep with only the given modes and no knobs;
 * NULL when the list is full. */
MsLessonPart *ms_lesson_add_part (MsPartList *list, const char *modes, const char *variant);
/* A probe part (part: the probe's own numbering, given back to its cells
 * function); NULL when full. */
MsLessonPart *ms_lesson_add_probe_part (MsPartList *list, MsProbe probe, int part);

typedef struct {
  MsLessonInfo info;             /* name and reason */
  MsLessonTopic topic;           /* its card */
  MsProbe probe;
  const char *settings;          /* in words, for the metadata */
  const MsLessonOption *options; /* ending with a NULL key; may be NULL */
  /* Its parts: at least one probe part; isolated ones set env. */
  void (*parts) (MsPartList *list);
  /* The cells of one of its parts on sweep (options in sweep->options). */
  int (*cells) (const MsSweep *sweep, int part, MsProbeCell *cells, int max);
  /* As ms_lesson_caption. */
  bool (*caption) (const MsResults *results, int exponent, char *buf, size_t len);
  /* Optional: on the measuring thread, before a cell's samples (device: the
   * run's GPU): prepares the thread (binds it to a NUMA node, say) and may
   * leave a note for the cell's message; false with why: the cell is
   * UNSUPPORTED and takes no sample. after_cell undoes what it did. */
  bool (*before_cell) (const MsDeviceInfo *device, const MsProbeCell *cell, char *note,
                       size_t len);
  void (*after_cell) (const MsProbeCell *cell);
} MsProbeLesson;

/* The probe lessons, in the order of their cards. */
int ms_probe_lesson_count (void);
const MsProbeLesson *ms_probe_lesson_nth (int index);
const MsProbeLesson *ms_probe_lesson_find (const char *name);      /* NULL: none */
const MsProbeLesson *ms_probe_lesson_for_probe (MsProbe probe);    /* NULL: none */
const MsProbeLesson *ms_probe_lesson_for_topic (MsLessonTopic topic); /* NULL: none */

/* The value of key in options, or the option's default (lesson helpers). */
double ms_lesson_option_in (const MsLessonOption *options, const char *values, const char *key);
/* A probe cell's variant from a format. */
void ms_probe_cell_set (MsProbeCell *cell, MsMode mode, int exponent, const char *fmt, ...)
  __attribute__ ((format (printf, 4, 5)));

/* Each probe lesson's definition, in its own file. */
extern const MsProbeLesson ms_lesson_concurrent;
extern const MsProbeLesson ms_lesson_intensity;
extern const MsProbeLesson ms_lesson_pin_payoff;
extern const MsProbeLesson ms_lesson_copy_kinds;
extern const MsProbeLesson ms_lesson_implicit_sync;
extern const MsProbeLesson ms_lesson_batched;
extern const MsProbeLesson ms_lesson_numa;
extern const MsProbeLesson ms_lesson_priority;
extern const MsProbeLesson ms_lesson_sync_async;
extern const MsProbeLesson ms_lesson_default_stream;
extern const MsProbeLesson ms_lesson_host_func;
