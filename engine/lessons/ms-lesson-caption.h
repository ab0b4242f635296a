/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-lesson-caption.h: the lessons as topics (one card each in the app,
 * one line each in a report) and the caption of a run: a sentence template
 * filled with the numbers of that run, never with numbers of our own.
 * GLib-free, so the command line can print the same sentences. */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "memsweep.h"
#include "ms-multi.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  MS_TOPIC_PINNED_PAGEABLE, /* plain sweep: pageable, pinned */
  MS_TOPIC_REUSE,           /* experiment "reuse" */
  MS_TOPIC_CACHE_STATE,     /* experiment "cache-state" */
  MS_TOPIC_REGISTER,        /* plain sweep: registered, pinned */
  MS_TOPIC_MANAGED,         /* experiment "managed-touch", or a plain sweep */
  MS_TOPIC_ISSUE_ORDER,     /* experiment "issue-order" */
  MS_TOPIC_DUPLEX,          /* experiment "duplex" */
  MS_TOPIC_COSTS,           /* experiment "costs" */
  MS_TOPIC_PORTABLE,        /* plain sweep of pinned; with 2+ GPUs `memsweep portable` too */
  /* The probe lessons (engine/lessons/ms-lesson-private.h): one file each. */
  MS_TOPIC_IMPLICIT_SYNC,   /* experiment "implicit-sync" */
  MS_TOPIC_DEFAULT_STREAM,  /* experiment "default-stream" */
  MS_TOPIC_HOST_FUNC,       /* experiment "host-func" */
  MS_TOPIC_PRIORITY,        /* experiment "priority" */
  MS_TOPIC_CONCURRENT,      /* experiment "concurrent" */
  MS_TOPIC_SYNC_ASYNC,      /* experiment "sync-async" */
  MS_TOPIC_PIN_PAYOFF,      /* experiment "pin-payoff" */
  MS_TOPIC_INTENSITY,       /* experiment "intensity" */
  MS_TOPIC_COPY_KINDS,      /* experiment "copy-kinds" */
  MS_TOPIC_BATCHED,         /* experiment "batched" */
  MS_TOPIC_NUMA,            /* experiment "numa" */
  MS_TOPIC_COUNT
} MsLessonTopic;

/* What a topic shows and how it is measured. Texts are untranslated
 * (MS_N_): show them through ms_gettext. */
typedef struct {
  const char *name;       /* "pinned-pageable": reference files are lesson-NAME-samples.csv */
  const char *experiment; /* the experiment that measures it, "" for a plain sweep */
  const char *modes;      /* the modes it compares ("pageable,pinned") */
  bool plain;             /* a plain sweep of these modes answers it too */
  const char *title;
  const char *question;
} MsLessonTopicInfo;

const MsLessonTopicInfo *ms_lesson_topic (MsLessonTopic topic); /* NULL out of range */
/* Whether the topic's lesson exists in this build: a plain sweep answers
 * it, or its experiment is a lesson (ms_lesson_find). */
bool ms_lesson_topic_built (MsLessonTopic topic);
/* The topic named name, or MS_TOPIC_COUNT. */
MsLessonTopic ms_lesson_topic_from_name (const char *name);
/* The topic the experiment (ms_lesson_find) measures, or MS_TOPIC_COUNT. */
MsLessonTopic ms_lesson_topic_for_experiment (const char *experiment);
/* Whether results hold what the topic reads: its experiment, or where a
 * plain sweep answers it, a plain sweep with cells of every mode it
 * compares. */
bool ms_lesson_topic_matches (MsLessonTopic topic, const MsResults *results);

/* A time as every caption writes it: "8.30 µs", "755 µs", "2.45 ms",
 * "14.2 ms" (pictures that quote a caption's figure use it too). */
const char *ms_caption_time (double us, char *buf, size_t len);
/* The register lesson's crossing: from how many repetitions allocating
 * pinned buffers once (alloc_us, then pin_e2e_us a repetition) costs less
 * than registering them anew in each (reg_us + reg_e2e_us a repetition);
 * 0 when never. cross, where given: where the two totals meet. The
 * caption and the picture say the same n. */
int ms_register_cheaper_from (double reg_us, double reg_e2e_us, double alloc_us, double pin_e2e_us,
                              double *cross);

/* Writes the caption of topic for results into buf (always a sentence).
 * exponent: the size to speak of, or -1 for the largest size with every
 * cell the sentence needs. Returns true when the sentence states the
 * effect from measured numbers; false when the results lack what the topic
 * needs (the sentence then says what is missing). */
bool ms_lesson_caption (MsLessonTopic topic, const MsResults *results, int exponent, char *buf,
                        size_t len);

/* The smallest R at which zero-copy takes longer end to end than pinned at
 * exponent, in a "reuse" experiment (variants "R=n"). Returns 1 and sets
 * *r_cross when found, 0 when zero-copy wins at every R (then *r_max is the
 * largest R measured), -1 when the cells are missing. */
int ms_lesson_reuse_crossover (const MsResults *results, int exponent, int *r_cross, int *r_max);

/* The portable-flag lesson (cudaHostAllocPortable). With portable, the
 * three buffers of `memsweep portable` on 2 or more GPUs (ms_portable_run):
 * what each GPU reached from a buffer pinned per GPU, one portable buffer
 * and one pinned on the first GPU only. Without (NULL, or one GPU): why
 * the flag changes nothing for the one GPU of run, from run's device and
 * pinned copies. ms_lesson_caption (MS_TOPIC_PORTABLE, ...) is the latter.
 * Returns as ms_lesson_caption. */
bool ms_lesson_portable_caption (const MsResults *run, const MsPortableResults *portable,
                                 char *buf, size_t len);

#ifdef __cplusplus
}
#endif
