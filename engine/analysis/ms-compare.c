/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-compare.c: verdicts between two runs, cell by cell, by the rule of
 * ms-verdict-rule.h (which says it and why it is so). */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ms-compare.h"
#include "ms-compare-pool.h"
#include "ms-i18n.h"
#include "ms-modes.h"
#include "ms-results.h"
#include "ms-run-to-run-file.h"
#include "ms-run-to-run.h"
#include "ms-stats.h"

/* The median of one of a cell's figures and its interval; NAN without
 * one (a cell without data, a figure it did not measure). */
static MsInterval
stat_interval (const MsCell *cell, const MsStat *st)
{
  MsInterval iv = { NAN, NAN, NAN, false, false, 0, 0, false, false };
  if ((cell->status != MS_CELL_OK && cell->status != MS_CELL_PARTIAL) || st->n == 0 ||
      !(st->median > 0))
    return iv;
  iv.median = st->median;
  iv.lo = st->ci_low;
  iv.hi = st->ci_high;
  iv.valid = st->ci_valid;
  return iv;
}

MsInterval
ms_compare_cell_interval (const MsCell *cell, const MsRunToRun *rr)
{
  MsInterval iv = stat_interval (cell, &cell->stats.e2e);
  if (isnan (iv.median))
    return iv;
  iv.two_states = cell->stats.states.found;
  if (rr && rr->valid)
    iv.between_known
        = ms_run_to_run_between (rr, cell->mode, cell->exponent, &iv.between_sd, &iv.between_df);
  return iv;
}

/* A compare-grade figure as an interval whose spread between processes is
 * already in it. */
static MsInterval
graded_interval (const MsGrade *g)
{
  MsInterval iv = { g->center_us, g->center_us * exp (-1.96 * g->se),
                    g->center_us * exp (1.96 * g->se), true, true, 0, g->df, false, true };
  return iv;
}

/* A cell's figure of results with its interval: from the rounds of a
 * compare-grade run (pool: ms_grade_pool of results), else its median
 * with the within-run interval, widened by rr's between-process spread
 * where rr knows the figure (end to end only). */
static MsInterval
figure_interval (const MsResults *results, const MsGradePool *pool, const MsCell *cell,
                 MsFigure figure, const MsRunToRun *rr)
{
  MsGrade g = ms_grade_cell (results, pool, cell, figure);
  if (g.valid)
    return graded_interval (&g);
  if (figure == MS_FIGURE_E2E)
    return ms_compare_cell_interval (cell, rr);
  /* The profiles hold the end-to-end spread alone: a phase's spread
   * between processes is unknown here. */
  return stat_interval (cell, &cell->stats.phase[ms_figure_phase (figure)]);
}

/* ---- two runs ---------------------------------------------------------- */

static int
compare_cells (const void *pa, const void *pb)
{
  const MsCompareCell *a = pa, *b = pb;
  int only_a = a->in_a && !a->in_b, only_b = b->in_a && !b->in_b;
  bool common_a = a->in_a && a->in_b, common_b = b->in_a && b->in_b;
  if (common_a != common_b)
    return common_a ? -1 : 1;
  if (only_a != only_b)
    return only_a ? -1 : 1;
  if (a->mode != b->mode)
    return a->mode < b->mode ? -1 : 1;
  int v = strcmp (a->variant, b->variant);
  if (v)
    return v;
  return (a->exponent > b->exponent) - (a->exponent < b->exponent);
}

const MsRunToRun *
ms_compare_profile_of (const MsResults *own, const MsResults *other, MsRunToRun *shipped)
{
  if (own->run_to_run.valid)
    return &own->run_to_run;
  if (other && other->run_to_run.valid && strcmp (own->device.name, other->device.name) == 0)
    return &other->run_to_run;
  return own->device.name[0] && ms_run_to_run_load_shipped (shipped, own->device.name) ? shipped
                                                                                        : NULL;
}

static void
describe_spread (const MsResults *r, const MsRunToRun *rr, char *buf, size_t len)
{
  if (ms_results_graded (r))
    snprintf (buf, len, ms_gettext ("its own %d processes of %d rounds (compare-grade run)"),
              r->sweep.processes, r->sweep.rounds);
  else if (!rr)
    buf[0] = '\0';
  else if (rr->source[0])
    snprintf (buf, len, "%s", rr->source);
  else
    snprintf (buf, len, ms_gettext ("calibration of %s (%d runs)"), rr->date, rr->runs);
}

static void
summarise (MsComparison *cmp, double *scratch)
{
  for (int m = 0; m <= MS_MODE_COUNT; m++) {
    MsCompareSummary *s = m < MS_MODE_COUNT ? &cmp->mode[m] : &cmp->all;
    int n = 0;
    memset (s, 0, sizeof *s);
    for (size_t i = 0; i < cmp->n_cells; i++) {
      const MsCompareCell *c = &cmp->cells[i];
      if (m < MS_MODE_COUNT && c->mode != (MsMode)m)
        continue;
      if (c->in_a && c->in_b) {
        s->n_common++;
        s->count[c->verdict]++;
        if (isfinite (c->ratio))
          scratch[n++] = c->ratio;
      } else {
        s->only_a += c->in_a;
        s->only_b += c->in_b;
      }
    }
    s->median_ratio = n ? ms_median (scratch, n) : NAN;
  }
}

/* What one side of the comparison needs to give a cell its interval. */
typedef struct {
  const MsResults *results;
  const MsRunToRun *rr;
  MsGradePool pool;
} MsCompareSide;

static void
add_cell (MsComparison *cmp, const MsCell *ca, const MsCell *cb, const MsCompareSide *sa,
          const MsCompareSide *sb)
{
  const MsCell *any = ca ? ca : cb;
  MsCompareCell *c = &cmp->cells[cmp->n_cells++];
  memset (c, 0, sizeof *c);
  c->mode = any->mode;
  c->exponent = any->exponent;
  snprintf (c->variant, sizeof c->variant, "%s", any->variant);
  c->in_a = ca != NULL;
  c->in_b = cb != NULL;
  MsInterval none = { NAN, NAN, NAN, false, false, 0, 0, false, false };
  c->a = ca ? figure_interval (sa->results, &sa->pool, ca, cmp->figure, sa->rr) : none;
  c->b = cb ? figure_interval (sb->results, &sb->pool, cb, cmp->figure, sb->rr) : none;
  bool medians = ms_interval_has_median (&c->a) && ms_interval_has_median (&c->b);
  c->ratio = medians ? c->b.median / c->a.median : NAN;
  c->judgement = ms_verdict_judgement (&c->a, &c->b, cmp->threshold, true);
  c->verdict = ca && cb ? c->judgement.verdict : MS_VERDICT_AMBIGUOUS;
  c->two_states = (ca && ca->stats.states.found) || (cb && cb->stats.states.found);
}

bool
ms_mode_has_figure (MsMode mode, MsFigure figure)
{
  MsPhase phase = ms_figure_phase (figure);
  if (phase == MS_PHASE_H2D)
    return ms_mode_to_device_phase (mode) == MS_PHASE_H2D;
  if (phase == MS_PHASE_D2H)
    return ms_mode_to_host_phase (mode) == MS_PHASE_D2H;
  return true;
}

bool
ms_comparison_left_out (const MsComparison *cmp, char *buf, size_t len)
{
  size_t n = 0;
  buf[0] = '\0';
  for (int m = 0; m < MS_MODE_COUNT && n < len; m++)
    if (cmp->left_out[m])
      n += (size_t) snprintf (buf + n, len - n, "%s%s", n ? ", " : "", ms_mode_name ((MsMode) m));
  return buf[0] != '\0';
}

/* Whether the cell is compared: of the mode asked for, and with the
 * figure's phase (else its mode is noted as left out). */
static bool
wanted_cell (MsComparison *cmp, const MsCell *cell, MsMode mode)
{
  if (mode != MS_MODE_COUNT && cell->mode != mode)
    return false;
  if (ms_mode_has_figure (cell->mode, cmp->figure))
    return true;
  cmp->left_out[cell->mode] = true;
  return false;
}

MsComparison *
ms_compare_results (const MsResults *a, const MsResults *b, double threshold, MsMode mode,
                    char *err, size_t errlen)
{
  return ms_compare_results_figure (a, b, threshold, mode, MS_FIGURE_E2E, err, errlen);
}

MsComparison *
ms_compare_results_figure (const MsResults *a, const MsResults *b, double threshold,
                           MsMode mode, MsFigure figure, char *err, size_t errlen)
{
  MsComparison *cmp = calloc (1, sizeof *cmp);
  size_t cap = a->n_cells + b->n_cells;
  double *scratch = malloc ((cap + 1) * sizeof *scratch);
  if (cmp)
    cmp->cells = malloc ((cap + 1) * sizeof *cmp->cells);
  if (!cmp || !cmp->cells || !scratch) {
    snprintf (err, errlen, ms_gettext ("out of memory for %zu cells"), cap);
    free (scratch);
    ms_comparison_free (cmp);
    return NULL;
  }
  cmp->threshold = threshold;
  cmp->figure = figure;
  MsRunToRun shipped_a, shipped_b;
  MsCompareSide *sa = malloc (sizeof *sa), *sb = malloc (sizeof *sb);
  if (!sa || !sb) {
    snprintf (err, errlen, ms_gettext ("out of memory for %zu cells"), cap);
    free (sa);
    free (sb);
    free (scratch);
    ms_comparison_free (cmp);
    return NULL;
  }
  *sa = (MsCompareSide){ a, ms_compare_profile_of (a, b, &shipped_a) };
  *sb = (MsCompareSide){ b, ms_compare_profile_of (b, a, &shipped_b) };
  ms_grade_pool (a, &sa->pool);
  ms_grade_pool (b, &sb->pool);
  cmp->graded_a = ms_results_graded (a);
  cmp->graded_b = ms_results_graded (b);
  cmp->widened = sa->rr || sb->rr || cmp->graded_a || cmp->graded_b;
  describe_spread (a, sa->rr, cmp->spread_a, sizeof cmp->spread_a);
  describe_spread (b, sb->rr, cmp->spread_b, sizeof cmp->spread_b);
  bool wanted_any = false;
  for (size_t i = 0; i < a->n_cells; i++) {
    const MsCell *ca = &a->cells[i];
    if (!wanted_cell (cmp, ca, mode))
      continue;
    wanted_any = true;
    add_cell (cmp, ca, ms_results_find_variant (b, ca->mode, ca->exponent, ca->variant), sa, sb);
  }
  for (size_t i = 0; i < b->n_cells; i++) {
    const MsCell *cb = &b->cells[i];
    if (!wanted_cell (cmp, cb, mode))
      continue;
    wanted_any = true;
    if (!ms_results_find_variant (a, cb->mode, cb->exponent, cb->variant))
      add_cell (cmp, NULL, cb, sa, sb);
  }
  free (sa);
  free (sb);
  qsort (cmp->cells, cmp->n_cells, sizeof *cmp->cells, compare_cells);
  summarise (cmp, scratch);
  free (scratch);
  ms_compare_pool (cmp, a, b);
  char left[512];
  if (cmp->all.n_common == 0) {
    if (!wanted_any && ms_comparison_left_out (cmp, left, sizeof left))
      snprintf (err, errlen, ms_gettext ("no mode of the runs has a %s phase (%s)"),
                ms_figure_name (figure), left);
    else if (mode != MS_MODE_COUNT && !wanted_any)
      snprintf (err, errlen, ms_gettext ("neither run has a cell of mode %s"), ms_mode_name (mode));
    else
      snprintf (err, errlen,
                ms_gettext ("the runs have no cell in common (mode, size and variant)"));
    ms_comparison_free (cmp);
    return NULL;
  }
  return cmp;
}

void
ms_comparison_free (MsComparison *comparison)
{
  if (!comparison)
    return;
  free (comparison->cells);
  free (comparison);
}

bool
ms_comparison_differs (const MsComparison *comparison)
{
  return comparison->all.count[MS_VERDICT_FASTER] + comparison->all.count[MS_VERDICT_SLOWER] > 0;
}

int
ms_comparison_unsettled (const MsComparison *comparison)
{
  int n = 0;
  for (size_t i = 0; i < comparison->n_cells; i++) {
    const MsCompareCell *c = &comparison->cells[i];
    MsVerdictWhy why = c->judgement.why;
    n += c->in_a && c->in_b && c->verdict == MS_VERDICT_AMBIGUOUS &&
         (why == MS_WHY_NO_SPREAD || why == MS_WHY_FEW_REPS || why == MS_WHY_TWO_STATES);
  }
  return n;
}

bool
ms_comparison_undecided (const MsComparison *comparison)
{
  const int *n = comparison->all.count;
  return n[MS_VERDICT_SAME] + n[MS_VERDICT_FASTER] + n[MS_VERDICT_SLOWER] == 0 &&
         n[MS_VERDICT_AMBIGUOUS] > 0;
}


