/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-grade.c: a cell's figure and interval from the rounds of a
 * compare-grade run (the estimator and why: ms-grade.h). */
#include <gsl/gsl_sort_double.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ms-grade.h"
#include "ms-names.h"
#include "ms-stats.h"
#include "ms-sweep.h"

/* How many degrees of freedom the band's median F counts as beside a
 * cell's own: its seven or so neighbours hold five each in a default
 * grade run, and a median of them is worth about two thirds of that. */
#define MS_GRADE_BAND_DF 24

static const char *const figure_names[MS_FIGURE_COUNT] = { "e2e", "h2d", "kernel", "d2h" };

static const MsPhase figure_phases[MS_FIGURE_COUNT]
    = { MS_PHASE_COUNT, MS_PHASE_H2D, MS_PHASE_KERNEL, MS_PHASE_D2H };

MS_DEFINE_LOOKUP (ms_figure_name, const char *, MsFigure, MS_FIGURE_COUNT, figure_names[i], "?")
MS_DEFINE_FROM_NAME (ms_figure_from_name, MsFigure, figure_names, MS_FIGURE_COUNT)
MS_DEFINE_LOOKUP (ms_figure_phase, MsPhase, MsFigure, MS_FIGURE_COUNT, figure_phases[i],
                  MS_PHASE_COUNT)

bool
ms_results_graded (const MsResults *results)
{
  return ms_sweep_n_processes (&results->sweep) > 1;
}

/* One repetition's time in a phase: from the first event's start to the
 * last one's end (a phase's chunks on several streams overlap), on the
 * GPU's clock where the events have it; < 0 when the repetition has none. */
static double
phase_time (const MsCell *cell, MsPhase phase, int rep)
{
  double first = INFINITY, last = -INFINITY;
  for (size_t i = 0; i < cell->n_events; i++) {
    const MsEvent *ev = &cell->events[i];
    if (ev->phase != phase || ev->rep != rep)
      continue;
    bool gpu = ev->gpu_us >= 0;
    double start = gpu ? ev->gpu_start_us : ev->host_start_us;
    first = fmin (first, start);
    last = fmax (last, start + (gpu ? ev->gpu_us : ev->host_us));
  }
  return last >= first ? last - first : -1;
}

/* ln of a round's median of the figure; NAN when the round has no data. */
static double
round_value (const MsCell *cell, const MsCellRound *round, MsFigure figure, double *scratch)
{
  MsPhase phase = ms_figure_phase (figure);
  int n = 0;
  for (int rep = round->first_rep; rep < round->first_rep + round->n_reps; rep++) {
    if (rep < 0 || rep >= cell->n_reps)
      continue;
    double v = phase == MS_PHASE_COUNT ? cell->e2e_us[rep] : phase_time (cell, phase, rep);
    if (v > 0 && isfinite (v))
      scratch[n++] = v;
  }
  return n ? log (ms_median (scratch, n)) : NAN;
}

/* A cell's round values, winsorized, and what they say: the rounds'
 * medians fall into the odd wild round (their standard deviation was 1.6
 * times their median absolute deviation's on the lent H100, 2026-11-25),
 * so the center is a 20% trimmed mean with Yuen's standard error, and the
 * processes' excess scatter is read from the winsorized values. */
#define MS_GRADE_TRIM 0.2

typedef struct {
  int processes, rounds;
  double center;      /* trimmed mean of ln(round median) */
  double yuen_se;     /* its standard error */
  int trimmed_df;     /* rounds kept after trimming, less one */
  double f;           /* processes' means' variance over what the rounds predict; NAN: none */
} MsGradeAnova;

/* Replaces the g lowest and g highest of y by their nearest kept value;
 * returns the trimmed mean. sorted: scratch of n. */
static double
winsorize (double *y, int n, int g, double *sorted)
{
  memcpy (sorted, y, sizeof (double) * (size_t) n);
  gsl_sort (sorted, 1, (size_t) n);
  double lo = sorted[g], hi = sorted[n - 1 - g], sum = 0;
  for (int i = g; i < n - g; i++)
    sum += sorted[i];
  for (int i = 0; i < n; i++)
    y[i] = fmin (fmax (y[i], lo), hi);
  return sum / (n - 2 * g);
}

/* The one-way analysis of variance of the winsorized values by process:
 * F, or NAN where the rounds give no within-process variance. */
static double
process_f (const double *y, const int *proc, int n, int np, int *with_data)
{
  double sum[MS_MAX_PROCESSES] = { 0 }, sq[MS_MAX_PROCESSES] = { 0 };
  int count[MS_MAX_PROCESSES] = { 0 }, k = 0, within_df = 0;
  for (int i = 0; i < n; i++) {
    sum[proc[i]] += y[i];
    sq[proc[i]] += y[i] * y[i];
    count[proc[i]]++;
  }
  double within = 0, means = 0, means_sq = 0;
  for (int p = 0; p < np; p++) {
    if (!count[p])
      continue;
    double m = sum[p] / count[p];
    k++;
    within += sq[p] - count[p] * m * m;
    within_df += count[p] - 1;
    means += m;
    means_sq += m * m;
  }
  *with_data = k;
  if (k < 2 || within_df < 2 || !(within > 0))
    return NAN;
  double grand = means / k, between = fmax (0, (means_sq - k * grand * grand) / (k - 1));
  return between / (within / within_df / ((double) n / k));
}

static bool
anova (const MsResults *results, const MsCell *cell, MsFigure figure, MsGradeAnova *a)
{
  int per = results->sweep.rounds > 0 ? results->sweep.rounds : 1;
  int np = ms_sweep_n_processes (&results->sweep), n = 0;
  if (cell->status != MS_CELL_OK && cell->status != MS_CELL_PARTIAL)
    return false;
  size_t room = (size_t) (cell->n_reps + 2 * MS_MAX_ROUNDS + 1);
  double *scratch = malloc (sizeof (double) * room), *y = scratch + cell->n_reps + 1;
  double *sorted = y + MS_MAX_ROUNDS;
  int proc[MS_MAX_ROUNDS];
  for (int k = 0; scratch && k < cell->n_rounds; k++) {
    int p = cell->rounds[k].round / per;
    double v = p < np ? round_value (cell, &cell->rounds[k], figure, scratch) : NAN;
    if (isfinite (v)) {
      proc[n] = p;
      y[n++] = v;
    }
  }
  memset (a, 0, sizeof *a);
  if (n < 6) {
    free (scratch);
    return false;
  }
  int g = (int) (MS_GRADE_TRIM * n), h = n - 2 * g;
  a->rounds = n;
  a->center = winsorize (y, n, g, sorted);
  double ss = gsl_stats_tss (y, 1, n);
  /* Yuen: (n - 1) s_w^2 / (h (h - 1)), s_w^2 the winsorized variance. */
  a->yuen_se = sqrt (ss / (h * (h - 1.0)));
  a->trimmed_df = h - 1;
  a->f = process_f (y, proc, n, np, &a->processes);
  free (scratch);
  return a->processes >= 2;
}

/* The size band a cell's F is pooled in, as the run-to-run profiles split
 * theirs. */
static int
band_of (int exponent)
{
  return exponent >= MS_GRADE_SURE_EXP;
}

void
ms_grade_pool (const MsResults *results, MsGradePool *pool)
{
  size_t n = results->n_cells;
  double *f = malloc (sizeof (double) * (n + 1));
  for (int m = 0; m < MS_MODE_COUNT; m++)
    for (int b = 0; b < 2; b++)
      for (int g = 0; g < MS_FIGURE_COUNT; g++) {
        int k = 0;
        for (size_t i = 0; f && i < n && ms_results_graded (results); i++) {
          const MsCell *c = &results->cells[i];
          MsGradeAnova a;
          if (c->mode == (MsMode) m && band_of (c->exponent) == b &&
              anova (results, c, (MsFigure) g, &a) && isfinite (a.f))
            f[k++] = a.f;
        }
        MsStat st;
        ms_stat_compute_in_place (&st, f, k);
        pool->f[m][b][g] = k == 0 ? NAN : st.median;
      }
  free (f);
}

MsGrade
ms_grade_cell (const MsResults *results, const MsGradePool *pool, const MsCell *cell,
               MsFigure figure)
{
  MsGrade g = { .valid = false, .center_us = NAN, .se = NAN };
  MsGradeAnova a;
  if (!ms_results_graded (results) || !anova (results, cell, figure, &a))
    return g;
  double own = a.f, band = pool ? pool->f[cell->mode][band_of (cell->exponent)][figure] : NAN;
  int own_df = a.processes - 1;
  /* The cell's F, moderated by its band's: the interval holds what moves
   * between processes, and the band lends a few processes degrees of
   * freedom. Neither known: the processes' excess cannot be told, and the
   * rounds alone would understate it. */
  double f = isfinite (own) && isfinite (band)
                 ? (own_df * own + MS_GRADE_BAND_DF * band) / (own_df + MS_GRADE_BAND_DF)
             : isfinite (own) ? own
                              : band;
  if (!isfinite (f))
    return g;
  g.inflation = fmax (1, f);
  g.se = a.yuen_se * sqrt (g.inflation);
  int df = own_df + (isfinite (band) ? MS_GRADE_BAND_DF : 0);
  g.df = df < a.trimmed_df ? df : a.trimmed_df;
  g.valid = g.df >= 1 && isfinite (g.se);
  g.center_us = exp (a.center);
  g.processes = a.processes;
  g.rounds = a.rounds;
  return g;
}

int
ms_grade_process_values (const MsResults *results, const MsCell *cell, MsFigure figure,
                         double *out)
{
  int per = results->sweep.rounds > 0 ? results->sweep.rounds : 1;
  int np = ms_sweep_n_processes (&results->sweep);
  double *scratch = malloc (sizeof (double) * (size_t) (cell->n_reps + 1));
  double ys[MS_MAX_PROCESSES][MS_MAX_ROUNDS];
  int n[MS_MAX_PROCESSES] = { 0 };
  np = np < MS_MAX_PROCESSES ? np : MS_MAX_PROCESSES;
  bool ok = scratch && (cell->status == MS_CELL_OK || cell->status == MS_CELL_PARTIAL);
  for (int k = 0; ok && k < cell->n_rounds; k++) {
    int p = cell->rounds[k].round / per;
    double v = p < np ? round_value (cell, &cell->rounds[k], figure, scratch) : NAN;
    if (isfinite (v) && n[p] < MS_MAX_ROUNDS)
      ys[p][n[p]++] = v;
  }
  for (int p = 0; p < np; p++)
    out[p] = n[p] ? ms_median (ys[p], n[p]) : NAN;
  free (scratch);
  return np;
}

double
ms_grade_process_mean (const double *values, int n, const bool *keep)
{
  int kept = 0;
  for (int c = 0; c < n; c++)
    kept += !keep || keep[c];
  double x = kept ? 0 : NAN;
  for (int c = 0; c < n; c++)
    if (!keep || keep[c])
      x += isfinite (values[c]) ? values[c] / kept : NAN;
  return x;
}

int
ms_grade_wide_cells (const MsResults *results, double target, int min_exp, MsGradeWide *wide,
                     int max)
{
  MsGradePool pool;
  int n = 0;
  ms_grade_pool (results, &pool);
  for (size_t i = 0; i < results->n_cells; i++) {
    const MsCell *c = &results->cells[i];
    if (c->exponent < min_exp || (c->status != MS_CELL_OK && c->status != MS_CELL_PARTIAL))
      continue;
    MsGrade g = ms_grade_cell (results, &pool, c, MS_FIGURE_E2E);
    double half = g.valid ? exp (1.96 * g.se) - 1 : NAN;
    if (half <= target)
      continue;
    if (n < max && wide) {
      wide[n].mode = c->mode;
      wide[n].exponent = c->exponent;
      snprintf (wide[n].variant, sizeof wide[n].variant, "%s", c->variant);
      wide[n].half_width = half;
    }
    n++;
  }
  return n;
}
