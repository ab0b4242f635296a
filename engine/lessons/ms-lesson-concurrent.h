/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-lesson-concurrent.h: the figures the concurrent-kernels lesson's
 * line quotes, shared by its caption and its picture
 * (draw/ms-picture-concurrent.c), which labels them on the chart. */
#pragma once

#include "memsweep.h"

/* The times the caption's first sentence quotes, in µs as it writes them
 * (ms_caption_time, read back), so that a ratio of two is the caption's:
 * *k, the most kernels measured both ways; *one, one kernel alone; *many,
 * K kernels on K streams; *serial, K kernels on one stream. false when the
 * run lacks one of them. */
bool ms_concurrent_quoted (const MsResults *run, int *k, double *one, double *many,
                           double *serial);
/* K kernels with the setting after "K=n/" in their variant
 * ("streams=many/grid=full"), in µs as the caption writes them; 0 where
 * the run lacks it. */
double ms_concurrent_written (const MsResults *run, int k, const char *setting);
/* One kernel alone's own run (its cell's kernel time, from its clock
 * stamps), in µs as the caption writes it; 0 where the run lacks it. */
double ms_concurrent_ran_alone (const MsResults *run);
/* How long after the first of K kernels on K streams the last started, in µs; 0: unknown. */
double ms_concurrent_stagger (const MsResults *run, int k);
