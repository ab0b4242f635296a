/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-lesson-pin-payoff.h: what the pin-payoff lesson's caption and its
 * picture (draw/ms-picture-pin-payoff.c) both compute from a run: the
 * total time of N uses of a buffer of one size, the break-even N, and
 * the second part's figures at each share of memory held pinned. */
#pragma once

#include "memsweep.h"

/* The kinds of host buffer, in the order of the probe's kind argument
 * (kernels/lesson-pin-payoff.cu). Two pageable ones: fresh pages from mmap
 * in every sample, and a heap that has served the size before. Two from a
 * pool of pinned host memory: a new pool's first allocation, and a pool
 * that kept what it served. */
typedef enum {
  MS_PIN_PAGEABLE,
  MS_PIN_PINNED,
  MS_PIN_REGISTERED,
  MS_PIN_PAGEABLE_REUSED,
  MS_PIN_POOL_FIRST,
  MS_PIN_POOL_KEPT,
  MS_PIN_KIND_COUNT
} MsPinKind;

/* The kind's mode (pageable, pinned, registered). */
MsMode ms_pin_payoff_kind_mode (MsPinKind kind);
/* What the kind is, for people ("pinned (cudaMallocHost)"), translated. */
const char *ms_pin_payoff_kind_label (MsPinKind kind);

/* One way of getting a buffer the GPU copies from, at one size: what it
 * costs once (allocation and release; registered: the pageable buffer's
 * too) and per copy, both medians in µs. */
typedef struct {
  double once_us;
  double copy_us;
} MsPinCost;

/* The costs of kind at exponent; false when a cell is missing. */
bool ms_pin_payoff_cost (const MsResults *r, MsPinKind kind, int exponent, MsPinCost *out);
/* The smallest whole N >= 1 at which kind takes no longer in all than
 * base (a pageable kind) at exponent: 1 found, 0 never (its copies are
 * not faster), -1 cells missing. */
int ms_pin_payoff_break_even (const MsResults *r, MsPinKind kind, MsPinKind base, int exponent,
                              double *n);
/* Where the lines of kind's and base's totals over n copies cross (the
 * break-even before rounding up, 0 where kind costs no more once), -1
 * where they do not (kind's copies are not faster) or cells are missing. */
double ms_pin_payoff_cross (const MsResults *r, MsPinKind kind, MsPinKind base, int exponent);
/* Below exponent, the size where kind took the most copies to pay off
 * against base (its exponent, *n the copies), -1 where none paid off. */
int ms_pin_payoff_most_below (const MsResults *r, MsPinKind kind, MsPinKind base, int exponent,
                              double *n);
/* The size the takeaway quotes (the smallest from which pinning paid off
 * against fresh pages in one copy at every size above too), -1 without. */
int ms_pin_payoff_slide_exponent (const MsResults *r);
/* The copies kind takes to pay off against base over the steps' 95% intervals, *lo to *hi
 * (INFINITY: open), false where even the fast end never pays off; in words the median's N
 * ("8"), or where spread the span ("7–11", "1", "8–∞"), where unit with its word ("1 copy"),
 * NULL where false. */
bool ms_pin_payoff_span (const MsResults *r, MsPinKind kind, MsPinKind base, int exponent,
                         double *lo, double *hi);
const char *ms_pin_payoff_copies (const MsResults *r, MsPinKind kind, MsPinKind base, int exponent,
                                  bool unit, bool spread, char *buf, size_t len);
/* The rates one copy ran at, at exponent, from new and reused pageable
 * memory and pinned, and how those copies differ from slide 1's, into
 * buf; false where a cell is missing. The slide's note and the details
 * say it in the same words. */
bool ms_pin_payoff_rates (const MsResults *r, int exponent, char *buf, size_t len);
/* The first size above exponent where pinning pays off in one copy
 * against a reused heap, whose N at exponent is more (malloc maps new
 * pages there too); -1 where none. */
int ms_pin_payoff_reused_drop (const MsResults *r, int exponent);
/* The message of the run's first host-pool cell that was not measured
 * (the driver has no host pools, or the pool could not be made); NULL
 * when every one was. */
const char *ms_pin_payoff_pool_missing (const MsResults *r);

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
