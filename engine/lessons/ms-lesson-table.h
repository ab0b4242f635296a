/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-lesson-table.h: the lessons by name, their reasons, settings and
 * options. Defined in ms-lesson-table.c. */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "memsweep.h"
#include "ms-lesson-types.h"

/* The lessons with an experiment of their own (`memsweep lesson NAME`), in
 * the order of their cards; a lesson that a plain sweep measures is not
 * one of them. */
int ms_lesson_count (void);

const MsLessonTopicInfo *ms_lesson_nth (int index);

/* By name or alias; NULL when unknown. */
const MsLessonTopicInfo *ms_lesson_find (const char *name);

/* The lesson's reason, or NULL for a plain sweep ("", "sweep") or an
 * unknown name. */
const char *ms_lesson_reason (const char *name);

/* Whether lesson name is a probe lesson (one figure per cell, not a
 * vector add: the streams chapter and the others of docs/lessons.md). */
bool ms_lesson_is_probe (const char *name);

/* The experiment's settings in words, for the metadata. */
const char *ms_lesson_settings (const char *name);

/* The options of lesson name, ending with a NULL key; NULL when it has
 * none or is unknown. */
const MsLessonOption *ms_lesson_options (const char *name);

/* Whether options ("key=value,key=value", each key once) are the lesson's,
 * numbers of their kind and within their ranges; a message otherwise. */
bool ms_lesson_check_options (const char *name, const char *options, char *err, size_t errlen);

/* The value of key in sweep->options, or its default (0 for an unknown
 * key). Call after ms_lesson_check_options. */
double ms_lesson_option (const char *name, const MsSweep *sweep, const char *key);
