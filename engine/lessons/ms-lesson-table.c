/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-lesson-table.c: the lessons' records, made from ms-lesson-list.h, and
 * everything that finds a lesson by its id or its name: its card, its
 * options, its settings, its caption (ms-lesson-caption.h, memsweep.h);
 * and the shipped runs that the lessons of several GPUs show. */
#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ms-i18n.h"
#include "ms-lesson-caption-private.h"
#include "ms-lesson-record.h"
#include "ms-lesson-table.h"
#include "ms-modes.h"
#include "ms-names.h"

static const MsLesson *const records[MS_TOPIC_COUNT] = {
#define MS_LESSON_ENTRY(id, name, kind, picture) [MS_TOPIC_##id] = &ms_lesson_##name,
  MS_LESSON_LIST (MS_LESSON_ENTRY)
#undef MS_LESSON_ENTRY
};

static const MsLessonKind kinds[MS_TOPIC_COUNT] = {
#define MS_LESSON_KIND_OF(id, name, kind, picture) [MS_TOPIC_##id] = MS_LESSON_KIND_##kind,
  MS_LESSON_LIST (MS_LESSON_KIND_OF)
#undef MS_LESSON_KIND_OF
};

MS_DEFINE_LOOKUP (ms_lesson_record, const MsLesson *, MsLessonTopic, MS_TOPIC_COUNT, records[i],
                  NULL)
MS_DEFINE_LOOKUP (ms_lesson_kind, MsLessonKind, MsLessonTopic, MS_TOPIC_COUNT, kinds[i],
                  MS_LESSON_KIND_PLAIN)

MsLessonTopic
ms_lesson_topic_from_name (const char *name)
{
  for (int t = 0; name && name[0] && t < MS_TOPIC_COUNT; t++)
    if (strcmp (records[t]->card.name, name) == 0 ||
        (records[t]->card.alias && strcmp (records[t]->card.alias, name) == 0))
      return (MsLessonTopic) t;
  return MS_TOPIC_COUNT;
}

const MsLesson *
ms_lesson_record_find (const char *name)
{
  return ms_lesson_record (ms_lesson_topic_from_name (name));
}

/* ---- the cards ------------------------------------------------------------ */

/* The records' cards as everyone sees them: with the experiment that the
 * lesson's kind gives, its name or "" for a plain lesson (a record leaves
 * it out: one place for the fact). Made once, before the first card is
 * read. */
static MsLessonTopicInfo cards[MS_TOPIC_COUNT];
static pthread_once_t cards_once = PTHREAD_ONCE_INIT;

static void
make_cards (void)
{
  for (int t = 0; t < MS_TOPIC_COUNT; t++) {
    cards[t] = records[t]->card;
    cards[t].experiment = kinds[t] == MS_LESSON_KIND_PLAIN ? "" : cards[t].name;
  }
}

const MsLessonTopicInfo *
ms_lesson_topic (MsLessonTopic topic)
{
  if ((unsigned)topic >= MS_TOPIC_COUNT)
    return NULL;
  pthread_once (&cards_once, make_cards);
  return &cards[topic];
}

bool
ms_lesson_topic_built (MsLessonTopic topic)
{
  return ms_lesson_record (topic) != NULL;
}

int
ms_lesson_deck_count (void)
{
  int n = 0;
  for (int t = 0; t < MS_TOPIC_COUNT; t++)
    n += ms_lesson_topic_built (t);
  return n;
}

int
ms_lesson_deck_topic (int number)
{
  for (int t = 0; t < MS_TOPIC_COUNT && number > 0; t++)
    if (ms_lesson_topic_built (t) && --number == 0)
      return t;
  return -1;
}

int
ms_lesson_deck_number (MsLessonTopic topic)
{
  int n = 0;
  for (int t = 0; ms_lesson_topic_built (topic) && t <= (int) topic; t++)
    n += ms_lesson_topic_built (t);
  return n;
}

MsLessonTopic
ms_lesson_topic_for_experiment (const char *experiment)
{
  MsLessonTopic t = ms_lesson_topic_from_name (experiment);
  return t < MS_TOPIC_COUNT && kinds[t] != MS_LESSON_KIND_PLAIN ? t : MS_TOPIC_COUNT;
}

static bool
has_mode (const MsResults *r, MsMode mode)
{
  for (size_t i = 0; i < r->n_cells; i++)
    if (r->cells[i].mode == mode)
      return true;
  return false;
}

bool
ms_lesson_topic_matches (MsLessonTopic topic, const MsResults *r)
{
  const MsLessonTopicInfo *info = ms_lesson_topic (topic);
  if (!info || !r)
    return false;
  if (info->experiment[0] && strcmp (r->experiment, info->experiment) == 0)
    return true;
  if (!info->plain || r->experiment[0])
    return false;
  /* A plain sweep with every mode the topic compares. */
  char list[64];
  snprintf (list, sizeof list, "%s", info->modes);
  for (char *save = NULL, *name = strtok_r (list, ",", &save); name;
       name = strtok_r (NULL, ",", &save)) {
    MsMode mode;
    if (!ms_mode_from_name (name, &mode) || !has_mode (r, mode))
      return false;
  }
  return true;
}

/* ---- the lessons with an experiment (memsweep.h) -------------------------- */

/* The lesson name names, when it has an experiment of its own. */
static const MsLesson *
experiment_record (const char *name)
{
  return ms_lesson_record (ms_lesson_topic_for_experiment (name));
}

int
ms_lesson_count (void)
{
  int n = 0;
  for (int t = 0; t < MS_TOPIC_COUNT; t++)
    n += kinds[t] != MS_LESSON_KIND_PLAIN;
  return n;
}

const MsLessonTopicInfo *
ms_lesson_nth (int index)
{
  for (int t = 0; index >= 0 && t < MS_TOPIC_COUNT; t++)
    if (kinds[t] != MS_LESSON_KIND_PLAIN && index-- == 0)
      return ms_lesson_topic ((MsLessonTopic)t);
  return NULL;
}

const MsLessonTopicInfo *
ms_lesson_find (const char *name)
{
  return ms_lesson_topic (ms_lesson_topic_for_experiment (name));
}

const char *
ms_lesson_reason (const char *name)
{
  const MsLesson *l = experiment_record (name);
  return l ? l->card.reason : NULL;
}

bool
ms_lesson_is_probe (const char *name)
{
  return ms_lesson_kind (ms_lesson_topic_from_name (name)) == MS_LESSON_KIND_PROBE;
}

const char *
ms_lesson_settings (const char *name)
{
  const MsLesson *l = experiment_record (name);
  return l ? l->settings : NULL;
}

/* ---- options -------------------------------------------------------------- */

const MsLessonOption *
ms_lesson_options (const char *name)
{
  const MsLesson *l = experiment_record (name);
  return l && l->options && l->options[0].key ? l->options : NULL;
}

bool
ms_lesson_check_options (const char *name, const char *options, char *err, size_t errlen)
{
  return ms_lesson_options_check (ms_lesson_options (name), name, options, err, errlen);
}

double
ms_lesson_option (const char *name, const MsSweep *sweep, const char *key)
{
  return ms_lesson_option_in (ms_lesson_options (name), sweep ? sweep->options : "", key);
}

/* ---- captions ------------------------------------------------------------- */

bool
ms_lesson_caption (MsLessonTopic topic, const MsResults *results, int exponent, char *buf,
                   size_t len)
{
  if (!buf || len == 0)
    return false;
  buf[0] = '\0';
  const MsLesson *l = ms_lesson_record (topic);
  if (!l)
    return ms_caption_missing (buf, len, ms_gettext ("Unknown lesson."));
  if (!l->caption)
    return ms_caption_missing (buf, len, ms_gettext ("This lesson is not built yet."));
  return ms_caption_run (l->caption, l->missing, results, exponent, buf, len);
}

MsTakeaway
ms_lesson_takeaway (MsLessonTopic topic, const MsResults *results, char *buf, size_t len)
{
  if (!buf || len == 0)
    return MS_TAKEAWAY_MISSING;
  buf[0] = '\0';
  const MsLesson *l = ms_lesson_record (topic);
  MsTakeaway how = MS_TAKEAWAY_MISSING;
  if (l && l->takeaway && results && results->n_cells > 0)
    how = l->takeaway (results, buf, len);
  /* A summary that cannot answer says which file would (the caption). */
  if (buf[0] && !(how == MS_TAKEAWAY_MISSING && results && results->from_summary))
    return how;
  /* Without a line of its own (or a run it can read): the caption's
   * first sentence, which leads with the answer or says what is missing. */
  char caption[MS_LESSON_CAPTION_MAX];
  bool stated = ms_lesson_caption (topic, results, -1, caption, sizeof caption);
  ms_takeaway_from_caption (caption, buf, len);
  return stated ? MS_TAKEAWAY_DECIDED : MS_TAKEAWAY_MISSING;
}

/* ---- what the command line and the app ask of a record -------------------- */

void
ms_lesson_finding (MsLessonTopic topic, const MsResults *results, char *buf, size_t len)
{
  if (!buf || len == 0)
    return;
  buf[0] = '\0';
  const MsLesson *l = ms_lesson_record (topic);
  if (l && l->finding && results)
    l->finding (results, buf, len);
}

bool
ms_lesson_times_costs (MsLessonTopic topic)
{
  const MsLesson *l = ms_lesson_record (topic);
  return l && l->one_time_costs;
}

bool
ms_lesson_elsewhere (MsLessonTopic topic, const MsResults *run, MsLessonElsewhere *out)
{
  const MsLesson *l = ms_lesson_record (topic);
  *out = (MsLessonElsewhere) { 0 };
  return l && l->elsewhere && l->elsewhere (run, out);
}

bool
ms_lesson_source (MsLessonTopic topic, const MsResults *run, char *buf, size_t len)
{
  MsLessonElsewhere e;
  if (len)
    buf[0] = '\0';
  if (!len || !ms_lesson_elsewhere (topic, run, &e))
    return false;
  /* TRANSLATORS: the run of several GPUs a slide draws: their count, model,
   * day and file ("2 × H200 · 2026-11-28 · h200x2-host-link"). */
  snprintf (buf, len, ms_gettext ("%d × %s · %s · %s"), e.n_devices, e.model,
            e.day[0] ? e.day : "?", e.name);
  return true;
}

/* Whether a file's name ends in suffix, or in suffix and .gz. */
static bool
file_is (const char *name, const char *suffix)
{
  size_t n = strlen (name), k = strlen (suffix);
  if (n > 3 && strcmp (name + n - 3, ".gz") == 0)
    n -= 3;
  return n > k && strncmp (name + n - k, suffix, k) == 0;
}

/* A file's name less its folder, .gz and .csv. */
static void
stem (const char *path, char *out, size_t len)
{
  const char *base = strrchr (path, '/');
  base = base ? base + 1 : path;
  size_t n = strlen (base);
  if (n > 3 && strcmp (base + n - 3, ".gz") == 0)
    n -= 3;
  if (n > 4 && strncmp (base + n - 4, ".csv", 4) == 0)
    n -= 4;
  snprintf (out, len, "%.*s", (int) n, base);
}

void
ms_lesson_shipped_set (MsLessonShipped *run, const void *file, size_t size, const char *path)
{
  free (run->file);
  run->file = file ? malloc (size) : NULL;
  if (run->file)
    memcpy (run->file, file, size);
  stem (path ? path : "", run->name, sizeof run->name);
}

static int
by_name (const struct dirent **a, const struct dirent **b)
{
  return strcmp ((*a)->d_name, (*b)->d_name);
}

int
ms_lesson_shipped_read (const char *dir, const char *suffix, const MsSmallFormat *format,
                        int min_devices, MsLessonShipped *runs, int max, char *err, size_t errlen)
{
  struct dirent **names = NULL;
  int n = 0, count = dir ? scandir (dir, &names, NULL, by_name) : 0;
  err[0] = '\0';
  for (int i = 0; i < count; free (names[i++])) {
    char path[4096];
    snprintf (path, sizeof path, "%s/%s", dir, names[i]->d_name);
    void *file = n < max && file_is (names[i]->d_name, suffix)
                     ? ms_small_file_load_new (path, format, err, errlen)
                     : NULL;
    if (file && *format->run (file).n_devices >= min_devices) {
      runs[n].file = file;
      stem (path, runs[n++].name, sizeof runs->name);
    } else {
      free (file);
    }
  }
  free (names);
  return n;
}

void
ms_lesson_gpu_model (const char *name, char *out, size_t len)
{
  if (strncmp (name, "NVIDIA ", 7) == 0)
    name += 7;
  size_t n = strcspn (name, " ");
  if (n == 0)
    snprintf (out, len, "%s", ms_gettext ("GPU"));
  else
    snprintf (out, len, "%.*s", (int) n, name);
}

bool
ms_lesson_multi_gpu (MsLessonTopic topic)
{
  const MsLesson *l = ms_lesson_record (topic);
  return l && l->multi_gpu;
}
