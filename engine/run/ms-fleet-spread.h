/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-fleet-spread.h: the fleet report's judgement of each node, inside the
 * engine (ms-fleet.c reads the nodes, ms-fleet-spread.c judges them): which
 * spread between processes each figure is judged with, and the verdict
 * against the fleet's median by the rule of ms-compare.h. */
#pragma once

#include "ms-fleet-report.h"

/* The run-to-run lines a node file's metadata holds, so that a profile
 * that did not survive reading is said rather than passed over. */
typedef struct {
  bool header;    /* a "run-to-run" line */
  unsigned modes; /* bit m: a "run-to-run-sd-MODE" line for mode m */
} MsFleetProfileLines;

/* Notes line ("# key: value", no line break) in seen when it is one. */
void ms_fleet_profile_line (const char *line, MsFleetProfileLines *seen);
/* The node's profile from its results (ms_compare_profile_of) and, where
 * the lines seen did not all reach the results, why. */
void ms_fleet_node_profile (MsFleetNode *node, const MsResults *results,
                            const MsFleetProfileLines *seen);
/* Every entry's spread, verdict and flags for figure f, once its value,
 * the fleet's median and the entries' count (report->n_values) are set;
 * then what the figure's spreads came from. scratch: n_nodes + 1 doubles.
 * False when out of memory (nothing judged). */
bool ms_fleet_judge_figure (MsFleetReport *report, MsFleetFigure f, double *scratch);
