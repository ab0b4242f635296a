/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-lesson-caption.h: the lessons (one card each in the app, one line
 * each in a report; their records are listed in ms-lesson-list.h and looked
 * up in ms-lesson-table.c) and the caption of a run: a sentence template
 * filled with the numbers of that run, never with numbers of our own.
 * GLib-free, so the command line can print the same sentences. */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "memsweep.h"
#include "ms-lesson-types.h"
#include "model/ms-multi-results.h"
#include "files/ms-portable-file.h"

const MsLessonTopicInfo *ms_lesson_topic (MsLessonTopic topic); /* NULL out of range */
/* Whether topic is a lesson of this build (every line of ms-lesson-list.h
 * is; the cards ask before they show one). */
bool ms_lesson_topic_built (MsLessonTopic topic);
/* The deck, one slide per lesson built, in the table's order: how many
 * slides; the lesson of slide number (1 up), or -1; and topic's slide
 * number, or 0 (how one slide names another: a class sees only numbers). */
int ms_lesson_deck_count (void);
int ms_lesson_deck_topic (int number);
int ms_lesson_deck_number (MsLessonTopic topic);
/* The lesson named name (or its alias), or MS_TOPIC_COUNT. */
MsLessonTopic ms_lesson_topic_from_name (const char *name);
/* The lesson with the experiment of that name (or alias), or
 * MS_TOPIC_COUNT (for a plain sweep too). */
MsLessonTopic ms_lesson_topic_for_experiment (const char *experiment);
/* Whether results hold what the topic reads: its experiment, or where a
 * plain sweep answers it, a plain sweep with cells of every mode it
 * compares. */
bool ms_lesson_topic_matches (MsLessonTopic topic, const MsResults *results);

/* A time as every caption writes it (ms-lesson-caption.c): "8.30 µs", "755 µs", "2.45 ms",
 * "14.2 ms" (pictures that quote a caption's figure use it too). */
const char *ms_caption_time (double us, char *buf, size_t len);
/* The same to four figures ("352.8 µs", "11.37 ms"), as the register
 * and pin-payoff slides write their lines' sums: at three, a crossing at
 * n = 0.99 worked out from the sums came to 1.007. */
const char *ms_caption_time_fine (double us, char *buf, size_t len);
/* us as ms_caption_time_fine writes it, read back (a difference of two
 * sums a line quotes is taken from them as written). */
double ms_caption_time_fine_as_written (double us);

/* The room a caption takes, its end included: a buffer of 1024 bytes cut
 * the issue-order Details mid-word, its last sentence the one a teacher
 * looked for. Every caller sizes its buffer by it. */
#define MS_LESSON_CAPTION_MAX 4096

/* Writes the caption of topic for results into buf (always a sentence;
 * ms-lesson-table.c hands it to the lesson's file).
 * exponent: the size to speak of, or -1 for the largest size with every
 * cell the sentence needs. Returns true when the sentence states the
 * effect from measured numbers; false when the results lack what the topic
 * needs (the sentence then says what is missing). */
bool ms_lesson_caption (MsLessonTopic topic, const MsResults *results, int exponent, char *buf,
                        size_t len);

/* How a lesson's takeaway stands, which a slide follows: a picture under
 * an undecided line is drawn dimmed, so that no chart suggests otherwise. */
typedef enum {
  MS_TAKEAWAY_DECIDED,   /* an effect, or its absence, stated from the run's numbers */
  MS_TAKEAWAY_UNDECIDED, /* the run cannot decide */
  MS_TAKEAWAY_MISSING,   /* the run lacks what the lesson reads */
  /* This host cannot show the effect at all (numa on one node): the line
   * says what host it needs, and a deck pages past the lesson. */
  MS_TAKEAWAY_NOT_HERE,
} MsTakeaway;

/* Writes topic's takeaway for results into buf: one line, the slide's
 * headline (the lessons page, `memsweep lesson`, `plot --view lesson` and
 * Export Chart all lead with it), its sign and figures from the run; where
 * the run cannot decide, a line that says so. From the record's takeaway,
 * else the first sentence of the caption without its asides. */
MsTakeaway ms_lesson_takeaway (MsLessonTopic topic, const MsResults *results, char *buf,
                               size_t len);

/* Writes what topic finds in results beyond its caption into buf, lines
 * each ending in a newline, for the command line's table of a lesson run
 * (the record's finding); "" when it has none or the run lacks what it
 * needs. */
void ms_lesson_finding (MsLessonTopic topic, const MsResults *results, char *buf, size_t len);
/* Whether topic's cells time allocating and freeing once (the costs table)
 * rather than repetitions. */
bool ms_lesson_times_costs (MsLessonTopic topic);
/* Whether topic is also measured on two or more GPUs at once
 * (`memsweep portable`, ms_lesson_portable_caption). */
bool ms_lesson_multi_gpu (MsLessonTopic topic);
/* Another host's run of several GPUs that a lesson's slide draws in place
 * of the card's run (the portable and host-link lessons'). */
typedef struct {
  int n_devices;
  char model[64]; /* their model, short: "H200" */
  char day[16];   /* "2026-11-28" */
  char name[128]; /* its file, less .csv[.gz]: "h200x2-host-link" */
  bool reference; /* shipped with memsweep: measured on another machine */
} MsLessonElsewhere;

/* The run topic's slide draws where that is not run but another host's
 * file, from the record's elsewhere; false where it draws run itself. */
bool ms_lesson_elsewhere (MsLessonTopic topic, const MsResults *run, MsLessonElsewhere *out);
/* The same in one line, as a handout or a picture names it: its GPUs, day
 * and file ("2 × H200 · 2026-11-28 · h200x2-host-link"); false with buf
 * empty where the slide draws run itself. */
bool ms_lesson_source (MsLessonTopic topic, const MsResults *run, char *buf, size_t len);
/* A run of another host that a lesson shows: its file as read, and its
 * name less its folder, .gz and .csv ("h200x2-portable"), as a slide names
 * it. The one lookup of the shipped runs of the lessons of several GPUs. */
typedef struct {
  char name[128];
  void *file;
} MsLessonShipped;
/* The files of dir whose names end in suffix ("-portable.csv"), or in
 * suffix and .gz, read as format's in the order of their names: the first
 * max of min_devices or more into runs (each a new file); how many (err:
 * the last refusal, or ""). */
int ms_lesson_shipped_read (const char *dir, const char *suffix, const MsSmallFormat *format,
                            int min_devices, MsLessonShipped *runs, int max, char *err,
                            size_t errlen);
/* run holds a copy of file (size bytes; NULL: none), named after path;
 * what it held before goes. */
void ms_lesson_shipped_set (MsLessonShipped *run, const void *file, size_t size, const char *path);
/* A GPU's model alone, short ("H200" of "NVIDIA H200"; "GPU" unknown):
 * its memory too broke a slide's header onto two lines. */
void ms_lesson_gpu_model (const char *name, char *out, size_t len);

/* The smallest R at which zero-copy takes longer end to end than pinned at
 * exponent, in a "reuse" experiment (ms-lesson-reuse.c) (variants "R=n"). Returns 1 and sets
 * *r_cross when found, 0 when zero-copy wins at every R (then *r_max is the
 * largest R measured), -1 when the cells are missing. */
int ms_lesson_reuse_crossover (const MsResults *results, int exponent, int *r_cross, int *r_max);

/* The portable-flag lesson (cudaHostAllocPortable; ms-lesson-portable.c). With portable, the
 * three buffers of `memsweep portable` on 2 or more GPUs (ms_portable_run):
 * what each GPU reached from a buffer pinned per GPU, one portable buffer
 * and one pinned on the first GPU only. Without (NULL, or one GPU): the
 * portable file in use (ms_lesson_portable_use) where it has two GPUs or
 * more, else why the flag changes nothing for the one GPU of run, from
 * run's device and pinned copies. ms_lesson_caption (MS_TOPIC_PORTABLE,
 * ...) is the latter. Returns as ms_lesson_caption. */
bool ms_lesson_portable_caption (const MsResults *run, const MsPortableResults *portable,
                                 char *buf, size_t len);

/* The portable lesson's takeaway, as ms_lesson_portable_caption: how the
 * second GPU's copies from the portable buffer and from the first GPU's
 * compare with those from its own; with one GPU it says that the run
 * cannot show the flag, or, where the slide draws a run of two GPUs from
 * another host, that the figures are that run's. */
MsTakeaway ms_lesson_portable_takeaway (const MsResults *run, const MsPortableResults *portable,
                                        char *buf, size_t len);

/* The portable run the lesson shows where its own run has one GPU: a file
 * of `memsweep portable` (ms-portable-file.h), opened or shipped, read by
 * the captions, takeaways and picture of the lesson wherever they are
 * drawn. One for the process: set it from the thread that draws; NULL
 * uses none. path names it on the slide (its name less .csv[.gz]). */
void ms_lesson_portable_use (const MsPortableFile *file, const char *path);
/* The file in use with two GPUs or more, or NULL; *name (when name is not
 * NULL) its name ("h100x2-portable"). */
const MsPortableFile *ms_lesson_portable_shown (const char **name);
/* Uses the shipped portable run of dir: the first *-portable.csv.gz or
 * *-portable.csv by name. False, using none, when there is none or it
 * cannot be read (err says why). */
bool ms_lesson_portable_use_shipped (const char *dir, char *err, size_t errlen);
