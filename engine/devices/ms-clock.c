/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-clock.c: the host clock, in a file of its own so that the cell driver
 * and the GPU state need no backend for it. */
#define _POSIX_C_SOURCE 200809L
#include <time.h>

#include "ms-clock.h"

double
ms_now_us (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e6 + ts.tv_nsec * 1e-3;
}

double
ms_now_s (void)
{
  return ms_now_us () * 1e-6;
}
