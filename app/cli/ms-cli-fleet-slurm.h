/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-cli-fleet-slurm.h: what `memsweep fleet` asks of Slurm: the nodes and
 * their GPUs, one job per node, and the wait for them with a deadline. */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "ms-engine.h"

/* The nodes to sweep and the GPUs each has: nodelist expanded by
 * `scontrol show hostnames`, else the first `count` (all when 0)
 * responding nodes of the partition from sinfo, each with its gpu GRES
 * count. NULL with the reason said on stderr. */
MsFleetExpected *ms_fleet_slurm_nodes (const char *nodelist, int count, const char *partition,
                                       size_t *n);

/* Whether Slurm answers (sinfo lists the partition's nodes). */
bool ms_fleet_slurm_answers (const char *partition);

/* The nodes a dry run plans for where Slurm does not answer: nodelist's
 * names as written (a range stays one), else NODE1..NODEcount (NODE when
 * count is 0: all), their GPUs unknown. NULL when out of memory. */
MsFleetExpected *ms_fleet_slurm_plan_nodes (const char *nodelist, int count, size_t *n);

/* Runs argv with its standard output in out (at most len - 1 bytes, then
 * cut): the exit status, or -1 when it could not start. */
int ms_fleet_slurm_capture (char **argv, char *out, size_t len);

/* Waits until no job of expected is pending or running, until every one
 * left is pending for a node that is down or unavailable, or until
 * max_minutes; jobs still queued then are cancelled (scancel). Returns
 * how many were cancelled. */
int ms_fleet_slurm_wait (const MsFleetExpected *expected, size_t n, double max_minutes);
