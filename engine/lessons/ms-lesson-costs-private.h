/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-lesson-costs-private.h: the costs lesson's table run, for the lesson
 * runner (ms-lesson-run.c). Defined in ms-lesson-costs.c. */
#pragma once

#include <stdatomic.h>
#include <stddef.h>

#include "memsweep.h"

/* The costs lesson's table (ms-lesson-costs.c): every MsCost at the
 * sweep's sizes, as cells of variant "cost=NAME". */
MsRunStatus ms_lesson_run_costs (const MsSweep *sweep, MsBackend *backend, atomic_int *cancel,
                                 MsResults **out, char *err, size_t errlen);
