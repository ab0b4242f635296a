/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-picture-managed-touch.c: how the managed memory lesson is shown: no picture of its own;
 * the time view and the timelines of first touch, resident pages and
 * prefetch answer it. */
#include <glib/gi18n.h>

#include "ms-lesson-picture.h"

static const MsLessonRow rows[] = {
  { MS_MODE_MANAGED, "", NULL, NULL },
  { MS_MODE_MANAGED_PREFETCH, "", NULL, NULL },
  /* Each first touch says where its pages move: the long kernel without
   * a prefetch went unexplained on a slide. */
  { MS_MODE_MANAGED, "touch=first", NULL,
    N_ ("first touch: pages fault to the GPU as the kernel runs") },
  /* The takeaway compares first touch with and without a prefetch: a
   * slide shows those two. */
  { MS_MODE_MANAGED, "touch=resident", NULL, N_ ("pages already on the GPU"), TRUE },
  /* Both trips named: more than half of what the prefetch saves is the
   * way back, which stands in for the CPU's faulting reads of the row
   * above (the key says so: here, three lines of title were dense). */
  { MS_MODE_MANAGED_PREFETCH, "touch=first", NULL,
    N_ ("prefetched: a, b to the GPU before the kernel, c back after it") },
};

static const MsVariantWords words[] = {
  { "touch=first", N_ ("the first touch: pages migrate on demand") },
  { "touch=resident", N_ ("pages already on the GPU") },
  { NULL },
};

/* Managed memory is compared by time end to end: its copies are faults
 * inside the kernel. After a prefetch the kernel is a sliver between the
 * prefetch and the copy back, with no room for its name on its lane, and
 * what the takeaway credits the prefetch for: named above it. */
const MsLessonLook ms_lesson_look_managed_touch = {
  .view = { "time", "managed,managed-prefetch", MS_METRIC_E2E_TIME, TRUE, .name_slivers = TRUE },
  MS_LESSON_ROWS (rows),
  .words = words,
};
