/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-lesson-parts.c: what the lesson files share to list their parts and
 * their probe cells (ms-lesson-record.h). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ms-lesson-record.h"
#include "ms-sweep.h"

MsLessonPart *
ms_lesson_add_part (MsPartList *list, const char *modes, const char *variant)
{
  if (list->n >= list->max)
    return NULL;
  MsLessonPart *p = &list->parts[list->n++];
  memset (p, 0, sizeof *p);
  p->sweep = *list->base;
  memset (&p->sweep.knobs, 0, sizeof p->sweep.knobs);
  char err[128];
  ms_sweep_set_modes (&p->sweep, modes, err, sizeof err);
  snprintf (p->sweep.variant, sizeof p->sweep.variant, "%s", variant);
  /* A lesson has few cells, and some take their figures from the phases
   * (duplex, the staged copies): every repetition keeps its twin. */
  p->sweep.instr_reps = 0;
  return p;
}

MsLessonPart *
ms_lesson_add_probe_part (MsPartList *list, int part)
{
  MsLessonPart *p = ms_lesson_add_part (list, "", "");
  if (p) {
    memset (p->sweep.modes, 0, sizeof p->sweep.modes);
    p->probe = true;
    p->probe_part = part;
  }
  return p;
}

MsLessonPart *
ms_lesson_isolate (MsLessonPart *p, const char *env, const char *env_unset)
{
  if (p) {
    p->isolated = true;
    p->env = env;
    p->env_unset = env_unset;
  }
  return p;
}

MsLessonPart *
ms_lesson_set_queues (MsLessonPart *p, bool single)
{
  return ms_lesson_isolate (p, single ? MS_LESSON_MAX_CONNECTIONS "=1" : NULL,
                            single ? NULL : MS_LESSON_MAX_CONNECTIONS);
}

int
ms_lesson_next_step (int value, int factor, int last)
{
  return value * factor > last && value < last ? last : value * factor;
}

MsProbeCell *
ms_probe_cell_init (MsProbeCell *cell, MsMode mode, int exponent)
{
  memset (cell, 0, sizeof *cell);
  cell->mode = mode;
  cell->exponent = exponent;
  return cell;
}

MsProbeCell *
ms_probe_cell_set (MsProbeCell *cell, MsMode mode, int exponent, const char *fmt, ...)
{
  va_list ap;
  ms_probe_cell_init (cell, mode, exponent);
  va_start (ap, fmt);
  vsnprintf (cell->variant, sizeof cell->variant, fmt, ap);
  va_end (ap);
  return cell;
}
