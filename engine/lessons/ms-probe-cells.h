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

#include "ms-backend.h"
#include "ms-lesson-caption.h"

/* Shared with kernels/ms-kernels.h (checked in engine/run/ms-backend.c). */
#define MS_PROBE_N_ARGS 8
#define MS_PROBE_MAX_EVENTS 256

/* One sample of one cell. arg's meaning is the probe's own, named where
 * the lesson builds its cells and where kernels/ reads them. */
struct MsProbeArgs {
  MsLessonTopic lesson; /* whose sample: its kernels/lesson-NAME.cu */
  int device;
  MsMode mode;
  uint64_t bytes; /* per buffer: 4 << the cell's exponent */
  int arg[MS_PROBE_N_ARGS];
  /* false: the plain sample, timed on the host clock with nothing between
   * its steps; true: with the timers that draw the timeline (events, the
   * kernels' own clock stamps), whose figure is kept apart. */
  bool instrumented;
  atomic_int *cancel;
};

struct MsProbeSample {
  double value_us; /* the figure; < 0: none */
  /* The timeline (instrumented samples; plain ones may give host-clock
   * events too): times from the sample's start, lane MS_LANE_HOST or
   * stream + 1; the runner sets rep. */
  MsEvent events[MS_PROBE_MAX_EVENTS];
  int n_events;
  char error[256]; /* why it failed, or why the device cannot do it */
};

/* A cell of a probe lesson. */
typedef struct {
  MsMode mode;
  int exponent; /* the size: 2^exponent floats per buffer */
  char variant[MS_VARIANT_LEN];
  int arg[MS_PROBE_N_ARGS];
  /* The first this many repetitions get an instrumented sample beside
   * their plain one (the timeline's); 0: none. */
  int instrumented;
} MsProbeCell;

/* The most cells one probe part may list. */
#define MS_PROBE_MAX_CELLS 512
