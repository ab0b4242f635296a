/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-picture-duplex.c: how the duplex lesson is shown: no picture of its own; the
 * timelines of each direction alone and of both at once answer it. */
#include <glib/gi18n.h>

#include "ms-lesson-picture.h"

static const MsLessonRow rows[] = {
  { MS_MODE_PINNED, "copy=h2d", NULL, N_ ("to the GPU alone") },
  { MS_MODE_PINNED, "copy=d2h", NULL, N_ ("back to the host alone") },
  { MS_MODE_PINNED, "copy=duplex", NULL, N_ ("both ways at once") },
};

static const MsVariantWords words[] = {
  { "copy=h2d", N_ ("copies to the GPU only") },
  { "copy=d2h", N_ ("copies back to the host only") },
  { "copy=duplex", N_ ("copies both ways at once") },
  { NULL },
};

const MsLessonLook ms_lesson_look_duplex = {
  .view = { NULL, NULL, MS_METRIC_E2E_TIME, TRUE },
  MS_LESSON_ROWS (rows),
  .words = words,
};
