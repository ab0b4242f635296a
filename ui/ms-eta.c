/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-eta.c: the time left of a sweep from its measured cost. */
#include "ms-engine.h"
#include "ms-eta.h"

#include <glib/gi18n.h>
#include <math.h>

#define N_EXP (MS_MAX_EXPONENT + 1)

struct _MsEta {
  MsSweep sweep;
  int n_cells, last_index;
  /* Per mode and size: the wall seconds of its cell (-1: not yet), and the
   * repetitions it ran (warm-ups included). */
  double seconds[MS_MODE_COUNT][N_EXP];
  double reps[MS_MODE_COUNT][N_EXP];
  gboolean failed[MS_MODE_COUNT][N_EXP];
};

MsEta *
ms_eta_new (const MsSweep *sweep)
{
  MsEta *eta = g_new0 (MsEta, 1);
  eta->sweep = *sweep;
  eta->n_cells = ms_sweep_n_cells (sweep) * MAX (sweep->rounds, 1);
  eta->last_index = -1;
  for (int m = 0; m < MS_MODE_COUNT; m++)
    for (int e = 0; e < N_EXP; e++)
      eta->seconds[m][e] = -1;
  return eta;
}

void
ms_eta_free (MsEta *eta)
{
  g_free (eta);
}

void
ms_eta_add (MsEta *eta, int index, const MsCell *cell, double seconds)
{
  int m = cell->mode, e = cell->exponent;
  if (m < 0 || m >= MS_MODE_COUNT || e < 0 || e >= N_EXP)
    return;
  eta->last_index = MAX (eta->last_index, index);
  /* Later rounds add to the cell: the first round's cost is the cell's. */
  if (eta->seconds[m][e] < 0) {
    eta->seconds[m][e] = MAX (seconds, 0);
    eta->reps[m][e] = MAX (cell->n_reps, 1) + MAX (eta->sweep.warmup, 0);
  }
  eta->failed[m][e] = cell->status != MS_CELL_OK && cell->status != MS_CELL_PARTIAL;
}

/* seconds per repetition = a + b * elements, least squares weighted by
 * 1 / y^2 (every size counts alike), a and b kept >= 0. FALSE with fewer
 * than two sizes. */
static gboolean
fit_mode (const MsEta *eta, int m, double *a, double *b)
{
  double x[N_EXP], y[N_EXP], w[N_EXP], sse;
  int n = 0;
  for (int e = 0; e < N_EXP; e++) {
    if (eta->seconds[m][e] < 0)
      continue;
    x[n] = ldexp (1, e);
    y[n] = MAX (eta->seconds[m][e] / eta->reps[m][e], 1e-9);
    w[n] = 1 / (y[n] * y[n]);
    n++;
  }
  if (n < 2)
    return FALSE;
  ms_fit_line_nonnegative (x, y, w, n, a, b, &sse);
  return TRUE;
}

/* Repetitions a cell still to come will run. */
static double
planned_reps (const MsEta *eta, int m, int e)
{
  const MsSweep *s = &eta->sweep;
  if (s->reps_rule == MS_REPS_FIXED)
    return MAX (s->reps, 1) + MAX (s->warmup, 0);
  /* Adaptive: as many as the nearest size measured of this mode took. */
  for (int d = 1; d < N_EXP; d++)
    for (int k = e - d; k <= e + d; k += 2 * d)
      if (k >= 0 && k < N_EXP && eta->seconds[m][k] >= 0)
        return eta->reps[m][k];
  return MAX (s->min_reps, 1) + MAX (s->warmup, 0);
}

static double
predict_cell (const MsEta *eta, int m, int e, gboolean *known)
{
  if (eta->seconds[m][e] >= 0)
    /* A later round of a measured cell; a failed one is not run again. */
    return eta->failed[m][e] ? 0 : eta->seconds[m][e];
  double a, b;
  if (!fit_mode (eta, m, &a, &b)) {
    *known = FALSE;
    return 0;
  }
  double t = planned_reps (eta, m, e) * (a + b * ldexp (1, e));
  if (eta->sweep.reps_rule == MS_REPS_ADAPTIVE && eta->sweep.cell_budget_ms > 0)
    t = MIN (t, eta->sweep.cell_budget_ms * 1e-3 * 1.1);
  return t;
}

double
ms_eta_seconds_left (const MsEta *eta)
{
  const MsSweep *s = &eta->sweep;
  double left = 0;
  gboolean known = TRUE;
  int index = 0;
  /* The runner's order: rounds, then sizes, then modes. */
  for (int round = 0; round < MAX (s->rounds, 1); round++)
    for (int e = s->min_exp; e <= s->max_exp && s->step > 0; e += s->step)
      for (int m = 0; m < MS_MODE_COUNT; m++) {
        if (!s->modes[m])
          continue;
        if (index++ > eta->last_index)
          left += predict_cell (eta, m, e, &known);
      }
  return known ? left : -1;
}

char *
ms_eta_format (double seconds_left)
{
  if (seconds_left < 0)
    return g_strdup (_ ("estimating the time left"));
  double s = ceil (seconds_left);
  if (s < 90)
    return g_strdup_printf (_ ("about %.0f s left"), s);
  int min = (int)(s / 60);
  return g_strdup_printf (_ ("about %d min %02d s left"), min, (int)s - 60 * min);
}
