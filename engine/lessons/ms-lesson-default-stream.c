/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-lesson-default-stream.c: the default-stream lesson (docs/lessons.md).
 * Two host threads each copy to the device, run a kernel of fixed
 * duration and copy back on "the default stream": the legacy one, shared
 * by every thread, or each thread's own per-thread default stream; one
 * thread alone is the reference. The caption counts the two threads' time
 * in one thread's times, measured, not assumed. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ms-i18n.h"
#include "ms-lesson-caption-private.h"
#include "ms-lesson-record.h"

#define NAME "default-stream"

/* arg[] of the probe, read by kernels/lesson-default-stream.cu. */
enum { ARG_THREADS, ARG_PER_THREAD, ARG_KERNEL_US, ARG_COPY_KIB };

static const MsLessonOption options[] = {
  { "kernel-us", 200, 10, 100000, true, MS_N_ ("each thread's kernel duration, µs") },
  { "copy-kib", 4096, 4, 65536, true, MS_N_ ("each copy, KiB (to the device and back)") },
  { NULL },
};

/* The cells: one thread alone, then two threads on each default stream. */
static const struct {
  const char *variant;
  int threads, per_thread;
} settings[] = {
  { "threads=1/stream=legacy", 1, 0 },
  { "threads=2/stream=legacy", 2, 0 },
  { "threads=2/stream=per-thread", 2, 1 },
};
#define N_SETTINGS ((int)(sizeof settings / sizeof settings[0]))

static int
cells (const MsSweep *sweep, int part, MsProbeCell *out, int max)
{
  (void)part;
  int n = 0;
  for (int s = 0; s < N_SETTINGS && n < max; s++) {
    MsProbeCell *c = ms_probe_cell_set (&out[n++], MS_MODE_STREAMS, 0, "%s", settings[s].variant);
    c->arg[ARG_THREADS] = settings[s].threads;
    c->arg[ARG_PER_THREAD] = settings[s].per_thread;
    c->arg[ARG_KERNEL_US] = (int)ms_lesson_option_in (options, sweep->options, "kernel-us");
    c->arg[ARG_COPY_KIB] = (int)ms_lesson_option_in (options, sweep->options, "copy-kib");
    /* Every repetition with timers too: the picture draws the one
     * nearest the median, which one of them alone seldom is. */
    c->instrumented = MS_MAX_REPS;
    /* At 8 or fewer repetitions a median's 95% range is the fastest to
     * the slowest, so one slow repetition of 6 left the H200's two
     * streams undecided; at 21 it runs from the 6th to the 16th. */
    c->min_reps = 21;
  }
  return n;
}

static const MsCell *
cell_of (const MsResults *r, int s)
{
  return ms_caption_measured (r, MS_MODE_STREAMS, 0, settings[s].variant);
}

/* Two threads' work that took `times` one thread's times. */
static const char *
verdict (double times)
{
  if (times <= 1.35)
    return ms_gettext ("the threads overlapped");
  if (times >= 1.95)
    return ms_gettext ("the threads ran one after the other");
  /* 1.84 times one thread's is not serial: a sixth of it overlapped, and
   * the timeline drawn shows the kernels overlapping. */
  if (times >= 1.8)
    return ms_gettext ("the threads ran nearly one after the other");
  return ms_gettext ("the threads partly overlapped");
}

/* The deck's interval rule decides (ms_caption_apart, as the bars draw
 * the 95% ranges): where the ranges meet, no saving is claimed, and the
 * headline says why (an aside, in brackets, is left off it). */
static bool
caption (const MsResults *r, int exponent, char *buf, size_t len)
{
  (void)exponent;
  char t1[32], t2[32], t3[32];
  const MsCell *c1 = cell_of (r, 0), *cl = cell_of (r, 1), *cp = cell_of (r, 2);
  if (!c1 || !cl || !cp)
    return false;
  double one = c1->stats.e2e.median, legacy = cl->stats.e2e.median, per = cp->stats.e2e.median;
  bool told = ms_caption_apart (cl, cp);
  ms_caption_time (per, t3, sizeof t3);
  ms_caption_time (one, t1, sizeof t1);
  /* The headline's figures are the bars' own multiples (a saving in per
   * cent was a figure the slide drew nowhere), each said once. */
  if (told && per < legacy) {
    ms_caption_append (buf, len,
                       ms_gettext ("Two threads: %.2f× one thread's time on legacy, %.2f× "
                                   "per-thread (%s and %s against %s alone)."),
                       legacy / one, per / one, ms_caption_time (legacy, t2, sizeof t2), t3, t1);
    ms_caption_append (buf, len,
                       ms_gettext ("Per-thread default streams, one per thread, saved %.0f%% of "
                                   "the legacy stream's time: %s."),
                       100 * (1 - per / legacy), verdict (per / one));
    ms_caption_append (buf, len,
                       ms_gettext ("On the legacy default stream, which every thread shares, %s."),
                       ms_caption_apart (c1, cl)
                           ? verdict (legacy / one)
                           : ms_gettext ("the run cannot tell two threads from one"));
    return true;
  }
  if (!told) {
    /* What was seen, then why it cannot decide: at 6 repetitions a 95%
     * range is the fastest to the slowest (the H200's 767 µs met 763). */
    char t4[32], t5[32], t6[32], t7[32];
    const MsStat *sp = &cp->stats.e2e, *sl = &cl->stats.e2e, *s1 = &c1->stats.e2e;
    ms_caption_append (buf, len,
                       ms_gettext ("Per-thread %s, legacy %s: cannot tell from %d repetitions "
                                   "(two threads' medians; %.2f and %.2f times one thread's %s)."),
                       t3, ms_caption_time (legacy, t2, sizeof t2), sp->n < sl->n ? sp->n : sl->n, per / one,
                       legacy / one, t1);
    ms_caption_append (buf, len,
                       ms_gettext ("At %d repetitions the medians' 95%% ranges (at 8 or fewer, "
                                   "the fastest repetition to the slowest) meet: per-thread's %s "
                                   "to %s, legacy's %s to %s."),
                       sp->n, ms_caption_time (sp->ci_low, t4, sizeof t4),
                       ms_caption_time (sp->ci_high, t5, sizeof t5),
                       ms_caption_time (sl->ci_low, t6, sizeof t6),
                       ms_caption_time (sl->ci_high, t7, sizeof t7));
    /* The yardstick's own spread, as wide as the gap to be told. */
    ms_caption_append (buf, len,
                       ms_gettext ("One thread alone took %s to %s over its %d repetitions: "
                                   "single repetitions on this host varied that much."),
                       ms_caption_time (s1->min, t4, sizeof t4),
                       ms_caption_time (s1->max, t5, sizeof t5), s1->n);
  } else
    ms_caption_append (buf, len,
                       ms_gettext ("Per-thread default streams were not faster here than "
                                   "the legacy one: two threads took %s on them, %.2f "
                                   "times one thread's %s (%s)."),
                       t3, per / one, t1, verdict (per / one));
  ms_caption_append (buf, len,
                     ms_caption_apart (c1, cl)
                         ? ms_gettext ("On the legacy default stream, which every thread shares, "
                                       "two threads took %s, %.2f× one thread's time (%s).")
                         : ms_gettext ("On the legacy default stream, which every thread shares, "
                                       "they took %s, %.2f times: against one thread, cannot "
                                       "tell (%s)."),
                     ms_caption_time (legacy, t2, sizeof t2), legacy / one,
                     ms_caption_apart (c1, cl) ? verdict (legacy / one)
                                               : ms_gettext ("the ranges overlap"));
  return true;
}

const MsLesson ms_lesson_default_stream = {
  .card = { .name = NAME,
            .modes = "streams",
            .title = MS_N_ ("The default stream: legacy or per thread"),
            .question = MS_N_ ("Do two host threads using the default stream get in each other's "
                               "way?"),
            .reason = MS_N_ ("Two host threads, started before the timing and released together, "
                             "each copy a buffer to the device, run a kernel of fixed duration and "
                             "copy it back, all on \"the default stream\": once the legacy default "
                             "stream, which every thread shares, and once each thread's per-thread "
                             "default stream (cudaStreamPerThread, named explicitly). The time "
                             "runs from the release to the end of both threads; one thread alone "
                             "is the yardstick. Compare the two times with one and with two "
                             "single-thread times; the timelines come from one more run with "
                             "events around the copies and the kernels' clock stamps.") },
  .settings = "one thread alone, then two threads, each an h2d copy of copy-kib, a kernel of "
              "kernel-us and a d2h copy, on the legacy and on the per-thread default stream",
  MS_PROBE_LESSON_FIELDS,
  .missing = MS_N_ ("The run lacks one thread alone, or two threads on the legacy or on the "
                    "per-thread default stream."),
};
