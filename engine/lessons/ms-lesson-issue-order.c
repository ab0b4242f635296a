/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-lesson-issue-order.c: the issue-order lesson (docs/lessons.md): K streams in depth-first and
 * breadth-first order, on one hardware queue and on the default ones, each setting in a fresh
 * process. Its caption states what this run measured: breadth-first against depth-first end to end
 * from plain repetitions, on one hardware queue and on the default ones, on one queue with an
 * event pair around every step (timers=per-step), and kernels alone on both (work=kernels), which
 * the slide draws where the run has them, else the timed pair. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ms-i18n.h"
#include "ms-lesson-caption-private.h"
#include "ms-lesson-issue-order.h"
#include "ms-lesson-record.h"
#include "ms-modes.h"
#include "ms-variant.h"

#define NAME "issue-order"

static const int stream_counts[] = { 1, 2, 4, 8, 16 };
#define N_OF(a) ((int)(sizeof (a) / sizeof (a)[0]))

enum { PLAIN, TIMERS };

/* The streams cells at e by [timers][single queue][breadth first][K]. */
typedef const MsCell *OrderTable[2][2][2][MS_MAX_STREAMS + 1];

static void
order_table (const MsResults *r, int e, OrderTable table)
{
  memset (table, 0, sizeof (OrderTable));
  for (size_t i = 0; i < r->n_cells; i++) {
    const MsCell *c = &r->cells[i];
    char queue[16], order[16], other[16], timers[16];
    int k;
    if (c->mode != MS_MODE_STREAMS || c->exponent != e
        || !ms_variant_get (c->variant, "queue", queue, sizeof queue)
        || !ms_variant_get (c->variant, "order", order, sizeof order)
        || !ms_variant_get_int (c->variant, "K", &k) || k < 1 || k > MS_MAX_STREAMS
        || ms_variant_get (c->variant, "host", other, sizeof other)
        || ms_variant_get (c->variant, "around", other, sizeof other)
        || ms_variant_get (c->variant, "work", other, sizeof other)
        || !ms_caption_measured (r, c->mode, e, c->variant))
      continue;
    bool timed = ms_variant_get (c->variant, "timers", timers, sizeof timers);
    table[timed][strcmp (queue, "single") == 0][strcmp (order, "breadth") == 0][k] = c;
  }
}

/* How many times as fast breadth-first is as depth-first. */
static double
speedup (const MsCell *depth, const MsCell *breadth)
{
  return depth->stats.e2e.median / breadth->stats.e2e.median;
}

/* Depth-first's time over breadth-first's, of the times as the bars write them: 1.75 ms over
 * 241 µs is 7.26, and a reader checked the medians' 7.25 against it. */
static double
written_ratio (const MsCell *depth, const MsCell *breadth)
{
  return ms_caption_time_as_written (depth->stats.e2e.median)
         / ms_caption_time_as_written (breadth->stats.e2e.median);
}

/* The finding: breadth-first against depth-first at K streams, on one hardware queue and with the
 * default queues (either may be missing), by the medians that the timelines' titles lead with. */
static void
append_orders (char *buf, size_t len, int k, OrderTable t)
{
  const MsCell *sd = t[PLAIN][1][0][k], *sb = t[PLAIN][1][1][k];
  const MsCell *dd = t[PLAIN][0][0][k], *db = t[PLAIN][0][1][k];
  bool single = sd && sb, plain = dd && db;
  char size[32], s_b[32], s_d[32], d_b[32], d_d[32];
  ms_caption_size (single ? sd : dd, size, sizeof size);
  if (single) {
    /* The slide keeps one line defining the orders: the queue's definition is here. */
    ms_caption_append (buf, len, "%s",
                       ms_gettext ("One hardware queue (CUDA_DEVICE_MAX_CONNECTIONS=1) takes all "
                                   "streams' work in issue order; the GPU usually has several."));
    ms_caption_time (sb->stats.e2e.median, s_b, sizeof s_b);
    ms_caption_time (sd->stats.e2e.median, s_d, sizeof s_d);
  }
  if (plain) {
    ms_caption_time (db->stats.e2e.median, d_b, sizeof d_b);
    ms_caption_time (dd->stats.e2e.median, d_d, sizeof d_d);
  }
  if (single && plain)
    ms_caption_append (buf, len,
                       ms_gettext ("With K = %d streams at %s, breadth-first takes %s against %s "
                                   "depth-first on one hardware queue and %s against %s with "
                                   "the default queues."),
                       k, size, s_b, s_d, d_b, d_d);
  else
    /* One queue setting measured: its times, in its own words. */
    ms_caption_append (buf, len,
                       single ? ms_gettext ("With K = %d streams at %s, breadth-first takes %s "
                                            "against %s depth-first on one hardware queue.")
                              : ms_gettext ("With K = %d streams at %s, breadth-first takes %s "
                                            "against %s depth-first with the default queues."),
                       k, size, single ? s_b : d_b, single ? s_d : d_d);
}

/* Whether one-queue breadth-first's whole range lies more than the add under one stream's: held
 * in issue order, it could save no more, so the copies back did not wait. */
static bool
copies_free (const MsCell *one, const MsCell *breadth)
{
  double add = one->stats.phase[MS_PHASE_KERNEL].median;
  return add > 0 && breadth->stats.e2e.ci_high < one->stats.e2e.ci_low - add;
}

bool
ms_issue_order_copies_free (const MsCell *one, const MsCell *breadth, char *buf, size_t len)
{
  if (!copies_free (one, breadth))
    return false;
  char a[32], s[32];
  ms_caption_time (one->stats.phase[MS_PHASE_KERNEL].median, a, sizeof a);
  ms_caption_time (ms_caption_time_as_written (one->stats.e2e.median)
                       - ms_caption_time_as_written (breadth->stats.e2e.median),
                   s, sizeof s);
  /* TRANSLATORS: on the issue-order slide, e.g. "In the textbook, one queue holds breadth-first's
   * copies back until every copy in is done, so it can end at most the add (19 µs) before one
   * stream. It ended 165 µs before: its copies back did not wait." The prediction with what it
   * allows, then what happened: "... Here they did not: breadth-first beat one stream by 165 µs,
   * more than the whole add" left a teacher to work out why the add was the measure. */
  snprintf (buf, len,
            ms_gettext ("In the textbook, one queue holds breadth-first's copies back until every "
                        "copy in is done, so it can end at most the add (%s) before one stream. "
                        "It ended %s before: its copies back did not wait."),
            a, s);
  return true;
}

/* The textbook's one queue against this run: held in order, breadth-first's copies back wait for
 * its last copy in, so it can take at most one stream's add less than one stream; whether its range
 * lies more than that under one stream's, and so shows they did not wait, or the run cannot show
 * it (the H100's range, 0.84-1.88 ms, crosses one stream's: said from the range itself). */
static void
append_textbook (char *buf, size_t len, const MsCell *one, const MsCell *breadth)
{
  const MsStat *o = &one->stats.e2e, *b = &breadth->stats.e2e;
  double add = one->stats.phase[MS_PHASE_KERNEL].median;
  char a[32], s[32], lo[32], hi[32];
  ms_caption_time (add, a, sizeof a);
  ms_caption_append (buf, len,
                     ms_gettext ("In the textbook, one queue holds every copy back until the last "
                                 "copy in, so breadth-first can take at most the add (%s) less "
                                 "than one stream."),
                     a);
  if (!ms_caption_apart (one, breadth)) {
    ms_caption_time (b->ci_low, lo, sizeof lo);
    ms_caption_time (b->ci_high, hi, sizeof hi);
    ms_caption_append (buf, len,
                       ms_gettext ("On one queue its range, %s to %s, overlaps one stream's: too "
                                   "wide to show whether the copies back waited."),
                       lo, hi);
    return;
  }
  ms_caption_time (ms_caption_time_as_written (o->median) - ms_caption_time_as_written (b->median),
                   s, sizeof s);
  /* Breadth-first issues every copy in before any copy back, and the copies take as long in all
   * as one stream's: held in order, only the adds could hide under them. */
  if (copies_free (one, breadth))
    ms_caption_append (
        buf, len, ms_gettext ("It took %s less: on this GPU the copies back did not wait."), s);
  else
    ms_caption_append (buf, len, "%s",
                       ms_gettext ("Its range is not wholly that far under one stream's: "
                                   "this run cannot show whether the copies back waited."));
}

/* The slide's yardstick: the same work in one stream, and what the one-queue breadth-first bar
 * says of the textbook's false dependency (append_textbook). */
static void
append_one_stream (char *buf, size_t len, const MsResults *r, int k, OrderTable t)
{
  const MsCell *breadth = t[PLAIN][1][1][k] ? t[PLAIN][1][1][k] : t[PLAIN][0][1][k];
  const MsCell *one = breadth ? ms_issue_order_one_stream (r, breadth) : NULL;
  if (!one)
    return;
  char time[32];
  ms_caption_time (one->stats.e2e.median, time, sizeof time);
  ms_caption_append (buf, len, ms_gettext ("One stream (K = 1: nothing to overlap) takes %s."),
                     time);
  if (t[PLAIN][1][1][k])
    append_textbook (buf, len, one, breadth);
}

/* Per-step events against none, on one queue, at the largest K with both: the slide's third pair
 * of bars, in its words. */
static bool
append_timers (char *buf, size_t len, OrderTable t)
{
  for (int k = MS_MAX_STREAMS; k >= 1; k--) {
    const MsCell *td = t[TIMERS][1][0][k], *tb = t[TIMERS][1][1][k];
    const MsCell *pd = t[PLAIN][1][0][k], *pb = t[PLAIN][1][1][k];
    if (!td || !tb || !pd || !pb)
      continue;
    double timed = written_ratio (td, tb); /* as the slide's bars write it */
    if (!ms_caption_apart (td, tb) && !ms_caption_apart (pd, pb))
      ms_caption_append (
          buf, len,
          ms_gettext ("At K = %d the orders differ within the spread, with a "
                      "timer around every step (%.2f×) or without."),
          k, timed);
    else if (ms_caption_apart (td, tb) && !ms_caption_apart (pd, pb))
      /* Reconciled with the headline: the timers are all that differs between the pairs. */
      ms_caption_append (buf, len,
                         ms_gettext ("With a timer (an event pair) around every step on one "
                                     "queue, depth-first took %.2f× breadth-first's time at K = "
                                     "%d, beyond the spread; without timers it is within the "
                                     "spread, so the timers made that difference."),
                         timed, k);
    else
      ms_caption_append (buf, len,
                         ms_gettext ("With a timer around every step, depth-first took %.2f× "
                                     "breadth-first's time at K = %d (medians); the timers add "
                                     "work between the steps, so the untimed times above are "
                                     "the answer."),
                         timed, k);
    return true;
  }
  return false;
}

/* What memsweep does around its repetitions, each left out in a variant of its own at K = AROUND_K
 * on one queue, for the plain program bench/plain-issue-order.cu (which switches the same things
 * one at a time) to be set beside: "plain", no instrumented repetition between the timed ones after
 * the first; "kept", the inputs not rewritten before every repetition. The Details leave their
 * ratios out: beside the drawn pair's "cannot tell", a 1.29x the class did not see read as a
 * contradiction. */
#define AROUND_K MS_ISSUE_ORDER_AROUND_K
static const char *const around_names[] = { "plain", "kept" };

/* The textbook's own case beside the copies at K = AROUND_K: every step one block spinning
 * MS_ISSUE_ORDER_SPIN_US µs, no copies (kernels alone), which a plain program found held in issue
 * order on an H200 while the copies were not (docs/lessons.md): without it the slide's only
 * difference was the timers', and teachers asked where the textbook's effect had gone. On the
 * usual queues too: without them, how much several queues cure it went unshown. */
#define KERNELS "/work=kernels"

bool
ms_issue_order_kernels (const MsResults *r, int e, bool single, const MsCell **depth,
                        const MsCell **breadth)
{
  char v[MS_VARIANT_LEN];
  for (int o = 0; o < 2; o++) {
    ms_lesson_streams_variant (v, sizeof v, single,
                               o ? MS_ORDER_BREADTH_FIRST : MS_ORDER_DEPTH_FIRST, AROUND_K);
    strncat (v, KERNELS, sizeof v - strlen (v) - 1);
    *(o ? breadth : depth) = ms_caption_measured (r, MS_MODE_STREAMS, e, v);
  }
  return *depth && *breadth;
}

/* Kernels alone against each other, in the caption: on one queue, then on the usual ones, where
 * the run has them (16 streams share the usual queues, CUDA_DEVICE_MAX_CONNECTIONS, 8 unless set:
 * plain programs found depth-first still 1.26-1.49× as long there). */
static void
append_kernels (char *buf, size_t len, const MsResults *r, int e)
{
  for (int single = 1; single >= 0; single--) {
    const MsCell *d, *b;
    if (!ms_issue_order_kernels (r, e, single, &d, &b))
      continue;
    char t[2][32];
    double times;
    const char *order = ms_issue_order_longer (d, b, &times);
    ms_caption_time (d->stats.e2e.median, t[0], sizeof t[0]);
    ms_caption_time (b->stats.e2e.median, t[1], sizeof t[1]);
    if (single)
      /* TRANSLATORS: the issue-order caption's kernels alone, e.g. "Kernels alone (every step one
       * block spinning 50 µs, no copies), 16 streams on one queue: depth-first took 1.71 ms,
       * breadth-first 250 µs; depth-first 6.84× as long." */
      ms_caption_append (buf, len,
                         ms_gettext ("Kernels alone (every step one block spinning %g µs, no "
                                     "copies), %d streams on one queue: depth-first took %s, "
                                     "breadth-first %s; %s %.2f× as long."),
                         MS_ISSUE_ORDER_SPIN_US, AROUND_K, t[0], t[1], order, times);
    else
      /* TRANSLATORS: the same kernels alone on the usual queues, e.g. "On the usual queues:
       * depth-first took 320 µs, breadth-first 244 µs; depth-first 1.31× as long." */
      ms_caption_append (buf, len,
                         ms_gettext ("On the usual queues: depth-first took %s, breadth-first "
                                     "%s; %s %.2f× as long."),
                         t[0], t[1], order, times);
    /* The textbook's effect is depth-first's on one queue: otherwise the ranges alone. */
    bool depth_longer = d->stats.e2e.median > b->stats.e2e.median;
    ms_caption_append (buf, len, "%s",
                       !ms_caption_apart (d, b)
                           ? ms_gettext ("Their ranges overlap: this run cannot tell them apart.")
                       : depth_longer && single
                           ? ms_gettext ("Their ranges lie apart: the textbook's one-queue effect.")
                           : ms_gettext ("Their ranges lie apart."));
  }
}

static bool
caption (const MsResults *r, int exponent, char *buf, size_t len)
{
  OrderTable t;
  FOR_EACH_EXP (e, exponent)
  {
    order_table (r, e, t);
    for (int k = MS_MAX_STREAMS; k >= 1; k--) {
      bool single = t[PLAIN][1][0][k] && t[PLAIN][1][1][k];
      bool plain = t[PLAIN][0][0][k] && t[PLAIN][0][1][k];
      if (!single && !plain)
        continue;
      buf[0] = '\0';
      append_orders (buf, len, k, t);
      append_one_stream (buf, len, r, k, t);
      append_kernels (buf, len, r, e);
      if (!append_timers (buf, len, t))
        ms_caption_append (buf, len,
                           ms_gettext ("The timelines have a timer around every step: "
                                       "compare the rows by their medians."));
      return true;
    }
  }
  return false;
}

/* The pair at the most streams measured in both orders, one queue first:
 * what the slide's two bars draw. */
static bool
quoted_in (const OrderTable t, const MsCell **depth, const MsCell **breadth, int *streams,
           bool *single)
{
  for (int k = MS_MAX_STREAMS; k >= 2; k--)
    for (int q = 1; q >= 0; q--)
      if (t[PLAIN][q][0][k] && t[PLAIN][q][1][k]) {
        *depth = t[PLAIN][q][0][k];
        *breadth = t[PLAIN][q][1][k];
        *streams = k;
        *single = q;
        return true;
      }
  return false;
}

/* The exponent of the quoted pair, the largest with one; -1: none. */
static int
quoted_exponent (const MsResults *r, OrderTable t)
{
  const MsCell *d, *b;
  int k;
  bool q;
  FOR_EACH_EXP (e, -1)
  {
    order_table (r, e, t);
    if (quoted_in (t, &d, &b, &k, &q))
      return e;
  }
  return -1;
}

bool
ms_issue_order_quoted (const MsResults *r, const MsCell **depth, const MsCell **breadth,
                       int *streams, bool *single, bool *apart)
{
  OrderTable t;
  if (quoted_exponent (r, t) < 0 || !quoted_in (t, depth, breadth, streams, single))
    return false;
  *apart = ms_caption_apart (*breadth, *depth);
  return true;
}

bool
ms_issue_order_same (const MsCell *depth, const MsCell *breadth)
{
  return ms_caption_judge (&depth->stats.e2e, &breadth->stats.e2e).verdict == MS_VERDICT_SAME;
}

const MsCell *
ms_issue_order_one_stream (const MsResults *r, const MsCell *c)
{
  /* One stream has one order and nothing to overlap on any queue setting: the quickest of its
   * cells, one yardstick for both settings' bars (each its own left the slide two "one stream"). */
  const MsCell *best = NULL;
  for (int o = 0; o < 4; o++) {
    char v[MS_VARIANT_LEN];
    MsIssueOrder order = o % 2 ? MS_ORDER_BREADTH_FIRST : MS_ORDER_DEPTH_FIRST;
    ms_lesson_streams_variant (v, sizeof v, o / 2, order, 1);
    const MsCell *one = ms_caption_measured (r, MS_MODE_STREAMS, c->exponent, v);
    if (one && (!best || one->stats.e2e.median < best->stats.e2e.median))
      best = one;
  }
  return best;
}

bool
ms_issue_order_apart (const MsCell *a, const MsCell *b)
{
  return ms_caption_apart (a, b);
}

const char *
ms_issue_order_longer (const MsCell *depth, const MsCell *breadth, double *times)
{
  double ratio = written_ratio (depth, breadth);
  *times = fmax (ratio, 1 / ratio);
  return ratio >= 1 ? ms_gettext ("depth-first") : ms_gettext ("breadth-first");
}

/* A pair's medians with the first's unit left out where both have the same: "789 vs 791 µs". */
static void
pair_times (const MsCell *depth, const MsCell *breadth, char t[2][32])
{
  ms_caption_time (depth->stats.e2e.median, t[0], sizeof t[0]);
  ms_caption_time (breadth->stats.e2e.median, t[1], sizeof t[1]);
  ms_format_unit_once (t[0], t[1]); /* said once: the line keeps its size */
}

/* The line where kernels alone on one queue (kd, kb) lie apart and the
 * copies there (c[0], c[1]; the usual queues' c[2], c[3]) do not: the
 * textbook's effect and the copies beside it, whatever the usual queues'
 * pair says (a fresh run whose usual queues could not be told apart drew
 * kernels alone under a headline of the copies alone). */
static void
kernels_line (const MsResults *r, const MsCell *const c[4], bool same, const MsCell *kd,
              const MsCell *kb, char *buf, size_t len)
{
  double times, usual;
  const char *order = ms_issue_order_longer (kd, kb, &times);
  /* Both queue settings' copies the same and both kernels' pairs apart
   * the same way: the card's yes-or-no, for each kind of work ("One
   * queue: not with copies" was read as cryptic), the kernels' ratios
   * over both settings (a line of one left out the usual queues'). */
  const MsCell *ud, *ub;
  if (same && c[2] && c[3] && ms_issue_order_same (c[2], c[3])
      && ms_issue_order_kernels (r, c[0]->exponent, false, &ud, &ub) && ms_caption_apart (ud, ub)
      && strcmp (ms_issue_order_longer (ud, ub, &usual), order) == 0) {
    /* TRANSLATORS: the issue-order takeaway where the copies came out
     * the same on one queue and the usual ones, and kernels alone lay
     * apart on both, e.g. "With copies: no; kernels alone: yes,
     * depth-first up to 5.5× slower" (the longer order, the larger ratio
     * of the two queue settings, whose brackets give each; "1.4–5.5×"
     * was read as joining two setups without saying which was which);
     * one projected line. */
    snprintf (buf, len, ms_gettext ("With copies: no; kernels alone: yes, %s up to %.1f× slower"),
              order, fmax (times, usual));
    return;
  }
  /* TRANSLATORS: the issue-order takeaway where kernels alone on one queue lie apart and the
   * copies' pair there does not, e.g. "One queue: not with copies; kernels alone, depth-first
   * 5.5× slower" (or "…: copies unclear; …"). The real work's answer first, as the card asks
   * it ("copies alike" last was read as cryptic); the queue first, for both: without it a
   * reader took the kernels' for every setting, and after the copies the copies' for every
   * setting. The usual queues' figure beside both shrank the line under a back row's size:
   * their bracket on the slide gives it. */
  snprintf (buf, len,
            same ? ms_gettext ("One queue: not with copies; kernels alone, %s %.1f× slower")
                 : ms_gettext ("One queue: copies unclear; kernels alone, %s %.1f× slower"),
            order, times);
}

/* The two orders at the most streams measured, one queue first, against each other, as the
 * question asks. Where the usual queues' pair reads as one queue's (both the same, or neither
 * told apart), the answer once for both: where one queue's pair with a timer on every step lies
 * apart, that is part of the answer (beside a "same" headline its 1.20× read as misleading, in
 * the Details alone the textbook's effect went unseen), else the same with both pairs' medians: a
 * gain over one stream beside it read as a list to decode. */
static MsTakeaway
takeaway (const MsResults *r, char *buf, size_t len)
{
  const MsCell *c[4] = { NULL };
  int k;
  bool single, apart;
  if (!ms_issue_order_quoted (r, &c[0], &c[1], &k, &single, &apart))
    return MS_TAKEAWAY_MISSING;
  bool same = !apart && ms_issue_order_same (c[0], c[1]);
  char t[2][2][32], speed[48];
  OrderTable tab;
  quoted_exponent (r, tab);
  c[2] = single ? tab[PLAIN][0][0][k] : NULL, c[3] = single ? tab[PLAIN][0][1][k] : NULL;
  const MsCell *td = single ? tab[TIMERS][1][0][k] : NULL, *tb = td ? tab[TIMERS][1][1][k] : NULL;
  const MsCell *kd, *kb;
  if (!apart && single && ms_issue_order_kernels (r, c[0]->exponent, true, &kd, &kb)
      && ms_caption_apart (kd, kb)) {
    kernels_line (r, c, same, kd, kb, buf, len);
    return MS_TAKEAWAY_DECIDED;
  }
  if (!apart && c[2] && c[3] && !ms_caption_apart (c[2], c[3])
      && same == ms_issue_order_same (c[2], c[3])) {
    /* Where neither untimed pair can be told apart, the answer alone: with the timed pair's
     * 1.20× beside it ("Cannot tell untimed; every step timed, depth-first took 1.20×"), teachers
     * said a class would remember depth-first as slower, from the timers. The timed pair keeps
     * its bars and its note. */
    if (tb && ms_caption_apart (td, tb) && same) {
      double times;
      const char *order = ms_issue_order_longer (td, tb, &times);
      /* TRANSLATORS: the issue-order takeaway where both untimed pairs are the same and one
       * queue's with a timer on every step lies apart, e.g. "Only with every step timed:
       * depth-first took 1.20× as long"; the longer order, then the ratio. */
      snprintf (buf, len, ms_gettext ("Only with every step timed: %s took %.2f× as long"),
                order, times);
      return MS_TAKEAWAY_DECIDED;
    }
    if (!same) {
      /* TRANSLATORS: the issue-order takeaway where neither queue setting's orders can be told
       * apart (the H100's), e.g. "Without timers: cannot tell apart, on one queue or the usual
       * 8": the medians beside it made the line too long for a slide; "several" beside rows of
       * "usual queues" left a reader asking how many, and "on 8" alone which rows those were.
       * "No measurable change" was read as more than one queue's wide ranges show, "too noisy
       * to tell" as less than the usual queues' near-equal medians; "no difference seen" beside
       * cells that say "cannot tell" had readers ask which was meant. "Without timers": the
       * timed pair's bars, apart, are under the same line ("Untimed" was read as jargon). */
      snprintf (buf, len,
                ms_gettext ("Without timers: cannot tell apart, on one queue or the usual %d"),
                MS_ISSUE_ORDER_USUAL_QUEUES);
      /* Decided where the timed pair lies apart: its bars are a finding, not to be faded. */
      return tb && ms_caption_apart (td, tb) ? MS_TAKEAWAY_DECIDED : MS_TAKEAWAY_UNDECIDED;
    }
    pair_times (c[0], c[1], t[0]);
    pair_times (c[2], c[3], t[1]);
    /* TRANSLATORS: the same by the ±10% rule on both queue settings, depth-first's median then
     * breadth-first's on each, e.g. "No: 789 vs 791 µs on one queue, 798 vs 797 µs on the usual
     * 8". */
    snprintf (buf, len, ms_gettext ("No: %s vs %s on one queue, %s vs %s on the usual %d"),
              t[0][0], t[0][1], t[1][0], t[1][1], MS_ISSUE_ORDER_USUAL_QUEUES);
    return MS_TAKEAWAY_DECIDED;
  }
  pair_times (c[0], c[1], t[0]);
  if (!apart && !same) {
    /* TRANSLATORS: e.g. "Depth-first 1.07, breadth-first 1.11 ms: cannot tell apart". */
    snprintf (buf, len, ms_gettext ("Depth-first %s, breadth-first %s: cannot tell apart"), t[0][0],
              t[0][1]);
    return MS_TAKEAWAY_UNDECIDED;
  }
  if (apart) {
    /* Breadth-first's time first here: the unit stays on the last one written. */
    pair_times (c[1], c[0], t[0]);
    double ratio = speedup (c[0], c[1]);
    ms_caption_speed (ratio, ratio > 0.95 && ratio < 1.05 ? 2 : 1, speed, sizeof speed);
    /* TRANSLATORS: e.g. "Breadth-first 1.2× faster than depth-first (789, 950 µs)": the
     * breadth-first and depth-first medians. */
    snprintf (buf, len, ms_gettext ("Breadth-first %s than depth-first (%s, %s)"), speed, t[0][0],
              t[0][1]);
  } else
    /* TRANSLATORS: e.g. "Both orders the same (789, 791 µs)": depth-first's and breadth-first's
     * medians. */
    snprintf (buf, len, ms_gettext ("Both orders the same (%s, %s)"), t[0][0], t[0][1]);
  return MS_TAKEAWAY_DECIDED;
}

void
ms_lesson_streams_variant (char *buf, size_t len, bool single_queue, MsIssueOrder order,
                           int streams)
{
  snprintf (buf, len, "queue=%s/order=%s/K=%d", single_queue ? "single" : "default",
            order == MS_ORDER_BREADTH_FIRST ? "breadth" : "depth", streams);
}

/* One streams part in a fresh process: one queue (the variable set) or the default (the variable
 * removed, whatever the caller's environment says), its variant ending in what (a knob its caller
 * sets: timers, the observer effect, an event pair around every step; a habit left out; host
 * work); NULL when the list is full. */
static MsLessonPart *
add_order_part (MsPartList *l, bool single, MsIssueOrder order, int k, const char *what)
{
  char v[MS_VARIANT_LEN];
  ms_lesson_streams_variant (v, sizeof v, single, order, k);
  strncat (v, what, sizeof v - strlen (v) - 1);
  MsLessonPart *p = ms_lesson_add_part (l, "streams", v);
  if (p) {
    p->sweep.streams = k;
    p->sweep.order = order;
    ms_lesson_set_queues (p, single);
  }
  return p;
}

/* Every setting in a fresh process; the one-queue parts, with and without per-step timers and
 * with memsweep's habits left out at K = AROUND_K (see around_names), share one. */
static void
issue_order_parts (MsPartList *l)
{
  MsLessonPart *p;
  for (int single = 1; single >= 0; single--) {
    for (int timers = 0; timers <= single; timers++)
      for (int o = 0; o < 2; o++)
        for (int i = 0; i < N_OF (stream_counts); i++) {
          if (!(p = add_order_part (l, single, (MsIssueOrder)o, stream_counts[i],
                                    timers ? "/timers=per-step" : "")))
            return;
          p->sweep.knobs.timers_per_step = timers;
        }
    for (int a = 0; single && a < N_OF (around_names); a++)
      for (int o = 0; o < 2; o++) {
        char what[32];
        snprintf (what, sizeof what, "/around=%s", around_names[a]);
        if (!(p = add_order_part (l, true, (MsIssueOrder)o, AROUND_K, what)))
          return;
        if (a == 0)
          p->sweep.instr_reps = 1; /* the first repetition's alone */
        p->sweep.knobs.inputs_kept = a == 1;
      }
    for (int o = 0; o < 2; o++) {
      if (!(p = add_order_part (l, single, (MsIssueOrder)o, AROUND_K, KERNELS)))
        return;
      p->sweep.knobs.spin_us = MS_ISSUE_ORDER_SPIN_US;
    }
  }
  for (int o = 0; o < 2; o++) {
    if (!(p = add_order_part (l, false, (MsIssueOrder)o, 4, "/host=work")))
      return;
    p->sweep.knobs.host_work = true;
  }
}

/* The command line's finding: breadth-first against depth-first per queue and K. */
static void
finding (const MsResults *r, char *buf, size_t len)
{
  int e = r->sweep.max_exp;
  for (int q = 0; q < 2; q++)
    for (int i = 0; i < 5; i++) {
      char vd[MS_VARIANT_LEN], vb[MS_VARIANT_LEN];
      const char *queue = q ? "default" : "single";
      ms_lesson_streams_variant (vd, sizeof vd, !q, MS_ORDER_DEPTH_FIRST, stream_counts[i]);
      ms_lesson_streams_variant (vb, sizeof vb, !q, MS_ORDER_BREADTH_FIRST, stream_counts[i]);
      double d = ms_finding_median (r, MS_MODE_STREAMS, e, vd);
      double b = ms_finding_median (r, MS_MODE_STREAMS, e, vb);
      if (d > 0 && b > 0)
        ms_caption_append_line (
            buf, len,
            ms_gettext ("queue=%s K=%d: breadth-first takes %.2f of depth-first's time\n"), queue,
            stream_counts[i], b / d);
    }
}

const MsLesson ms_lesson_issue_order = {
  .card = { .name = NAME,
            .modes = "streams",
            .title = MS_N_ ("Streams, overlap and issue order"),
            .question = MS_N_ ("Does depth-first or breadth-first issue order change the overlap "
                               "of streams?"),
            .reason = MS_N_ ("The teaching material says that with one hardware work queue "
                             "(CUDA_DEVICE_MAX_CONNECTIONS=1) the issue order decides what "
                             "overlaps. This run measures it plainly (no timers between the steps) "
                             "at K = 1 to 16 streams, on one queue and on the default ones, and "
                             "again on one queue with an event pair around every step, as a "
                             "per-phase timer records them: the caption says which of the two made "
                             "a difference on this GPU. Also host work overlapping the copies.") },
  .settings = "streams K=1,2,4,8,16, depth and breadth, with " MS_LESSON_MAX_CONNECTIONS
              "=1 and the default, each in a fresh process; one queue also with an event pair "
              "per step (timers=per-step); one queue at K=16 also without instrumented "
              "repetitions between the timed ones (around=plain) and with the inputs not "
              "rewritten (around=kept); kernels alone at K=16 on both queue settings, each step one "
              "block spinning 50 us, no copies (work=kernels); host work beside the copies at K=4",
  .parts = issue_order_parts,
  .caption = caption,
  .missing = MS_N_ ("This run has no streams cells measured in both issue orders."),
  .takeaway = takeaway,
  .finding = finding,
};
