/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-lesson-caption-private.h: what the lessons' captions share, each in
 * its lesson's file (ms-lesson-NAME.c); defined in ms-lesson-caption.c. */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "memsweep.h"
#include "analysis/ms-compare.h"
#include "ms-lesson-caption.h"

/* The sizes to try, largest first: only exponent when one is given. */
#define FOR_EACH_EXP(e, exponent)                                                    \
  for (int e = (exponent) >= 0 ? (exponent) : MS_MAX_EXPONENT;                      \
       e >= ((exponent) >= 0 ? (exponent) : MS_MIN_EXPONENT); e--)

/* A cell with kept repetitions and an end-to-end median, or NULL. */
const MsCell *ms_caption_measured (const MsResults *r, MsMode mode, int exp, const char *variant);
/* The size at which cells of modes a and b (no variant) both have a copy
 * rate to the device, the first of the sizes to try, with the cells in
 * *ca and *cb: what the plain sweeps' lessons compare. -1 where no size
 * has both. */
int ms_caption_copy_pair (const MsResults *r, int exponent, MsMode a, MsMode b, const MsCell **ca,
                          const MsCell **cb);
/* Whether two cells' end-to-end medians have 95% intervals (min..max
 * below 6 repetitions) that do not meet: a difference a caption may
 * claim. */
bool ms_caption_apart (const MsCell *a, const MsCell *b);
/* b against a, two figures of one run, by the repo's verdict rule at the
 * Compare page's default threshold: SAME only where the ratio's interval
 * is narrow enough to rule out a difference that large, AMBIGUOUS where it
 * is too wide to tell ("cannot tell (too noisy)" on the slides). The one
 * rule by which the lessons call two of a run's figures the same. */
MsJudgement ms_caption_judge (const MsStat *a, const MsStat *b);
/* "4 KiB": the cell's size per vector. */
const char *ms_caption_size (const MsCell *c, char *buf, size_t len);
/* "1.19× faster", "1.50× slower" or "equally fast" for ratio, how many
 * times as fast one thing is as another (digits after the point): never
 * "0.84× as fast", which reads as faster. */
const char *ms_caption_speed (double ratio, int digits, char *buf, size_t len);
/* Appends a formatted sentence to buf (separated by a space). */
void ms_caption_append (char *buf, size_t len, const char *format, ...)
  __attribute__ ((format (printf, 3, 4)));
/* Appends formatted text to buf as it is (a finding's line, ending in its
 * own newline). */
void ms_caption_append_line (char *buf, size_t len, const char *format, ...)
  __attribute__ ((format (printf, 3, 4)));
/* A finding's figures: the end-to-end median of a cell measured in full
 * at e, and at the run's largest size the median of phase p or the copy
 * rate to the device; -1 where the cell is missing or not OK. */
double ms_finding_median (const MsResults *r, MsMode mode, int e, const char *variant);
double ms_finding_phase (const MsResults *r, MsMode mode, const char *variant, MsPhase p);
double ms_finding_h2d_gbps (const MsResults *r, MsMode mode, const char *variant);
/* Writes the sentence saying what is missing; returns false. */
bool ms_caption_missing (char *buf, size_t len, const char *sentence);

/* A lesson's caption of results (as ms_lesson_caption). */
typedef bool (*MsCaptionFunc) (const MsResults *results, int exponent, char *buf, size_t len);
/* Runs caption on results, len > 0: what every caption does first (no run,
 * a size out of range) and last (missing, translated, where it returned
 * false with nothing written; a sentence cut at a character). */
bool ms_caption_run (MsCaptionFunc caption, const char *missing, const MsResults *results,
                     int exponent, char *buf, size_t len);

/* us as ms_caption_time writes it, read back: a ratio of two times a
 * line quotes is taken from them as written, so that a reader who divides
 * "1.17 ms" by "16 µs" finds the line's 73, not the 71 of the unrounded
 * medians. */
double ms_caption_time_as_written (double us);
/* The device's name, or "GPU". */
const char *ms_caption_device (const MsResults *r);

/* The first sentence of a caption, without its asides in parentheses. */
void ms_takeaway_from_caption (const char *caption, char *buf, size_t len);
