/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-lessons.h: the engine's front door for the lessons: their records and
 * captions, and what a lesson's picture (draw/ms-picture-NAME.c) computes
 * from a run as its caption does. Outside engine/ a lesson is reached
 * through here, never through its own header (the `front-doors` test,
 * tools/front-doors.py, checks). */
#pragma once

#include "memsweep.h"

#include "lessons/ms-lesson-caption.h"

/* What a lesson's caption and its picture both compute, one header per
 * lesson (engine/lessons/ms-lesson-NAME.h, defined in its
 * ms-lesson-NAME.c): every one there is, from the lesson list
 * (engine/meson.build writes ms-lesson-headers.h). */
#include "ms-lesson-headers.h"
