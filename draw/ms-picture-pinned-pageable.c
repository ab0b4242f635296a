/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-picture-pinned-pageable.c: how the pinned against pageable lesson is shown: no picture of
 * its own; the bandwidth view and the two copies' timelines answer it. */
#include "ms-lesson-picture.h"

static const MsLessonRow rows[] = {
  { MS_MODE_PAGEABLE, "", NULL, NULL },
  { MS_MODE_PINNED, "", NULL, NULL },
};

/* Copies are compared by their copy bandwidth, which the timelines'
 * titles quote: the pinned h2d bar is too short to carry it. */
const MsLessonLook ms_lesson_look_pinned_pageable = {
  .view = { "bandwidth", "pageable,pinned", MS_METRIC_H2D_BANDWIDTH, TRUE, .rows_rate = TRUE },
  MS_LESSON_ROWS (rows),
};
