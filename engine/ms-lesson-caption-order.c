/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-lesson-caption-order.c: the issue-order lesson's caption. It states
 * what this run measured: breadth-first against depth-first end to end
 * from plain repetitions, on one hardware queue and on the default ones,
 * and apart from that what an event pair around every step
 * (timers=per-step) does to the same comparison. */
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
    if (c->mode != MS_MODE_STREAMS || c->exponent != e ||
        !ms_variant_get (c->variant, "queue", queue, sizeof queue) ||
        !ms_variant_get (c->variant, "order", order, sizeof order) ||
        !ms_variant_get_int (c->variant, "K", &k) || k < 1 || k > MS_MAX_STREAMS ||
        ms_variant_get (c->variant, "host", host, sizeof host) ||
        !ms_caption_measured (r, c->mode, e, c->variant))
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

/* Breadth-first against depth-first on one queue (single) or the default
 * queues. */
static void
append_orders (char *buf, size_t len, bool single, const MsCell *depth, const MsCell *breadth)
{
  char t_b[32], t_d[32], speed[64];
  ms_caption_time (breadth->stats.e2e.median, t_b, sizeof t_b);
  ms_caption_time (depth->stats.e2e.median, t_d, sizeof t_d);
  ms_caption_speed (speedup (depth, breadth), 2, speed, sizeof speed);
  if (single)
    ms_caption_append (buf, len,
                       ms_gettext ("on one hardware queue breadth-first takes %s against %s "
                                   "depth-first (%s);"),
                       t_b, t_d, speed);
  else
    ms_caption_append (buf, len,
                       ms_gettext ("with the default queues breadth-first takes %s against %s "
                                   "depth-first (%s)."),
                       t_b, t_d, speed);
}

/* One queue, plain repetitions: the ratio at every K measured. */
static void
append_plain_ratios (char *buf, size_t len, OrderTable t)
{
  char list[256] = "";
  for (int k = 1; k <= MS_MAX_STREAMS; k++) {
    const MsCell *d = t[PLAIN][1][0][k], *b = t[PLAIN][1][1][k];
    size_t used = strlen (list);
    if (d && b && used + 32 < sizeof list)
      snprintf (list + used, sizeof list - used, "%s%.2fx (K = %d)", used ? ", " : "",
                speedup (d, b), k);
  }
  if (list[0])
    ms_caption_append (buf, len,
                       ms_gettext ("Measured plainly on one hardware queue, depth-first time ÷ "
                                   "breadth-first time is %s."),
                       list);
}

/* Per-step events against none, on one queue, at the largest K with both. */
static void
append_timers (char *buf, size_t len, OrderTable t)
{
  for (int k = MS_MAX_STREAMS; k >= 1; k--) {
    const MsCell *td = t[TIMERS][1][0][k], *tb = t[TIMERS][1][1][k];
    const MsCell *pd = t[PLAIN][1][0][k], *pb = t[PLAIN][1][1][k];
    if (!td || !tb || !pd || !pb)
      continue;
    double timed = speedup (td, tb), plain = speedup (pd, pb);
    char speed[64];
    ms_caption_speed (timed, 2, speed, sizeof speed);
    if (!apart (td, tb) && !apart (pd, pb))
      ms_caption_append (buf, len,
                         ms_gettext ("At K = %d on one hardware queue the issue order makes no "
                                     "difference beyond the spread, with an event pair around "
                                     "every step (%.2fx) or without (%.2fx)."),
                         k, timed, plain);
    else if (apart (td, tb) && !apart (pd, pb))
      ms_caption_append (buf, len,
                         ms_gettext ("On one hardware queue, with an event pair around every "
                                     "step, breadth-first is %s than depth-first at K = %d; "
                                     "without them the ratio is %.2f, within the spread: the "
                                     "timers make the difference, not the issue order."),
                         speed, k, plain);
    else
      ms_caption_append (buf, len,
                         ms_gettext ("On one hardware queue, with an event pair around every "
                                     "step, breadth-first is %s than depth-first at K = %d; "
                                     "without them the ratio is %.2f."),
                         speed, k, plain);
    return;
  }
}

bool
ms_caption_issue_order (const MsResults *r, int exponent, char *buf, size_t len)
{
  OrderTable t;
  FOR_EACH_EXP (e, exponent) {
    order_table (r, e, t);
    for (int k = MS_MAX_STREAMS; k >= 1; k--) {
      bool single = t[PLAIN][1][0][k] && t[PLAIN][1][1][k];
      bool plain = t[PLAIN][0][0][k] && t[PLAIN][0][1][k];
      if (!single && !plain)
        continue;
      char size[32];
      snprintf (buf, len, ms_gettext ("With K = %d streams at %s:"), k,
                ms_caption_size (single ? t[PLAIN][1][0][k] : t[PLAIN][0][0][k], size,
                                 sizeof size));
      if (single)
        append_orders (buf, len, true, t[PLAIN][1][0][k], t[PLAIN][1][1][k]);
      if (plain)
        append_orders (buf, len, false, t[PLAIN][0][0][k], t[PLAIN][0][1][k]);
      append_plain_ratios (buf, len, t);
      append_timers (buf, len, t);
      /* The pictures below are repetitions with a timer around every
       * step: said here, where it is read first, not only under them. */
      ms_caption_append (buf, len,
                         ms_gettext ("The timelines draw one repetition each with per-step "
                                     "timers, which slow the orders unevenly: compare them by "
                                     "the medians without timers, first in each title."));
      return true;
    }
  }
  return ms_caption_missing (
    buf, len, ms_gettext ("This run has no streams cells measured in both issue orders."));
}
