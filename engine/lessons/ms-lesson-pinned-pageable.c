/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-lesson-pinned-pageable.c: the pinned-pageable lesson
 * (docs/lessons.md): pinned against pageable memory. A plain sweep of both
 * answers it; the caption compares their copies to the device. */
#include <math.h>
#include <stdio.h>

#include "ms-i18n.h"
#include "ms-lesson-caption-private.h"
#include "ms-lesson-record.h"

#define NAME "pinned-pageable"

/* A rate as the lines write it (one decimal), read back: their ratio is
 * taken from the rates as written, so that it divides out. */
static double
as_written (double gbps)
{
  return round (gbps * 10) / 10;
}

/* How many times as fast pinned copies to the device are as pageable. */
static double
rate_ratio (const MsCell *pin, const MsCell *page)
{
  return as_written (pin->stats.h2d_gbps) / as_written (page->stats.h2d_gbps);
}

/* The same for the copies back (the vector add's c): a strict reader took
 * the to-device ratio for both directions, which differ (8.1× and 5.1× on
 * the H100). 0 where the run has no rate back. */
static double
back_ratio (const MsCell *pin, const MsCell *page)
{
  if (!(pin->stats.d2h_gbps > 0 && page->stats.d2h_gbps > 0))
    return 0;
  return as_written (pin->stats.d2h_gbps) / as_written (page->stats.d2h_gbps);
}

static bool
caption_pinned_pageable (const MsResults *r, int exponent, char *buf, size_t len)
{
  const MsCell *pin, *page;
  if (ms_caption_copy_pair (r, exponent, MS_MODE_PINNED, MS_MODE_PAGEABLE, &pin, &page) < 0)
    return false;
  char size[32];
  double ratio = rate_ratio (pin, page);
  ms_caption_size (pin, size, sizeof size);
  if (ratio >= 1.05)
    snprintf (buf, len,
              ms_gettext ("On this %s, pinned copies are %.1f× faster than pageable at %s to "
                          "the device (%.1f against %.1f GB/s: the median of the vector add's "
                          "copies in alone, without its kernel and copy out)."),
              ms_caption_device (r), ratio, size, pin->stats.h2d_gbps, page->stats.h2d_gbps);
  else
    snprintf (buf, len,
              ms_gettext ("On this %s, pinned copies are not faster than pageable at %s to "
                          "the device (%.1f×: %.1f against %.1f GB/s: the median of the vector "
                          "add's copies in alone, without its kernel and copy out)."),
              ms_caption_device (r), size, ratio, pin->stats.h2d_gbps, page->stats.h2d_gbps);
  double back = back_ratio (pin, page);
  if (back > 0)
    ms_caption_append (buf, len,
                       /* Which figures: "5.1× back" was checked against the bars
                        * drawn, one repetition (427 µs ÷ 81.2 µs = 5.3×). */
                       ms_gettext ("Back from the device, pinned copies are %.2f× as fast (%.1f "
                                   "against %.1f GB/s: medians of every repetition; the bars "
                                   "drawn are one repetition)."),
                       back, pin->stats.d2h_gbps, page->stats.d2h_gbps);
  char t_pin[32], t_page[32];
  /* The figures the timelines' titles lead with. */
  ms_caption_append (buf, len,
                     ms_gettext ("End to end (copies in, kernel, copy out), pinned takes %s and "
                                 "pageable %s."),
                     ms_caption_time (pin->stats.e2e.median, t_pin, sizeof t_pin),
                     ms_caption_time (page->stats.e2e.median, t_page, sizeof t_page));
  return true;
}

/* The copies to the device, as the caption compares them: their rates,
 * decided where the intervals of their to-device times do not meet. */
static MsTakeaway
takeaway_pinned_pageable (const MsResults *r, char *buf, size_t len)
{
  const MsCell *pin, *page;
  if (ms_caption_copy_pair (r, -1, MS_MODE_PINNED, MS_MODE_PAGEABLE, &pin, &page) < 0)
    return MS_TAKEAWAY_MISSING;
  char size[32], speed[48];
  double ratio = rate_ratio (pin, page);
  const MsStat *a = &pin->stats.phase[MS_PHASE_H2D], *b = &page->stats.phase[MS_PHASE_H2D];
  ms_caption_size (pin, size, sizeof size);
  if (!(a->ci_high < b->ci_low || b->ci_high < a->ci_low)) {
    snprintf (buf, len,
              ms_gettext ("This GPU cannot tell: pinned and pageable copies differ by less "
                          "than their spread at %s (%.2f×)"),
              size, ratio);
    return MS_TAKEAWAY_UNDECIDED;
  }
  ms_caption_speed (ratio, ratio > 0.95 && ratio < 1.05 ? 2 : 1, speed, sizeof speed);
  double back = back_ratio (pin, page);
  /* Both directions, each named: the to-device ratio alone read as the
   * copies' in both. */
  if (back > 0) {
    char back_speed[48];
    if (back >= 1)
      snprintf (back_speed, sizeof back_speed, "%.1f×", back);
    else
      ms_caption_speed (back, 1, back_speed, sizeof back_speed);
    /* TRANSLATORS: e.g. "Pinned: 8.1× faster to the GPU (50.1 vs 6.2
     * GB/s), 5.1× back": one projected line, under the card's title
     * "Pinned against pageable". */
    snprintf (buf, len,
              ms_gettext ("Pinned: %s to the GPU (%.1f vs %.1f GB/s), %s back"),
              speed, pin->stats.h2d_gbps, page->stats.h2d_gbps, back_speed);
  } else
    snprintf (buf, len,
              ms_gettext ("Pinned: %s to the GPU at %s (%.1f vs %.1f GB/s)"),
              speed, size, pin->stats.h2d_gbps, page->stats.h2d_gbps);
  return MS_TAKEAWAY_DECIDED;
}

const MsLesson ms_lesson_pinned_pageable = {
  .card = { .name = NAME,
            .modes = "pageable,pinned",
            .plain = true,
            .title = MS_N_ ("Pinned against pageable"),
            .question = MS_N_ ("How much faster are copies from page-locked (pinned) memory?") },
  .caption = caption_pinned_pageable,
  .missing = MS_N_ ("This run has no pinned and pageable copies of the same size to compare."),
  .takeaway = takeaway_pinned_pageable,
};
