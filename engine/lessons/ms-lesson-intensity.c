/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-lesson-intensity.c: zero-copy and arithmetic intensity (docs/lessons.md).
 * At R = 1, a kernel does F dependent FMAs per element of a and b; end to
 * end, zero-copy (the kernel reads mapped pinned host memory and writes
 * mapped c) against pinned (copy a and b in, the kernel, copy c out). The
 * caption gives zero-copy ÷ pinned per F and the smallest F at which
 * zero-copy wins, as measured. */
#include <stdio.h>
#include <string.h>

#include "ms-i18n.h"
#include "ms-lesson-caption-private.h"
#include "ms-lesson-record.h"

#define NAME "intensity"

/* arg[] of the probe, read by kernels/lesson-intensity.cu. */
enum { ARG_FMA, ARG_ZERO_COPY };

#define MAX_FMA 1024

static const MsLessonOption options[] = {
  { "exp", 22, 10, 26, true, MS_N_ ("the size: 2^exp floats per vector (22: 16 MiB)") },
  { "max-fma", 1024, 1, MAX_FMA, true,
    MS_N_ ("the most dependent FMAs per element; F goes 1, 4, 16 .. up to it") },
  { NULL },
};

/* A cell's variant, which the caption looks its cells up by:
 * "mode=zero-copy/F=16". */
static void
variant (char *buf, size_t len, bool zero_copy, int f)
{
  snprintf (buf, len, "mode=%s/F=%d", zero_copy ? "zero-copy" : "pinned", f);
}

static int
cells (const MsSweep *sweep, int part, MsProbeCell *out, int max)
{
  (void)part;
  int exp = (int)ms_lesson_option_in (options, sweep->options, "exp");
  int max_f = (int)ms_lesson_option_in (options, sweep->options, "max-fma");
  int n = 0;
  for (int f = 1; f <= max_f; f = ms_lesson_next_step (f, 4, max_f))
    for (int zc = 1; zc >= 0 && n < max; zc--) {
      MsProbeCell *c = ms_probe_cell_init (&out[n++], zc ? MS_MODE_ZERO_COPY : MS_MODE_PINNED, exp);
      variant (c->variant, sizeof c->variant, zc, f);
      c->arg[ARG_FMA] = f;
      c->arg[ARG_ZERO_COPY] = zc;
      c->instrumented = 1;
    }
  return n;
}

/* The median of the mode's cell at F (any size when exponent < 0), or 0. */
static double
median_at (const MsResults *r, bool zero_copy, int f, int exponent)
{
  char v[MS_VARIANT_LEN];
  variant (v, sizeof v, zero_copy, f);
  FOR_EACH_EXP (e, exponent)
  {
    const MsCell *c = ms_caption_measured (r, zero_copy ? MS_MODE_ZERO_COPY : MS_MODE_PINNED, e, v);
    if (c)
      return c->stats.e2e.median;
  }
  return 0;
}

static double
intensity_ratio (const MsResults *r, int f, int exponent)
{
  double zc = median_at (r, true, f, exponent), pinned = median_at (r, false, f, exponent);
  return zc > 0 && pinned > 0 ? zc / pinned : 0;
}

static bool
caption (const MsResults *r, int exponent, char *buf, size_t len)
{
  char list[512] = "", t1[32], t2[32];
  int n = 0, first_win = 0, f_lo = 0, f_hi = 0;
  bool wins_after_first = true;
  for (int f = 1; f <= MAX_FMA; f++) {
    double ratio = intensity_ratio (r, f, exponent);
    if (!(ratio > 0))
      continue;
    size_t used = strlen (list);
    snprintf (list + used, sizeof list - used, "%sF = %d: %.2f", n ? ", " : "", f, ratio);
    if (!f_lo)
      f_lo = f;
    f_hi = f;
    if (ratio < 1 && !first_win)
      first_win = f;
    else if (ratio >= 1 && first_win)
      wins_after_first = false;
    n++;
  }
  if (n < 2)
    return false;
  /* The answer to the lesson's question first: how much arithmetic, if
   * any, zero-copy needed to beat pinned. */
  if (first_win == f_lo && wins_after_first)
    ms_caption_append (buf, len,
                       ms_gettext ("No extra arithmetic was needed for zero-copy to win: it was "
                                   "faster than pinned at every F measured, from %d FMA per "
                                   "element on."),
                       f_lo);
  else if (!first_win)
    ms_caption_append (buf, len,
                       ms_gettext ("Zero-copy never won: up to %d FMAs per element did not hide "
                                   "the link on this system."),
                       f_hi);
  else
    ms_caption_append (buf, len, ms_gettext ("Zero-copy first won at F = %d%s."), first_win,
                       wins_after_first ? ms_gettext (", and at every larger F")
                                        : ms_gettext (", though not at every larger F"));
  ms_caption_append (buf, len,
                     ms_gettext ("F counts FMAs (multiply-adds) per element, each waiting for "
                                 "the one before. Zero-copy's time ÷ pinned's, end to end "
                                 "(below 1: zero-copy is faster): %s."),
                     list);
  /* Both ends of both lines: a falling ratio may be pinned slowing, not
   * zero-copy gaining. */
  char z1[32], z2[32];
  ms_caption_append (buf, len,
                     ms_gettext ("Pinned took %s at F = %d and %s at F = %d; zero-copy %s and "
                                 "%s."),
                     ms_caption_time (median_at (r, false, f_lo, exponent), t1, sizeof t1), f_lo,
                     ms_caption_time (median_at (r, false, f_hi, exponent), t2, sizeof t2), f_hi,
                     ms_caption_time (median_at (r, true, f_lo, exponent), z1, sizeof z1),
                     ms_caption_time (median_at (r, true, f_hi, exponent), z2, sizeof z2));
  return true;
}

/* Zero-copy hides the link once the arithmetic takes as long as the
 * copies: pinned (copies, then the kernel) then takes twice its time at
 * the least F. Until then zero-copy's ratio is the link's alone, and the
 * run cannot answer the lesson's question, however flat the ratio. */
#define ARITHMETIC_SHOWS 2.0
static MsTakeaway
takeaway (const MsResults *r, char *buf, size_t len)
{
  int f_lo = 0, f_hi = 0, first_win = 0;
  bool wins_after_first = true;
  for (int f = 1; f <= MAX_FMA; f++) {
    double ratio = intensity_ratio (r, f, -1);
    if (!(ratio > 0))
      continue;
    f_lo = f_lo ? f_lo : f;
    f_hi = f;
    if (ratio < 1 && !first_win)
      first_win = f;
    else if (ratio >= 1 && first_win)
      wins_after_first = false;
  }
  if (f_lo == f_hi)
    return MS_TAKEAWAY_MISSING;
  double grew = median_at (r, false, f_hi, -1) / median_at (r, false, f_lo, -1);
  bool every = first_win == f_lo && wins_after_first;
  /* Where the arithmetic never grew enough to tip the balance, what the
   * picture shows first, then why the lesson's question stays open; but
   * where zero-copy won from the start, on the link alone, that win:
   * "cannot tell" read as a draw over it. */
  if (grew < ARITHMETIC_SHOWS && !every) {
    snprintf (buf, len,
              ms_gettext ("Up to F = %d this GPU cannot tell where arithmetic tips zero-copy"),
              f_hi);
    return MS_TAKEAWAY_UNDECIDED;
  }
  if (!first_win)
    snprintf (buf, len, ms_gettext ("Zero-copy never beat pinned up to F = %d FMAs per element"),
              f_hi);
  else if (every) {
    /* TRANSLATORS: e.g. "No extra arithmetic: zero-copy beat pinned at
     * every F, 1 to 1024": the amount the question asks for, and what the
     * chart draws (under "hides the link", "needs no extra arithmetic" was
     * read as the link hiding the arithmetic); one projected line. */
    snprintf (buf, len,
              ms_gettext ("No extra arithmetic: zero-copy beat pinned at every F, %d to %d"),
              f_lo, f_hi);
  }
  else
    snprintf (buf, len, ms_gettext ("Zero-copy first beat pinned at F = %d FMAs per element"),
              first_win);
  return MS_TAKEAWAY_DECIDED;
}

const MsLesson ms_lesson_intensity = {
  .card = { .name = NAME,
            .modes = "zero-copy,pinned",
            .title = MS_N_ ("Zero-copy and arithmetic intensity"),
            /* What the run measures: zero-copy against copying first.
             * "Hides the link" was read both ways round. */
            .question = MS_N_ ("How much arithmetic per element does zero-copy need to beat pinned "
                               "copies?"),
            .reason = MS_N_ ("Each element of a and b is used once (R = 1) by a kernel that does F "
                             "dependent FMAs on it and writes c. Zero-copy: the kernel reads a and "
                             "b from mapped pinned host memory and writes c there. Pinned: a and b "
                             "are copied to the GPU, the kernel runs, c is copied back. Both are "
                             "timed end to end on the host clock; look at how zero-copy ÷ pinned "
                             "moves as F grows, and at which F, if any, it drops below 1. The "
                             "timeline comes from one more run with events.") },
  .settings = "R=1; F=1,4,16..max-fma dependent FMAs per element; zero-copy (mapped pinned a, "
              "b, c) and pinned (H2D a, b; kernel; D2H c) end to end at one size (exp)",
  MS_PROBE_LESSON_FIELDS,
  .missing = MS_N_ ("The run lacks zero-copy and pinned cells at two or more F."),
  .takeaway = takeaway,
};
