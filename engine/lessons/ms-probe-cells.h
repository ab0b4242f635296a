/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-probe-cells.h: the lessons that are not a vector-add sweep (the streams
 * chapter, when pinning pays off, arithmetic intensity, copy kinds, batched
 * copies, NUMA placement; docs/lessons.md) are probes. A probe lesson lists
 * its cells (mode, size, variant and the probe's integer settings); the
 * runner (ms-probe-cells.c, ms_lesson_run_probe in ms-lesson-record.h) asks
 * the backend for plain samples, which give the figures, and for
 * instrumented ones, which give the timeline and never a figure. Private
 * to the engine, its lessons and the tests. */
#pragma once

#include "ms-backend-private.h"
#include "ms-lesson-caption.h"

/* A cell of a probe lesson. */
typedef struct {
  MsMode mode;
  int exponent; /* the size: 2^exponent floats per buffer */
  char variant[MS_VARIANT_LEN];
  int arg[MS_PROBE_N_ARGS];
  /* The first this many repetitions get an instrumented sample beside
   * their plain one (the timeline's); 0: none. */
  int instrumented;
  /* Under the adaptive rule, at least this many repetitions rather than
   * the sweep's min_reps; 0: the sweep's. */
  int min_reps;
} MsProbeCell;

/* The most cells one probe part may list. */
#define MS_PROBE_MAX_CELLS 512
