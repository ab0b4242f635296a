/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-picture-reuse.c: how the reuse lesson is shown: no picture of its own; the reuse
 * chart (ms-reuse-chart.c) answers it beside the card, the timelines of
 * R = 1 and 16 under it, and what its variants mean. */
#include <glib/gi18n.h>

#include "ms-lesson-picture.h"

static const MsLessonRow rows[] = {
  { MS_MODE_PINNED, "R=16", NULL, N_ ("R = 16 accesses per element") },
  { MS_MODE_ZERO_COPY, "R=1", NULL, N_ ("R = 1 access per element") },
  { MS_MODE_ZERO_COPY, "R=16", NULL, N_ ("R = 16 accesses per element") },
};

static const MsVariantWords words[] = {
  { "access=read", N_ ("the kernel only reads the data") },
  { "access=write", N_ ("the kernel only writes the data") },
  { "access=write-in-kernel", N_ ("one kernel writes each element R times in a row") },
  /* TRANSLATORS: %s is a number from a variant ("R=16"). */
  { "R", N_ ("each input byte reused %s times by the kernel") },
  { NULL },
};

const MsLessonLook ms_lesson_look_reuse = {
  .view = { .metric = MS_METRIC_E2E_TIME, .log_scale = TRUE, .reuse_time = TRUE,
            .reuse_chart = TRUE },
  MS_LESSON_ROWS (rows),
  .words = words,
};
