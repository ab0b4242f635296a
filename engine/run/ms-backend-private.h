/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-backend-private.h: the small interface every backend implements (CUDA, host,
 * test). Private to the engine and its tests. Backends run a cell through
 * ms-cell-driver.h, which holds the rules. */
#pragma once

#include "memsweep.h"

/* ---- the probe hook's sample: a probe lesson's cell (lessons/ms-probe-cells.h) */

/* Shared with kernels/ms-kernels.h (checked in ms-backend.c). */
#define MS_PROBE_N_ARGS 8
#define MS_PROBE_MAX_EVENTS 256

/* One sample of one cell. arg's meaning is the probe's own, named where
 * the lesson builds its cells and where kernels/ reads them. */
typedef struct MsProbeArgs {
  /* Whose sample: the lesson's line in ms-lesson-list.h, counted from 0
   * (its MsLessonTopic, a lesson's type that this room below the lessons
   * does not know), which names its kernels/lesson-NAME.cu. */
  int lesson;
  int device;
  MsMode mode;
  uint64_t bytes; /* per buffer: 4 << the cell's exponent */
  int arg[MS_PROBE_N_ARGS];
  /* false: the plain sample, timed on the host clock with nothing between
   * its steps; true: with the timers that draw the timeline (events, the
   * kernels' own clock stamps), whose figure is kept apart. */
  bool instrumented;
  atomic_int *cancel;
} MsProbeArgs;

typedef struct MsProbeSample {
  double value_us; /* the figure; < 0: none */
  /* The timeline (instrumented samples; plain ones may give host-clock
   * events too): times from the sample's start, lane MS_LANE_HOST or
   * stream + 1; the runner sets rep. */
  MsEvent events[MS_PROBE_MAX_EVENTS];
  int n_events;
  char error[256]; /* why it failed, or why the device cannot do it */
} MsProbeSample;

/* One (mode, size) cell: the backend allocates once, runs `warmup`
 * discarded and `reps` kept repetitions on the same buffers, frees once. */
/* failed_rep of a cell that failed while allocating, before any run. */
#define MS_REP_SETUP (-1000000)

typedef struct {
  MsMode mode;
  int device;
  uint64_t n;
  int streams;
  MsIssueOrder order;
  MsKnobs knobs;
  int warmup;
  /* The warm-ups run with timers too: the cells up to the sweep's first
   * GPU cell, before which the timers' own path (latch kernel, events)
   * never ran. */
  bool warm_timers;
  /* Every repetition, warm-ups included, checks its result, and every
   * warm-up runs with timers: managed memory, whose pages the extra host
   * reads and kernels move (ms-cell-driver.h). */
  bool every_rep_alike;
  int reps;          /* the count when rule is NULL; else a sizing hint */
  int instr_reps;    /* kept repetitions paired with an instrumented one; 0: all */
  MsHostPrep host_prep; /* inputs and poison every repetition, or once (memsweep.h) */
  atomic_int *cancel;
  /* How many repetitions: ms_sweep_stop_rule with this sweep's settings,
   * asked before every repetition after the first; NULL: exactly reps. */
  const MsSweep *rule;
  /* Reads the PCIe link as trained now (gen, width; false: unknown); the
   * driver calls it once, right after the cell's last copy. NULL: not read. */
  bool (*read_link) (void *user, int *gen, int *width);
  void *link_user;
  /* No steady-state copy bursts after the repetitions: a round of a run
   * that varies its placement has them in its process's first round only,
   * so that its time goes to more rounds. */
  bool no_copy_bursts;
} MsRunArgs;

/* What a cell run produced; ms-cell-driver.c fills it. */
typedef struct {
  MsEvent *events;   /* kept events, grown as needed */
  size_t n_events;
  size_t cap_events;
  double *e2e_us;    /* room for reps: the plain repetitions' */
  double *e2e_instr_us; /* room for reps: the instrumented repetitions' (< 0: none) */
  int n_reps;        /* repetitions kept */
  int failed_rep;    /* where it stopped; < 0: a warm-up; MS_REP_SETUP: allocating */
  uint64_t mismatches;
  uint64_t first_mismatch;
  char error[256];
  int cap_reps;      /* room in e2e_us */
  MsStopReason stop; /* why the repetitions ended (when they did) */
  /* Steady-state copy bursts, after the repetitions (copy modes only). */
  MsCopySample copies[2 * MS_COPY_SAMPLES];
  int n_copies;
  /* Unified-memory counts of the counted repetition (knobs.um_counts). */
  MsUmCounts um;
  int link_gen, link_width; /* the link under load (read_link); 0 unknown */
} MsRunOutput;

/* Frees what a run left in out and zeroes it. */
void ms_run_output_clear (MsRunOutput *out);

struct MsBackend {
  const char *name;
  bool (*query_device) (MsBackend *self, int index, MsDeviceInfo *info);
  bool (*supports) (MsBackend *self, const MsDeviceInfo *info, MsMode mode, char *why,
                    size_t whylen);
  /* Whether the buffers of one run fit the machine now. */
  bool (*check_fit) (MsBackend *self, const MsDeviceInfo *info, MsMode mode, uint64_t n,
                     char *why, size_t whylen);
  /* Runs one cell through ms_cell_driver_run with the mode's callbacks. */
  MsCellStatus (*run_cell) (MsBackend *self, const MsRunArgs *args, MsRunOutput *out);
  /* One sample of a call's cost (the costs lesson; what: MS_COST_*): the
   * allocating and the freeing call's host times; keep_bytes: the release
   * threshold of MS_COST_POOL_KEEP; pool (may be NULL): the device pool's
   * reserved and used bytes after the free. err starts with "unsupported:"
   * where the device or driver cannot make the call. NULL: not
   * measurable. */
  bool (*cost_sample) (MsBackend *self, int device, int what, uint64_t bytes, uint64_t keep_bytes,
                       double *alloc_us, double *free_us, uint64_t pool[2], char *err,
                       size_t errlen);
  /* One sample of a probe lesson's cell (ms-probe-cells.h): MS_CELL_OK with
   * out->value_us, MS_CELL_UNSUPPORTED when the device, driver or toolkit
   * cannot do it, MS_CELL_FAILED; out->error says why. NULL: no probes. */
  MsCellStatus (*probe) (MsBackend *self, const MsProbeArgs *args, MsProbeSample *out);
  /* Keeps the GPU busy for about ms milliseconds (warm-up to a steady
   * clock); NULL when the backend has no GPU. */
  bool (*spin) (MsBackend *self, int device, double ms);
  /* Experiments on the run-to-run spread (ms-experiment.h); NULL where the
   * backend has none. Copies each way for about ms before a cell: */
  bool (*copy_warm) (MsBackend *self, int device, double ms);
  /* The PCIe link as trained now; NULL: NVML reads it (the tests'
   * backend injects one here). */
  bool (*read_link) (MsBackend *self, int device, int *gen, int *width);
  /* frees what it kept from cell to cell, when a sweep ends. */
  void (*release_kept) (MsBackend *self);
  void (*free) (MsBackend *self);
};

/* What the costs lesson measures; mirrors MS_K_COST_* in kernels/. */
typedef enum {
  MS_COST_CONTEXT_FIRST,
  MS_COST_CONTEXT,
  MS_COST_FIRST_MALLOC,
  MS_COST_DEVICE_MALLOC,
  MS_COST_MALLOC_HOST,
  MS_COST_MALLOC,
  MS_COST_REGISTER,
  MS_COST_POOL_FIRST,   /* cudaMallocAsync from a default pool trimmed to nothing */
  MS_COST_POOL_RELEASE, /* the steady state, release threshold 0 */
  MS_COST_POOL_KEEP,    /* the steady state, the pool keeping up to a threshold */
  MS_COST_COUNT
} MsCost;

/* The CPU baseline, used by the system backend and by tests. */
MsCellStatus ms_host_run_cell (const MsRunArgs *args, MsRunOutput *out);
/* The same with another add in the timed window: a test's, which may write
 * a wrong result or none, to show that verification still catches it. */
typedef void (*MsHostAdd) (const float *a, const float *b, float *c, uint64_t n);
MsCellStatus ms_host_run_cell_with (const MsRunArgs *args, MsHostAdd add, MsRunOutput *out);

void ms_host_cpu_affinity (char *buf, size_t len);

