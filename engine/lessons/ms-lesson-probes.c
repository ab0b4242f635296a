/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-lesson-probes.c: the probe lessons (ms-lesson-private.h), listed once
 * in their cards' order, and what every probe lesson shares: its parts,
 * the variants of its cells. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ms-lesson-private.h"

static const MsProbeLesson *const probe_lessons[] = {
  &ms_lesson_implicit_sync,
  &ms_lesson_default_stream,
  &ms_lesson_host_func,
  &ms_lesson_priority,
  &ms_lesson_concurrent,
  &ms_lesson_sync_async,
  &ms_lesson_pin_payoff,
  &ms_lesson_intensity,
  &ms_lesson_copy_kinds,
  &ms_lesson_batched,
  &ms_lesson_numa,
};

int
ms_probe_lesson_count (void)
{
  return (int) (sizeof probe_lessons / sizeof probe_lessons[0]);
}

const MsProbeLesson *
ms_probe_lesson_nth (int index)
{
  return index >= 0 && index < ms_probe_lesson_count () ? probe_lessons[index] : NULL;
}

const MsProbeLesson *
ms_probe_lesson_find (const char *name)
{
  for (int i = 0; name && i < ms_probe_lesson_count (); i++)
    if (strcmp (probe_lessons[i]->info.name, name) == 0)
      return probe_lessons[i];
  return NULL;
}

const MsProbeLesson *
ms_probe_lesson_for_probe (MsProbe probe)
{
  for (int i = 0; i < ms_probe_lesson_count (); i++)
    if (probe_lessons[i]->probe == probe)
      return probe_lessons[i];
  return NULL;
}

const MsProbeLesson *
ms_probe_lesson_for_topic (MsLessonTopic topic)
{
  for (int i = 0; i < ms_probe_lesson_count (); i++)
    if (probe_lessons[i]->topic == topic)
      return probe_lessons[i];
  return NULL;
}

bool
ms_lesson_is_probe (const char *name)
{
  return ms_probe_lesson_find (name) != NULL;
}

MsLessonPart *
ms_lesson_add_probe_part (MsPartList *list, MsProbe probe, int part)
{
  MsLessonPart *p = ms_lesson_add_part (list, "", "");
  if (p) {
    memset (p->sweep.modes, 0, sizeof p->sweep.modes);
    p->probe = probe;
    p->probe_part = part;
  }
  return p;
}

void
ms_probe_cell_set (MsProbeCell *cell, MsMode mode, int exponent, const char *fmt, ...)
{
  va_list ap;
  memset (cell, 0, sizeof *cell);
  cell->mode = mode;
  cell->exponent = exponent;
  va_start (ap, fmt);
  vsnprintf (cell->variant, sizeof cell->variant, fmt, ap);
  va_end (ap);
}
