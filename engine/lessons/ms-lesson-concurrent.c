/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-lesson-concurrent.c: the concurrent-kernels lesson (docs/lessons.md).
 * K kernels of a fixed duration on one stream against K streams, and what
 * stops them running together on K streams: grids that fill every SM's
 * block slots, blocks that take all of an SM's shared memory. The caption
 * counts the time in single-kernel times, measured, not assumed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ms-gpu-clock.h"
#include "ms-i18n.h"
#include "ms-lesson-caption-private.h"
#include "ms-lesson-concurrent.h"
#include "ms-lesson-record.h"

#define NAME "concurrent"

/* arg[] of the probe, read by kernels/lesson-concurrent.cu. */
enum { ARG_K, ARG_STREAMS, ARG_GRID, ARG_SMEM, ARG_KERNEL_US };
enum { GRID_ONE_BLOCK, GRID_ONE_PER_SM, GRID_FULL };

static const MsLessonOption options[] = {
  { "kernel-us", 100, 10, 100000, true, MS_N_ ("each kernel's duration, µs") },
  { "max-k", 16, 1, 64, true, MS_N_ ("the most kernels (and streams); K doubles from 1") },
  { NULL },
};

/* The settings, in the variant's words and the probe's arguments. */
static const struct {
  const char *variant; /* after "K=n/" */
  int many, grid, smem;
} settings[] = {
  { "streams=one", 0, GRID_ONE_BLOCK, 0 },
  { "streams=many", 1, GRID_ONE_BLOCK, 0 },
  { "streams=many/grid=sms", 1, GRID_ONE_PER_SM, 0 },
  { "streams=many/grid=sms/smem=max", 1, GRID_ONE_PER_SM, 1 },
  { "streams=many/grid=full", 1, GRID_FULL, 0 },
};
#define N_SETTINGS ((int) (sizeof settings / sizeof settings[0]))

/* A cell's variant, which the caption looks its cells up by:
 * "K=4/streams=many". */
static void
variant (char *buf, size_t len, int k, int s)
{
  snprintf (buf, len, "K=%d/%s", k, settings[s].variant);
}

static int
cells (const MsSweep *sweep, int part, MsProbeCell *out, int max)
{
  (void) part;
  int kernel_us = (int) ms_lesson_option_in (options, sweep->options, "kernel-us");
  int max_k = (int) ms_lesson_option_in (options, sweep->options, "max-k");
  int n = 0;
  for (int k = 1; k <= max_k; k = ms_lesson_next_step (k, 2, max_k))
    for (int s = 0; s < N_SETTINGS && n < max; s++) {
      MsProbeCell *c = ms_probe_cell_init (&out[n++], MS_MODE_STREAMS, 0);
      variant (c->variant, sizeof c->variant, k, s);
      c->arg[ARG_K] = k;
      c->arg[ARG_STREAMS] = settings[s].many ? k : 1;
      c->arg[ARG_GRID] = settings[s].grid;
      c->arg[ARG_SMEM] = settings[s].smem;
      c->arg[ARG_KERNEL_US] = kernel_us;
      c->instrumented = 1;
    }
  return n;
}

/* The median of setting s at K, or 0. */
static double
median_at (const MsResults *r, int k, int s)
{
  char v[MS_VARIANT_LEN];
  variant (v, sizeof v, k, s);
  const MsCell *c = ms_caption_measured (r, MS_MODE_STREAMS, 0, v);
  return c ? c->stats.e2e.median : 0;
}

/* "ran together", "ran one after another" or "ran partly together" for K
 * kernels that took `times` single-kernel times: where that lies between
 * 1 (all at once) and K (one by one). Each launch costs the host a few
 * µs, so K kernels that overlap still take a little longer than one. */
static double
serial_share (double times, int k)
{
  return k > 1 ? (times - 1) / (k - 1) : 0;
}

static const char *
verdict (double times, int k)
{
  double share = serial_share (times, k);
  if (share <= 0.25)
    return ms_gettext ("ran together");
  if (share >= 0.75)
    return ms_gettext ("ran one after another");
  return ms_gettext ("ran partly together");
}

static int
largest_k (const MsResults *r)
{
  int best = 0;
  for (int k = 2; k <= 64; k++)
    if (median_at (r, k, 0) > 0 && median_at (r, k, 1) > 0)
      best = k;
  return best;
}

bool
ms_concurrent_quoted (const MsResults *run, int *k, double *one, double *many, double *serial)
{
  *k = largest_k (run);
  *one = median_at (run, 1, 0);
  if (!(*one > 0) || *k < 2)
    return false;
  *one = ms_caption_time_as_written (*one);
  *many = ms_caption_time_as_written (median_at (run, *k, 1));
  *serial = ms_caption_time_as_written (median_at (run, *k, 0));
  return true;
}

double
ms_concurrent_written (const MsResults *run, int k, const char *setting)
{
  for (int s = 0; s < N_SETTINGS; s++)
    if (strcmp (settings[s].variant, setting) == 0)
      return ms_caption_time_as_written (median_at (run, k, s));
  return 0;
}

double
ms_concurrent_ran_alone (const MsResults *run)
{
  const MsCell *c = ms_caption_measured (run, MS_MODE_STREAMS, 0, "K=1/streams=one");
  return c ? ms_caption_time_as_written (c->stats.phase[MS_PHASE_KERNEL].median) : 0;
}

/* How long after the first of K kernels on K streams the last started, in µs, from their clock
 * stamps in the instrumented repetition (the host launches them one at a time); 0: none. */
double
ms_concurrent_stagger (const MsResults *run, int k)
{
  char v[MS_VARIANT_LEN];
  variant (v, sizeof v, k, 1);
  const MsCell *c = ms_caption_measured (run, MS_MODE_STREAMS, 0, v);
  double first = 0, last = 0;
  int n = 0;
  for (size_t i = 0; c && i < c->n_events; i++) {
    const MsEvent *ev = &c->events[i];
    if (!ms_gpu_clock_gpu_only_kernel (ev) || ev->rep != c->events[0].rep)
      continue;
    first = n == 0 || ev->gpu_start_us < first ? ev->gpu_start_us : first;
    last = n++ == 0 || ev->gpu_start_us > last ? ev->gpu_start_us : last;
  }
  return n == k ? last - first : 0;
}

static bool
caption (const MsResults *r, int exponent, char *buf, size_t len)
{
  (void) exponent;
  char t1[32], t2[32], t[32];
  int k;
  double one, together, serial;
  /* Every figure as written, and every ratio of those. */
  if (!ms_concurrent_quoted (r, &k, &one, &together, &serial))
    return false;
  ms_caption_append (buf, len,
                     ms_gettext ("On %d streams, %d small kernels %s: %s, %.1f times one "
                                 "kernel alone (%s); on one stream they took %s (%.1f "
                                 "times)."),
                     k, k, verdict (together / one, k), ms_caption_time (together, t2, sizeof t2),
                     together / one, ms_caption_time (one, t1, sizeof t1),
                     ms_caption_time (serial, t, sizeof t), serial / one);
  /* The two ways of filling the GPU in one sentence, as the slide says
   * them, where they agree: two sentences of the same rounded time read
   * as one figure printed twice. */
  double smem = median_at (r, k, 3), full = median_at (r, k, 4);
  double smem_w = ms_caption_time_as_written (smem), full_w = ms_caption_time_as_written (full);
  bool together_filled = smem > 0 && full > 0
                         && strcmp (verdict (smem_w / one, k), verdict (full_w / one, k)) == 0;
  for (int s = 2; s < N_SETTINGS; s++) {
    double m = ms_caption_time_as_written (median_at (r, k, s));
    if (!(m > 0) || (together_filled && s == 3))
      continue;
    ms_caption_time (m, t, sizeof t);
    const char *v = verdict (m / one, k);
    if (s == 2)
      /* Glossed where first used: the slide's readers met "SM" unexplained. */
      ms_caption_append (buf, len, ms_gettext ("With one block (a group of threads) per SM (one "
                                               "of the GPU's multiprocessors, its cores) they "
                                               "%s (%s, %.1f times)."), v, t, m / one);
    else if (together_filled)
      /* TRANSLATORS: e.g. "Each kernel filling the GPU, they ran one after
       * another: with full grids (as many blocks as fit on all
       * multiprocessors) 1.62 ms, 14.3 times; with blocks that each take
       * all of a multiprocessor's shared memory 1.62 ms, 14.3 times (two
       * cells: 1619.0 and 1617.2 µs)." */
      ms_caption_append (buf, len,
                         ms_gettext ("Each kernel filling the GPU, they %s: with full grids (as "
                                     "many blocks as fit on all multiprocessors) %s, %.1f times; "
                                     "with blocks that each take all of a multiprocessor's "
                                     "shared memory %s, %.1f times (two cells: %.1f and %.1f "
                                     "µs)."),
                         v, t, m / one, ms_caption_time (smem_w, t1, sizeof t1), smem_w / one,
                         full, smem);
    else if (s == 3)
      ms_caption_append (buf, len, ms_gettext ("With each block taking all of an SM's shared "
                                               "memory they %s (%s, %.1f times)."),
                         v, t, m / one);
    else
      ms_caption_append (buf, len, ms_gettext ("With grids that fill every SM they %s (%s, "
                                               "%.1f times)."), v, t, m / one);
  }
  /* Why K streams stay over one kernel's time: the launches' stagger. */
  double stagger = ms_concurrent_stagger (r, k);
  if (stagger > 0)
    ms_caption_append (buf, len,
                       ms_gettext ("On %d streams the host still launched the kernels one at a "
                                   "time: the last started %s after the first."),
                       k, ms_caption_time (stagger, t, sizeof t));
  /* cudaDevAttrConcurrentKernels is 1 or 0: a yes or no, not a count. */
  if (r->device.concurrent_kernels)
    ms_caption_append (buf, len,
                       ms_gettext ("The GPU reports that it can run kernels concurrently."));
  return true;
}

/* The slide's line: K kernels on K streams against on one, the picture's
 * two bars; one kernel alone and the other grids are the details'. */
static MsTakeaway
takeaway (const MsResults *r, char *buf, size_t len)
{
  char t1[32], t2[32];
  int k;
  double one, together, serial;
  if (!ms_concurrent_quoted (r, &k, &one, &together, &serial))
    return MS_TAKEAWAY_MISSING;
  /* The card's second half, what stops them: kernels that fill every SM
   * (a full grid, the slide's third line), where they ran one after
   * another. The figures are the slide's rings': "overlapped" beside a
   * drawn 1.7× read as a contradiction. */
  double filled = ms_caption_time_as_written (median_at (r, k, N_SETTINGS - 1));
  if (filled > 0 && serial_share (filled / one, k) >= 0.75
      && serial_share (together / one, k) <= 0.25)
    /* TRANSLATORS: one projected line, e.g. "16 streams: together, 1.7× one kernel; GPU-filling:
     * one by one" (K small kernels on K streams ran at the same time, in 1.7 single-kernel times;
     * kernels that fill the GPU ran one after another, their ratio the ring's; the words say what
     * the figures mean, which teachers had to say); 63 characters at most. */
    snprintf (buf, len,
              ms_gettext ("%d streams: together, %.1f× one kernel; GPU-filling: one by one"), k,
              together / one);
  else
    snprintf (buf, len, ms_gettext ("%d small kernels on %d streams %s: %s vs %s on one"), k,
              k, verdict (together / one, k), ms_caption_time (together, t1, sizeof t1),
              ms_caption_time (serial, t2, sizeof t2));
  return MS_TAKEAWAY_DECIDED;
}

/* kernels/lesson-concurrent.cu: launch k issues kernel k, which goes to
 * lane 1 + k % streams as that lane's chunk k / streams; streams is 1 or
 * K. Certain only when every launch and every kernel is there. */
static const MsEvent *
kernel_issuer (const MsEvent *events, size_t n_events, const MsEvent *kernel)
{
  int kernels = 0, launches = 0, lanes = 0;
  for (size_t i = 0; i < n_events; i++) {
    const MsEvent *ev = &events[i];
    if (ev->rep != kernel->rep)
      continue;
    if (ms_gpu_clock_gpu_only_kernel (ev)) {
      kernels++;
      lanes = ev->lane > lanes ? ev->lane : lanes;
    }
    launches += ev->lane == MS_LANE_HOST && ev->phase == MS_PHASE_LAUNCH;
  }
  if (kernels != launches || (lanes != 1 && lanes != kernels))
    return NULL;
  return ms_gpu_clock_host_event (events, n_events, kernel->rep, MS_PHASE_LAUNCH,
                                  kernel->chunk * lanes + kernel->lane - 1);
}

const MsLesson ms_lesson_concurrent = {
  .card = { .name = NAME,
            .modes = "streams",
            .title = MS_N_ ("Concurrent kernels"),
            .question = MS_N_ ("Do small kernels on several streams run at the same time, and what "
                               "stops them?"),
            .reason = MS_N_ ("K kernels of a fixed duration (a spin on the GPU's own clock) go to "
                             "one stream or to K streams. On K streams they can run at the same "
                             "time, unless each one needs the whole GPU: a grid that fills every "
                             "SM's block slots, or blocks that take all of an SM's shared memory. "
                             "Times are counted in single-kernel times; the timeline comes from "
                             "one more run with the kernels' own clock stamps.") },
  .settings = "K=1,2,4..max-k kernels of kernel-us on one stream and on K streams; on K "
              "streams also grids of one block per SM, with all shared memory, and full grids",
  MS_PROBE_LESSON_FIELDS,
  .takeaway = takeaway,
  .missing = MS_N_ ("The run lacks one kernel alone, or K kernels on one stream and on K "
                    "streams."),
  .kernel_issuer = kernel_issuer,
};
