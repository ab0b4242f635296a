/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-probe-cells.h: the lessons that are not a vector-add sweep (the streams
 * chapter, when pinning pays off, arithmetic intensity, copy kinds, batched
 * copies, NUMA placement; docs/lessons.md) are probes. A probe lesson lists
 * its cells (mode, size, variant and the probe's integer settings); the
 * runner (ms-probe-cells.c) asks the backend for plain samples, which give
 * the figures, and for instrumented ones, which give the timeline and never
 * a figure. Private to the engine, its lessons and the tests. */
#pragma once

#include "ms-backend.h"

/* Mirrored by MS_K_PROBE_* in kernels/ms-kernels.h (checked in
 * ms-backend.c). */
typedef enum {
  MS_PROBE_NONE,
  MS_PROBE_IMPLICIT_SYNC,
  MS_PROBE_DEFAULT_STREAM,
  MS_PROBE_HOST_FUNC,
  MS_PROBE_PRIORITY,
  MS_PROBE_CONCURRENT,
  MS_PROBE_SYNC_ASYNC,
  MS_PROBE_PIN_PAYOFF,
  MS_PROBE_INTENSITY,
  MS_PROBE_COPY_KINDS,
  MS_PROBE_BATCHED,
  MS_PROBE_NUMA,
  MS_PROBE_COUNT
} MsProbe;

#define MS_PROBE_N_ARGS 8
#define MS_PROBE_MAX_EVENTS 256

/* One sample of one cell. arg's meaning is the probe's own, named where
 * the lesson builds its cells and where kernels/ reads them. */
struct MsProbeArgs {
  MsProbe probe;
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

/* Runs the cells of a probe part on sweep's device, warm-up and
 * repetitions (sweep->reps under MS_REPS_FIXED, else sweep->min_reps):
 * MsResults with one cell per MsProbeCell, in their order. A cell the
 * backend cannot measure is MS_CELL_UNSUPPORTED with the reason, and the
 * others go on. */
MsRunStatus ms_lesson_run_probe (const MsSweep *sweep, MsProbe probe, const MsProbeCell *cells,
                                 int n_cells, MsBackend *backend, MsProgressFunc progress,
                                 void *user_data, atomic_int *cancel, MsResults **out, char *err,
                                 size_t errlen);
