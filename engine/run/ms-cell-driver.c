/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-cell-driver.c: runs one cell by the rules in ms-cell-driver.h, for
 * every backend. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ms-time-ledger.h"
#include "ms-cell-driver.h"
#include "ms-clock.h"
#include "ms-experiment.h"
#include "ms-gpu-clock.h"
#include "ms-i18n.h"
#include "ms-stats.h"

struct MsCellDriver {
  const MsCellOps *ops;
  void *data;
  const MsRunArgs *args;
  MsRunOutput *out;
  int rep;             /* running now; owner of the events added */
  double cell_t0;      /* origin of the cell and of repetition 0 */
  double t0;           /* origin of the running repetition */
  double last_kept_t0; /* origin of the last kept instrumented repetition */
  int last_kept_instr; /* that repetition; 0 when none was kept */
  double rep_e2e_us;   /* < 0 until the repetition sets it */
  bool instrumented;   /* the repetition running now is an instrumented one */
  bool verifies;       /* the repetition running now checks its result */
  bool out_of_memory;
};

void
ms_run_output_clear (MsRunOutput *out)
{
  free (out->events);
  free (out->e2e_us);
  free (out->e2e_instr_us);
  memset (out, 0, sizeof *out);
}

const MsRunArgs *
ms_cell_driver_args (const MsCellDriver *drv)
{
  return drv->args;
}

int
ms_cell_driver_rep (const MsCellDriver *drv)
{
  return drv->rep;
}

bool
ms_cell_driver_instrumented (const MsCellDriver *drv)
{
  return drv->instrumented;
}

bool
ms_cell_driver_verifies (const MsCellDriver *drv)
{
  return drv->verifies;
}

double
ms_cell_driver_now (const MsCellDriver *drv)
{
  return drv->ops->now ? drv->ops->now (drv->data) : ms_now_us ();
}

bool
ms_cell_driver_cancelled (const MsCellDriver *drv)
{
  return drv->args->cancel && atomic_load (drv->args->cancel);
}

void
ms_cell_driver_fail (MsCellDriver *drv, const char *fmt, ...)
{
  if (drv->out->error[0])
    return;
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (drv->out->error, sizeof drv->out->error, fmt, ap);
  va_end (ap);
}

/* Appends ev with rep as owner and its host start relative to t0. */
static bool
append_event (MsCellDriver *drv, const MsEvent *ev, int rep, double t0)
{
  MsRunOutput *out = drv->out;
  if (out->n_events == out->cap_events) {
    size_t cap = out->cap_events ? out->cap_events * 2 : 64;
    MsEvent *grown = realloc (out->events, cap * sizeof *grown);
    if (!grown) {
      drv->out_of_memory = true;
      ms_cell_driver_fail (drv, ms_gettext ("out of host memory for the events"));
      return false;
    }
    out->events = grown;
    out->cap_events = cap;
  }
  MsEvent *dst = &out->events[out->n_events++];
  *dst = *ev;
  dst->rep = rep;
  dst->host_start_us = ev->host_start_us - t0;
  return true;
}

bool
ms_cell_driver_add_event (MsCellDriver *drv, const MsEvent *ev)
{
  return append_event (drv, ev, drv->rep, drv->t0);
}

static MsEvent
host_event_from (const MsCellDriver *drv, MsPhase phase, double host_start, uint64_t bytes)
{
  return (MsEvent){
    .phase = phase,
    .lane = MS_LANE_HOST,
    .host_start_us = host_start,
    .host_us = ms_cell_driver_now (drv) - host_start,
    .gpu_start_us = -1,
    .gpu_us = -1,
    .bytes = bytes,
  };
}

bool
ms_cell_driver_host_event (MsCellDriver *drv, MsPhase phase, double host_start,
                           uint64_t bytes)
{
  MsEvent ev = host_event_from (drv, phase, host_start, bytes);
  return ms_cell_driver_add_event (drv, &ev);
}

/* The self-comparison benchmark's known change (ms-experiment.h): the
 * host spins for pct% of the work's time, and the spin, as measured, joins
 * the repetition's window. */
static double
inject_spin (double e2e_us)
{
  const MsExperiment *x = ms_experiment_get (NULL, 0);
  if (!x || x->inject_pct <= 0)
    return e2e_us;
  double t0 = ms_now_us (), until = t0 + e2e_us * x->inject_pct / 100.0, now = t0;
  while (now < until)
    now = ms_now_us ();
  return e2e_us + (now - t0);
}

void
ms_cell_driver_set_e2e (MsCellDriver *drv, double e2e_us)
{
  drv->rep_e2e_us = inject_spin (e2e_us);
}

bool
ms_cell_driver_add_copy (MsCellDriver *drv, bool to_device, double gpu_us, uint64_t bytes)
{
  MsRunOutput *out = drv->out;
  if (out->n_copies >= (int) (sizeof out->copies / sizeof out->copies[0]))
    return false;
  out->copies[out->n_copies++] = (MsCopySample){ .to_device = to_device, .gpu_us = gpu_us,
                                                 .bytes = bytes };
  return true;
}

void
ms_cell_driver_set_mismatches (MsCellDriver *drv, uint64_t mismatches, uint64_t first_mismatch)
{
  drv->out->mismatches = mismatches;
  drv->out->first_mismatch = mismatches ? first_mismatch : 0;
}

void
ms_cell_driver_set_um_counts (MsCellDriver *drv, const MsUmCounts *um)
{
  drv->out->um = *um;
}

static bool
start_origin (MsCellDriver *drv, MsOrigin origin)
{
  if (!drv->ops->origin)
    return true;
  if (drv->ops->origin (drv->data, drv, origin))
    return true;
  ms_cell_driver_fail (drv, ms_gettext ("could not start the timing of a repetition"));
  return false;
}

/* Runs one repetition of the given kind; its events stay in out only when
 * it is instrumented and ends well (the caller may still drop them). */
static MsCellStatus
run_one (MsCellDriver *drv, int rep, bool instrumented)
{
  MsRunOutput *out = drv->out;
  size_t first_event = out->n_events;

  drv->rep = rep;
  drv->instrumented = instrumented;
  /* Every instrumented repetition (its timeline shows the check) and
   * every MS_VERIFY_EVERY-th kept plain one, the first included; not the
   * warm-ups. The host's writes before each repetition stay: they, not
   * the check, set the state its copies meet (docs/measuring.md). */
  drv->verifies = instrumented || drv->args->every_rep_alike ||
                  (rep >= 0 && rep % MS_VERIFY_EVERY == 0);
  drv->rep_e2e_us = -1;
  out->failed_rep = rep;
  drv->t0 = rep == 0 && instrumented ? drv->cell_t0 : ms_cell_driver_now (drv);
  /* A plain repetition records no GPU event, so it needs no origin. */
  if (instrumented && !start_origin (drv, rep == 0 ? MS_ORIGIN_CELL_AGAIN : MS_ORIGIN_REP))
    return MS_CELL_FAILED;

  MsCellStatus st = drv->ops->rep (drv->data, drv);
  if (drv->out_of_memory)
    st = MS_CELL_FAILED;
  if (st == MS_CELL_OK && out->mismatches)
    st = MS_CELL_VERIFY_FAILED;
  if (st == MS_CELL_OK && drv->rep_e2e_us < 0) {
    ms_cell_driver_fail (drv, ms_gettext ("internal: the repetition gave no end-to-end time"));
    st = MS_CELL_FAILED;
  }
  /* Warm-ups, plain repetitions and repetitions that stopped part-way
   * keep no events. */
  if (st != MS_CELL_OK || rep < 0 || !instrumented)
    out->n_events = first_event;
  return st;
}

static bool
grow_reps (MsCellDriver *drv, int rep)
{
  MsRunOutput *out = drv->out;
  if (rep < out->cap_reps)
    return true;
  int cap = out->cap_reps * 2 > rep + 1 ? out->cap_reps * 2 : rep + 1;
  double *grown = realloc (out->e2e_us, sizeof (double) * cap);
  if (grown)
    out->e2e_us = grown;
  double *grown_instr = grown ? realloc (out->e2e_instr_us, sizeof (double) * cap) : NULL;
  if (grown_instr)
    out->e2e_instr_us = grown_instr;
  if (!grown_instr) {
    ms_cell_driver_fail (drv, ms_gettext ("out of host memory for the results"));
    return false;
  }
  out->cap_reps = cap;
  return true;
}

/* Whether repetition rep gets an instrumented one: the warm-ups of a
 * cell that warms the timers' path (args->warm_timers), the first
 * args->instr_reps kept ones (0: all), and every one with
 * timers_per_step, which has no plain ones. */
static bool
rep_is_instrumented (const MsCellDriver *drv, int rep)
{
  const MsRunArgs *args = drv->args;
  if (args->knobs.timers_per_step)
    return true;
  if (rep < 0)
    return args->warm_timers || args->every_rep_alike;
  return args->instr_reps <= 0 || rep < args->instr_reps;
}

/* Repetition rep: a plain one, then an instrumented one when it gets one
 * (see the header for why in that order); with timers_per_step the
 * instrumented one alone, whose end-to-end time is then the cell's. Kept
 * when what ran, ran well. */
static MsCellStatus
run_rep (MsCellDriver *drv, int rep)
{
  MsRunOutput *out = drv->out;
  bool timers_only = drv->args->knobs.timers_per_step;
  bool instrumented = rep_is_instrumented (drv, rep);
  size_t first_event = out->n_events;
  double plain_us = -1, instr_us = -1;

  if (!timers_only) {
    MsCellStatus st = run_one (drv, rep, false);
    if (st != MS_CELL_OK)
      return st;
    plain_us = drv->rep_e2e_us;
    /* Cancelled between the two: the pair is not kept. */
    if (instrumented && ms_cell_driver_cancelled (drv))
      return MS_CELL_CANCELLED;
  }
  if (instrumented) {
    MsCellStatus st = run_one (drv, rep, true);
    if (st != MS_CELL_OK)
      return st;
    instr_us = drv->rep_e2e_us;
  }
  if (rep < 0)
    return MS_CELL_OK;
  if (!grow_reps (drv, rep)) {
    out->n_events = first_event;
    return MS_CELL_FAILED;
  }
  out->e2e_us[rep] = timers_only ? instr_us : plain_us;
  out->e2e_instr_us[rep] = timers_only ? -1 : instr_us;
  out->n_reps = rep + 1;
  if (instrumented) {
    drv->last_kept_t0 = drv->t0;
    drv->last_kept_instr = rep;
  }
  return MS_CELL_OK;
}

/* Whether the cell needs repetition n (n kept so far). */
static MsStopReason
stop_reason (MsCellDriver *drv, int n)
{
  const MsRunArgs *args = drv->args;
  if (!args->rule)
    return n >= args->reps ? MS_STOP_FIXED_COUNT : MS_STOP_CONTINUE;
  double elapsed_ms = (ms_cell_driver_now (drv) - drv->cell_t0) * 1e-3;
  return ms_sweep_stop_rule (args->rule, drv->out->e2e_us, n, elapsed_ms);
}

/* Origin, alloc and the repetitions; release is the caller's. */
static MsCellStatus
run_reps (MsCellDriver *drv, bool *allocated)
{
  const MsRunArgs *args = drv->args;
  MsRunOutput *out = drv->out;

  drv->rep = -args->warmup;
  out->failed_rep = drv->rep;
  if (ms_cell_driver_cancelled (drv))
    return MS_CELL_CANCELLED;
  drv->cell_t0 = drv->t0 = drv->last_kept_t0 = ms_cell_driver_now (drv);
  if (!start_origin (drv, MS_ORIGIN_CELL))
    return MS_CELL_FAILED;

  double hs = ms_cell_driver_now (drv);
  *allocated = true;
  out->failed_rep = MS_REP_SETUP;
  double lt = ms_ledger_now ();
  MsCellStatus st = drv->ops->alloc (drv->data, drv);
  ms_ledger_since (MS_LEDGER_ALLOC_OP, lt);
  if (st != MS_CELL_OK)
    return st;
  out->failed_rep = drv->rep;
  MsEvent alloc = host_event_from (drv, MS_PHASE_ALLOC, hs, 0);
  if (!append_event (drv, &alloc, 0, drv->cell_t0))
    return MS_CELL_FAILED;

  for (int rep = -args->warmup;; rep++) {
    if (rep >= 0 && (out->stop = stop_reason (drv, rep)) != MS_STOP_CONTINUE)
      break;
    if (ms_cell_driver_cancelled (drv)) {
      out->failed_rep = rep;
      return MS_CELL_CANCELLED;
    }
    lt = ms_ledger_now ();
    st = run_rep (drv, rep);
    ms_ledger_since (rep < 0 ? MS_LEDGER_WARMUPS : MS_LEDGER_KEPT_REPS, lt);
    if (st != MS_CELL_OK)
      return st;
  }
  lt = ms_ledger_now ();
  st = drv->ops->after_reps ? drv->ops->after_reps (drv->data, drv) : MS_CELL_OK;
  ms_ledger_since (MS_LEDGER_AFTER_REPS, lt);
  return st;
}

MsCellStatus
ms_cell_driver_run (const MsCellOps *ops, void *data, const MsRunArgs *args, MsRunOutput *out)
{
  MsCellDriver drv = { .ops = ops, .data = data, .args = args, .out = out };
  bool allocated = false;

  memset (out, 0, sizeof *out);
  out->cap_reps = args->reps > 0 ? args->reps : 1;
  out->e2e_us = calloc (out->cap_reps, sizeof (double));
  out->e2e_instr_us = calloc (out->cap_reps, sizeof (double));
  if (!out->e2e_us || !out->e2e_instr_us) {
    ms_run_output_clear (out);
    snprintf (out->error, sizeof out->error, ms_gettext ("out of host memory for the results"));
    return MS_CELL_FAILED;
  }

  MsCellStatus st = run_reps (&drv, &allocated);
  /* Right after the last copy and outside every timed window: the link
   * still trained as it was under load. */
  double lt = ms_ledger_now ();
  if (st == MS_CELL_OK && args->read_link &&
      !args->read_link (args->link_user, &out->link_gen, &out->link_width))
    out->link_gen = out->link_width = 0;
  ms_ledger_since (MS_LEDGER_READ_LINK, lt);
  if (allocated) {
    double hs = ms_cell_driver_now (&drv);
    lt = ms_ledger_now ();
    ops->release (data, &drv);
    ms_ledger_since (MS_LEDGER_RELEASE_OP, lt);
    MsEvent free_ev = host_event_from (&drv, MS_PHASE_FREE, hs, 0);
    /* Owned by the last repetition that has a timeline. */
    int owner = drv.last_kept_instr;
    if (!append_event (&drv, &free_ev, owner, drv.last_kept_t0) && st == MS_CELL_OK)
      st = MS_CELL_FAILED;
  }
  if (st == MS_CELL_CANCELLED && out->n_reps > 0)
    st = MS_CELL_PARTIAL;
  ms_gpu_clock_align (out->events, out->n_events);
  return st;
}
