/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-lesson-batched.c: the batched-copies lesson (docs/lessons.md). N small
 * host-to-device copies of one size, each submitted with its own
 * cudaMemcpyAsync against all of them in one cudaMemcpyBatchAsync, from
 * pinned and from pageable memory, with each source-access-order hint. The
 * caption gives batch / individual per size and source, from the run. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ms-i18n.h"
#include "ms-lesson-caption-private.h"
#include "ms-lesson-record.h"
#include "ms-lesson-batched.h"
#include "ms-modes.h"
#include "ms-stats.h"

#define NAME "batched"

/* The mode's title as a word inside a sentence ("pageable"), translated:
 * its name (the files' word) stayed English in zh_CN's lines. */
static const char *
mode_word (MsMode mode, char *buf, size_t len)
{
  snprintf (buf, len, "%s", ms_mode_title (mode));
  if (buf[0] >= 'A' && buf[0] <= 'Z' && (buf[1] < 'A' || buf[1] > 'Z'))
    buf[0] = (char) (buf[0] - 'A' + 'a');
  return buf;
}
#define MIN_EXP 8
#define MAX_EXP 14

/* arg[] of the probe, read by kernels/lesson-batched.cu. */
enum { ARG_COUNT, ARG_BATCH, ARG_ORDER };
enum { ORDER_STREAM, ORDER_ANY, ORDER_DURING_CALL };

static const MsLessonOption options[] = {
  { "count", 256, 2, 4096, true, MS_N_ ("copies per sample, each of one size") },
  { "exp", 10, MIN_EXP, MAX_EXP, true,
    MS_N_ ("the size with an instrumented repetition: 2^exp floats per copy") },
  { NULL },
};

/* The submissions, in the variant's words (after "n=N/") and the probe's
 * arguments. */
static const struct {
  const char *variant;
  int batch, order;
} subs[] = {
  { "call=each", 0, ORDER_STREAM },
  { "call=batch/order=stream", 1, ORDER_STREAM },
  { "call=batch/order=any", 1, ORDER_ANY },
  { "call=batch/order=api", 1, ORDER_DURING_CALL },
};
#define N_SUBS ((int)(sizeof subs / sizeof subs[0]))

static const MsMode sources[] = { MS_MODE_PINNED, MS_MODE_PAGEABLE };

/* A cell's variant, which the caption looks its cells up by:
 * "n=64/call=batch/order=any". */
static void
variant (char *buf, size_t len, int count, int s)
{
  snprintf (buf, len, "n=%d/%s", count, subs[s].variant);
}

static int
cells (const MsSweep *sweep, int part, MsProbeCell *out, int max)
{
  (void)part;
  int count = (int)ms_lesson_option_in (options, sweep->options, "count");
  int detail = (int)ms_lesson_option_in (options, sweep->options, "exp");
  int n = 0;
  for (int m = 0; m < 2; m++)
    for (int e = MIN_EXP; e <= MAX_EXP; e++)
      for (int s = 0; s < N_SUBS && n < max; s++) {
        MsProbeCell *c = ms_probe_cell_init (&out[n++], sources[m], e);
        variant (c->variant, sizeof c->variant, count, s);
        c->arg[ARG_COUNT] = count;
        c->arg[ARG_BATCH] = subs[s].batch;
        c->arg[ARG_ORDER] = subs[s].order;
        /* One timeline per submission at the detailed size. */
        c->instrumented = e == detail;
      }
  return n;
}

/* The copies per sample of the run's cells (their variant says), or 0. */
int
ms_batched_count (const MsResults *r)
{
  int count = 0;
  for (size_t i = 0; i < r->n_cells; i++)
    if (sscanf (r->cells[i].variant, "n=%d/", &count) == 1 && count > 0)
      return count;
  return 0;
}

const MsCell *
ms_batched_cell (const MsResults *r, MsMode mode, int exp, int count, int s)
{
  char v[MS_VARIANT_LEN];
  variant (v, sizeof v, count, s);
  return ms_caption_measured (r, mode, exp, v);
}

/* From the times a copy as written: the unrounded medians' 0.88 did not
 * follow from "2.89 µs vs 3.31 µs" beside it. */
double
ms_batched_ratio (const MsCell *each, const MsCell *batch, int count)
{
  double b = ms_caption_time_as_written (batch->stats.e2e.median / count);
  return b > 0 ? ms_caption_time_as_written (each->stats.e2e.median / count) / b
               : each->stats.e2e.median / batch->stats.e2e.median;
}

/* The first batch cell that was not measured, its reason and whether the
 * device or toolkit lacks the call (else it failed); NULL when none. */
static const char *
unmeasured_reason (const MsResults *r, bool *unsupported)
{
  for (size_t i = 0; i < r->n_cells; i++)
    if (r->cells[i].status != MS_CELL_OK && strstr (r->cells[i].variant, "call=batch")) {
      *unsupported = r->cells[i].status == MS_CELL_UNSUPPORTED;
      return r->cells[i].message;
    }
  return NULL;
}

/* What the ratio's drawn range decides: only where the medians'
 * intervals do not meet, since a batch faster inside the spread is
 * nothing a class can see. */
int
ms_batched_verdict (const MsBatchedPair *p)
{
  if (!ms_caption_apart (p->batch, p->each))
    return 0;
  return p->ratio > 1 ? 1 : -1;
}

/* The verdict on the batch against one call each, in words. */
static const char *
batch_words (double ratio, const MsCell *batch, const MsCell *each)
{
  MsBatchedPair p = { .each = each, .batch = batch, .ratio = ratio };
  int verdict = ms_batched_verdict (&p);
  if (verdict)
    return verdict > 0 ? ms_gettext ("the batch saves time") : ms_gettext ("the batch costs time");
  /* Within a tenth either way: about the same. */
  return ratio >= 1 / 1.1 && ratio <= 1 / 0.9 ? ms_gettext ("about the same")
                                               : ms_gettext ("the run cannot tell them apart");
}

/* The sentence for one source at exp: the time per copy submitted one
 * call each and each order's, with its ratio (per copy, as the picture
 * draws them); false when the individual cell is missing. */
static bool
source_sentence (const MsResults *r, MsMode mode, int exp, int count, char *buf, size_t len)
{
  const MsCell *each = ms_batched_cell (r, mode, exp, count, 0);
  if (!each)
    return false;
  char t[32], sz[32], tb[32], word[64];
  /* One sentence a source, the orders' times in it and the verdict from
   * the best: a projected caption of eight lines left the picture too
   * little of the screen. */
  ms_caption_time (each->stats.e2e.median / count, t, sizeof t);
  ms_caption_size (each, sz, sizeof sz);
  char parts[3][96] = { "", "", "" };
  /* The verdict is stream order's, the slide's: the best of the three
   * orders said "the batch saves time" where the slide said "cannot
   * tell". */
  const MsCell *stream_order = ms_batched_cell (r, mode, exp, count, 1);
  double verdict_ratio = stream_order ? ms_batched_ratio (each, stream_order, count) : 0;
  for (int s = 1; s < N_SUBS; s++) {
    const MsCell *b = ms_batched_cell (r, mode, exp, count, s);
    if (!b)
      continue;
    double ratio = ms_batched_ratio (each, b, count);
    /* Its time a copy and one call each's over it, the headline's way
     * round (higher is faster). */
    snprintf (parts[s - 1], sizeof parts[s - 1],
              subs[s].order == ORDER_ANY           ? ms_gettext ("%s in any order (%.2f× as fast)")
              : subs[s].order == ORDER_DURING_CALL ? ms_gettext ("%s read during the call (%.2f× "
                                                                 "as fast)")
                                                   : ms_gettext ("%s in stream order (%.2f× as "
                                                                 "fast)"),
              ms_caption_time (b->stats.e2e.median / count, tb, sizeof tb), ratio);
  }
  if (!(verdict_ratio > 0)) {
    ms_caption_append (buf, len,
                       ms_gettext ("From %s memory, %d copies of %s: %s a copy, one "
                                   "call each."),
                       mode_word (mode, word, sizeof word), count, sz, t);
    return true;
  }
  ms_caption_append (buf, len,
                     ms_gettext ("From %s memory, %d copies of %s: %s a copy, one call each; "
                                 "in one batch %s%s%s%s%s: %s."),
                     mode_word (mode, word, sizeof word), count, sz, t, parts[0],
                     parts[0][0] && parts[1][0] ? ", " : "", parts[1],
                     (parts[0][0] || parts[1][0]) && parts[2][0] ? ", " : "", parts[2],
                     batch_words (verdict_ratio, stream_order, each));
  return true;
}

static bool
caption (const MsResults *r, int exponent, char *buf, size_t len)
{
  int count = ms_batched_count (r);
  /* By default the smallest size, the takeaway's. */
  int exp = exponent >= MIN_EXP && exponent <= MAX_EXP ? exponent : MIN_EXP;
  bool any = false;
  for (int m = 0; count > 0 && m < 2; m++) {
    /* The detailed size, else the first measured one. */
    int e = exp;
    for (int k = MIN_EXP; !ms_batched_cell (r, sources[m], e, count, 0) && k <= MAX_EXP; k++)
      e = k;
    any = source_sentence (r, sources[m], e, count, buf, len) || any;
  }
  if (!any)
    return false;
  bool unsupported = false;
  const char *why = unmeasured_reason (r, &unsupported);
  if (why && unsupported)
    ms_caption_append (buf, len, ms_gettext ("Batched copies were not measured: %s."), why);
  else if (why)
    ms_caption_append (buf, len, ms_gettext ("A batched copy failed: %s."), why);
  return true;
}

int
ms_batched_marks (const MsResults *r, MsBatchedPair *mark, int tally[3])
{
  int count = ms_batched_count (r), n = 0;
  MsBatchedPair first = { 0 }, low = { 0 };
  for (int e = MIN_EXP; count > 0 && e <= MAX_EXP; e++)
    for (int m = 0; m < 2; m++) {
      MsBatchedPair p = { sources[m], ms_batched_cell (r, sources[m], e, count, 0),
                          ms_batched_cell (r, sources[m], e, count, 1), 0 };
      if (!p.each || !p.batch)
        continue;
      p.ratio = ms_batched_ratio (p.each, p.batch, count);
      int verdict = ms_batched_verdict (&p);
      tally[verdict + 1]++, n++;
      first = first.each ? first : p;
      low = verdict < 0 && (!low.each || p.ratio < low.ratio) ? p : low;
    }
  *mark = low.each ? low : first;
  return n;
}

/* Sizes lo to hi of mode's cells: "16 KiB", or "4–16 KiB" where both
 * share the unit. */
static const char *
sizes (const MsResults *r, MsMode mode, int count, int lo, int hi, char *buf, size_t len)
{
  char a[32], b[32];
  ms_caption_size (ms_batched_cell (r, mode, lo, count, 0), a, sizeof a);
  ms_caption_size (ms_batched_cell (r, mode, hi, count, 0), b, sizeof b);
  ms_format_unit_once (a, b);
  if (lo == hi)
    snprintf (buf, len, "%s", b);
  else
    snprintf (buf, len, "%s–%s", a, b);
  return buf;
}

/* The lowest and highest size in a mask of sizes (not 0). */
#define LOWEST(m) __builtin_ctz (m)
#define HIGHEST(m) (31 - __builtin_clz (m))

/* Whether the measured sizes from m's lowest to its highest are all m's. */
static bool
one_run (unsigned m, unsigned measured)
{
  return (measured & ((2u << HIGHEST (m)) - (1u << LOWEST (m)))) == m;
}

/* The batch faster at the sizes below and above one run of sizes it was
 * not (some unclear, some slower), in words: "faster at 1–2 and 32–64
 * KiB", the unit once at the end. "Faster, not at 4–16 KiB" lumped the
 * size it was slower at with those it could not tell, and "faster, ? at
 * 4–8, ✗ at 16 KiB", in the slide's marks, could not be read aloud (two
 * teachers): what the other sizes were, the marks over them say. */
static void
two_runs_words (const MsResults *r, MsMode mode, int count, unsigned fast, unsigned slow,
                char *buf, size_t len)
{
  unsigned low = fast & ((1u << LOWEST (slow)) - 1), high = fast & ~low;
  char a[80], b[80];
  sizes (r, mode, count, LOWEST (low), HIGHEST (low), a, sizeof a);
  sizes (r, mode, count, LOWEST (high), HIGHEST (high), b, sizeof b);
  ms_format_unit_once (a, b);
  /* TRANSLATORS: e.g. "faster at 1–2 and 32–64 KiB": the sizes below and
   * above those where the batch was not faster. */
  snprintf (buf, len, ms_gettext ("faster at %s and %s"), a, b);
}

/* Where mode's batch was faster (its range wholly above 1×), in the
 * fewest words its sizes allow: "faster up to 8 KiB", "faster at 1–2 and
 * 32–64 KiB" (slower at one size between), "faster, unclear at 8–16 KiB";
 * NULL when none was measured. */
static const char *
faster_words (const MsResults *r, MsMode mode, int count, char *buf, size_t len)
{
  unsigned all = 0, fast = 0, slower = 0;
  for (int e = MIN_EXP; e <= MAX_EXP; e++) {
    MsBatchedPair p = { mode, ms_batched_cell (r, mode, e, count, 0),
                        ms_batched_cell (r, mode, e, count, 1), 0 };
    if (!p.each || !p.batch)
      continue;
    p.ratio = ms_batched_ratio (p.each, p.batch, count);
    all |= 1u << e;
    fast |= ms_batched_verdict (&p) > 0 ? 1u << e : 0;
    slower |= ms_batched_verdict (&p) < 0 ? 1u << e : 0;
  }
  unsigned slow = all & ~fast;
  char sz[80];
  if (!all)
    return NULL;
  if (!fast || !slow)
    return fast ? ms_gettext ("faster at every size") : ms_gettext ("faster at no size");
  if (one_run (fast, all) && LOWEST (fast) == LOWEST (all))
    snprintf (buf, len, ms_gettext ("faster up to %s"),
              sizes (r, mode, count, HIGHEST (fast), HIGHEST (fast), sz, sizeof sz));
  else if (one_run (fast, all) && HIGHEST (fast) == HIGHEST (all))
    snprintf (buf, len, ms_gettext ("faster from %s"),
              sizes (r, mode, count, LOWEST (fast), LOWEST (fast), sz, sizeof sz));
  else if (one_run (slow, all) && !slower)
    /* TRANSLATORS: where the sizes the batch was not faster at are all
     * "cannot tell", e.g. "faster, unclear at 8–16 KiB": "faster except"
     * was read as slower there. */
    snprintf (buf, len, ms_gettext ("faster, unclear at %s"),
              sizes (r, mode, count, LOWEST (slow), HIGHEST (slow), sz, sizeof sz));
  else if (one_run (slow, all))
    /* Some "cannot tell", some slower ("faster except 4–16 KiB" was read
     * as slower at all of them). */
    two_runs_words (r, mode, count, fast, slow, buf, len);
  else if (one_run (fast, all))
    snprintf (buf, len, ms_gettext ("faster at %s"),
              sizes (r, mode, count, LOWEST (fast), HIGHEST (fast), sz, sizeof sz));
  else
    snprintf (buf, len, ms_gettext ("faster at %d of %d sizes"), __builtin_popcount (fast),
              __builtin_popcount (all));
  return buf;
}

/* The answer per memory, from each size's verdict as the chart draws it:
 * "Pinned: faster at 1–2 and 32–64 KiB; pageable: faster up to 16 KiB". A
 * median over both memories and every size was a loose summary, and
 * "usually faster" hid that pageable gained nothing from 16 KiB up on the
 * H200. Else that the run cannot tell, or that batches were not
 * measured. */
static MsTakeaway
takeaway (const MsResults *r, char *buf, size_t len)
{
  int count = ms_batched_count (r), n[3] = { 0, 0, 0 };
  MsBatchedPair mark;
  bool unsupported = false;
  const char *why = count > 0 ? unmeasured_reason (r, &unsupported) : NULL;
  char size[32], word[64], part[96];
  if (!ms_batched_marks (r, &mark, n)) {
    if (!why)
      return MS_TAKEAWAY_MISSING;
    snprintf (buf, len,
              ms_gettext ("This GPU cannot show it: batched copies were not measured (%s)"), why);
    return MS_TAKEAWAY_UNDECIDED;
  }
  if (!n[0] && !n[2]) {
    snprintf (buf, len,
              ms_gettext ("This GPU cannot tell: one batched call and %d calls of %s each differ "
                          "by less than their spread (%.2f×)"),
              count, ms_caption_size (mark.each, size, sizeof size), mark.ratio);
    return MS_TAKEAWAY_UNDECIDED;
  }
  buf[0] = '\0';
  for (int m = 0; m < 2; m++) {
    const char *words = faster_words (r, sources[m], count, part, sizeof part);
    if (!words)
      continue;
    /* TRANSLATORS: one memory's part of the batched headline, e.g.
     * "Pinned: faster at 1–2 and 32–64 KiB" (one batched call against one
     * call per copy), the second after "; "; 70 characters in all at
     * most. */
    snprintf (buf + strlen (buf), len - strlen (buf), ms_gettext ("%s%s: %s"),
              buf[0] ? ms_gettext ("; ") : "",
              buf[0] ? mode_word (sources[m], word, sizeof word) : ms_mode_title (sources[m]),
              words);
  }
  return MS_TAKEAWAY_DECIDED;
}

const MsLesson ms_lesson_batched = {
  .card = { .name = NAME,
            .modes = "pinned,pageable",
            .title = MS_N_ ("Batched copies"),
            .question = MS_N_ ("Does submitting many small copies in one call "
                               "(cudaMemcpyBatchAsync) save time?"),
            .reason = MS_N_ ("N small host-to-device copies of one size are submitted with one "
                             "cudaMemcpyAsync call each, or all at once with one "
                             "cudaMemcpyBatchAsync call (CUDA 12.8 and later), from pinned and "
                             "from pageable memory. The batch is tried with each "
                             "source-access-order hint: in stream order, in any order, and read "
                             "during the call. The figure is the host clock from the first call "
                             "until the stream is synchronised; the picture divides it by N. "
                             "Compare the lines per source and size to see what one call per copy "
                             "costs.") },
  .settings = "count copies of 2^8..2^14 floats each, host to device, from pinned and "
              "pageable memory: one cudaMemcpyAsync per copy, or one cudaMemcpyBatchAsync with "
              "source access order stream, any or during the call",
  MS_PROBE_LESSON_FIELDS,
  .missing = MS_N_ ("The run lacks the copies submitted one call each."),
  .takeaway = takeaway,
};
