/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-cell-driver.c: the rules of engine/ms-cell-driver.c, driven through
 * the test backend and the runner: warm-ups discarded, timing origins, alloc
 * in repetition 0 and free in the last kept one, a stop at every step, a
 * fault at every step, partial cells (also through CSV) and memory sized by
 * what a cell records. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <unistd.h>

#include "memsweep.h"
#include "ms-backend-test.h"
#include "ms-backend.h"
#include "ms-test.h"

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
  ms_sweep_init_default (&s);
  memset (s.modes, 0, sizeof s.modes);
  s.modes[mode] = true;
  s.min_exp = 12;
  s.max_exp = two_cells ? 13 : 12;
  s.warmup = WARMUP;
  s.reps = REPS;
  s.reps_rule = MS_REPS_FIXED;
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
    MS_CHECK (ev->rep >= 0 && ev->rep < kept, "%s: event of repetition %d kept", what, ev->rep);
    if (ev->phase == MS_PHASE_ALLOC) {
      allocs++;
      MS_CHECK (ev->rep == 0, "%s: alloc in repetition %d", what, ev->rep);
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
  MS_CHECK (allocs == 1 && frees == 1, "%s: alloc %d free %d", what, allocs, frees);
  MS_CHECK (free_rep == kept - 1, "%s: free in repetition %d, want %d", what, free_rep,
            kept - 1);
  MS_CHECK (free_start >= last_end, "%s: free at %g before the end %g of its repetition", what,
            free_start, last_end);
  MS_CHECK (other == kept * per_rep, "%s: %d phase events, want %d", what, other,
            kept * per_rep);
  MS_CHECK (c->n_reps == kept && c->stats.e2e.n == kept, "%s: %d reps, e2e over %d", what,
            c->n_reps, c->stats.e2e.n);
}

static void
test_warmups_and_origins (void)
{
  MsTestBackendConfig cfg;
  ms_test_backend_config_init (&cfg);
  Outcome o = run_mode (MS_MODE_REGISTERED, &cfg, false);
  MS_CHECK (o.status == MS_RUN_OK && o.live == 0, "status %d live %ld", o.status, o.live);
  const MsCell *c = &o.results->cells[0];
  MsPhase seq[64];
  int per_rep = phase_sequence (c, seq, 64);
  MS_CHECK (per_rep == 7, "registered: %d phases per repetition", per_rep);
  MS_CHECK (c->status == MS_CELL_OK, "status %s", ms_cell_status_name (c->status));
  check_kept_events (c, REPS, per_rep, "full run");
  /* Every repetition is a plain and an instrumented one: twice the steps. */
  MS_CHECK (o.steps == 1 + (WARMUP + REPS) * 2 * per_rep, "steps %ld: warm-ups ran", o.steps);

  /* Repetition 0 keeps the cell's origin: alloc at 0, and its own phases
   * after the warm-ups; later repetitions start a new origin at 0. */
  double first_start[REPS];
  for (int r = 0; r < REPS; r++)
    first_start[r] = -1;
  for (size_t i = 0; i < c->n_events; i++) {
    const MsEvent *ev = &c->events[i];
    if (ev->phase == MS_PHASE_ALLOC)
      MS_CHECK (ev->host_start_us == 0, "alloc at %g", ev->host_start_us);
    else if (ev->phase != MS_PHASE_FREE && first_start[ev->rep] < 0)
      first_start[ev->rep] = ev->host_start_us;
  }
  MS_CHECK (first_start[1] == 0 && first_start[2] == 0, "later origins %g %g", first_start[1],
            first_start[2]);
  MS_CHECK (first_start[0] > 2 * 100, "repetition 0 starts at %g, after the warm-ups",
            first_start[0]);
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
  MS_CHECK (full.steps == 1 + (WARMUP + REPS) * 2 * *per_rep, "%s: %ld steps",
            ms_mode_name (mode), full.steps);
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
    MS_CHECK (o.live == 0, "%s: %ld buffers left", what, o.live);
    if (k == total) {
      /* The flag was never set: the cell ran to the end. */
      MS_CHECK (o.status == MS_RUN_OK && c->status == MS_CELL_OK, "%s: %d", what, o.status);
    } else if (kept == 0) {
      MS_CHECK (o.status == MS_RUN_CANCELLED && c->status == MS_CELL_CANCELLED, "%s: %s", what,
                ms_cell_status_name (c->status));
      MS_CHECK (c->n_reps == 0 && c->n_events == 0, "%s: keeps nothing", what);
      MS_CHECK_STR (c->message, "cancelled");
    } else {
      char want[96];
      snprintf (want, sizeof want, "cancelled after %d of %d repetitions", kept, REPS);
      MS_CHECK (o.status == MS_RUN_CANCELLED && c->status == MS_CELL_PARTIAL, "%s: %s", what,
                ms_cell_status_name (c->status));
      MS_CHECK_STR (c->message, want);
      check_kept_events (c, kept, per_rep, what);
    }
    ms_results_free (o.results);
    if (ms_test_failures > 20)
      return;
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
    MS_CHECK (o.status == MS_RUN_OK && o.live == 0, "%s: status %d live %ld", what, o.status,
              o.live);
    MS_CHECK (c->status == MS_CELL_FAILED && c->n_reps == 0 && c->n_events == 0 &&
                c->e2e_us == NULL, "%s: %s keeps %d reps", what,
              ms_cell_status_name (c->status), c->n_reps);
    MS_CHECK_STR (c->message, want);
    MS_CHECK (o.results->n_cells == 2 && o.results->cells[1].status == MS_CELL_OK,
              "%s: next cell", what);
    ms_results_free (o.results);

    /* Wrong results show only where the backend verifies. */
    cfg.fail_status = MS_CELL_VERIFY_FAILED;
    o = run_mode (mode, &cfg, false);
    c = &o.results->cells[0];
    bool at_verify = k > 0 && seq[(k - 1) % per_rep] == MS_PHASE_VERIFY;
    MS_CHECK (c->status == (at_verify ? MS_CELL_VERIFY_FAILED : MS_CELL_OK) && o.live == 0,
              "%s: wrong results give %s", what, ms_cell_status_name (c->status));
    ms_results_free (o.results);
    if (ms_test_failures > 20)
      return;
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
  MS_CHECK (o.status == MS_RUN_CANCELLED && o.results->n_cells == 1, "status %d, %zu cells",
            o.status, o.results->n_cells);
  const MsCell *c = &o.results->cells[0];
  MS_CHECK (c->status == MS_CELL_PARTIAL && c->n_reps == 2, "%s with %d reps",
            ms_cell_status_name (c->status), c->n_reps);
  double want_h2d = cfg.latency_us + 2.0 * 4096 * 4 / (cfg.bandwidth_gbps[MS_MODE_PINNED] * 1e3);
  MS_CHECK (c->stats.phase[MS_PHASE_H2D].n == 2, "h2d over %d", c->stats.phase[MS_PHASE_H2D].n);
  MS_CHECK_NEAR (c->stats.phase[MS_PHASE_H2D].median, want_h2d, 1e-9);
  MS_CHECK (c->stats.h2d_gbps > 0 && c->stats.e2e.median > 0, "rates");

  char path[] = "/tmp/memsweep-partial-XXXXXX";
  int fd = mkstemp (path);
  char err[256] = "";
  MS_CHECK (fd >= 0 && ms_csv_write_samples (o.results, path, err, sizeof err), "write: %s", err);
  MsResults *back = ms_csv_read_samples (path, err, sizeof err);
  MS_CHECK (back && back->n_cells == 1, "read: %s", err);
  if (back && back->n_cells == 1) {
    const MsCell *b = &back->cells[0];
    MS_CHECK (b->status == MS_CELL_PARTIAL && b->n_reps == 2 && b->n_events == c->n_events,
              "read back %s, %d reps", ms_cell_status_name (b->status), b->n_reps);
    MS_CHECK_NEAR (b->stats.e2e.median, c->stats.e2e.median, 1e-6);
  }
  ms_results_free (back);
  if (fd >= 0) {
    close (fd);
    unlink (path);
  }
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
  MS_CHECK (st == MS_CELL_OK && out.n_reps == MS_MAX_REPS, "status %d", st);
  MS_CHECK (out.n_events == 2 + 3 * (size_t) MS_MAX_REPS, "events %zu", out.n_events);
  MS_CHECK (out.cap_events <= 2 * out.n_events, "reserved %zu for %zu", out.cap_events,
            out.n_events);
  ms_run_output_clear (&out);
  MS_CHECK (out.events == NULL && out.e2e_us == NULL && out.n_events == 0, "cleared");
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
  MS_CHECK (c->status == MS_CELL_OK && c->n_reps == REPS && c->e2e_instr_us, "status %s",
            ms_cell_status_name (c->status));
  MS_CHECK_NEAR (c->stats.e2e.median, p->stats.e2e.median, 1e-9);
  MS_CHECK_NEAR (c->stats.e2e_instr.median, p->stats.e2e.median + 7.5, 1e-9);
  double ratio = 0, diff = 0;
  MS_CHECK (ms_cell_instr_overhead (c, &ratio, &diff), "overhead known");
  MS_CHECK_NEAR (diff, 7.5, 1e-9);
  MS_CHECK_NEAR (ratio, (p->stats.e2e.median + 7.5) / p->stats.e2e.median, 1e-12);
  MS_CHECK (ms_cell_instr_overhead (p, &ratio, &diff) && diff == 0 && ratio == 1,
            "no cost: ratio %g", ratio);
  MS_CHECK (c->n_events == p->n_events, "the same events with the cost: %zu %zu",
            c->n_events, p->n_events);
  ms_results_free (plain.results);
  ms_results_free (o.results);
}

int
main (void)
{
  MS_RUN (test_instrumentation_overhead);
  MS_RUN (test_warmups_and_origins);
  MS_RUN (test_stop_at_every_step);
  MS_RUN (test_fault_at_every_step);
  MS_RUN (test_partial_cell);
  MS_RUN (test_memory_per_mode);
  return ms_test_finish ();
}
