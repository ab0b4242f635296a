/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-lesson-priority.c: the stream-priorities lesson (docs/lessons.md). A
 * long kernel on a stream of the least priority fills every SM's block
 * slots for many waves; short one-block kernels arrive at a fixed host
 * interval on a stream of the greatest priority, and, as the control, on
 * a second stream of the least. The figure of a run is the median, over
 * its short kernels, of the wait from each launch (host clock mapped to
 * the GPU's clock) to the kernel's start (its own clock stamp): one value
 * per run, so that a run's spread of arrivals does not pass for the
 * run-to-run spread. The long kernel's own time is a cell too. */
#include <stdio.h>
#include <string.h>

#include "ms-gpu-clock.h"
#include "ms-i18n.h"
#include "ms-lesson-caption-private.h"
#include "ms-lesson-record.h"
#include "ms-lesson-priority.h"
#include "ms-variant.h"

#define NAME "priority"

static const MsLessonOption options[] = {
  { "waves", 40, 1, 200, true, MS_N_ ("waves of blocks in the long kernel") },
  { "block-us", 50, 5, 2000, true, MS_N_ ("each block of the long kernel spins this long, µs") },
  { "short-us", 10, 1, 1000, true, MS_N_ ("each short kernel's duration, µs") },
  { "gap-us", 100, 10, 10000, true,
    MS_N_ ("host interval between the short kernels' launches, µs") },
  { NULL },
};

static const char *const shorts_words[MS_PRIORITY_SHORTS_COUNT] = { "high", "low", "none" };
static const char *const figure_words[MS_PRIORITY_FIGURE_COUNT] = { "wait", "long" };

void
ms_priority_variant (char *buf, size_t len, MsPriorityShorts shorts, MsPriorityFigure figure,
                     int waves, int block_us, int short_us, int gap_us)
{
  snprintf (buf, len, "prio=%s/%s/W=%d/blk=%d/sk=%d/gap=%d", shorts_words[shorts],
            figure_words[figure], waves, block_us, short_us, gap_us);
}

const MsCell *
ms_priority_cell (const MsResults *r, MsPriorityShorts shorts, MsPriorityFigure figure)
{
  char prefix[MS_VARIANT_LEN];
  snprintf (prefix, sizeof prefix, "prio=%s/%s/", shorts_words[shorts], figure_words[figure]);
  for (size_t i = 0; r && i < r->n_cells; i++)
    if (strncmp (r->cells[i].variant, prefix, strlen (prefix)) == 0)
      return &r->cells[i];
  return NULL;
}

static int
cells (const MsSweep *sweep, int part, MsProbeCell *out, int max)
{
  (void)part;
  static const struct {
    MsPriorityShorts shorts;
    MsPriorityFigure figure;
  } list[] = {
    { MS_PRIORITY_HIGH, MS_PRIORITY_WAIT }, { MS_PRIORITY_LOW, MS_PRIORITY_WAIT },
    { MS_PRIORITY_HIGH, MS_PRIORITY_LONG }, { MS_PRIORITY_LOW, MS_PRIORITY_LONG },
    { MS_PRIORITY_NONE, MS_PRIORITY_LONG },
  };
  int a[MS_PRIORITY_ARG_COUNT];
  a[MS_PRIORITY_ARG_WAVES] = (int)ms_lesson_option_in (options, sweep->options, "waves");
  a[MS_PRIORITY_ARG_BLOCK_US] = (int)ms_lesson_option_in (options, sweep->options, "block-us");
  a[MS_PRIORITY_ARG_SHORT_US] = (int)ms_lesson_option_in (options, sweep->options, "short-us");
  a[MS_PRIORITY_ARG_GAP_US] = (int)ms_lesson_option_in (options, sweep->options, "gap-us");
  int n = 0;
  for (size_t i = 0; i < sizeof list / sizeof list[0] && n < max; i++) {
    MsProbeCell *c = ms_probe_cell_init (&out[n++], MS_MODE_STREAMS, 0);
    ms_priority_variant (c->variant, sizeof c->variant, list[i].shorts, list[i].figure,
                         a[MS_PRIORITY_ARG_WAVES], a[MS_PRIORITY_ARG_BLOCK_US],
                         a[MS_PRIORITY_ARG_SHORT_US], a[MS_PRIORITY_ARG_GAP_US]);
    memcpy (c->arg, a, sizeof a);
    c->arg[MS_PRIORITY_ARG_SHORTS] = list[i].shorts;
    c->arg[MS_PRIORITY_ARG_FIGURE] = list[i].figure;
    /* The timeline: short kernels slotting in, or waiting for the end. */
    c->instrumented = list[i].figure == MS_PRIORITY_WAIT ? 1 : 0;
  }
  return n;
}

static double
median_of (const MsCell *c)
{
  return c && c->status == MS_CELL_OK && c->n_reps > 0 ? c->stats.e2e.median : 0;
}

/* The long kernel's time where the timeline's low-priority short kernels
 * all started in its last wave of blocks or later: they waited for its
 * end, and the fold was no property of priority alone. 0 otherwise. */
static double
low_waited_for_end (const MsResults *r)
{
  const MsCell *c = ms_priority_cell (r, MS_PRIORITY_LOW, MS_PRIORITY_WAIT);
  int blk = 0;
  bool has_blk = c && ms_variant_get_int (c->variant, "blk", &blk);
  double end = 0, first = -1;
  for (size_t i = 0; has_blk && i < c->n_events; i++) {
    const MsEvent *e = &c->events[i];
    if (e->phase == MS_PHASE_KERNEL && e->gpu_start_us >= 0 && e->lane == 1)
      end = e->gpu_start_us + e->gpu_us;
    else if (e->phase == MS_PHASE_KERNEL && e->lane == 2 && (first < 0 || e->gpu_start_us < first))
      first = e->gpu_start_us;
  }
  if (!(end > 0 && first >= 0 && first >= end - blk))
    return 0;
  return median_of (ms_priority_cell (r, MS_PRIORITY_LOW, MS_PRIORITY_LONG));
}

static bool
unsupported (const MsResults *r, char *buf, size_t len)
{
  const MsCell *c = ms_priority_cell (r, MS_PRIORITY_HIGH, MS_PRIORITY_WAIT);
  bool one_level
      = r->device.priority_least == r->device.priority_greatest && r->device.priority_least != 0;
  if (c && c->status == MS_CELL_UNSUPPORTED) {
    buf[0] = '\0';
    ms_caption_append (buf, len, ms_gettext ("Stream priorities could not be measured here: %s."),
                       c->message);
    return true;
  }
  if (one_level) {
    buf[0] = '\0';
    ms_caption_append (buf, len,
                       ms_gettext ("This device has one stream priority (least = greatest = %d): "
                                   "there is nothing to compare."),
                       r->device.priority_least);
    return true;
  }
  return false;
}

const char *
ms_priority_wait_words (double us, char *buf, size_t len)
{
  if (us >= 10 && us < 100) {
    snprintf (buf, len, "%.1f µs", us);
    return buf;
  }
  return ms_caption_time (us, buf, len);
}

static bool
caption (const MsResults *r, int exponent, char *buf, size_t len)
{
  (void)exponent;
  char t1[32], t2[32], t3[32];
  if (unsupported (r, buf, len))
    return false;
  double high = median_of (ms_priority_cell (r, MS_PRIORITY_HIGH, MS_PRIORITY_WAIT));
  double low = median_of (ms_priority_cell (r, MS_PRIORITY_LOW, MS_PRIORITY_WAIT));
  double alone = median_of (ms_priority_cell (r, MS_PRIORITY_NONE, MS_PRIORITY_LONG));
  if (!(high > 0) || !(low > 0))
    return false;
  buf[0] = '\0';
  ms_priority_wait_words (high, t1, sizeof t1);
  ms_priority_wait_words (low, t2, sizeof t2);
  /* The finding first, then the waits it comes from. */
  /* The fold from the medians, not the times as written (1.17 ms / "16 µs" read 73, not 71). */
  if (high * 2 <= low)
    ms_caption_append (buf, len,
                       ms_gettext ("Priority cut the wait %.0f-fold: while a long low-priority "
                                   "kernel filled the GPU, short kernels on a high-priority "
                                   "stream started %s after launch (median), against %s on a "
                                   "second low-priority stream; they got in as the long "
                                   "kernel's blocks finished."),
                       low / high, t1, t2);
  else if (low * 2 <= high)
    ms_caption_append (buf, len,
                       ms_gettext ("Priority did not help here: while a long low-priority kernel "
                                   "filled the GPU, short kernels on a high-priority stream "
                                   "started %s after launch (median), against %s on a second "
                                   "low-priority stream."),
                       t1, t2);
  else
    ms_caption_append (buf, len,
                       ms_gettext ("Priority made no clear difference: while a long low-priority "
                                   "kernel filled the GPU, short kernels on a high-priority "
                                   "stream started %s after launch (median), against %s on a "
                                   "second low-priority stream."),
                       t1, t2);
  double long_us = high * 2 <= low ? low_waited_for_end (r) : 0;
  if (long_us > 0)
    ms_caption_append (buf, len,
                       ms_gettext ("The low-priority ones started only as the long kernel (%s) "
                                   "ended, each waiting about the time it had left: the fold "
                                   "depends on its length and the launch times."),
                       ms_caption_time (long_us, t3, sizeof t3));
  const MsCell *lh = ms_priority_cell (r, MS_PRIORITY_HIGH, MS_PRIORITY_LONG);
  if (alone > 0 && median_of (lh) > 0)
    ms_caption_append (buf, len,
                       ms_gettext ("The long kernel took %s alone and %s with the high-priority "
                                   "kernels cutting in."),
                       ms_caption_time (alone, t3, sizeof t3),
                       ms_caption_time (median_of (lh), t1, sizeof t1));
  /* CUDA counts priorities downwards: the greatest is the lowest number. */
  if (r->device.priority_least != r->device.priority_greatest)
    ms_caption_append (buf, len,
                       ms_gettext ("This GPU's stream priorities run from %d (low) to %d (high): "
                                   "a lower number is a higher priority."),
                       r->device.priority_least, r->device.priority_greatest);
  return true;
}

/* The short kernels' waits with priority and without, as the caption
 * judges them (a factor of two either way). */
static MsTakeaway
takeaway (const MsResults *r, char *buf, size_t len)
{
  char t_high[32], t_low[32];
  double high = median_of (ms_priority_cell (r, MS_PRIORITY_HIGH, MS_PRIORITY_WAIT));
  double low = median_of (ms_priority_cell (r, MS_PRIORITY_LOW, MS_PRIORITY_WAIT));
  if (!(high > 0) || !(low > 0))
    return MS_TAKEAWAY_MISSING;
  ms_priority_wait_words (high, t_high, sizeof t_high);
  ms_priority_wait_words (low, t_low, sizeof t_low);
  /* The finding itself, no "Yes:" or "No:": a projected slide shows the
   * card's title, not the question those answered. */
  double long_us = low_waited_for_end (r);
  /* No fold where the low ones waited for the long kernel's end: "71-fold"
   * was quoted as what priority gives. */
  if (high * 2 <= low && long_us > 0)
    /* TRANSLATORS: one projected line, the short kernels' median waits, e.g. "With priority
     * 16.4 µs; without 1.17 ms: the rest of the long kernel" ("low" read as the long kernel's
     * stream; the rows say "with" and "without"). What the wait was, the long kernel's rest at
     * each launch: "until the long kernel ended" set a median of 1.17 ms against a 2 ms kernel,
     * and strict readers asked why they differ. */
    snprintf (buf, len, ms_gettext ("With priority %s; without %s: the rest of the long kernel"),
              t_high, t_low);
  else if (high * 2 <= low)
    /* TRANSLATORS: one projected line, e.g. "High priority cut the wait
     * 71-fold, to 16.4 µs from 1.17 ms" (the short kernels' wait). */
    snprintf (buf, len, ms_gettext ("High priority cut the wait %.0f-fold, to %s from %s"),
              low / high, t_high, t_low);
  else if (low * 2 <= high)
    snprintf (buf, len,
              ms_gettext ("Priority did not help: short kernels waited %s with it, %s without"),
              t_high, t_low);
  else
    snprintf (buf, len,
              ms_gettext ("No clear difference: short kernels waited %s, not %s"),
              t_high, t_low);
  return MS_TAKEAWAY_DECIDED;
}

/* kernels/lesson-priority.cu: the first launch is the long kernel's
 * (lane 1), launch i + 1 the short kernel i's (lane 2, chunk i). */
static const MsEvent *
kernel_issuer (const MsEvent *events, size_t n_events, const MsEvent *kernel)
{
  if (kernel->lane == 1 && kernel->chunk == 0)
    return ms_gpu_clock_host_event (events, n_events, kernel->rep, MS_PHASE_LAUNCH, 0);
  return kernel->lane == 2 ? ms_gpu_clock_host_event (events, n_events, kernel->rep,
                                                      MS_PHASE_LAUNCH, kernel->chunk + 1)
                           : NULL;
}

const MsLesson ms_lesson_priority = {
  .card = { .name = NAME,
            .modes = "streams",
            .title = MS_N_ ("Stream priorities"),
            .question = MS_N_ ("Do high-priority kernels get in while a long low-priority kernel "
                               "fills the GPU?"),
            .reason = MS_N_ ("A long kernel on a stream of the least priority fills every SM's "
                             "block slots for many waves of fixed-duration blocks. Meanwhile short "
                             "one-block kernels are launched at a fixed interval on a stream of "
                             "the greatest priority, and, as the control, on a second stream of "
                             "the least. Each run's figure is the median wait of its short kernels "
                             "from launch (the host's clock, mapped to the GPU's) to their start "
                             "(their own clock stamp). Compare the waits, and look in the timeline "
                             "at when the short kernels start against the long one.") },
  .settings = "a long kernel of SMs x occupancy x waves blocks of block-us on a least-priority "
              "stream; one-block kernels of short-us every gap-us on a greatest-priority stream "
              "and on a least-priority one; the long kernel alone",
  MS_PROBE_LESSON_FIELDS,
  .missing = MS_N_ ("The run lacks the short kernels' waits with and without priority."),
  .takeaway = takeaway,
  .kernel_issuer = kernel_issuer,
};
