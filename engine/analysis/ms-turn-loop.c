/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-turn-loop.c: the turns of `siblings` and `compare --live`, one loop
 * for both and for the benchmark that proves their rule on simulated
 * processes (ms-turns.h says the order and why). */
#include "ms-turns.h"

/* The modes the next round measures: before the first look, all those
 * asked for; after it, those whose verdict is still open, and, while one
 * is, what the caller widens them by. */
static bool
open_modes (const MsTurns *t, const bool *modes, const MsTurnOps *ops, bool *open)
{
  bool any = false;
  for (int m = 0; m < MS_MODE_COUNT; m++) {
    open[m] = modes[m] && (t->looks == 0 || ms_turns_mode_open (t, (MsMode) m));
    any = any || open[m];
  }
  /* What the caller measures beyond the verdicts rides along while one
   * is open: once every mode is decided, the question is answered. */
  if (any && ops->widen && t->looks > 0)
    ops->widen (ops->user, t, open);
  return any;
}

MsTurnsEnd
ms_turns_take (MsTurns *t, const bool *modes, double budget_s, int max_rounds,
               const MsTurnOps *ops)
{
  MsTurnsEnd end = { 0, false, false };
  bool open[MS_MODE_COUNT];
  double start = ops->clock (ops->user), round_start;
  while (end.rounds < max_rounds && open_modes (t, modes, ops, open)) {
    int r = end.rounds++;
    round_start = ops->clock (ops->user);
    for (int i = 0; i < t->n_sides; i++)
      if (!ops->measure (ops->user, (r + i) % t->n_sides, r, i == 0, open, t)) {
        end.stopped = true;
        return end;
      }
    double now = ops->clock (ops->user), spent = now - start;
    if (ms_turns_look_due (end.rounds))
      ms_turns_look (t, spent);
    /* The first rounds run whatever the budget: no verdict comes sooner.
     * The next round is judged by the last, as it measures no more modes. */
    if (end.rounds >= MS_TURNS_MIN_PROCESSES && open_modes (t, modes, ops, open) &&
        spent + (now - round_start) > budget_s) {
      end.out_of_time = true;
      break;
    }
  }
  return end;
}
