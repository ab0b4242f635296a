/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-lesson-sync-async.c: the synchronous-and-asynchronous-copies lesson
 * (docs/lessons.md). cudaMemcpy and cudaMemcpyAsync, from pageable and
 * pinned memory, both directions, with a fixed-duration kernel queued
 * ahead on the same stream: the call's host time against the time until
 * the copy is done. A second part repeats it in a fresh process with
 * CUDA_LAUNCH_BLOCKING=1. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ms-i18n.h"
#include "ms-lesson-caption-private.h"
#include "ms-lesson-record.h"
#include "ms-lesson-sync-async.h"

#define NAME "sync-async"
#define BLOCKING_ENV "CUDA_LAUNCH_BLOCKING"
/* 64 KiB: 2^14 floats. */
#define RULE_EXPONENT 14

static const MsLessonOption options[] = {
  { "min-exp", 8, 0, 24, true, MS_N_ ("the smallest copy: 2^min-exp floats") },
  { "max-exp", 20, 0, 24, true, MS_N_ ("the largest copy: 2^max-exp floats (sizes step by 4×)") },
  { "ahead-us", 200, 10, 10000, true, MS_N_ ("the kernel queued ahead of each copy, µs") },
  { NULL },
};

static const char *const api_words[] = { "memcpy", "async" };
static const char *const dir_words[] = { "h2d", "d2h" };
static const char *const what_words[] = { "call", "done" };

void
ms_sa_variant (char *buf, size_t len, MsSaApi api, MsSaDir dir, MsSaWhat what, int ahead_us,
               bool blocking)
{
  snprintf (buf, len, "api=%s/%s/%s/ahead=%d%s", api_words[api], dir_words[dir], what_words[what],
            ahead_us, blocking ? "/blocking=1" : "");
}

const MsCell *
ms_sa_cell (const MsResults *r, MsMode memory, int exponent, MsSaApi api, MsSaDir dir,
            MsSaWhat what, bool blocking)
{
  char prefix[MS_VARIANT_LEN];
  snprintf (prefix, sizeof prefix, "api=%s/%s/%s/ahead=", api_words[api], dir_words[dir],
            what_words[what]);
  size_t n = strlen (prefix);
  for (size_t i = 0; r && i < r->n_cells; i++) {
    const MsCell *c = &r->cells[i];
    if (c->mode != memory || c->exponent != exponent || strncmp (c->variant, prefix, n) != 0)
      continue;
    bool b = strstr (c->variant + n, "/blocking=1") != NULL;
    if (b == blocking)
      return c->status == MS_CELL_OK && c->n_reps > 0 && c->stats.e2e.median > 0 ? c : NULL;
  }
  return NULL;
}

int
ms_sa_ahead_us (const MsResults *r)
{
  for (size_t i = 0; r && i < r->n_cells; i++) {
    const char *a = strstr (r->cells[i].variant, "/ahead=");
    if (a)
      return atoi (a + strlen ("/ahead="));
  }
  return 0;
}

bool
ms_sa_returned_early (const MsCell *call, const MsCell *done)
{
  return call && done && call->stats.e2e.median < 0.5 * done->stats.e2e.median;
}

static void
parts (MsPartList *list)
{
  /* Both in fresh processes, so that the variable is surely unset in the
   * first and set before the CUDA context exists in the second. */
  ms_lesson_isolate (ms_lesson_add_probe_part (list, 0), NULL, BLOCKING_ENV);
  ms_lesson_isolate (ms_lesson_add_probe_part (list, 1), BLOCKING_ENV "=1", NULL);
}

static int
cells (const MsSweep *sweep, int part, MsProbeCell *out, int max)
{
  int a = (int)ms_lesson_option_in (options, sweep->options, "min-exp");
  int b = (int)ms_lesson_option_in (options, sweep->options, "max-exp");
  int ahead = (int)ms_lesson_option_in (options, sweep->options, "ahead-us");
  int lo = a < b ? a : b, hi = a < b ? b : a;
  static const MsMode memories[] = { MS_MODE_PAGEABLE, MS_MODE_PINNED };
  int n = 0;
  for (int api = 0; api < MS_SA_API_COUNT; api++)
    for (int m = 0; m < 2; m++)
      for (int dir = 0; dir < MS_SA_DIR_COUNT; dir++)
        for (int e = lo; e <= hi; e += 2)
          for (int what = 0; what < MS_SA_WHAT_COUNT && n < max; what++) {
            MsProbeCell *c = ms_probe_cell_init (&out[n++], memories[m], e);
            ms_sa_variant (c->variant, sizeof c->variant, (MsSaApi)api, (MsSaDir)dir,
                           (MsSaWhat)what, ahead, part == 1);
            c->arg[MS_SA_ARG_API] = api;
            c->arg[MS_SA_ARG_DIR] = dir;
            c->arg[MS_SA_ARG_WHAT] = what;
            c->arg[MS_SA_ARG_AHEAD_US] = ahead;
            c->arg[MS_SA_ARG_BLOCKING] = part == 1;
          }
  return n;
}

/* Over the sizes of (memory, api, dir, blocking): how many were measured
 * and how many returned early; the largest early size and the smallest
 * blocked one (-1: none). */
typedef struct {
  int measured, early, largest_early, smallest_blocked;
  int off_rule; /* sizes where early is not "up to 64 KiB" (the textbook's rule) */
} Tally;

static Tally
tally (const MsResults *r, MsMode memory, MsSaApi api, MsSaDir dir, bool blocking)
{
  Tally t = { 0, 0, -1, -1, 0 };
  for (int e = MS_MIN_EXPONENT; e <= MS_MAX_EXPONENT; e++) {
    const MsCell *call = ms_sa_cell (r, memory, e, api, dir, MS_SA_CALL, blocking);
    const MsCell *done = ms_sa_cell (r, memory, e, api, dir, MS_SA_DONE, blocking);
    if (!call || !done)
      continue;
    t.measured++;
    bool early = ms_sa_returned_early (call, done);
    t.off_rule += early != (e <= RULE_EXPONENT);
    if (early) {
      t.early++;
      t.largest_early = e;
    } else if (t.smallest_blocked < 0) {
      t.smallest_blocked = e;
    }
  }
  return t;
}

int
ms_sa_behaviour (const MsResults *r, MsMode memory, MsSaApi api, MsSaDir dir)
{
  Tally t = tally (r, memory, api, dir, false);
  return t.measured == 0 ? -1 : t.early == t.measured ? 1 : t.early == 0 ? 0 : -1;
}

/* "64 KiB" for 2^e floats. */
static const char *
size_text (int e, char *buf, size_t len)
{
  MsCell c = { .exponent = e, .elements = 1ull << e };
  return ms_caption_size (&c, buf, len);
}

/* The smallest size above e that blocked (-1: none): with e the largest
 * early one, the limit lies between the two sampled sizes. */
static int
blocked_above (const MsResults *r, MsMode memory, MsSaApi api, MsSaDir dir, int e)
{
  for (int x = e + 1; x <= MS_MAX_EXPONENT; x++) {
    const MsCell *call = ms_sa_cell (r, memory, x, api, dir, MS_SA_CALL, false);
    const MsCell *done = ms_sa_cell (r, memory, x, api, dir, MS_SA_DONE, false);
    if (call && done && !ms_sa_returned_early (call, done))
      return x;
  }
  return -1;
}

/* Pageable cudaMemcpyAsync to the device: the largest size that returned
 * before the kernel ahead had finished (-1: none), and the smallest above
 * it that waited (-1: none). The caption and the slide's line both say it. */
void
ms_sa_pageable_sizes (const MsResults *r, int *early, int *waited)
{
  Tally t = tally (r, MS_MODE_PAGEABLE, MS_SA_ASYNC, MS_SA_H2D, false);
  *early = t.early > 0 ? t.largest_early : -1;
  *waited = t.smallest_blocked >= 0 && t.smallest_blocked < *early
              ? t.smallest_blocked
              : blocked_above (r, MS_MODE_PAGEABLE, MS_SA_ASYNC, MS_SA_H2D, *early);
}

bool
ms_sa_staging_note (const MsResults *r, char *buf, size_t len)
{
  int early, waited, ahead_us = ms_sa_ahead_us (r);
  ms_sa_pageable_sizes (r, &early, &waited);
  const MsCell *c = waited >= 0 ? ms_sa_cell (r, MS_MODE_PAGEABLE, waited, MS_SA_ASYNC, MS_SA_H2D,
                                              MS_SA_CALL, false)
                                : NULL;
  if (!c || !(c->stats.e2e.median > ahead_us) || ahead_us <= 0)
    return false;
  char size[32], t[32], k[32];
  /* Where early ends is no size rule of the API (as "≤ 1 MiB" read). The
   * documentation's words, not a cause the run cannot show: readers asked
   * whether the call's 409 µs was staging or a wait for the kernel, and the
   * documentation allows both ("the driver may synchronize with the
   * stream"). */
  snprintf (buf, len,
            ms_gettext ("CUDA's documentation says the pageable call returns once its data is "
                        "staged, which may wait for the stream: at %s it took %s, past the %s "
                        "kernel ahead, so where \"early\" ends depends on the kernel's length."),
            size_text (waited, size, sizeof size),
            ms_caption_time (c->stats.e2e.median, t, sizeof t),
            ms_caption_time (ahead_us, k, sizeof k));
  return true;
}

/* The finding: up to which size pageable cudaMemcpyAsync to the device
 * returned early. The CUDA guide's 64 KiB rule is cudaMemcpy's (copies
 * from the host of 64 KiB or less are asynchronous to the host), so it is
 * held against cudaMemcpy's cells, in a sentence of its own. */
static void
pageable_async_sentence (const MsResults *r, char *buf, size_t len)
{
  char s1[32], s2[32];
  int early, waited;
  ms_sa_pageable_sizes (r, &early, &waited);
  if (early < 0)
    ms_caption_append (buf, len,
                       ms_gettext ("cudaMemcpyAsync from pageable memory to the device waited "
                                   "for the kernel ahead at every size."));
  else if (waited >= 0)
    ms_caption_append (buf, len,
                       ms_gettext ("cudaMemcpyAsync from pageable memory to the device returned "
                                   "before the kernel ahead had finished up to %s, and after it "
                                   "at %s."),
                       size_text (early, s1, sizeof s1), size_text (waited, s2, sizeof s2));
  else
    ms_caption_append (buf, len,
                       ms_gettext ("cudaMemcpyAsync from pageable memory to the device returned "
                                   "before the kernel ahead had finished at every size up to "
                                   "%s."),
                       size_text (early, s1, sizeof s1));
}

/* The slide's line: the caption's first sentence, short enough for one
 * projected line; the other memories, directions and calls are the
 * details'. */
static MsTakeaway
takeaway (const MsResults *r, char *buf, size_t len)
{
  char s1[32], s2[32];
  int early, waited;
  ms_sa_pageable_sizes (r, &early, &waited);
  if (tally (r, MS_MODE_PAGEABLE, MS_SA_ASYNC, MS_SA_H2D, false).measured == 0)
    return MS_TAKEAWAY_MISSING;
  if (early < 0)
    snprintf (buf, len,
              ms_gettext ("Pageable cudaMemcpyAsync waited for the kernel at every size"));
  else if (waited >= 0 && ms_sa_behaviour (r, MS_MODE_PINNED, MS_SA_ASYNC, MS_SA_H2D) == 1)
    /* TRANSLATORS: one projected line, e.g. "Async to GPU early: pinned
     * always, pageable ≤ 1 MiB, not 4 MiB": two of the slide's three lines
     * (cudaMemcpy's key says after the kernel). Early as the panel's title
     * defines it: the copy's own end is not drawn. The direction said
     * (a teacher had to add it aloud); both sizes that bound it, as
     * nothing between them was measured ("at 1 MiB" read as 1 MiB only).
     * "Here": the bound is the kernel ahead's, not the API's ("pageable
     * ≤ 1 MiB" was read as a rule of the API; the slide says why, and
     * rings the size that waited). The documentation's "once staged",
     * which said why, was read as jargon. */
    snprintf (buf, len, ms_gettext ("Async returned early: pinned always, pageable up to %s here"),
              size_text (early, s1, sizeof s1));
  else if (waited >= 0)
    snprintf (buf, len,
              ms_gettext ("Pageable cudaMemcpyAsync: early up to %s, waited at %s"),
              size_text (early, s1, sizeof s1), size_text (waited, s2, sizeof s2));
  else
    snprintf (buf, len,
              ms_gettext ("Pageable cudaMemcpyAsync returned early at every size up to %s"),
              size_text (early, s1, sizeof s1));
  return MS_TAKEAWAY_DECIDED;
}

/* cudaMemcpy from pageable memory to the device against the guide's rule
 * that such copies of 64 KiB or less are asynchronous to the host. */
static void
pageable_memcpy_sentence (const MsResults *r, char *buf, size_t len)
{
  char s1[32];
  Tally t = tally (r, MS_MODE_PAGEABLE, MS_SA_MEMCPY, MS_SA_H2D, false);
  if (t.measured == 0)
    return;
  if (t.off_rule == 0)
    ms_caption_append (buf, len,
                       ms_gettext ("cudaMemcpy from pageable memory to the device returned early "
                                   "up to 64 KiB and waited above, as the CUDA guide says."));
  else if (t.early == 0)
    ms_caption_append (buf, len,
                       ms_gettext ("cudaMemcpy from pageable memory to the device waited for the "
                                   "kernel ahead at every size, though the CUDA guide lists "
                                   "copies of 64 KiB or less as asynchronous to the host."));
  else
    ms_caption_append (buf, len,
                       ms_gettext ("cudaMemcpy from pageable memory to the device returned early "
                                   "up to %s, where the CUDA guide says up to 64 KiB."),
                       size_text (t.largest_early, s1, sizeof s1));
}

/* cudaMemcpy from pinned memory to the device, the slide's third line:
 * the details spoke of pageable cudaMemcpy alone, which it does not draw. */
static void
pinned_memcpy_sentence (const MsResults *r, char *buf, size_t len)
{
  if (ms_sa_behaviour (r, MS_MODE_PINNED, MS_SA_MEMCPY, MS_SA_H2D) == 0)
    ms_caption_append (buf, len,
                       ms_gettext ("cudaMemcpy from pinned memory to the device returned after "
                                   "the kernel ahead and its copy at every size."));
}

/* The other pageable direction, which the picture draws too: whether
 * cudaMemcpyAsync to pageable memory let the host go on. */
static void
pageable_d2h_sentence (const MsResults *r, char *buf, size_t len)
{
  Tally t = tally (r, MS_MODE_PAGEABLE, MS_SA_ASYNC, MS_SA_D2H, false);
  if (t.measured == 0)
    return;
  if (t.early == 0)
    ms_caption_append (buf, len,
                       ms_gettext ("From the device to pageable memory it returned only once its "
                                   "copy was done, at every size."));
  else if (t.early == t.measured)
    ms_caption_append (buf, len,
                       ms_gettext ("From the device to pageable memory it returned early at "
                                   "every size."));
  else
    ms_caption_append (buf, len,
                       ms_gettext ("From the device to pageable memory it returned early at %d "
                                   "of %d sizes."),
                       t.early, t.measured);
}

static void
pinned_sentence (const MsResults *r, char *buf, size_t len)
{
  Tally h = tally (r, MS_MODE_PINNED, MS_SA_ASYNC, MS_SA_H2D, false);
  Tally d = tally (r, MS_MODE_PINNED, MS_SA_ASYNC, MS_SA_D2H, false);
  int measured = h.measured + d.measured, early = h.early + d.early;
  if (measured == 0)
    return;
  if (early == measured)
    ms_caption_append (buf, len,
                       ms_gettext ("From pinned memory, both ways, it returned early at every "
                                   "size."));
  else
    ms_caption_append (buf, len,
                       ms_gettext ("From pinned memory it returned early in %d of %d cases "
                                   "only."),
                       early, measured);
}

static void
blocking_sentence (const MsResults *r, char *buf, size_t len)
{
  int measured = 0, early = 0;
  for (int api = 0; api < MS_SA_API_COUNT; api++)
    for (int dir = 0; dir < MS_SA_DIR_COUNT; dir++)
      for (int m = MS_MODE_PAGEABLE; m <= MS_MODE_PINNED; m++) {
        Tally t = tally (r, (MsMode)m, (MsSaApi)api, (MsSaDir)dir, true);
        measured += t.measured;
        early += t.early;
      }
  if (measured == 0)
    return;
  if (early == 0)
    ms_caption_append (buf, len,
                       ms_gettext ("With CUDA_LAUNCH_BLOCKING=1 every call blocked until its "
                                   "copy was done."));
  else
    ms_caption_append (buf, len,
                       ms_gettext ("With CUDA_LAUNCH_BLOCKING=1, %d of %d calls still returned "
                                   "before their copy was done."),
                       early, measured);
}

static bool
caption (const MsResults *r, int exponent, char *buf, size_t len)
{
  (void)exponent;
  if (tally (r, MS_MODE_PAGEABLE, MS_SA_ASYNC, MS_SA_H2D, false).measured == 0)
    return false;
  buf[0] = '\0';
  pageable_async_sentence (r, buf, len);
  char note[320];
  if (ms_sa_staging_note (r, note, sizeof note))
    ms_caption_append (buf, len, "%s", note);
  pinned_sentence (r, buf, len);
  pageable_d2h_sentence (r, buf, len);
  /* After the sentences whose "it" is cudaMemcpyAsync: the slide's blue
   * line, then the guide's rule, which is pageable cudaMemcpy's. */
  pinned_memcpy_sentence (r, buf, len);
  pageable_memcpy_sentence (r, buf, len);
  blocking_sentence (r, buf, len);
  /* The kernel ahead's time is the picture's reference line's label: a
   * line fewer here leaves the picture room for the
   * CUDA_LAUNCH_BLOCKING=1 part at 1024x768. */
  return true;
}

const MsLesson ms_lesson_sync_async = {
  .card = { .name = NAME,
            .modes = "pageable,pinned",
            .title = MS_N_ ("Synchronous and asynchronous copies"),
            .question = MS_N_ ("When does a copy call return before the work queued ahead of it is "
                               "done?"),
            .reason = MS_N_ ("cudaMemcpy and cudaMemcpyAsync copy from pageable and from pinned "
                             "memory, host to device and back, at sizes from 1 KiB to 4 MiB, each "
                             "with a kernel of a fixed duration queued ahead of it on the same "
                             "stream. The call's own host time is set against the time until the "
                             "copy is done: a call that returns long before then let the host go "
                             "on. Then the same in a fresh process with CUDA_LAUNCH_BLOCKING=1. "
                             "Look for the sizes, memories and calls where the two times part.") },
  .settings = "cudaMemcpy and cudaMemcpyAsync, pageable and pinned, h2d and d2h, 2^min-exp.."
              "2^max-exp floats in steps of 4x, a kernel of ahead-us ahead on the same stream; "
              "call time and time to done; each part in a fresh process, the second with "
              "CUDA_LAUNCH_BLOCKING=1",
  MS_PROBE_LESSON_FIELDS,
  .takeaway = takeaway,
  .missing = MS_N_ ("The run lacks cudaMemcpyAsync from pageable memory to the device."),
  .parts = parts,
};
