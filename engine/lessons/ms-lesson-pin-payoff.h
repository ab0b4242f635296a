/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-lesson-pin-payoff.h: what the pin-payoff lesson's caption and its
 * picture (draw/ms-picture-pin-payoff.c) both compute from a run: the
 * total time of N uses of a buffer of one size, the break-even N, and
 * the second part's figures at each share of memory held pinned. */
#pragma once

#include "memsweep.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One way of getting a buffer the GPU copies from, at one size: what it
 * costs once (allocation and release; registered: the pageable buffer's
 * too) and per copy, both medians in µs. */
typedef struct {
  double once_us;
  double copy_us;
} MsPinCost;

/* The costs of mode (pageable, pinned, registered) at exponent; false when
 * a cell is missing. */
bool ms_pin_payoff_cost (const MsResults *r, MsMode mode, int exponent, MsPinCost *out);
/* The total time of n uses. */
double ms_pin_payoff_total (const MsPinCost *c, double n);
/* The smallest whole N >= 1 at which mode (pinned or registered) takes no
 * longer in all than pageable at exponent: 1 found, 0 never (its copies
 * are not faster), -1 cells missing. */
int ms_pin_payoff_break_even (const MsResults *r, MsMode mode, int exponent, double *n);

/* The second part at one share of the host's memory held pinned: one
 * 64 MiB pinned allocation (median µs) and a pageable copy's rate (GB/s);
 * < 0 where the run lacks it. */
typedef struct {
  double held_pct;
  double alloc_us;
  double copy_gbps;
} MsPinHeld;

/* The shares the run has, in increasing order, at most max; their count. */
int ms_pin_payoff_held (const MsResults *r, MsPinHeld *out, int max);

#ifdef __cplusplus
}
#endif
