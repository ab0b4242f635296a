/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-lesson-record.h: a lesson's record, one shape for every kind. Each
 * lesson lives in one file, engine/lessons/ms-lesson-NAME.c, which defines
 * its record ms_lesson_NAME (its name and texts, options, parts, cells,
 * caption, and what the engine must know of its timeline) and is listed
 * once in ms-lesson-list.h. ms-lesson-table.c looks records up; the helpers
 * the lesson files share are in ms-lesson-parts.c (parts and cells) and
 * ms-lesson-options.c (options). */
#pragma once

#include "ms-gpu-clock.h"
#include "ms-lesson-caption.h"
#include "ms-lesson-types.h"
#include "ms-probe-cells.h"

/* A lesson's kind: the third column of ms-lesson-list.h. */
typedef enum {
  MS_LESSON_KIND_PLAIN, /* a plain sweep of its modes: no parts of its own */
  MS_LESSON_KIND_SWEEP, /* vector-add sweeps (or the costs table), one per part */
  MS_LESSON_KIND_PROBE, /* cells of its own kernels (kernels/lesson-NAME.cu) */
} MsLessonKind;

typedef struct {
  MsLessonPart *parts;
  int n, max;
  const MsSweep *base;
} MsPartList;

typedef struct {
  /* Its name, title, question, reason: what everyone sees. Not its
   * experiment, which its kind gives (ms_lesson_topic fills it in). */
  MsLessonTopicInfo card;
  const char *settings;          /* its settings in words, for the metadata; NULL: plain */
  const MsLessonOption *options; /* ending with a NULL key; may be NULL */
  /* Its parts on list->base: sweeps, a costs part, or probe parts
   * (isolated ones set env). NULL for a plain lesson, and for a probe
   * lesson that is one probe part (its part 0), as most are. */
  void (*parts) (MsPartList *list);
  /* A probe lesson's cells of one of its parts on sweep (options in
   * sweep->options); NULL for the others. */
  int (*cells) (const MsSweep *sweep, int part, MsProbeCell *cells, int max);
  /* As ms_lesson_caption. */
  bool (*caption) (const MsResults *results, int exponent, char *buf, size_t len);
  /* What the caption says where the run lacks what it reads (MS_N_): one
   * sentence per lesson, written here so that a caption that finds nothing
   * just returns false with nothing written (ms_caption_run). */
  const char *missing;
  /* Optional: the one line a slide leads with (as ms_lesson_takeaway,
   * at the caption's size); without, the caption's first sentence. */
  MsTakeaway (*takeaway) (const MsResults *results, char *buf, size_t len);
  /* Optional: on the measuring thread, before a probe cell's samples
   * (device: the run's GPU): prepares the thread (binds it to a NUMA node,
   * say) and may leave a note for the cell's message; false with why: the
   * cell is UNSUPPORTED and takes no sample. after_cell undoes what it did. */
  bool (*before_cell) (const MsDeviceInfo *device, const MsProbeCell *cell, char *note,
                       size_t len);
  void (*after_cell) (const MsProbeCell *cell);
  /* Optional, for a lesson whose kernels are seen only on the GPU's clock:
   * the host event (a launch, a call) that issued a kernel, from what its
   * kernels/lesson-NAME.cu records. Its kernels' GPU starts are then
   * aligned to those launches (ms_gpu_clock_align_kernels), in a run and
   * in a file read. */
  MsGpuClockIssuer kernel_issuer;
  /* Optional: what `memsweep lesson` and `show` print under the cells'
   * table beside the caption, lines computed from the run (as
   * ms_lesson_finding); nothing where the run lacks what they need. */
  void (*finding) (const MsResults *results, char *buf, size_t len);
  /* Its cells time allocating and freeing once (the costs table), not
   * repetitions: the tables show those times. */
  bool one_time_costs;
  /* It is also measured on two or more GPUs at once (`memsweep portable`,
   * ms_portable_run), which its caption reads where given. */
  bool multi_gpu;
  /* Optional: the run its slide draws when that is not the card's run
   * but another host's file (ms_lesson_elsewhere). */
  bool (*elsewhere) (const MsResults *run, MsLessonElsewhere *out);
} MsLesson;

/* The fields of a probe lesson's record that every probe lesson's file
 * defines under the same names: its options table (`options`), its cells
 * (`cells`) and its caption (`caption`). */
#define MS_PROBE_LESSON_FIELDS .options = options, .cells = cells, .caption = caption

/* Each lesson's record, in its own file. */
#define MS_LESSON_DECLARE(id, name, kind, picture) extern const MsLesson ms_lesson_##name;
MS_LESSON_LIST (MS_LESSON_DECLARE)
#undef MS_LESSON_DECLARE

/* The record of lesson id; NULL out of range (ms-lesson-table.c). */
const MsLesson *ms_lesson_record (MsLessonTopic id);
/* Its kind, from ms-lesson-list.h; PLAIN out of range. */
MsLessonKind ms_lesson_kind (MsLessonTopic id);
/* The record named name or its alias; NULL when none. */
const MsLesson *ms_lesson_record_find (const char *name);

/* ---- for the lesson files (ms-lesson-parts.c) ---------------------------- */

/* A new part on the base sweep with only the given modes and no knobs;
 * NULL when the list is full. */
MsLessonPart *ms_lesson_add_part (MsPartList *list, const char *modes, const char *variant);
/* A probe part (part: the lesson's own numbering, given back to its cells
 * function); NULL when full. */
MsLessonPart *ms_lesson_add_probe_part (MsPartList *list, int part);
/* Runs p in a fresh process, whose CUDA context is made after env
 * ("NAME=VALUE") is set and env_unset (a name) removed; either may be
 * NULL. Gives p back; nothing for a NULL p (a full list). */
MsLessonPart *ms_lesson_isolate (MsLessonPart *p, const char *env, const char *env_unset);
/* The variable that sets how many hardware work queues the streams share;
 * read once, when the context is made. */
#define MS_LESSON_MAX_CONNECTIONS "CUDA_DEVICE_MAX_CONNECTIONS"
/* Isolates p with one hardware work queue (MS_LESSON_MAX_CONNECTIONS=1)
 * or with the default ones (the variable removed, whatever the caller's
 * environment says). */
MsLessonPart *ms_lesson_set_queues (MsLessonPart *p, bool single);
/* The step after value in a series from 1 that multiplies by factor and
 * ends on last even where last is no power of factor (1, 4, 16, .., last):
 * the settings a lesson's cells go through up to an option's value. */
int ms_lesson_next_step (int value, int factor, int last);
/* Sets cell to a probe cell of mode at exponent with nothing else set:
 * its variant empty, for the lesson's own variant function to write.
 * Gives cell back. */
MsProbeCell *ms_probe_cell_init (MsProbeCell *cell, MsMode mode, int exponent);
/* The same with its variant from a format. */
MsProbeCell *ms_probe_cell_set (MsProbeCell *cell, MsMode mode, int exponent, const char *fmt, ...)
    __attribute__ ((format (printf, 4, 5)));

/* The value of key in values ("key=value,..."), or the option's default
 * (ms-lesson-options.c). */
double ms_lesson_option_in (const MsLessonOption *options, const char *values, const char *key);
/* Whether options are those of table (lesson name, for the messages). */
bool ms_lesson_options_check (const MsLessonOption *table, const char *name, const char *options,
                              char *err, size_t errlen);

/* ---- running a probe part, a lesson's timeline (ms-probe-cells.c) ------- */

/* Runs the cells of a probe part of lesson (a PROBE one) on sweep's device, warm-up and
 * repetitions (sweep->reps under MS_REPS_FIXED, else sweep->min_reps):
 * MsResults with one cell per MsProbeCell, in their order. A cell the
 * backend cannot measure is MS_CELL_UNSUPPORTED with the reason, and the
 * others go on. */
MsRunStatus ms_lesson_run_probe (const MsSweep *sweep, MsLessonTopic lesson,
                                 const MsProbeCell *cells, int n_cells, MsBackend *backend,
                                 MsProgressFunc progress, void *user_data, atomic_int *cancel,
                                 MsResults **out, char *err, size_t errlen);


/* The host event that issued kernel in a cell of lesson id; NULL when the
 * lesson aligns no kernels or the issuer is not certain. */
const MsEvent *ms_lesson_kernel_issuer (const MsEvent *events, size_t n_events, MsLessonTopic id,
                                        const MsEvent *kernel);
/* The lag of repetition rep of a cell of lesson id: max (0, launch host
 * start - kernel GPU start) over its kernels; 0 for a lesson without. */
double ms_lesson_kernel_lag (const MsEvent *events, size_t n_events, MsLessonTopic id, int rep);
/* Aligns the kernels of a cell of lesson id to their launches; nothing for
 * a lesson without. Idempotent. */
void ms_lesson_align_kernels (MsEvent *events, size_t n_events, MsLessonTopic id);
