/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-lesson-caption-order.c: the issue-order lesson's caption. It states
 * what this run measured: breadth-first against depth-first end to end
 * from plain repetitions, on one hardware queue and on the default ones,
 * and apart from that what an event pair around every step
 * (timers=per-step) does to the same comparison. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ms-i18n.h"
#include "ms-lesson-caption-private.h"

enum { PLAIN, TIMERS };

/* The streams cells at e by [timers][single queue][breadth first][K]. */
typedef const MsCell *OrderTable[2][2][2][MS_MAX_STREAMS + 1];

static void
order_table (const MsResults *r, int e, OrderTable table)
{
  memset (table, 0, sizeof (OrderTable));
  for (size_t i = 0; i < r->n_cells; i++) {
    const MsCell *c = &r->cells[i];
    char queue[16], order[16], host[16], timers[16];
    int k;
    if (c->mode != MS_MODE_STREAMS || c->exponent != e
        || !ms_variant_get (c->variant, "queue", queue, sizeof queue)
        || !ms_variant_get (c->variant, "order", order, sizeof order)
        || !ms_variant_get_int (c->variant, "K", &k) || k < 1 || k > MS_MAX_STREAMS
        || ms_variant_get (c->variant, "host", host, sizeof host)
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

/* Whether the two medians' 95% intervals (min..max below 6 repetitions)
 * are apart: a difference the run can tell from its own spread. */
static bool
apart (const MsCell *a, const MsCell *b)
{
  return a->stats.e2e.ci_high < b->stats.e2e.ci_low || b->stats.e2e.ci_high < a->stats.e2e.ci_low;
}

/* The finding: breadth-first against depth-first at K streams, on one
 * hardware queue and with the default queues (either may be missing), by
 * the medians that the timelines' titles lead with. */
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
  else if (single)
    ms_caption_append (buf, len,
                       ms_gettext ("With K = %d streams at %s, breadth-first takes %s against %s "
                                   "depth-first on one hardware queue."),
                       k, size, s_b, s_d);
  else
    ms_caption_append (buf, len,
                       ms_gettext ("With K = %d streams at %s, breadth-first takes %s against %s "
                                   "depth-first with the default queues."),
                       k, size, d_b, d_d);
}

/* One queue, plain repetitions: the ratio at every K measured, the only
 * place the caption gives it. */
static void
append_plain_ratios (char *buf, size_t len, OrderTable t)
{
  char list[256] = "";
  for (int k = 1; k <= MS_MAX_STREAMS; k++) {
    const MsCell *d = t[PLAIN][1][0][k], *b = t[PLAIN][1][1][k];
    size_t used = strlen (list);
    if (d && b && used + 32 < sizeof list)
      snprintf (list + used, sizeof list - used, "%s%.2f× (K = %d)", used ? ", " : "",
                speedup (d, b), k);
  }
  if (list[0])
    ms_caption_append (buf, len,
                       ms_gettext ("Without timers, depth-first ÷ breadth-first time on one "
                                   "queue is %s."),
                       list);
  /* One stream has one order: whatever K = 1 shows is the run's noise,
   * the yardstick for the other ratios. */
  const MsCell *d1 = t[PLAIN][1][0][1], *b1 = t[PLAIN][1][1][1];
  if (d1 && b1 && strchr (list, ','))
    ms_caption_append (buf, len,
                       ms_gettext ("At K = 1 there is one stream and the order cannot matter: "
                                   "its %.1f%% is noise."),
                       fabs (speedup (d1, b1) - 1) * 100);
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
    if (!apart (td, tb) && !apart (pd, pb))
      ms_caption_append (
          buf, len,
          ms_gettext ("At K = %d the orders differ within the spread, with a "
                      "timer around every step (%.2f×, as the timelines are drawn) or "
                      "without."),
          k, timed);
    else if (apart (td, tb) && !apart (pd, pb))
      ms_caption_append (buf, len,
                         ms_gettext ("With a timer around every step, as the timelines are "
                                     "drawn, it is %.2f× at K = %d (medians); without, the orders "
                                     "differ within "
                                     "the spread: the timers make the difference, not the "
                                     "issue order."),
                         timed, k);
    else
      ms_caption_append (buf, len,
                         ms_gettext ("With a timer around every step, as the timelines are "
                                     "drawn, it is %.2f× at K = %d (medians): the chart leaves "
                                     "the timers out."),
                         timed, k);
    return true;
  }
  return false;
}

bool
ms_caption_issue_order (const MsResults *r, int exponent, char *buf, size_t len)
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
      append_plain_ratios (buf, len, t);
      if (!append_timers (buf, len, t))
        ms_caption_append (buf, len,
                           ms_gettext ("The timelines have a timer around every step: "
                                       "compare the rows by their medians."));
      return true;
    }
  }
  return ms_caption_missing (
      buf, len, ms_gettext ("This run has no streams cells measured in both issue orders."));
}
