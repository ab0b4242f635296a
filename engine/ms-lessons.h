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
 * lesson (engine/lessons/ms-lesson-NAME.c defines it). */
#include "lessons/ms-implicit-sync.h"
#include "lessons/ms-lesson-cache-state.h"
#include "lessons/ms-lesson-copy-kinds.h"
#include "lessons/ms-lesson-pin-payoff.h"
#include "lessons/ms-lesson-priority.h"
#include "lessons/ms-lesson-register.h"
#include "lessons/ms-lesson-sync-async.h"
