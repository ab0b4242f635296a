/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-lesson-issue-order.h: what the issue-order lesson's picture and
 * caption share with its parts. Defined in ms-lesson-issue-order.c. */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "memsweep.h"

/* The issue-order lesson's variant: "queue=single/order=depth/K=4"
 * (ms-lesson-issue-order.c). */
void ms_lesson_streams_variant (char *buf, size_t len, bool single_queue, MsIssueOrder order,
                                int streams);
