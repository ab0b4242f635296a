/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-lesson-issue-order.c: the issue-order lesson (docs/lessons.md): K streams in depth-first and
 * breadth-first order, on one hardware queue and on the default ones, each setting in a fresh
 * process. Its caption states what this run measured: breadth-first against depth-first end to end
 * from plain repetitions, on one hardware queue and on the default ones, and apart from that what
 * an event pair around every step (timers=per-step) does to the same comparison. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ms-i18n.h"
#include "ms-lesson-caption-private.h"
#include "ms-lesson-issue-order.h"
#include "ms-lesson-record.h"
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

/* "beyond the spread" or "within it", by ms_caption_apart (). */
static const char *
spread_word (const MsCell *a, const MsCell *b)
{
  return ms_caption_apart (a, b) ? ms_gettext ("beyond the spread")
                                 : ms_gettext ("within the spread");
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

/* The slide's yardstick: the same work in one stream, each order at K on both queue settings
 * against it, and what the saving came from, as the slide's note says it. */
static void
append_one_stream (char *buf, size_t len, const MsResults *r, int k, OrderTable t)
{
  bool single = t[PLAIN][1][0][k] && t[PLAIN][1][1][k];
  const MsCell *d = t[PLAIN][single][0][k], *b = t[PLAIN][single][1][k];
  const MsCell *ud = single ? t[PLAIN][0][0][k] : NULL, *ub = single ? t[PLAIN][0][1][k] : NULL;
  const MsCell *one = d && b ? ms_issue_order_one_stream (r, d) : NULL;
  if (!one)
    return;
  char time[32], by_d[64], by_b[64], why[512];
  ms_caption_time (one->stats.e2e.median, time, sizeof time);
  ms_caption_append (buf, len,
                     ms_gettext ("One stream (K = 1: nothing to overlap) takes %s; depth-first "
                                 "took %s, breadth-first %s."),
                     time, ms_issue_order_against_one (one, d, false, by_d, sizeof by_d),
                     ms_issue_order_against_one (one, b, false, by_b, sizeof by_b));
  /* The usual queues' pair against the same yardstick, as the slide draws it. */
  if (ud && ub)
    ms_caption_append (buf, len,
                       ms_gettext ("On the usual queues depth-first took %s, breadth-first %s."),
                       ms_issue_order_against_one (one, ud, false, by_d, sizeof by_d),
                       ms_issue_order_against_one (one, ub, false, by_b, sizeof by_b));
  if (*ms_issue_order_why (one, d, b, why, sizeof why)
      || (ud && ub && *ms_issue_order_why (one, ud, ub, why, sizeof why)))
    ms_caption_append (buf, len, "%s", why);
}

/* Per-step events against none, on one queue, at the largest K with both;
 * the timelines draw repetitions with such events, hence the remark. */
static bool
append_timers (char *buf, size_t len, OrderTable t)
{
  for (int k = MS_MAX_STREAMS; k >= 1; k--) {
    const MsCell *td = t[TIMERS][1][0][k], *tb = t[TIMERS][1][1][k];
    const MsCell *pd = t[PLAIN][1][0][k], *pb = t[PLAIN][1][1][k];
    if (!td || !tb || !pd || !pb)
      continue;
    double timed = speedup (td, tb);
    /* Named as what it is: the question asks about the order alone. */
    ms_caption_append (buf, len, ms_gettext ("Second finding, the timers' effect:"));
    if (!ms_caption_apart (td, tb) && !ms_caption_apart (pd, pb))
      ms_caption_append (
          buf, len,
          ms_gettext ("At K = %d the orders differ within the spread, with a "
                      "timer around every step (%.2f×) or without."),
          k, timed);
    else if (ms_caption_apart (td, tb) && !ms_caption_apart (pd, pb))
      ms_caption_append (buf, len,
                         ms_gettext ("With a timer around every step, depth-first took %.2f× "
                                     "breadth-first's time at K = %d (medians), beyond the "
                                     "spread; the timers add work between the steps, so the "
                                     "untimed times above are the answer."),
                         timed, k);
    else
      ms_caption_append (buf, len,
                         ms_gettext ("With a timer around every step, depth-first took %.2f× "
                                     "breadth-first's time at K = %d (medians); the timers add "
                                     "work between the steps, so the untimed times above, which "
                                     "the chart draws, are the answer."),
                         timed, k);
    return true;
  }
  return false;
}

/* What memsweep does around its repetitions, each left out in a variant of its own at K = AROUND_K
 * on one queue (the plain program bench/plain-issue-order.cu switches the same things one at a
 * time): "plain", no instrumented repetition between the timed ones after the first; "kept", the
 * inputs not rewritten before every repetition. */
#define AROUND_K 16
static const char *const around_names[] = { "plain", "kept" };

static const MsCell *
around_cell (const MsResults *r, int e, MsIssueOrder order, const char *around)
{
  char v[MS_VARIANT_LEN];
  ms_lesson_streams_variant (v, sizeof v, true, order, AROUND_K);
  size_t used = strlen (v);
  snprintf (v + used, sizeof v - used, "/around=%s", around);
  return ms_caption_measured (r, MS_MODE_STREAMS, e, v);
}

/* The ratio with each of memsweep's habits left out, beside the one with
 * all of them, so that the run shows which one moves it. */
static void
append_around (char *buf, size_t len, const MsResults *r, int e, OrderTable t)
{
  const MsCell *d = t[PLAIN][1][0][AROUND_K], *b = t[PLAIN][1][1][AROUND_K];
  const MsCell *pd = around_cell (r, e, MS_ORDER_DEPTH_FIRST, around_names[0]);
  const MsCell *pb = around_cell (r, e, MS_ORDER_BREADTH_FIRST, around_names[0]);
  const MsCell *kd = around_cell (r, e, MS_ORDER_DEPTH_FIRST, around_names[1]);
  const MsCell *kb = around_cell (r, e, MS_ORDER_BREADTH_FIRST, around_names[1]);
  /* Said only where one of the ratios lies beyond the spread: three ratios the run cannot tell
   * from 1 ran the details past the foot of a 1024x768 screen. */
  if (!d || !b || !pd || !pb || !kd || !kb
      || !(ms_caption_apart (d, b) || ms_caption_apart (pd, pb) || ms_caption_apart (kd, kb)))
    return;
  /* Each ratio with whether it lies beyond the spread (one far from 1 inside it is no finding),
   * each way of running named plainly ("moves ... over" and "no repetition timed step by step in
   * between" were almost unreadable to a teacher). */
  ms_caption_append (buf, len,
                     ms_gettext ("At K = %d on one queue, depth-first took %.2f× "
                                 "breadth-first's time as measured above (%s), %.2f× when memsweep "
                                 "skipped the repetitions it times step by step between the timed "
                                 "ones (%s), and %.2f× with the inputs not rewritten before each "
                                 "repetition (%s)."),
                     AROUND_K, speedup (d, b), spread_word (d, b), speedup (pd, pb),
                     spread_word (pd, pb), speedup (kd, kb), spread_word (kd, kb));
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
      append_around (buf, len, r, e, t);
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

/* How many per cent less time c took than one, from the times as written. */
static double
saved_share (const MsCell *one, const MsCell *c)
{
  return (1 - ms_caption_time_as_written (c->stats.e2e.median)
                / ms_caption_time_as_written (one->stats.e2e.median))
         * 100;
}

const char *
ms_issue_order_against_one (const MsCell *one, const MsCell *c, bool bare, char *buf, size_t len)
{
  double saved = round (saved_share (one, c));
  /* TRANSLATORS: a time against the same work in one stream, e.g. "18% less than one stream";
   * its pair "4% more than one stream". "4% more" alone did not say than what, except where the
   * sentence says it once for four ("Against one stream: ..."), e.g. "18% less". */
  snprintf (buf, len,
            saved >= 0 ? (bare ? ms_gettext ("%.0f%% less") : ms_gettext ("%.0f%% less than one stream"))
                       : (bare ? ms_gettext ("%.0f%% more") : ms_gettext ("%.0f%% more than one stream")),
            fabs (saved));
  return buf;
}

const char *
ms_issue_order_why (const MsCell *one, const MsCell *d, const MsCell *b, char *buf, size_t len)
{
  const MsStat *step = one->stats.phase;
  double add = step[MS_PHASE_KERNEL].median, all = one->stats.e2e.median;
  /* What did overlap, where more was saved than the add takes: a class asked how 176 µs went with
   * a kernel of 19. */
  double saved = all - fmin (d->stats.e2e.median, b->stats.e2e.median);
  char t[32];
  /* Only where the quicker order saved time beyond one stream's spread: it explains a saving (on
   * the H100 the one queue's pair had none to explain). What the run shows, no more:
   * which copies ran beside which, the untimed repetitions do not say, and the timed ones (an
   * event on every step) took longer with no copy in beside a copy back. */
  buf[0] = '\0';
  const MsCell *quick = d->stats.e2e.median < b->stats.e2e.median ? d : b;
  if (ms_caption_apart (one, quick) && saved > 0 && add > 0 && step[MS_PHASE_H2D].median > 0
      && step[MS_PHASE_D2H].median > 0)
    /* TRANSLATORS: e.g. "The add is 2% of one stream's time: most of the 176 µs saved came from
     * the copies." (Its part is named on the slide: "dark" was the lightest in the dark style.) */
    snprintf (buf, len,
              saved > 2 * add ? ms_gettext ("The add is %.0f%% of one stream's time: most of the "
                                            "%s saved came from the copies.")
                              : ms_gettext ("The add is %.0f%% of one stream's time; "
                                            "the copies set it."),
              100 * add / all, ms_caption_time (saved, t, sizeof t));
  return buf;
}

/* The quoted size's gain at K streams over one stream on a queue setting, in per cent less time
 * (*saved); false where the run lacks it or cannot tell it from the spread. */
static bool
issue_order_gain (const MsResults *r, int k, bool single, double *saved)
{
  OrderTable t;
  const MsCell *d, *b;
  if (quoted_exponent (r, t) < 0 || !(d = t[PLAIN][single][0][k]) || !(b = t[PLAIN][single][1][k]))
    return false;
  const MsCell *one = ms_issue_order_one_stream (r, d);
  const MsCell *quick = b->stats.e2e.median < d->stats.e2e.median ? b : d;
  *saved = one ? round (saved_share (one, quick)) : 0;
  return one && ms_caption_apart (quick, one) && *saved >= 1;
}

/* The two orders at the most streams measured, one queue first, against each other, as the
 * question asks (a line of each against one stream left a class to work out the comparison), then
 * the gain over one stream where the run tells it (the H100's ranges, 0.85 to 1.9 ms, cannot). The
 * timers' effect is the Details' second finding (issue 84). */
static MsTakeaway
takeaway (const MsResults *r, char *buf, size_t len)
{
  const MsCell *depth, *breadth;
  int k;
  bool single, apart;
  if (!ms_issue_order_quoted (r, &depth, &breadth, &k, &single, &apart))
    return MS_TAKEAWAY_MISSING;
  bool same = !apart && ms_issue_order_same (depth, breadth);
  double saved;
  bool gained = issue_order_gain (r, k, single, &saved);
  char t[2][32], speed[48];
  ms_caption_time (depth->stats.e2e.median, t[0], sizeof t[0]);
  ms_caption_time (breadth->stats.e2e.median, t[1], sizeof t[1]);
  /* The usual queues' pair beside one queue's, where the run has it and neither lies apart: the
   * teachable contrast, over one stream, was a footnote's. */
  OrderTable tab;
  quoted_exponent (r, tab);
  const MsCell *ud = single ? tab[PLAIN][0][0][k] : NULL, *ub = single ? tab[PLAIN][0][1][k] : NULL;
  bool usual = !apart && ud && ub && !ms_caption_apart (ud, ub);
  double usual_saved;
  if (!apart && !same) {
    if (usual && issue_order_gain (r, k, false, &usual_saved))
      /* TRANSLATORS: the issue-order takeaway where neither queue setting's orders can be told
       * apart, with what the usual queues saved, e.g. "... usual queues 15% under one stream". */
      snprintf (buf, len,
                ms_gettext ("Cannot tell orders apart; usual queues %.0f%% under one stream"),
                usual_saved);
    else
      /* TRANSLATORS: the issue-order takeaway where the ranges meet but are too wide to call the
       * orders the same, e.g. "Depth-first 1.07 ms, breadth-first 1.11 ms: cannot tell apart". */
      snprintf (buf, len, ms_gettext ("Depth-first %s, breadth-first %s: cannot tell apart"), t[0],
                t[1]);
    return MS_TAKEAWAY_UNDECIDED;
  }
  if (usual && ms_issue_order_same (ud, ub)) {
    /* TRANSLATORS: e.g. "No: both orders 17% under one stream, one queue or several": the
     * same time either way on both queue settings. */
    snprintf (buf, len,
              gained ? ms_gettext ("No: both orders %.0f%% under one stream, one queue or several")
                     : ms_gettext ("No: both orders the same, one queue or several"),
              saved);
    return MS_TAKEAWAY_DECIDED;
  }
  char *unit = strchr (t[0], ' '), *unit1 = strchr (t[1], ' ');
  if (unit && unit1 && strcmp (unit, unit1) == 0) /* said once: the line keeps its size */
    *unit = '\0';
  if (apart) {
    double ratio = speedup (depth, breadth);
    ms_caption_speed (ratio, ratio > 0.95 && ratio < 1.05 ? 2 : 1, speed, sizeof speed);
    /* TRANSLATORS: e.g. "Breadth-first 1.2× faster than depth-first (789, 950 µs)": the
     * breadth-first and depth-first medians. */
    snprintf (buf, len, ms_gettext ("Breadth-first %s than depth-first (%s, %s)"), speed, t[1],
              t[0]);
  } else if (gained)
    /* TRANSLATORS: e.g. "Both orders the same (789, 791 µs), 18% under one stream": depth-first's
     * and breadth-first's medians, and their time against the same work in one stream. */
    snprintf (buf, len, ms_gettext ("Both orders the same (%s, %s), %.0f%% under one stream"), t[0],
              t[1], saved);
  else
    snprintf (buf, len, ms_gettext ("Both orders the same (%s, %s); no clear gain over one stream"),
              t[0], t[1]);
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
 * with memsweep's habits left out at K = AROUND_K (see append_around), share one. */
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
              "rewritten (around=kept); host work beside the copies at K=4",
  .parts = issue_order_parts,
  .caption = caption,
  .missing = MS_N_ ("This run has no streams cells measured in both issue orders."),
  .takeaway = takeaway,
  .finding = finding,
};
