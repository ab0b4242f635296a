/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-lesson-host-func.h: what the host-function lesson's takeaway and its
 * slide (draw/ms-picture-host-func.c) share. Defined in
 * ms-lesson-host-func.c. */
#pragma once

#include <stdbool.h>

#include "memsweep.h"

/* Whether a latency's 95% interval is too wide to quote its median: wider
 * than the median itself. H100's 92 µs after a copy, from
 * 28 to 142 µs, topped the line's range, which the other bars did not
 * support. */
bool ms_host_func_noisy (const MsStat *latency);
