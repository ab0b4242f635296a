/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-siblings.c: the card that differs from its siblings (ms-siblings.h).
 *
 * Each GPU is judged against the mean of the others (ms-turns.c), so that
 * one slowed card of four shows its whole change and its siblings a third
 * of it, inside the threshold. Two GPUs that differ cannot say which one
 * moved, and GPUs that split into groups have no odd one out: those modes
 * are "split", which differs too, but names no GPU. */
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <string.h>

#include "ms-siblings.h"

static bool
differs (MsVerdict v)
{
  return v == MS_VERDICT_FASTER || v == MS_VERDICT_SLOWER;
}

/* Mode m's GPUs: named, split, or open; whether every GPU is SAME. */
static bool
name_mode (const MsTurns *t, int m, MsSiblingFinding *f)
{
  int named = 0;
  bool same = true;
  for (int g = 0; g < t->n_sides; g++) {
    f->verdict[m][g] = t->v[m][g];
    MsVerdict v = t->v[m][g].verdict;
    f->named[m][g] = differs (v);
    named += differs (v);
    f->n_open += v == MS_VERDICT_AMBIGUOUS;
    same = same && v == MS_VERDICT_SAME;
  }
  /* Two GPUs, or half of them named or more: groups, no odd one out. */
  if (named > 0 && 2 * named >= t->n_sides) {
    f->split[m] = true;
    for (int g = 0; g < t->n_sides; g++)
      f->named[m][g] = false;
  }
  return same;
}

void
ms_siblings_name (const MsTurns *t, const bool *judged, MsSiblingFinding *f)
{
  memset (f, 0, sizeof *f);
  bool alike = true, any_split = false, any = false;
  for (int m = 0; m < MS_MODE_COUNT; m++) {
    f->judged[m] = judged[m] && t->used[m];
    if (!f->judged[m])
      continue;
    alike = name_mode (t, m, f) && alike;
    any = true;
    any_split = any_split || f->split[m];
  }
  for (int g = 0; g < t->n_sides; g++) {
    for (int m = 0; m < MS_MODE_COUNT; m++)
      f->gpu_named[g] = f->gpu_named[g] || f->named[m][g];
    f->n_named += f->gpu_named[g];
  }
  f->result = f->n_named > 0 || any_split ? MS_SIBLINGS_DIFFERS
              : alike && any               ? MS_SIBLINGS_ALIKE
                                           : MS_SIBLINGS_UNDECIDED;
}

double
ms_siblings_host_spread (MsResults *const *runs, int n, int *processes)
{
  double v[MS_MAX_PROCESSES], x[MS_MULTI_MAX_DEVICES * MS_MAX_PROCESSES];
  *processes = 0;
  for (int g = 0; g < n; g++) {
    int np = runs[g] ? ms_turns_process_values (runs[g], MS_MODE_HOST, MS_FIGURE_E2E, v) : 0;
    for (int p = 0; p < np; p++)
      if (isfinite (v[p]))
        x[(*processes)++] = v[p];
  }
  return *processes > 1 ? gsl_stats_sd (x, 1, (size_t) *processes) : NAN;
}
