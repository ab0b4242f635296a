/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-cell-driver.h: the one place that knows how a cell is run.
 *
 * Every backend (CUDA, host, the tests' backend) describes a memory mode as
 * a few callbacks (MsCellOps) and hands them to ms_cell_driver_run, which
 * applies the rules:
 *
 *  - nothing is allocated when the cancel flag is already set;
 *  - alloc runs once, before the first warm-up; the driver times it and
 *    records the alloc event, owned by repetition 0;
 *  - every repetition is a pair: a *plain* repetition (what an application
 *    does: no latch, no event between steps, one synchronisation, the
 *    host clock around it), then an *instrumented* one (the latch and an
 *    event pair around every step), on the same buffers. Alternating
 *    P, I, P, I ... gives every plain repetition (but the first) an
 *    instrumented predecessor and vice versa, so the two kinds see the
 *    same GPU clock, cache and queue state, and drift reaches both alike;
 *    plain first so that the stop rule's sample is taken before the
 *    timers' work of the same pair. The plain one's end-to-end time is
 *    the cell's (out->e2e_us: medians, bandwidths, the fit, intervals,
 *    the stop rule); the instrumented one's goes to out->e2e_instr_us and
 *    its events are the cell's (phases, breakdown, timeline). A plain
 *    repetition gets no timing origin and keeps no events. With
 *    knobs.timers_per_step (the observer-effect lesson) only the
 *    instrumented repetition runs and its end-to-end time is the cell's;
 *    out->e2e_instr_us then holds -1. A pair is kept when both ran well.
 *    Only the first args->instr_reps kept repetitions are pairs (0: all):
 *    later ones are plain alone, keep no events, and their
 *    out->e2e_instr_us holds -1; phases need a few samples, the
 *    end-to-end median many;
 *  - repetitions -warmup .. -1 are warm-ups: plain alone, unless the
 *    cell warms the timers' path too (args->warm_timers: the cells up to
 *    the sweep's first GPU cell), has no plain repetitions, or runs every repetition alike
 *    (args->every_rep_alike); their events and end-to-end
 *    times are thrown away. A warm-up takes the buffers' first touch out of
 *    the kept repetitions; the timers' path is the process's, warm after
 *    one cell;
 *  - which repetitions check their result (ms_cell_driver_verifies): every
 *    instrumented one and every MS_VERIFY_EVERY-th kept plain one, the
 *    first included; a warm-up does not. With args->every_rep_alike
 *    (managed memory) every repetition checks, warm-ups included: a
 *    managed-memory grade run whose repetitions skipped the check read
 *    0.79x the time of one that checked each (H200, 2026-11-28), a change
 *    of what the mode measures. The host still writes the inputs
 *    and poisons the result before every repetition, so each timed window
 *    meets the same host state whether the one before it checked or not,
 *    and a wrong sum fails the cell at its first repetition;
 *  - each instrumented repetition gets a timing origin: repetition 0 reuses the cell's
 *    (so the alloc it shows sits where it happened), every other one starts
 *    a new one; event host times are stored relative to that origin;
 *  - the cancel flag is read before each repetition and, through
 *    ms_cell_driver_cancelled, at the cancel points a mode chooses; a
 *    repetition that stops part-way (cancel or failure) keeps no events;
 *  - how many repetitions: exactly args->reps, or, with args->rule, as
 *    ms_sweep_stop_rule decides from the kept end-to-end times and the
 *    time since the cell started (out->stop says why it ended);
 *  - a mismatch count > 0 after a repetition is a verification failure;
 *  - a cell that ran to the end reads the PCIe link once (args->read_link)
 *    after its last repetition and steady-state copies, before release:
 *    under load, and inside no timed window;
 *  - release always runs, after a failure or a cancel too, once alloc was
 *    attempted; the driver times it and records the free event, owned by
 *    the last kept instrumented repetition (repetition 0 when none was kept);
 *  - a cell cancelled after >= 1 kept repetition is MS_CELL_PARTIAL and
 *    keeps those repetitions; with none kept it is MS_CELL_CANCELLED. A
 *    failed cell reports where it stopped (failed_rep) and the runner keeps
 *    no data for it.
 *
 * Private to the engine and its tests.
 */
#pragma once

#include "ms-backend-private.h"

typedef struct MsCellDriver MsCellDriver;

/* Which timing origin a repetition starts with. */
typedef enum {
  MS_ORIGIN_CELL,       /* the cell starts, before alloc: a new origin */
  MS_ORIGIN_CELL_AGAIN, /* repetition 0: back to the cell's origin */
  MS_ORIGIN_REP         /* any other repetition (warm-ups too): a new one */
} MsOrigin;

/* One memory mode. `data` is the backend's own state for the cell; the
 * driver passes it back untouched. Only alloc, rep and release are
 * required. A callback reports an error with ms_cell_driver_fail and
 * returns MS_CELL_FAILED. */
typedef struct {
  /* The clock of all host times, in microseconds. NULL: ms_now_us
   * (CLOCK_MONOTONIC, the clock kernels/ uses too). */
  double (*now) (void *data);
  /* Called right after the driver took a new host origin (or went back to
   * the cell's): a GPU backend records its reference event here. false on
   * failure, with the error set. */
  bool (*origin) (void *data, MsCellDriver *drv, MsOrigin origin);
  /* Allocates the cell's buffers. Records no event itself (the driver
   * records alloc). MS_CELL_OK, MS_CELL_FAILED or MS_CELL_CANCELLED. */
  MsCellStatus (*alloc) (void *data, MsCellDriver *drv);
  /* One repetition, ms_cell_driver_rep (drv) (< 0: a warm-up), plain or
   * instrumented (ms_cell_driver_instrumented): records its
   * phases with ms_cell_driver_add_event, its end-to-end time with
   * ms_cell_driver_set_e2e (required) and, after verifying, the mismatches
   * with ms_cell_driver_set_mismatches. Returns MS_CELL_OK, MS_CELL_FAILED
   * or MS_CELL_CANCELLED (it stopped at a cancel point). */
  MsCellStatus (*rep) (void *data, MsCellDriver *drv);
  /* Optional: after the last kept repetition of a cell that ran to the
   * end, measures what the mode's buffers deliver in steady state (copy
   * bursts, ms_cell_driver_add_copy). MS_CELL_OK, MS_CELL_FAILED or
   * MS_CELL_CANCELLED. */
  MsCellStatus (*after_reps) (void *data, MsCellDriver *drv);
  /* Frees whatever alloc got, even part of it; cannot fail. Records no
   * event itself (the driver records free). */
  void (*release) (void *data, MsCellDriver *drv);
} MsCellOps;

/* Runs one cell with ops and fills out (events and e2e_us are allocated
 * here and belong to out afterwards: ms_run_output_clear frees them).
 * Returns the cell's status as the rules above say. */
MsCellStatus ms_cell_driver_run (const MsCellOps *ops, void *data, const MsRunArgs *args,
                                 MsRunOutput *out);

/* ---- for the callbacks ------------------------------------------------ */

const MsRunArgs *ms_cell_driver_args (const MsCellDriver *drv);
/* The repetition running now; < 0 a warm-up. During origin (MS_ORIGIN_CELL)
 * and alloc: the first repetition, -warmup. */
int ms_cell_driver_rep (const MsCellDriver *drv);
/* Whether the repetition running now is instrumented (latch, an event pair
 * around every step, its phases recorded) or plain (the application's
 * sequence alone, the host clock around it; its events are dropped). */
bool ms_cell_driver_instrumented (const MsCellDriver *drv);
/* Whether the repetition running now checks its result on the host. */
#define MS_VERIFY_EVERY 4
bool ms_cell_driver_verifies (const MsCellDriver *drv);
/* A cancel point: true when the run should stop here. */
bool ms_cell_driver_cancelled (const MsCellDriver *drv);
/* Adds an event of the current repetition. ev->host_start_us is absolute
 * on the ops clock; the driver makes it relative to the origin and sets
 * ev->rep. ev->gpu_start_us stays as given (relative to the backend's
 * reference event). false when out of memory (the run then fails). */
bool ms_cell_driver_add_event (MsCellDriver *drv, const MsEvent *ev);
/* A host-lane event from host_start to now on the ops clock. */
bool ms_cell_driver_host_event (MsCellDriver *drv, MsPhase phase, double host_start,
                                uint64_t bytes);
void ms_cell_driver_set_e2e (MsCellDriver *drv, double e2e_us);
/* A steady-state copy burst (after_reps); false when there is no room. */
bool ms_cell_driver_add_copy (MsCellDriver *drv, bool to_device, double gpu_us, uint64_t bytes);
/* The unified-memory counts of the cell's counted repetition (after_reps). */
void ms_cell_driver_set_um_counts (MsCellDriver *drv, const MsUmCounts *um);
void ms_cell_driver_set_mismatches (MsCellDriver *drv, uint64_t mismatches,
                                    uint64_t first_mismatch);
/* Keeps the first error message of the cell; later ones are dropped. */
void ms_cell_driver_fail (MsCellDriver *drv, const char *fmt, ...)
  __attribute__ ((format (printf, 2, 3)));
double ms_cell_driver_now (const MsCellDriver *drv);
