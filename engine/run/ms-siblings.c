/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-siblings.c: the card that differs from its siblings (ms-siblings.h).
 *
 * The rule: in mode m, GPU g's verdicts against each sibling h (g's
 * figure over h's, pooled over the mode's cells) are counted; g is named
 * when more than half of its siblings are decided the same way (all
 * slower than g, or all faster). One slowed GPU of four: it is slower
 * than three of three, each other GPU differs from one of three, so only
 * it is named. Two GPUs that differ cannot say which one moved, and GPUs
 * that split into groups have no odd one out: those modes are "split",
 * which differs too, but names no GPU. A pair or two decided different
 * with no GPU in most of them names nothing and leaves the result
 * undecided. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ms-siblings.h"

const char *
ms_siblings_result_key (MsSiblingsResult result)
{
  switch (result) {
  case MS_SIBLINGS_SAME: return "same";
  case MS_SIBLINGS_DIFFERS: return "differs";
  case MS_SIBLINGS_UNDECIDED:
  default: return "undecided";
  }
}

bool
ms_siblings_judge (MsResults *const *runs, int n, double threshold, MsFigure figure,
                   MsSiblingVerdicts *v, char *err, size_t errlen)
{
  memset (v, 0, sizeof *v);
  v->n = n;
  for (int a = 0; a < n; a++)
    for (int b = 0; b < n; b++) {
      if (a == b)
        continue;
      MsComparison *cmp = ms_compare_results_figure (runs[a], runs[b], threshold, MS_MODE_COUNT,
                                                     figure, err, errlen);
      if (!cmp)
        return false;
      for (int m = 0; m < MS_MODE_COUNT; m++) {
        const MsPooledVerdict *p = &cmp->pooled[m];
        v->verdict[m][a][b] = p->method == MS_POOL_NONE ? MS_VERDICT_AMBIGUOUS : p->verdict;
        v->ratio[m][a][b] = p->ratio;
        v->has_mode[m] = v->has_mode[m] || p->method != MS_POOL_NONE;
      }
      ms_comparison_free (cmp);
    }
  return true;
}

static int
by_value (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

/* g's standing in mode m: how many siblings it is decided slower and
 * faster than, and the median of its ratios over them. */
static void
standing (const MsSiblingVerdicts *v, int m, int g, int *slower, int *faster, double *ratio)
{
  double r[MS_MULTI_MAX_DEVICES];
  int k = 0;
  *slower = *faster = 0;
  for (int h = 0; h < v->n; h++) {
    if (h == g)
      continue;
    *slower += v->verdict[m][h][g] == MS_VERDICT_SLOWER;
    *faster += v->verdict[m][h][g] == MS_VERDICT_FASTER;
    if (isfinite (v->ratio[m][h][g]))
      r[k++] = v->ratio[m][h][g];
  }
  qsort (r, (size_t) k, sizeof r[0], by_value);
  *ratio = k == 0 ? NAN : k % 2 ? r[k / 2] : sqrt (r[k / 2 - 1] * r[k / 2]);
}

static void
name_mode (const MsSiblingVerdicts *v, int m, MsSiblingFinding *f, bool *differs)
{
  int named = 0, decided = 0;
  for (int a = 0; a < v->n; a++)
    for (int b = a + 1; b < v->n; b++) {
      MsVerdict x = v->verdict[m][a][b];
      decided += x == MS_VERDICT_FASTER || x == MS_VERDICT_SLOWER;
      f->n_ambiguous += x == MS_VERDICT_AMBIGUOUS;
    }
  for (int g = 0; g < v->n; g++) {
    int slower, faster;
    standing (v, m, g, &slower, &faster, &f->ratio[m][g]);
    int most = slower > faster ? slower : faster;
    if (v->n >= 3 && 2 * most > v->n - 1) {
      f->named[m][g] = true;
      f->direction[m][g] = slower > faster ? MS_VERDICT_SLOWER : MS_VERDICT_FASTER;
      named++;
    }
  }
  /* More than half named: groups, no odd one out. */
  if (named > 0 && 2 * named > v->n) {
    for (int g = 0; g < v->n; g++)
      f->named[m][g] = false;
    named = 0;
  }
  /* Two GPUs that differ; or, of more, half the pairs or more decided
   * different with no GPU standing out: groups. A few decided pairs
   * alone, with no GPU in most of them, are left as they are: the
   * figures of a host's own GPUs scatter too. */
  int pairs = v->n * (v->n - 1) / 2;
  f->split[m] = named == 0 && decided > 0 && (v->n == 2 || 2 * decided >= pairs);
  f->n_isolated += named == 0 && !f->split[m] ? decided : 0;
  *differs = *differs || named > 0 || f->split[m];
}

void
ms_siblings_name (const MsSiblingVerdicts *v, MsSiblingFinding *f)
{
  memset (f, 0, sizeof *f);
  bool differs = false;
  for (int m = 0; m < MS_MODE_COUNT; m++)
    if (v->has_mode[m])
      name_mode (v, m, f, &differs);
  for (int g = 0; g < v->n; g++) {
    for (int m = 0; m < MS_MODE_COUNT; m++)
      f->gpu_named[g] = f->gpu_named[g] || f->named[m][g];
    f->n_named += f->gpu_named[g];
  }
  f->result = differs ? MS_SIBLINGS_DIFFERS
              : f->n_ambiguous || f->n_isolated ? MS_SIBLINGS_UNDECIDED
                               : MS_SIBLINGS_SAME;
}
