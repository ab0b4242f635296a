/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-cell-driver.c: the rules of engine/run/ms-cell-driver.c, driven through
 * the test backend and the runner: warm-ups discarded, timing origins, alloc
 * in repetition 0 and free in the last kept one, a stop at every step, a
 * fault at every step, partial cells (also through CSV), memory sized by
 * what a cell records, and which repetitions run with timers and check
 * their result. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <unistd.h>
#include <glib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "memsweep.h"
#include "ms-backend-test.h"
#include "ms-backend-private.h"
#include "ms-tmp-test.h"
#include "ms-sweep-test.h"
#include "files/ms-csv-io.h"
#include "model/ms-results.h"
#include "ms-modes.h"
#include "run/ms-backend.h"
#include "run/ms-cell-driver.h"
#include "run/ms-runner.h"
#include "lessons/ms-run-read.h"

enum { WARMUP = 2, REPS = 3 };

typedef struct {
  MsResults *results;
  MsRunStatus status;
  long live;  /* buffers left allocated */
  long steps; /* steps the backend started */
  long runs;  /* repetitions the backend started */
} Outcome;

/* One mode at 2^12 (2^12 and 2^13 with two_cells), WARMUP and REPS. */
static Outcome
run_mode (MsMode mode, const MsTestBackendConfig *cfg, bool two_cells)
{
  MsSweep s;
  Outcome o = { 0 };
  char err[256];
  atomic_int cancel = 0;
  ms_test_sweep_init (&s, ms_mode_name (mode), 12, two_cells ? 13 : 12, REPS);
  s.warmup = WARMUP;
  s.streams = 4;
  MsBackend *b = ms_backend_new_test (cfg);
  o.status = ms_sweep_run (&s, b, NULL, NULL, &cancel, &o.results, err, sizeof err);
  o.live = ms_test_backend_live_buffers (b);
  o.steps = ms_test_backend_steps (b);
  ms_backend_free (b);
  return o;
}

/* The phases of one repetition in the order the backend runs them, from a
 * clean run: repetition 0's events between alloc and free. */
static int
phase_sequence (const MsCell *c, MsPhase *seq, int max)
{
  int n = 0;
  for (size_t i = 0; i < c->n_events && n < max; i++) {
    const MsEvent *ev = &c->events[i];
    if (ev->rep == 0 && ev->phase != MS_PHASE_ALLOC && ev->phase != MS_PHASE_FREE)
      seq[n++] = ev->phase;
  }
  return n;
}

/* Alloc once in repetition 0, free once in the last kept one (after its
 * other events on its clock), every other event in a kept repetition, and
 * per_rep events for each. */
static void
check_kept_events (const MsCell *c, int kept, int per_rep, const char *what)
{
  int allocs = 0, frees = 0, other = 0, free_rep = -1;
  double free_start = -1, last_end = 0;
  for (size_t i = 0; i < c->n_events; i++) {
    const MsEvent *ev = &c->events[i];
    g_assert_cmpint (ev->rep, >=, 0);
    g_assert_cmpint (ev->rep, <, kept);
    if (ev->phase == MS_PHASE_ALLOC) {
      allocs++;
      g_assert_cmpint (ev->rep, ==, 0);
    } else if (ev->phase == MS_PHASE_FREE) {
      frees++;
      free_rep = ev->rep;
      free_start = ev->host_start_us;
    } else {
      other++;
      if (ev->rep == kept - 1 && ev->host_start_us + ev->host_us > last_end)
        last_end = ev->host_start_us + ev->host_us;
    }
  }
  g_assert_cmpint (allocs, ==, 1);
  g_assert_cmpint (frees, ==, 1);
  g_assert_cmpint (free_rep, ==, kept - 1);
  g_assert_cmpfloat (free_start, >=, last_end);
  g_assert_cmpint (other, ==, kept * per_rep);
  g_assert_cmpint (c->n_reps, ==, kept);
  g_assert_cmpint (c->stats.e2e.n, ==, kept);
}

static void
test_warmups_and_origins (void)
{
  MsTestBackendConfig cfg;
  ms_test_backend_config_init (&cfg);
  Outcome o = run_mode (MS_MODE_REGISTERED, &cfg, false);
  g_assert_cmpint (o.status, ==, MS_RUN_OK);
  g_assert_cmpint (o.live, ==, 0);
  const MsCell *c = &o.results->cells[0];
  MsPhase seq[64];
  int per_rep = phase_sequence (c, seq, 64);
  g_assert_cmpint (per_rep, ==, 7);
  g_assert_cmpint (c->status, ==, MS_CELL_OK);
  check_kept_events (c, REPS, per_rep, "full run");
  /* Every repetition is a plain and an instrumented one: twice the steps. */
  g_assert_true (o.steps == 1 + (WARMUP + REPS) * 2 * per_rep);

  /* Repetition 0 keeps the cell's origin: alloc at 0, and its own phases
   * after the warm-ups; later repetitions start a new origin at 0. */
  double first_start[REPS];
  for (int r = 0; r < REPS; r++)
    first_start[r] = -1;
  for (size_t i = 0; i < c->n_events; i++) {
    const MsEvent *ev = &c->events[i];
    if (ev->phase == MS_PHASE_ALLOC)
      g_assert_cmpfloat (ev->host_start_us, ==, 0);
    else if (ev->phase != MS_PHASE_FREE && first_start[ev->rep] < 0)
      first_start[ev->rep] = ev->host_start_us;
  }
  g_assert_cmpfloat (first_start[1], ==, 0);
  g_assert_cmpfloat (first_start[2], ==, 0);
  g_assert_cmpfloat (first_start[0], >, 2 * 100);
  ms_results_free (o.results);
}

/* A clean run of mode: the phases of one repetition, and the steps of the
 * whole cell, which the loops below stop or fail one by one. */
static long
clean_run (MsMode mode, MsTestBackendConfig *cfg, MsPhase *seq, int *per_rep)
{
  ms_test_backend_config_init (cfg);
  Outcome full = run_mode (mode, cfg, false);
  *per_rep = phase_sequence (&full.results->cells[0], seq, 512);
  ms_results_free (full.results);
  g_assert_true (full.steps == 1 + (WARMUP + REPS) * 2 * *per_rep);
  return full.steps;
}

/* Expected repetitions kept when step k (0: alloc) is the first not run:
 * a repetition is kept once its plain and its instrumented run are done. */
static int
kept_before_step (long k, int per_rep)
{
  if (k == 0)
    return 0;
  long full = (k - 1) / (2 * per_rep) - WARMUP;
  return full < 0 ? 0 : full > REPS ? REPS : (int) full;
}

/* A cancel before every step of a cell: the stopped cell keeps exactly the
 * repetitions that finished, frees everything, and says so. */
static void
check_stop_everywhere (MsMode mode)
{
  MsTestBackendConfig cfg;
  MsPhase seq[512];
  int per_rep;
  long total = clean_run (mode, &cfg, seq, &per_rep);

  for (long k = 0; k <= total; k++) {
    char what[96];
    snprintf (what, sizeof what, "%s stopped before step %ld", ms_mode_name (mode), k);
    cfg.cancel_at_step = k;
    Outcome o = run_mode (mode, &cfg, false);
    const MsCell *c = &o.results->cells[0];
    int kept = k == total ? REPS : kept_before_step (k, per_rep);
    g_assert_cmpint (o.live, ==, 0);
    if (k == total) {
      /* The flag was never set: the cell ran to the end. */
      g_assert_cmpint (o.status, ==, MS_RUN_OK);
      g_assert_cmpint (c->status, ==, MS_CELL_OK);
    } else if (kept == 0) {
      g_assert_cmpint (o.status, ==, MS_RUN_CANCELLED);
      g_assert_cmpint (c->status, ==, MS_CELL_CANCELLED);
      g_assert_true (c->n_reps == 0);
      g_assert_true (c->n_events == 0);
      g_assert_cmpstr (c->message, ==, "cancelled");
    } else {
      char want[96];
      snprintf (want, sizeof want, "cancelled after %d of %d repetitions", kept, REPS);
      g_assert_cmpint (o.status, ==, MS_RUN_CANCELLED);
      g_assert_cmpint (c->status, ==, MS_CELL_PARTIAL);
      g_assert_cmpstr (c->message, ==, want);
      check_kept_events (c, kept, per_rep, what);
    }
    ms_results_free (o.results);
  }
}

/* One mode of each shape: explicit copies, extra host phases, streams,
 * the CPU. */
static const MsMode shapes[] = { MS_MODE_PINNED, MS_MODE_REGISTERED, MS_MODE_STREAMS,
                                 MS_MODE_HOST };

static void
test_stop_at_every_step (void)
{
  for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
    check_stop_everywhere (shapes[i]);
}

/* Where a failure at step k happened, as the runner words it. */
static void
describe_step (long k, int per_rep, const MsPhase *seq, char *buf, size_t len)
{
  MsPhase phase = k == 0 ? MS_PHASE_ALLOC : seq[(k - 1) % per_rep];
  int rep = k == 0 ? -WARMUP : (int) ((k - 1) / (2 * per_rep)) - WARMUP;
  if (k == 0)
    snprintf (buf, len, "injected fault in alloc before the first repetition");
  else if (rep < 0)
    snprintf (buf, len, "injected fault in %s in a warm-up run", ms_phase_name (phase));
  else
    snprintf (buf, len, "injected fault in %s in repetition %d", ms_phase_name (phase),
              rep + 1);
}

/* A fault at every step: the cell fails, keeps nothing, frees everything,
 * and the next cell runs. */
static void
check_fault_everywhere (MsMode mode)
{
  MsTestBackendConfig cfg;
  MsPhase seq[512];
  int per_rep;
  long total = clean_run (mode, &cfg, seq, &per_rep);

  for (long k = 0; k < total; k++) {
    char what[96], want[128];
    snprintf (what, sizeof what, "%s fault at step %ld", ms_mode_name (mode), k);
    cfg.fail_at_step = k;
    cfg.fail_status = MS_CELL_FAILED;
    Outcome o = run_mode (mode, &cfg, true);
    const MsCell *c = &o.results->cells[0];
    describe_step (k, per_rep, seq, want, sizeof want);
    g_assert_cmpint (o.status, ==, MS_RUN_OK);
    g_assert_cmpint (o.live, ==, 0);
    g_assert_cmpint (c->status, ==, MS_CELL_FAILED);
    g_assert_cmpint (c->n_reps, ==, 0);
    g_assert_true (c->n_events == 0);
    g_assert_null (c->e2e_us);
    g_assert_cmpstr (c->message, ==, want);
    g_assert_true (o.results->n_cells == 2);
    g_assert_cmpint (o.results->cells[1].status, ==, MS_CELL_OK);
    ms_results_free (o.results);

    /* Wrong results show only where the backend verifies. */
    cfg.fail_status = MS_CELL_VERIFY_FAILED;
    o = run_mode (mode, &cfg, false);
    c = &o.results->cells[0];
    bool at_verify = k > 0 && seq[(k - 1) % per_rep] == MS_PHASE_VERIFY;
    g_assert_true (c->status == (at_verify ? MS_CELL_VERIFY_FAILED : MS_CELL_OK));
    g_assert_true (o.live == 0);
    ms_results_free (o.results);
  }
}

static void
test_fault_at_every_step (void)
{
  for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
    check_fault_everywhere (shapes[i]);
}

/* A partial cell's statistics use its kept repetitions, and it survives a
 * samples file. */
static void
test_partial_cell (void)
{
  MsTestBackendConfig cfg;
  ms_test_backend_config_init (&cfg);
  cfg.cancel_at_run = 2 * (WARMUP + 2); /* the third kept repetition's plain run */
  Outcome o = run_mode (MS_MODE_PINNED, &cfg, true);
  g_assert_cmpint (o.status, ==, MS_RUN_CANCELLED);
  g_assert_cmpuint (o.results->n_cells, ==, 1);
  const MsCell *c = &o.results->cells[0];
  g_assert_cmpint (c->status, ==, MS_CELL_PARTIAL);
  g_assert_cmpint (c->n_reps, ==, 2);
  double want_h2d = cfg.latency_us + 2.0 * 4096 * 4 / (cfg.bandwidth_gbps[MS_MODE_PINNED] * 1e3);
  g_assert_cmpint (c->stats.phase[MS_PHASE_H2D].n, ==, 2);
  g_assert_cmpfloat (fabs ((double)(c->stats.phase[MS_PHASE_H2D].median) - (double)(want_h2d)), <=,
                     1e-9);
  g_assert_true (c->stats.h2d_gbps > 0);
  g_assert_true (c->stats.e2e.median > 0);

  const char *path = ms_test_tmp_path ("partial-samples.csv");
  char err[256] = "";
  g_assert_true (ms_csv_write_samples (o.results, path, err, sizeof err));
  MsResults *back = ms_run_read_samples (path, err, sizeof err);
  g_assert_true (back);
  g_assert_true (back->n_cells == 1);
  if (back && back->n_cells == 1) {
    const MsCell *b = &back->cells[0];
    g_assert_cmpint (b->status, ==, MS_CELL_PARTIAL);
    g_assert_cmpint (b->n_reps, ==, 2);
    g_assert_true (b->n_events == c->n_events);
    /* The file keeps microseconds to three decimals. */
    g_assert_cmpfloat (fabs ((double)(b->stats.e2e.median) - (double)(c->stats.e2e.median)), <=,
                       0.5e-3);
  }
  ms_results_free (back);
  ms_results_free (o.results);
}

/* Memory follows what the cell records, not a bound per repetition: the
 * host mode at 100000 repetitions with 64 streams set records 3 events a
 * repetition and reserves at most twice that. */
static void
test_memory_per_mode (void)
{
  MsTestBackendConfig cfg;
  ms_test_backend_config_init (&cfg);
  MsBackend *b = ms_backend_new_test (&cfg);
  MsRunArgs args = {
    .mode = MS_MODE_HOST, .n = 1, .streams = MS_MAX_STREAMS, .warmup = 0, .reps = MS_MAX_REPS
  };
  MsRunOutput out;
  MsCellStatus st = b->run_cell (b, &args, &out);
  g_assert_cmpint (st, ==, MS_CELL_OK);
  g_assert_true (out.n_reps == MS_MAX_REPS);
  g_assert_cmpuint (out.n_events, ==, 2 + 3 * (size_t)MS_MAX_REPS);
  g_assert_cmpuint (out.cap_events, <=, 2 * out.n_events);
  ms_run_output_clear (&out);
  g_assert_null (out.events);
  g_assert_null (out.e2e_us);
  g_assert_true (out.n_events == 0);
  ms_backend_free (b);
}

/* The test backend's timers cost a known 7.5 us: the cell's end-to-end
 * times are the plain ones, the overhead is exactly that, and the phases
 * stay as they were (check_kept_events: no plain repetition keeps any). */
static void
test_instrumentation_overhead (void)
{
  MsTestBackendConfig cfg;
  ms_test_backend_config_init (&cfg);
  Outcome plain = run_mode (MS_MODE_PINNED, &cfg, false);
  cfg.instr_cost_us = 7.5;
  Outcome o = run_mode (MS_MODE_PINNED, &cfg, false);
  const MsCell *p = &plain.results->cells[0], *c = &o.results->cells[0];
  g_assert_true (c->status == MS_CELL_OK && c->n_reps == REPS && c->e2e_instr_us);
  g_assert_cmpfloat_with_epsilon (c->stats.e2e.median, p->stats.e2e.median, 1e-9);
  g_assert_cmpfloat_with_epsilon (c->stats.e2e_instr.median, p->stats.e2e.median + 7.5, 1e-9);
  double ratio = 0, diff = 0;
  g_assert_true (ms_cell_instr_overhead (c, &ratio, &diff));
  g_assert_cmpfloat_with_epsilon (diff, 7.5, 1e-9);
  g_assert_cmpfloat_with_epsilon (ratio, (p->stats.e2e.median + 7.5) / p->stats.e2e.median, 1e-12);
  g_assert_true (ms_cell_instr_overhead (p, &ratio, &diff) && diff == 0 && ratio == 1);
  g_assert_true (c->n_events == p->n_events);
  ms_results_free (plain.results);
  ms_results_free (o.results);
}

/* With instr_reps, only the first kept repetitions are pairs: the rest are
 * plain alone, keep no events and no instrumented time, and the free event
 * belongs to the last instrumented one. */
static void
test_first_reps_instrumented (void)
{
  MsTestBackendConfig cfg;
  ms_test_backend_config_init (&cfg);
  cfg.instr_cost_us = 7.5;
  MsBackend *b = ms_backend_new_test (&cfg);
  MsRunArgs args = { .mode = MS_MODE_PINNED, .n = 4096, .warmup = 1, .reps = 6, .instr_reps = 2 };
  MsRunOutput out;
  g_assert_cmpint (b->run_cell (b, &args, &out), ==, MS_CELL_OK);
  g_assert_cmpint (out.n_reps, ==, 6);
  int frees = 0;
  for (size_t i = 0; i < out.n_events; i++) {
    g_assert_cmpint (out.events[i].rep, >=, 0);
    g_assert_cmpint (out.events[i].rep, <, 2);
    frees += out.events[i].phase == MS_PHASE_FREE && out.events[i].rep == 1;
  }
  g_assert_cmpint (frees, ==, 1);
  for (int r = 0; r < 6; r++) {
    g_assert_cmpfloat (out.e2e_us[r], >, 0);
    if (r < 2)
      g_assert_cmpfloat_with_epsilon (out.e2e_instr_us[r], out.e2e_us[r] + 7.5, 1e-9);
    else
      g_assert_cmpfloat (out.e2e_instr_us[r], <, 0);
  }
  ms_run_output_clear (&out);
  ms_backend_free (b);
}

/* A mode that only notes what the driver asks of each repetition. */
typedef struct {
  int n;
  int rep[64];
  bool instrumented[64], verifies[64];
} Asked;

static MsCellStatus
asked_alloc (void *data, MsCellDriver *drv)
{
  (void) data;
  (void) drv;
  return MS_CELL_OK;
}

static MsCellStatus
asked_rep (void *data, MsCellDriver *drv)
{
  Asked *a = data;
  g_assert_cmpint (a->n, <, 64);
  a->rep[a->n] = ms_cell_driver_rep (drv);
  a->instrumented[a->n] = ms_cell_driver_instrumented (drv);
  a->verifies[a->n++] = ms_cell_driver_verifies (drv);
  ms_cell_driver_set_e2e (drv, 10);
  return MS_CELL_OK;
}

static void
asked_release (void *data, MsCellDriver *drv)
{
  (void) data;
  (void) drv;
}

/* Warm-ups are plain alone unless the cell warms the timers' path; every
 * instrumented repetition checks its result, and of the kept plain ones
 * every MS_VERIFY_EVERY-th from the first; no warm-up checks. A cell that
 * runs every repetition alike (managed memory) checks every one and warms
 * with timers. */
static void
test_warmups_and_checks (void)
{
  static const MsCellOps ops = { .alloc = asked_alloc, .rep = asked_rep,
                                 .release = asked_release };
  for (int way = 0; way < 3; way++) {
    bool warm = way == 1, alike = way == 2;
    Asked a = { 0 };
    MsRunArgs args = { .mode = MS_MODE_PINNED, .n = 1024, .warmup = 2, .reps = 9,
                       .instr_reps = 2, .warm_timers = warm, .every_rep_alike = alike };
    MsRunOutput out;
    g_assert_cmpint (ms_cell_driver_run (&ops, &a, &args, &out), ==, MS_CELL_OK);
    g_assert_cmpint (out.n_reps, ==, 9);
    int plain_checked = 0, warmups = 0;
    for (int i = 0; i < a.n; i++) {
      if (a.rep[i] < 0) {
        warmups++;
        g_assert_true (a.instrumented[i] == ((warm || alike) && i % 2 == 1));
        g_assert_true (a.verifies[i] == (a.instrumented[i] || alike));
      } else if (a.instrumented[i]) {
        g_assert_cmpint (a.rep[i], <, 2);
        g_assert_true (a.verifies[i]);
      } else {
        g_assert_true (a.verifies[i] == (alike || a.rep[i] % MS_VERIFY_EVERY == 0));
        plain_checked += a.verifies[i];
      }
    }
    g_assert_cmpint (warmups, ==, warm || alike ? 4 : 2);
    g_assert_cmpint (plain_checked, ==, alike ? 9 : (9 + MS_VERIFY_EVERY - 1) / MS_VERIFY_EVERY);
    g_assert_cmpint (a.n, ==, warmups + 9 + 2);
    ms_run_output_clear (&out);
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/cell-driver/warmups-and-origins", test_warmups_and_origins);
  g_test_add_func ("/cell-driver/stop-at-every-step", test_stop_at_every_step);
  g_test_add_func ("/cell-driver/fault-at-every-step", test_fault_at_every_step);
  g_test_add_func ("/cell-driver/partial-cell", test_partial_cell);
  g_test_add_func ("/cell-driver/memory-per-mode", test_memory_per_mode);
  g_test_add_func ("/cell-driver/instrumentation-overhead", test_instrumentation_overhead);
  g_test_add_func ("/cell-driver/first-reps-instrumented", test_first_reps_instrumented);
  g_test_add_func ("/cell-driver/warmups-and-checks", test_warmups_and_checks);
  int rc = g_test_run ();
  return rc;
}
