/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-runner.c: runs a sweep cell by cell on the calling thread, in rounds,
 * with the GPU held at a steady clock and the thread pinned; the rules
 * inside a cell are ms-cell-driver.c's. */
#define _GNU_SOURCE
#include <malloc.h>
#include <pthread.h>
#include <stdatomic.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ms-backend-private.h"
#include "ms-time-ledger.h"
#include "ms-backend.h"
#include "ms-data.h"
#include "ms-experiment.h"
#include "ms-gpu-state.h"
#include "ms-health.h"
#include "ms-i18n.h"
#include "ms-modes.h"
#include "ms-numa.h"
#include "ms-results.h"
#include "ms-rounds-private.h"
#include "ms-rounds.h"
#include "ms-runner.h"
#include "ms-sweep.h"
#include "ms-um-counts.h"
#include "ms-stats.h"

static bool
cancel_requested (atomic_int *cancel)
{
  return cancel && atomic_load (cancel);
}

static void
describe_failure (MsCell *cell, MsCellStatus st, const MsRunOutput *out, int warmup)
{
  char where[48];
  /* Allocation happens once, before the warm-ups. */
  if (out->failed_rep == MS_REP_SETUP || (out->failed_rep < 0 && warmup == 0))
    snprintf (where, sizeof where, ms_gettext ("before the first repetition"));
  else if (out->failed_rep < 0)
    snprintf (where, sizeof where, ms_gettext ("in a warm-up run"));
  else
    snprintf (where, sizeof where, ms_gettext ("in repetition %d"), out->failed_rep + 1);

  cell->status = st;
  if (st == MS_CELL_VERIFY_FAILED) {
    cell->mismatches = out->mismatches;
    cell->first_mismatch = out->first_mismatch;
    snprintf (cell->message, sizeof cell->message,
              ms_gettext ("verification failed %s: %llu of %llu elements wrong, first at index "
                          "%llu"), where,
              (unsigned long long) out->mismatches, (unsigned long long) cell->elements,
              (unsigned long long) out->first_mismatch);
  } else if (st == MS_CELL_CANCELLED) {
    snprintf (cell->message, sizeof cell->message, ms_gettext ("cancelled"));
  } else {
    /* TRANSLATORS: an error message, then where in the cell it happened
     * ("before the first repetition"); reorder with %2$s %1$s if needed. */
    snprintf (cell->message, sizeof cell->message, ms_gettext ("%s %s"),
              out->error[0] ? out->error : ms_gettext ("failed"), where);
  }
}

/* What of a cell's backend run its own timers account for. */
static void
ledger_cell (const MsCell *cell)
{
  double recorded = 0, instrumented = 0, one_time = 0;
  for (int i = 0; i < cell->n_reps; i++) {
    recorded += cell->e2e_us[i] * 1e-6;
    instrumented += cell->e2e_instr_us && cell->e2e_instr_us[i] > 0 ? cell->e2e_instr_us[i] * 1e-6 : 0;
  }
  for (size_t i = 0; i < cell->n_events; i++) {
    MsPhase p = cell->events[i].phase;
    if (p == MS_PHASE_ALLOC || p == MS_PHASE_INIT || p == MS_PHASE_REGISTER ||
        p == MS_PHASE_VERIFY || p == MS_PHASE_UNREGISTER || p == MS_PHASE_FREE)
      one_time += cell->events[i].host_us * 1e-6;
  }
  ms_ledger_add (MS_LEDGER_RECORDED, recorded);
  ms_ledger_add (MS_LEDGER_INSTRUMENTED, instrumented);
  ms_ledger_add (MS_LEDGER_ONE_TIME, one_time);
  ms_ledger_cell (ms_mode_name (cell->mode), cell->exponent, cell->n_reps,
                  cell->n_rounds ? ms_stop_reason_name (cell->rounds[0].stop) : "-", recorded,
                  instrumented, one_time);
}

/* What the sweep keeps about the GPU's state while it runs. */
typedef struct {
  MsBackend *backend;
  int device;
  MsNvml *nvml;
  int steady_sm_mhz;
  atomic_int *cancel;
  const MsExperiment *x; /* the experiment switches, all off by default */
  bool node_preferred;   /* memory policy set to the measuring CPU's node */
  cpu_set_t allowed;     /* the CPUs the thread had: where a varied round may run */
  unsigned placement_seed; /* MS_VARY_PLACEMENT's draws; 0 until the first */
  MsNumaTopology topo;   /* this host's nodes, for the fill's helpers */
  int measuring_cpu;     /* where the thread is pinned now, or -1 */
  /* A GPU cell of this sweep has run its repetitions with timers: their
   * own path (the latch kernel, the events) is warm, and later cells'
   * warm-ups need not run it (ms-cell-driver.h). Until then every cell's
   * do, the CPU baseline's too (they cost it little). */
  bool timers_warm;
} MsGpuKeeper;

/* The link as trained now: the backend's reading where it has one, else
 * NVML's. */
static bool
keeper_read_link (void *user, int *gen, int *width)
{
  MsGpuKeeper *k = user;
  if (k->backend->read_link)
    return k->backend->read_link (k->backend, k->device, gen, width);
  return ms_nvml_link (k->nvml, gen, width);
}

/* Runs one (mode, size): its warm-ups and repetitions in one backend call,
 * with the knobs that reach the cell's mode (ms_sweep_cell_knobs). */
static void
run_cell (const MsSweep *sweep, const MsKnobs *knobs, MsGpuKeeper *k, const MsDeviceInfo *info,
          MsCell *cell, int round, atomic_int *cancel)
{
  MsBackend *backend = k->backend;
  char why[256] = "";
  if (!backend->supports (backend, info, cell->mode, why, sizeof why)) {
    cell->status = MS_CELL_UNSUPPORTED;
    snprintf (cell->message, sizeof cell->message, "%s", why);
    return;
  }
  if (!backend->check_fit (backend, info, cell->mode, cell->elements, why, sizeof why)) {
    cell->status = MS_CELL_FAILED;
    snprintf (cell->message, sizeof cell->message, "%s", why);
    return;
  }

  MsRunOutput out = { 0 };
  MsRunArgs args = {
    .mode = cell->mode,
    .device = sweep->device,
    .n = cell->elements,
    .streams = sweep->streams,
    .order = sweep->order,
    .knobs = *knobs,
    .warmup = sweep->warmup,
    .reps = sweep->reps_rule == MS_REPS_FIXED ? sweep->reps : sweep->min_reps,
    .instr_reps = sweep->instr_reps,
    .host_prep = sweep->host_prep,
    .cancel = cancel,
    .rule = sweep,
    .read_link = ms_mode_uses_gpu (cell->mode) ? keeper_read_link : NULL,
    .link_user = k,
    .warm_timers = !k->timers_warm,
    .every_rep_alike = ms_mode_memory (cell->mode) == MS_MEMORY_MANAGED,
    .no_copy_bursts = sweep->vary == MS_VARY_PLACEMENT && round > 0,
  };
  double t0 = ms_ledger_now ();
  MsCellStatus st = backend->run_cell (backend, &args, &out);
  ms_ledger_since (MS_LEDGER_CELL, t0);
  ms_ledger_cell_wall (ms_ledger_now () - t0);
  if (st == MS_CELL_OK && sweep->reps_rule == MS_REPS_FIXED && out.n_reps != sweep->reps) {
    st = MS_CELL_FAILED;
    snprintf (out.error, sizeof out.error, ms_gettext ("backend kept %d of %d repetitions"),
              out.n_reps, sweep->reps);
  }
  if (out.n_reps > 0 && ms_mode_uses_gpu (cell->mode))
    k->timers_warm = true;
  if (st != MS_CELL_OK && st != MS_CELL_PARTIAL) {
    describe_failure (cell, st, &out, sweep->warmup);
    ms_run_output_clear (&out);
    return;
  }
  cell->status = st;
  if (st == MS_CELL_PARTIAL)
    snprintf (cell->message, sizeof cell->message,
              ms_gettext ("cancelled after %d of %d repetitions"), out.n_reps, sweep->reps);
  cell->events = out.events;
  cell->n_events = out.n_events;
  cell->e2e_us = out.e2e_us;
  cell->e2e_instr_us = out.e2e_instr_us;
  cell->n_reps = out.n_reps;
  /* Its round: the runner fills in which one and the GPU's state. */
  MsCellRound *r = out.n_reps > 0 ? ms_cell_add_round (cell) : NULL;
  if (r) {
    r->stop = out.stop;
    r->link_gen = out.link_gen;
    r->link_width = out.link_width;
  }
  for (int i = 0; i < out.n_copies; i++)
    ms_cell_add_copy (cell, &out.copies[i]);
  cell->um = out.um;
  ms_um_counts_judge (cell->mode, cell->elements, knobs->resident, &cell->um);
  if (ms_ledger_on ())
    ledger_cell (cell);
  t0 = ms_ledger_now ();
  ms_cell_compute_stats (cell);
  ms_ledger_since (MS_LEDGER_STATS, t0);
}


/* false ends the warm-up: on failure, and at once on a cancel. */
static bool
keeper_spin (void *user, double ms)
{
  MsGpuKeeper *k = user;
  return !cancel_requested (k->cancel) && k->backend->spin (k->backend, k->device, ms);
}

/* The CPUs where measuring threads are pinned now, one a GPU in a run of
 * several (ms-multi.c): no thread's helpers are placed there. */
static pthread_mutex_t measuring_lock = PTHREAD_MUTEX_INITIALIZER;
static cpu_set_t measuring_cpus;

/* The keeper's thread is measuring on cpu now (-1: no longer). */
static void
note_measuring_cpu (MsGpuKeeper *k, int cpu)
{
  pthread_mutex_lock (&measuring_lock);
  if (k->measuring_cpu >= 0)
    CPU_CLR (k->measuring_cpu, &measuring_cpus);
  if (cpu >= 0)
    CPU_SET (cpu, &measuring_cpus);
  pthread_mutex_unlock (&measuring_lock);
  k->measuring_cpu = cpu;
}

/* Fill and verify share their work with helpers on the measuring CPU's
 * node, where its own first touches would put fresh pages, and never on a
 * CPU where a thread measures. On a host of several nodes whose current
 * node is unknown, none: their pages could land on another node. */
static void
set_helper_cpus (MsGpuKeeper *k, int cpu)
{
  cpu_set_t set = k->allowed, busy;
  note_measuring_cpu (k, cpu);
  const MsNumaNode *node = ms_numa_find (&k->topo, ms_current_node ());
  if (node)
    CPU_AND (&set, &set, &node->cpus);
  else if (k->topo.n > 1)
    CPU_ZERO (&set);
  /* set minus the measuring CPUs: what both hold, taken out. */
  pthread_mutex_lock (&measuring_lock);
  CPU_AND (&busy, &set, &measuring_cpus);
  pthread_mutex_unlock (&measuring_lock);
  CPU_XOR (&set, &set, &busy);
  ms_data_set_helper_cpus (CPU_COUNT (&set) > 0 ? &set : NULL, sizeof set);
}

/* Pins the thread, then warms the GPU to a steady clock; records both. */
static void
prepare_gpu (MsGpuKeeper *k, MsDeviceInfo *info, bool wants_gpu, cpu_set_t *saved)
{
  k->nvml = wants_gpu ? ms_nvml_open (info->pci_bus_id) : NULL;
  int cpu = ms_pin_thread_at (k->nvml, k->x->fixed_cpu, saved, info->gpu_near_cpus,
                              sizeof info->gpu_near_cpus);
  info->pinned = cpu >= 0;
  k->allowed = *saved;
  ms_numa_read ("/sys", &k->topo);
  if (cpu >= 0)
    set_helper_cpus (k, cpu);
  ms_data_set_threads (k->x->one_thread_prep ? 1 : 0);
  info->prep_threads = ms_data_threads_at_most ();
  info->measuring_cpu = cpu >= 0 ? cpu : 0;
  int node = cpu >= 0 ? ms_current_node () : -1;
  info->node_known = node >= 0;
  info->measuring_node = node >= 0 ? node : 0;
  /* cpu-fixed: the buffers on that CPU's node too, in every process. */
  if (k->x->fixed_cpu && node >= 0)
    k->node_preferred = ms_prefer_node (node);
  ms_experiment_format (k->x, info->experiment_switches, sizeof info->experiment_switches);
  if (wants_gpu && k->backend->spin)
    info->warmup_ms = ms_gpu_warm (k->nvml, keeper_spin, k, &k->steady_sm_mhz);
  info->steady_sm_mhz = k->steady_sm_mhz;
}

/* copy-warm: the copy engines' burst before each GPU cell. */
#define MS_COPY_WARM_MS 2.0

/* One round's visit to a cell, with the GPU's state before and after. */
static void
run_cell_in_round (const MsSweep *sweep, const MsKnobs *knobs, MsGpuKeeper *k,
                   const MsDeviceInfo *info, MsCell *cell, int round, atomic_int *cancel)
{
  MsGpuState start = { 0 }, end = { 0 };
  bool gpu = ms_mode_uses_gpu (cell->mode);
  double t0 = ms_ledger_now ();
  if (gpu)
    ms_gpu_state_before_cell (k->nvml, k->backend->spin ? keeper_spin : NULL, k,
                              k->steady_sm_mhz, &start);
  ms_ledger_since (MS_LEDGER_BEFORE, t0);
  if (gpu && k->x->copy_warm && k->backend->copy_warm)
    k->backend->copy_warm (k->backend, k->device, MS_COPY_WARM_MS);
  run_cell (sweep, knobs, k, info, cell, round, cancel);
  t0 = ms_ledger_now ();
  if (gpu)
    ms_nvml_sample (k->nvml, &end);
  ms_ledger_since (MS_LEDGER_AFTER, t0);
  if (cell->n_reps > 0 && cell->n_rounds == 1) {
    MsCellRound *r = &cell->rounds[0]; /* run_cell set stop */
    r->round = round;
    r->first_rep = 0;
    r->n_reps = cell->n_reps;
    r->start = start;
    r->end = end;
  }
  for (int i = 0; i < cell->n_copies; i++)
    cell->copies[i].round = round;
}

/* Folds a later round's run into the results: its repetitions join the
 * cell's; a failure replaces the cell (its numbers are no longer whole);
 * a cancel keeps what the earlier rounds measured. */
static const MsCell *
merge_round (MsResults *results, MsCell *cell, int round)
{
  MsCell *old = (MsCell *) ms_results_find_variant (results, cell->mode, cell->exponent,
                                                     cell->variant);
  if (round == 0 || !old)
    return ms_results_put_cell (results, cell)
             ? ms_results_find_variant (results, cell->mode, cell->exponent, cell->variant)
             : NULL;
  if ((cell->status == MS_CELL_OK || cell->status == MS_CELL_PARTIAL) &&
      old->status == MS_CELL_OK) {
    if (!ms_cell_append_round (old, cell))
      return NULL;
    if (cell->status == MS_CELL_PARTIAL) {
      old->status = MS_CELL_PARTIAL;
      snprintf (old->message, sizeof old->message, "round %d: %.360s", round + 1,
                cell->message);
    }
    return old;
  }
  if (cell->status != MS_CELL_CANCELLED) {
    char msg[sizeof cell->message];
    snprintf (msg, sizeof msg, "round %d: %.360s", round + 1, cell->message);
    snprintf (cell->message, sizeof cell->message, "%s", msg);
    return ms_results_put_cell (results, cell) ? old : NULL;
  }
  return old;
}

/* The cells of one round in the order they are visited: size-major (every
 * curve grows together while the sweep runs), or as an experiment on the
 * run-to-run spread mode-major or in a fixed shuffle. Cells are (exponent,
 * mode) pairs; returns how many. */
#define MS_MAX_CELLS (MS_MODE_COUNT * (MS_MAX_EXPONENT + 1))

static int
visit_order (const MsSweep *sweep, MsCellOrder order, unsigned seed, int cells[][2])
{
  int n = 0;
  bool mode_major = order == MS_ORDER_CELLS_MODE_MAJOR;
  int outer_n = mode_major ? MS_MODE_COUNT : MS_MAX_EXPONENT + 1;
  int inner_n = mode_major ? MS_MAX_EXPONENT + 1 : MS_MODE_COUNT;
  for (int o = 0; o < outer_n; o++)
    for (int i = 0; i < inner_n; i++) {
      int e = mode_major ? i : o, m = mode_major ? o : i;
      if (sweep->modes[m] && e >= sweep->min_exp && e <= sweep->max_exp &&
          (e - sweep->min_exp) % sweep->step == 0) {
        cells[n][0] = e;
        cells[n][1] = m;
        n++;
      }
    }
  /* Fisher-Yates: with the fixed seed every run visits the same order. */
  for (int i = n - 1; order == MS_ORDER_CELLS_SHUFFLED && i > 0; i--) {
    seed = seed * 1103515245u + 12345u;
    int j = (int) ((seed >> 8) % (unsigned) (i + 1)), e = cells[i][0], m = cells[i][1];
    cells[i][0] = cells[j][0];
    cells[i][1] = cells[j][1];
    cells[j][0] = e;
    cells[j][1] = m;
  }
  return n;
}

#define MS_FIXED_ORDER_SEED 12345u

/* A round of a run that varies its placement: its cells in an order of
 * their own, measured from a CPU drawn afresh. The seed is drawn once per
 * process, so that two processes do not repeat each other's draws. */
static int
vary_placement (const MsSweep *sweep, MsGpuKeeper *k, int order[][2])
{
  if (!k->placement_seed) {
    struct timespec ts;
    clock_gettime (CLOCK_MONOTONIC, &ts);
    k->placement_seed = (unsigned) ts.tv_nsec ^ ((unsigned) getpid () << 16) ^ 1u;
  }
  if (CPU_COUNT (&k->allowed) > 0) {
    int cpu = ms_pin_thread_random (k->nvml, &k->allowed, &k->placement_seed);
    if (cpu >= 0)
      set_helper_cpus (k, cpu);
  }
  return visit_order (sweep, MS_ORDER_CELLS_SHUFFLED, rand_r (&k->placement_seed), order);
}

/* One cell of one round, merged into the results; NULL when out of memory. */
static const MsCell *
visit_cell (const MsSweep *sweep, MsGpuKeeper *k, const MsDeviceInfo *info, MsResults *results,
            int e, MsMode m, int round, atomic_int *cancel)
{
  MsCell cell = { 0 };
  MsKnobs knobs;
  ms_sweep_cell_knobs (sweep, m, &knobs, cell.variant, sizeof cell.variant);
  const MsCell *prev = ms_results_find_variant (results, m, e, cell.variant);
  cell.mode = m;
  cell.exponent = e;
  cell.elements = 1ull << e;
  /* A cell that cannot run once is not run again. */
  if (!prev || prev->status == MS_CELL_OK)
    run_cell_in_round (sweep, &knobs, k, info, &cell, round, cancel);
  double t0 = ms_ledger_now ();
  const MsCell *merged = prev && prev->status != MS_CELL_OK ? prev
                                                             : merge_round (results, &cell, round);
  ms_ledger_since (MS_LEDGER_MERGE, t0);
  ms_cell_clear (&cell);
  return merged;
}

static MsRunStatus
run_rounds (const MsSweep *sweep, MsGpuKeeper *k, const MsDeviceInfo *info, MsResults *results,
            MsProgressFunc progress, void *user_data, atomic_int *cancel, char *err,
            size_t errlen)
{
  int n_cells = ms_sweep_n_cells (sweep) * sweep->rounds;
  int index = 0;
  int order[MS_MAX_CELLS][2];
  int n_order = visit_order (sweep, k->x->order, MS_FIXED_ORDER_SEED, order);
  for (int round = 0; round < sweep->rounds; round++) {
    if (sweep->vary == MS_VARY_PLACEMENT)
      n_order = vary_placement (sweep, k, order);
    for (int c = 0; c < n_order; c++) {
      const MsCell *merged = visit_cell (sweep, k, info, results, order[c][0],
                                         (MsMode) order[c][1], round, cancel);
      if (!merged) {
        snprintf (err, errlen, ms_gettext ("out of memory for the results"));
        return MS_RUN_CANCELLED;
      }
      double t0 = ms_ledger_now ();
      if (progress)
        progress (index, n_cells, merged, user_data);
      ms_ledger_since (MS_LEDGER_PROGRESS, t0);
      index++;
      if (cancel_requested (cancel)) {
        /* The cell that saw the cancel is not finished unless it says so (a
         * partial cell kept some repetitions but is not finished). */
        bool cut = merged->status == MS_CELL_CANCELLED || merged->status == MS_CELL_PARTIAL;
        int done = cut ? index - 1 : index;
        snprintf (err, errlen, ms_gettext ("cancelled after %d of %d cells"), done, n_cells);
        return MS_RUN_CANCELLED;
      }
    }
  }
  return MS_RUN_OK;
}

/* Pageable buffers on fresh pages: the C library otherwise hands a freed
 * buffer's pages to the next one of its size (PITFALLS 29), so every
 * round would copy from the same physical pages. Every block from a page
 * up is then mapped afresh and unmapped when freed. Off again, the
 * threshold stays fixed at glibc's default instead of adapting. */
static void
fresh_pages (bool on)
{
  /* Atomic: the sweeps of several GPUs (ms-multi.c) call it at once, and
   * the threshold is the process's. */
  static atomic_bool was_on;
  if (atomic_exchange (&was_on, on) || on)
    mallopt (M_MMAP_THRESHOLD, on ? 4096 : 128 * 1024);
}

MsRunStatus
ms_sweep_run (const MsSweep *sweep, MsBackend *backend, MsProgressFunc progress,
              void *user_data, atomic_int *cancel, MsResults **out, char *err, size_t errlen)
{
  *out = NULL;
  if (!ms_sweep_validate (sweep, err, errlen))
    return MS_RUN_INVALID;
  /* A switch of an experiment that does not parse stops the sweep before
   * anything is measured or written. */
  const MsExperiment *x = ms_experiment_get (err, errlen);
  if (!x)
    return MS_RUN_INVALID;

  MsDeviceInfo info;
  double t0 = ms_ledger_now ();
  bool have_device = ms_backend_query_device (backend, sweep->device, &info);
  ms_ledger_since (MS_LEDGER_QUERY, t0);
  bool wants_gpu = ms_sweep_uses_gpu (sweep);

  MsGpuKeeper keeper = { .backend = backend,
                         .device = sweep->device,
                         .cancel = cancel,
                         .x = x,
                         .measuring_cpu = -1 };
  cpu_set_t saved;
  CPU_ZERO (&saved);
  t0 = ms_ledger_now ();
  if (!wants_gpu || have_device)
    prepare_gpu (&keeper, &info, wants_gpu && have_device, &saved);
  ms_ledger_since (MS_LEDGER_PREPARE, t0);
  fresh_pages (sweep->vary == MS_VARY_PLACEMENT);
  MsResults *results = ms_results_new (sweep, &info);
  MsRunStatus status = MS_RUN_INVALID;
  t0 = ms_ledger_now ();
  if (results && wants_gpu && have_device)
    ms_link_counters_read (keeper.nvml, info.pci_bus_id, results, true);
  ms_ledger_since (MS_LEDGER_LINK_COUNT, t0);
  if (!results)
    snprintf (err, errlen, ms_gettext ("out of memory"));
  else if (wants_gpu && !have_device) {
    snprintf (err, errlen, ms_gettext ("no usable CUDA device: %s"), info.error);
    status = MS_RUN_NO_DEVICE;
  } else {
    status = run_rounds (sweep, &keeper, &info, results, progress, user_data, cancel, err,
                         errlen);
  }
  t0 = ms_ledger_now ();
  if (results && wants_gpu && have_device)
    ms_link_counters_read (keeper.nvml, info.pci_bus_id, results, false);
  ms_ledger_since (MS_LEDGER_LINK_COUNT, t0);
  if (backend->release_kept)
    backend->release_kept (backend);
  if (keeper.node_preferred)
    ms_prefer_node (-1);
  ms_unpin_thread (&saved);
  fresh_pages (false);
  note_measuring_cpu (&keeper, -1);
  ms_data_set_helper_cpus (NULL, 0);
  ms_data_set_threads (0);
  ms_nvml_close (keeper.nvml);
  ms_ledger_print (stderr);
  *out = results;
  return status;
}
