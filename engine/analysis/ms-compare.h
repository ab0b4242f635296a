/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-compare.h: verdicts between two runs (ms-compare.c), by the one rule
 * (ms-verdict-rule.h says it and why) the fleet report also judges its
 * nodes by; what a comparison holds is ms-comparison.h's.
 *
 * Plain C, no GLib. */
#pragma once

#include <stdio.h>

#include "ms-comparison.h"

/* The spread between processes to judge a run by: its own calibration;
 * else other's (NULL: there is no other run), when that was measured on
 * the same GPU model (the spread lies in the machine, not in the file);
 * else the profile of its GPU model shipped with memsweep, read into
 * shipped; else NULL. The fleet report takes each node's from here too. */
const MsRunToRun *ms_compare_profile_of (const MsResults *own, const MsResults *other,
                                         MsRunToRun *shipped);

/* A cell's end-to-end median (its plain repetitions) with its within-run
 * interval, and the between-process spread from rr when rr is valid and
 * knows the cell's mode. */
MsInterval ms_compare_cell_interval (const MsCell *cell, const MsRunToRun *rr);

/* Whether mode has the figure's phase (e2e and kernel: every mode). */
bool ms_mode_has_figure (MsMode mode, MsFigure figure);
/* The names of the modes left out, ", " between them, into buf; false
 * when none was. */
bool ms_comparison_left_out (const MsComparison *comparison, char *buf, size_t len);

/* Every cell of a and b (of mode only, unless mode is MS_MODE_COUNT).
 * Each run's intervals are widened by its run-to-run profile, or by the
 * other run's when it has none (the spread lies in the machine, not in the
 * file). NULL with a message when no cell is common to both. */
MsComparison *ms_compare_results (const MsResults *a, const MsResults *b, double threshold,
                                  MsMode mode, char *err, size_t errlen);
/* The same on one figure of the cells: end to end, or a phase's GPU time. */
MsComparison *ms_compare_results_figure (const MsResults *a, const MsResults *b,
                                         double threshold, MsMode mode, MsFigure figure,
                                         char *err, size_t errlen);
void ms_comparison_free (MsComparison *comparison);
/* Any FASTER or SLOWER cell. */
bool ms_comparison_differs (const MsComparison *comparison);
/* The cells whose ratio lies outside the threshold but which could not be
 * called FASTER or SLOWER (no spread between processes, few repetitions,
 * two states): a change compare can neither confirm nor rule out. */
int ms_comparison_unsettled (const MsComparison *comparison);
/* No cell decided: none SAME, FASTER or SLOWER, and some AMBIGUOUS. */
bool ms_comparison_undecided (const MsComparison *comparison);
