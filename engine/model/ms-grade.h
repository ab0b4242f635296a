/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-grade.h: a cell's figure and its interval from the rounds of a
 * compare-grade run (ms-grade.c): several processes, each of several
 * rounds that vary their placement (MS_VARY_PLACEMENT).
 *
 * A round's median is one measurement of the cell; the figure is the mean
 * of ln(round median) over the processes' means (its exp: a geometric
 * mean). Its standard error comes from how far the rounds of a process
 * scatter, inflated by how much more the processes' means scatter than
 * their rounds predict (F, the one-way analysis of variance's ratio). One
 * cell's F rests on few processes, so it is moderated by the median F of
 * its mode's cells in the same size band, as ms-run-to-run.c moderates a
 * spread: the interval then holds what differs between processes without
 * needing dozens of them (docs/compare.md).
 *
 * Plain C, no GLib. */
#pragma once

#include "memsweep.h"

/* Which figure of a cell a verdict is on: its end-to-end time, or one
 * phase's time on the GPU (from the instrumented repetitions). */
typedef enum {
  MS_FIGURE_E2E,
  MS_FIGURE_H2D,
  MS_FIGURE_KERNEL,
  MS_FIGURE_D2H,
  MS_FIGURE_COUNT
} MsFigure;

/* "e2e", "h2d", "kernel", "d2h"; and back (false on an unknown name). */
const char *ms_figure_name (MsFigure figure);
bool ms_figure_from_name (const char *name, MsFigure *out);
/* The phase a figure is (MS_PHASE_COUNT for end to end). */
MsPhase ms_figure_phase (MsFigure figure);

typedef struct {
  bool valid;       /* at least 2 processes with 2 rounds of data each */
  double center_us; /* exp (mean of the processes' mean ln(round median)) */
  double se;        /* standard error of ln(center) */
  int df;           /* its degrees of freedom */
  int processes;    /* processes with data */
  int rounds;       /* rounds with data, all processes */
  double inflation; /* the F it was inflated by (>= 1) */
} MsGrade;

/* The moderated F of every (mode, band, figure) of a run, worked out once
 * (ms_grade_pool) for all its cells. */
typedef struct {
  double f[MS_MODE_COUNT][2][MS_FIGURE_COUNT]; /* NAN: no cell had one */
} MsGradePool;

/* Whether results come from a compare-grade run: more than one process. */
bool ms_results_graded (const MsResults *results);
void ms_grade_pool (const MsResults *results, MsGradePool *pool);
/* The figure of a cell of results; valid false where the run is not
 * graded, the cell failed or has too few rounds. */
MsGrade ms_grade_cell (const MsResults *results, const MsGradePool *pool, const MsCell *cell,
                       MsFigure figure);

/* Each process's value of a cell's figure: the median of its rounds'
 * ln(median), NAN where it has none; out holds MS_MAX_PROCESSES. Returns
 * how many processes the run has. The pooled verdicts (ms-compare-pool.c)
 * read a process as one draw of the machine. */
int ms_grade_process_values (const MsResults *results, const MsCell *cell, MsFigure figure,
                             double *out);
/* A process's value over several cells, the one rule for it (the pooled
 * verdicts', the turns'): the mean of its n values (ms_grade_process_values
 * of each cell) that keep says (NULL: every one); NAN where a value kept
 * is missing, or none is kept. */
double ms_grade_process_mean (const double *values, int n, const bool *keep);

/* A cell of a compare-grade run whose interval is still wider than a
 * target: half_width is how far it reaches (0.06: ±6%), NAN where the
 * cell has no interval yet (too few processes or rounds). */
typedef struct {
  MsMode mode;
  int exponent;
  char variant[MS_VARIANT_LEN];
  double half_width;
} MsGradeWide;

/* How many measured cells from 2^min_exp up have an end-to-end interval
 * wider than target (a fraction: 0.04 is ±4%); the first max of them go
 * into wide (NULL: counted only). A grade run adds processes until this
 * is 0 or its budget is spent. */
/* The half-width a grade run stops at, in percent: what two grade runs of
 * the lent H100 need for a 10% threshold to decide (docs/compare.md). */
#define MS_GRADE_DEFAULT_TARGET_PCT 4

int ms_grade_wide_cells (const MsResults *results, double target, int min_exp, MsGradeWide *wide,
                         int max);
