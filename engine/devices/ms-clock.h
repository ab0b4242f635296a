/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-clock.h: the host clock every host time is read from (monotonic,
 * microseconds), unless a backend gives the cell driver its own. */
#pragma once

double ms_now_us (void);
double ms_now_s (void);
