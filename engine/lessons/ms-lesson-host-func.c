/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-lesson-host-func.c: the host-function lesson (docs/lessons.md). How
 * soon a host function queued behind a copy or a kernel runs, through
 * cudaLaunchHostFunc and cudaStreamAddCallback, and what a slow host
 * function holds back: a kernel queued after it on its stream, or on
 * another stream. The caption's figures are all measured. */
#include <float.h>
#include <stdio.h>
#include <string.h>

#include "ms-i18n.h"
#include "ms-lesson-caption-private.h"
#include "ms-lesson-host-func.h"
#include "ms-lesson-record.h"
#include "ms-modes.h"

#define NAME "host-func"

/* arg[] of the probe, read by kernels/lesson-host-func.cu. */
enum { ARG_PART, ARG_API, ARG_AFTER, ARG_SLOW, ARG_HOST_FUNC_US, ARG_KERNEL_US, ARG_COPY_KIB };
enum { PART_LATENCY, PART_SLOW };
enum { API_LAUNCH_HOST_FUNC, API_STREAM_CALLBACK };
enum { AFTER_COPY, AFTER_KERNEL };
enum { SLOW_ALONE, SLOW_NONE, SLOW_SAME, SLOW_OTHER };

static const MsLessonOption options[] = {
  { "host-func-us", 1000, 10, 100000, true, MS_N_ ("the slow host function's busy wait, µs") },
  { "kernel-us", 100, 10, 100000, true, MS_N_ ("each kernel's duration, µs") },
  { "copy-kib", 1024, 4, 65536, true, MS_N_ ("the copy before a host function, KiB") },
  { NULL },
};

static const char *const api_words[] = { "launch-host-func", "stream-callback" };
static const char *const after_words[] = { "copy", "kernel" };
static const char *const slow_words[]
    = { "func-only", "kernel-only", "kernel=same-stream", "kernel=other-stream" };

/* The options every cell carries, after its variant is set. */
static void
set_options (MsProbeCell *c, const MsSweep *sweep)
{
  c->arg[ARG_HOST_FUNC_US] = (int)ms_lesson_option_in (options, sweep->options, "host-func-us");
  c->arg[ARG_KERNEL_US] = (int)ms_lesson_option_in (options, sweep->options, "kernel-us");
  c->arg[ARG_COPY_KIB] = (int)ms_lesson_option_in (options, sweep->options, "copy-kib");
  c->instrumented = 1;
}

/* The cells' variants, which the caption looks them up by:
 * "latency/api=launch-host-func/after=kernel" and "slow/alone". */
static void
latency_variant (char *buf, size_t len, int api, int after)
{
  snprintf (buf, len, "latency/api=%s/after=%s", api_words[api], after_words[after]);
}

static void
slow_variant (char *buf, size_t len, int s)
{
  snprintf (buf, len, "slow/%s", slow_words[s]);
}

static int
cells (const MsSweep *sweep, int part, MsProbeCell *out, int max)
{
  (void)part;
  int n = 0;
  for (int api = 0; api < 2; api++)
    for (int after = 0; after < 2 && n < max; after++) {
      MsProbeCell *c = ms_probe_cell_init (&out[n++], MS_MODE_STREAMS, 0);
      latency_variant (c->variant, sizeof c->variant, api, after);
      set_options (c, sweep);
      c->arg[ARG_PART] = PART_LATENCY;
      c->arg[ARG_API] = api;
      c->arg[ARG_AFTER] = after;
    }
  for (int s = SLOW_ALONE; s <= SLOW_OTHER && n < max; s++) {
    MsProbeCell *c = ms_probe_cell_init (&out[n++], MS_MODE_STREAMS, 0);
    slow_variant (c->variant, sizeof c->variant, s);
    set_options (c, sweep);
    c->arg[ARG_PART] = PART_SLOW;
    c->arg[ARG_SLOW] = s;
  }
  return n;
}

static const MsCell *
latency_cell (const MsResults *r, int api, int after)
{
  char v[MS_VARIANT_LEN];
  latency_variant (v, sizeof v, api, after);
  return ms_caption_measured (r, MS_MODE_STREAMS, 0, v);
}

static double
slow_of (const MsResults *r, int s)
{
  char v[MS_VARIANT_LEN];
  slow_variant (v, sizeof v, s);
  const MsCell *c = ms_caption_measured (r, MS_MODE_STREAMS, 0, v);
  return c ? c->stats.e2e.median : 0;
}

/* The finding first: the medians' range, then their 95% ranges as the
 * slide draws them, then each call's. */
static void
caption_latency (const MsResults *r, char *buf, size_t len)
{
  double l[2][2], least = DBL_MAX, most = -1, rep_lo = DBL_MAX, rep_hi = -1;
  for (int api = 0; api < 2; api++)
    for (int after = 0; after < 2; after++) {
      const MsCell *c = latency_cell (r, api, after);
      l[api][after] = c ? c->stats.e2e.median : -1;
      if (!c)
        continue;
      least = l[api][after] < least ? l[api][after] : least;
      most = l[api][after] > most ? l[api][after] : most;
      rep_lo = c->stats.e2e.ci_low < rep_lo ? c->stats.e2e.ci_low : rep_lo;
      rep_hi = c->stats.e2e.ci_high > rep_hi ? c->stats.e2e.ci_high : rep_hi;
    }
  char t[32], u[32], a[32], b[32];
  if (most > -1)
    ms_caption_append (buf, len,
                       ms_gettext ("Host functions started %s to %s after the work ahead of "
                                   "them ended (the medians; their 95%% ranges, the slide's "
                                   "lines, within %s to %s): the GPU signals the end, and the "
                                   "driver runs the function on a host thread of its own."),
                       ms_caption_time (least, t, sizeof t), ms_caption_time (most, u, sizeof u),
                       ms_caption_time (rep_lo, a, sizeof a),
                       ms_caption_time (rep_hi, b, sizeof b));
  /* In the captions' time format, so that each figure reads as the
   * picture's strip of it does. */
  if (l[0][0] > -1 && l[0][1] > -1)
    ms_caption_append (
        buf, len, ms_gettext ("cudaLaunchHostFunc: %s after a copy, %s after a kernel."),
        ms_caption_time (l[0][0], a, sizeof a), ms_caption_time (l[0][1], b, sizeof b));
  if (l[1][0] > -1 && l[1][1] > -1)
    ms_caption_append (buf, len, ms_gettext ("cudaStreamAddCallback (the older call): %s and %s."),
                       ms_caption_time (l[1][0], a, sizeof a),
                       ms_caption_time (l[1][1], b, sizeof b));
}

/* What a slow host function held back, by the caption's rule: the kernel
 * after it on its stream where that ended half the function's time or
 * more later than alone, one on another stream where a quarter or more.
 * False where the run lacks the cells (other is then false too where
 * that cell alone is missing). */
static bool
slow_held (const MsResults *r, bool *own, bool *other, bool *other_known)
{
  double func = slow_of (r, SLOW_ALONE), kernel = slow_of (r, SLOW_NONE);
  double same = slow_of (r, SLOW_SAME), far = slow_of (r, SLOW_OTHER);
  if (!(func > 0) || !(kernel > 0) || !(same > 0))
    return false;
  *own = same - kernel >= 0.5 * func;
  *other_known = far > 0;
  *other = *other_known && far - kernel >= 0.25 * func;
  return true;
}

/* Each figure says what it is: the function's own time is the median of
 * it alone; the kernels' delays are against the kernel alone. */
static void
caption_slow (const MsResults *r, char *buf, size_t len)
{
  char tb[32], tf[32], tw[32], to[32];
  bool own, other, other_known;
  if (!slow_held (r, &own, &other, &other_known))
    return;
  double func = slow_of (r, SLOW_ALONE), kernel = slow_of (r, SLOW_NONE);
  double waited = slow_of (r, SLOW_SAME) - kernel > 0 ? slow_of (r, SLOW_SAME) - kernel : 0;
  ms_caption_time (ms_lesson_option_in (options, r->sweep.options, "host-func-us"), tb, sizeof tb);
  ms_caption_time (func, tf, sizeof tf);
  ms_caption_time (waited, tw, sizeof tw);
  if (!own)
    ms_caption_append (buf, len,
                       ms_gettext ("A slow host function (a busy wait of %s; %s from the call "
                                   "to its end alone, the median) did not hold back the kernel "
                                   "queued after it on its stream: it ended %s later than alone."),
                       tb, tf, tw);
  else
    ms_caption_append (buf, len,
                       ms_gettext ("A slow host function (a busy wait of %s; %s from the call "
                                   "to its end alone, the median) held back the kernel queued "
                                   "after it on its stream: it ended %s later than alone (%.2f "
                                   "times the function's time)."),
                       tb, tf, tw, waited / func);
  if (!other_known)
    return;
  double other_wait = slow_of (r, SLOW_OTHER) - kernel;
  ms_caption_time (other_wait > 0 ? other_wait : 0, to, sizeof to);
  ms_caption_append (buf, len,
                     other ? ms_gettext ("A kernel on another stream was held back too: %s later.")
                           : ms_gettext ("A kernel on another stream was not held back (%s "
                                         "later)."),
                     to);
}

bool
ms_host_func_noisy (const MsStat *latency)
{
  /* Below 6 repetitions the interval is min..max (ms_caption_apart): a
   * spread to judge by all the same. */
  return latency->ci_high - latency->ci_low > latency->median;
}

/* Two medians in words, in one unit where both have it: "≈53 µs" where they round alike, else
 * "45 or 49 µs" (two calls' medians: "45 to 49 µs" read as one spread). */
static void
range_words (double lo, double hi, char *buf, size_t len)
{
  char t[32], u[32];
  ms_caption_time (lo, t, sizeof t);
  ms_caption_time (hi, u, sizeof u);
  if (strcmp (t, u) == 0) {
    /* TRANSLATORS: one time the host-function slide quotes, e.g. "≈53 µs"
     * (as pin-payoff's "≈1 copy": "about" cost the line a back row's
     * size). */
    snprintf (buf, len, ms_gettext ("≈%s"), t);
    return;
  }
  ms_format_unit_once (t, u);
  /* TRANSLATORS: two calls' median times, e.g. "45 or 49 µs" (the first without its unit where
   * both have the same) or "800 µs or 1.2 ms". */
  snprintf (buf, len, ms_gettext ("%s or %s"), t, u);
}

/* The slide's line, one effect: how soon a host function started after
 * a kernel, whichever call queued it, as the range of its medians not too
 * noisy to quote (ms_host_func_noisy; the slide draws those as their
 * intervals alone). After a copy the medians (92 and 62 µs on the H100)
 * are too noisy: "after prior work" claimed the kernel's figure for them.
 * The slow function's finding and each call are the details'. */
static MsTakeaway
takeaway (const MsResults *r, char *buf, size_t len)
{
  double least = DBL_MAX, most = -1;
  int measured = 0;
  for (int api = 0; api < 2; api++)
    for (int after = AFTER_COPY; after <= AFTER_KERNEL; after++) {
      const MsCell *c = latency_cell (r, api, after);
      if (!c)
        continue;
      measured++;
      if (after != AFTER_KERNEL || ms_host_func_noisy (&c->stats.e2e))
        continue;
      least = c->stats.e2e.median < least ? c->stats.e2e.median : least;
      most = c->stats.e2e.median > most ? c->stats.e2e.median : most;
    }
  if (measured == 0)
    return MS_TAKEAWAY_MISSING;
  if (most < 0) {
    snprintf (buf, len,
              ms_gettext ("This run cannot tell how soon host functions start (too noisy)"));
    return MS_TAKEAWAY_UNDECIDED;
  }
  char range[80];
  range_words (least, most, range, sizeof range);
  /* Both halves of the card's question: the slow function's, left to the
   * details, left half of it unanswered. */
  bool own, other, other_known;
  if (!slow_held (r, &own, &other, &other_known))
    /* TRANSLATORS: the host-function slide's line, e.g. "A host function
     * started about 53 µs after a kernel". */
    snprintf (buf, len, ms_gettext ("A host function started %s after a kernel"), range);
  else if (own && other_known && !other)
    /* TRANSLATORS: one projected line: how soon a host function started,
     * e.g. "about 53 µs", and that a slow one delayed the kernel after it
     * on its stream but not one on another stream: both halves of the
     * card, each against what ("late" and "its own stream" left both to
     * guess). */
    snprintf (buf, len,
              ms_gettext ("Starts %s after a kernel; a slow one delays only its stream"),
              range);
  else if (own && other)
    snprintf (buf, len,
              ms_gettext ("Starts %s after a kernel; a slow one holds back other streams too"),
              range);
  else if (own)
    snprintf (buf, len,
              ms_gettext ("Starts %s after a kernel; a slow one holds back its stream's next "
                          "kernel"),
              range);
  else
    snprintf (buf, len,
              ms_gettext ("Starts %s after a kernel; even a slow one held back no kernel"),
              range);
  return MS_TAKEAWAY_DECIDED;
}

static bool
caption (const MsResults *r, int exponent, char *buf, size_t len)
{
  (void)exponent;
  if (!latency_cell (r, 0, 0) && slow_of (r, SLOW_SAME) <= 0)
    return false;
  caption_latency (r, buf, len);
  caption_slow (r, buf, len);
  return true;
}

const MsLesson ms_lesson_host_func = {
  .card = { .name = NAME,
            .modes = "streams",
            .title = MS_N_ ("Host functions in a stream"),
            .question = MS_N_ ("How soon does a host function run, and what does a slow one hold "
                               "back?"),
            .reason = MS_N_ ("A host function goes into a stream behind a copy or a kernel, "
                             "through cudaLaunchHostFunc and through cudaStreamAddCallback. It "
                             "reads the host clock when it starts; the copy's end (an event) and "
                             "the kernel's end (its own clock stamp) are placed on the host clock "
                             "by a handshake with the GPU, so the latency is the time from the end "
                             "of the work to the start of the function. Then a slow host function "
                             "(a busy wait on the host) is followed by a kernel on the same stream "
                             "and on another stream: compare how long each kernel's end came after "
                             "its time alone with the function's duration.") },
  .settings = "latency from an h2d copy of copy-kib or a kernel of kernel-us to a host "
              "function, through cudaLaunchHostFunc and cudaStreamAddCallback; a host function "
              "busy for host-func-us alone, a kernel of kernel-us alone, and both with the "
              "kernel on the same or on another stream",
  MS_PROBE_LESSON_FIELDS,
  .takeaway = takeaway,
  .missing = MS_N_ ("The run lacks the host functions' latencies and the slow host function's "
                    "cells."),
};
