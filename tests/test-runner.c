/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-runner.c: statistics, the fit, host data, and the runner driven by
 * the test backend through the real cell driver: progress, faults,
 * unsupported modes, refusals, cancel. */
#include "memsweep.h"
#include "ms-backend-test.h"
#include "ms-data.h"
#include "ms-test.h"

static void
small_sweep (MsSweep *s)
{
  ms_sweep_init_default (s);
  s->min_exp = 10;
  s->max_exp = 14;
  s->reps = 5;
  s->reps_rule = MS_REPS_FIXED;
  s->warmup = 1;
}

static void
test_stats (void)
{
  double odd[] = { 5, 1, 3 }, even[] = { 4, 1, 3, 2 };
  MsStat st = ms_stat_compute (odd, 3);
  MS_CHECK (st.n == 3 && st.median == 3 && st.min == 1 && st.max == 5, "odd");
  st = ms_stat_compute (even, 4);
  MS_CHECK (st.median == 2.5 && st.min == 1 && st.max == 4, "even %g", st.median);
  st = ms_stat_compute (NULL, 0);
  MS_CHECK (st.n == 0 && st.median == 0, "empty");
}

static void
test_data (void)
{
  enum { N = 5000 };
  static float a[N], b[N], c[N];
  uint64_t first = 99;
  ms_data_fill (a, b, N);
  for (int i = 0; i < N; i++) {
    MS_CHECK (a[i] >= 1 && a[i] < 2 && b[i] >= 2 && b[i] < 4, "range at %d", i);
    if (a[i] == b[i] || a[i] == 0)
      break;
    c[i] = a[i] + b[i];
  }
  MS_CHECK (a[0] != a[1] && a[1] != a[2], "inputs vary");
  MS_CHECK (ms_data_verify (c, N, &first) == 0 && first == 0, "clean");
  c[1234] = 0;
  c[4000] += 1;
  MS_CHECK (ms_data_verify (c, N, &first) == 2, "two wrong");
  MS_CHECK (first == 1234, "first %llu", (unsigned long long) first);
  ms_data_poison (c, N);
  MS_CHECK (ms_data_verify (c, N, &first) == N && first == 0, "poison never passes");
}

/* The last run's error message. */
static char run_err[256];

static MsResults *
run_test (const MsSweep *sweep, MsTestBackendConfig *cfg, MsRunStatus *status, long *live)
{
  MsBackend *b = ms_backend_new_test (cfg);
  MsResults *r = NULL;
  atomic_int cancel = 0;
  *status = ms_sweep_run (sweep, b, NULL, NULL, &cancel, &r, run_err, sizeof run_err);
  if (live)
    *live = ms_test_backend_live_buffers (b);
  ms_backend_free (b);
  return r;
}

static void
test_fit_recovers_model (void)
{
  MsSweep s;
  MsTestBackendConfig cfg;
  MsRunStatus st;
  small_sweep (&s);
  ms_test_backend_config_init (&cfg);
  MsResults *r = run_test (&s, &cfg, &st, NULL);
  MS_CHECK (st == MS_RUN_OK, "status %d", st);
  /* Non-stream copy modes: h2d (L + 8N/bw) + kernel L + d2h (L + 4N/bw). */
  MsFit fit = ms_results_fit (r, MS_MODE_PINNED, MS_PHASE_COUNT);
  MS_CHECK (fit.valid && fit.n_points == 5, "fit points %d", fit.n_points);
  MS_CHECK_NEAR (fit.latency_us, 3 * cfg.latency_us, 1e-6);
  MS_CHECK_NEAR (fit.bandwidth_gbps, cfg.bandwidth_gbps[MS_MODE_PINNED], 1e-6);
  MS_CHECK_NEAR (fit.r2, 1.0, 1e-9);
  MsFit h2d = ms_results_fit (r, MS_MODE_PINNED, MS_PHASE_H2D);
  MS_CHECK_NEAR (h2d.latency_us, cfg.latency_us, 1e-6);
  MS_CHECK_NEAR (h2d.bandwidth_gbps, cfg.bandwidth_gbps[MS_MODE_PINNED], 1e-6);

  const MsCell *c = ms_results_find (r, MS_MODE_PINNED, 12);
  MS_CHECK (c && c->status == MS_CELL_OK && c->n_reps == 5, "cell");
  double want_h2d_us = cfg.latency_us + 2.0 * 4096 * 4 / (cfg.bandwidth_gbps[MS_MODE_PINNED] * 1e3);
  MS_CHECK_NEAR (c->stats.phase[MS_PHASE_H2D].median, want_h2d_us, 1e-9);
  MS_CHECK_NEAR (c->stats.h2d_gbps, 2.0 * 4096 * 4 / want_h2d_us * 1e-3, 1e-9);
  /* Streams overlap in the model: the whole is less than the parts. */
  const MsCell *sc = ms_results_find (r, MS_MODE_STREAMS, 14);
  MS_CHECK (sc && sc->stats.e2e.median < sc->stats.parts_sum.median, "streams overlap");
  /* Alloc appears once, in repetition 0; free once, in the last. */
  int allocs = 0, frees = 0;
  for (size_t i = 0; i < c->n_events; i++) {
    allocs += c->events[i].phase == MS_PHASE_ALLOC && c->events[i].rep == 0;
    frees += c->events[i].phase == MS_PHASE_FREE && c->events[i].rep == 4;
  }
  MS_CHECK (allocs == 1 && frees == 1, "alloc %d free %d", allocs, frees);
  ms_results_free (r);
}

typedef struct {
  int calls;
  int last_index;
  bool ordered;
  int n;
} ProgressLog;

static void
on_progress (int index, int n, const MsCell *cell, void *user)
{
  ProgressLog *log = user;
  log->ordered = log->ordered && index == log->last_index + 1 && cell != NULL;
  log->last_index = index;
  log->n = n;
  log->calls++;
}

static void
test_progress_and_order (void)
{
  MsSweep s;
  small_sweep (&s);
  MsBackend *b = ms_backend_new_test (NULL);
  MsResults *r = NULL;
  char err[256];
  ProgressLog log = { .last_index = -1, .ordered = true };
  MsRunStatus st = ms_sweep_run (&s, b, on_progress, &log, NULL, &r, err, sizeof err);
  MS_CHECK (st == MS_RUN_OK, "%s", err);
  MS_CHECK (log.calls == 5 * MS_MODE_COUNT && log.n == log.calls && log.ordered, "calls %d",
            log.calls);
  /* Size-major: all modes at 2^10 come first. */
  MS_CHECK (r->cells[0].exponent == 10 && r->cells[MS_MODE_COUNT - 1].exponent == 10 &&
              r->cells[MS_MODE_COUNT].exponent == 11, "order");
  ms_results_free (r);
  ms_backend_free (b);
}

static void
test_faults (void)
{
  MsSweep s;
  MsTestBackendConfig cfg;
  MsRunStatus st;
  long live = -1;
  small_sweep (&s);

  ms_test_backend_config_init (&cfg);
  cfg.fail_mode = MS_MODE_PINNED;
  cfg.fail_exponent = 12;
  cfg.fail_rep = 3;
  cfg.fail_phase = MS_PHASE_H2D;
  MsResults *r = run_test (&s, &cfg, &st, &live);
  MS_CHECK (st == MS_RUN_OK, "sweep goes on");
  MS_CHECK (live == 0, "live buffers %ld", live);
  const MsCell *c = ms_results_find (r, MS_MODE_PINNED, 12);
  MS_CHECK (c->status == MS_CELL_FAILED, "status %d", c->status);
  MS_CHECK_STR (c->message, "injected fault in h2d in repetition 4");
  MS_CHECK (c->n_reps == 0 && c->n_events == 0, "failed cell keeps no data");
  MS_CHECK (ms_results_find (r, MS_MODE_PINNED, 13)->status == MS_CELL_OK, "next cell runs");
  MS_CHECK (r->n_cells == 5 * MS_MODE_COUNT, "all cells %zu", r->n_cells);
  ms_results_free (r);

  cfg.fail_rep = -1; /* a warm-up */
  cfg.fail_phase = MS_PHASE_ALLOC;
  r = run_test (&s, &cfg, &st, &live);
  MS_CHECK_STR (ms_results_find (r, MS_MODE_PINNED, 12)->message,
                "injected fault in alloc before the first repetition");
  ms_results_free (r);

  cfg.fail_rep = 0;
  cfg.fail_phase = MS_PHASE_VERIFY;
  cfg.fail_status = MS_CELL_VERIFY_FAILED;
  r = run_test (&s, &cfg, &st, &live);
  c = ms_results_find (r, MS_MODE_PINNED, 12);
  MS_CHECK (c->status == MS_CELL_VERIFY_FAILED, "verify status");
  MS_CHECK_STR (c->message, "verification failed in repetition 1: 3 of 4096 elements wrong, "
                            "first at index 2048");
  MS_CHECK (c->mismatches == 3 && c->first_mismatch == 2048, "counts");
  MS_CHECK (live == 0, "live %ld", live);
  ms_results_free (r);
}

static void
test_unsupported_and_refused (void)
{
  MsSweep s;
  MsTestBackendConfig cfg;
  MsRunStatus st;
  small_sweep (&s);
  ms_test_backend_config_init (&cfg);
  cfg.unsupported[MS_MODE_MANAGED_PREFETCH] = true;
  cfg.device_free_mem = 3 * 4096 * 4; /* 2^12 fits exactly, 2^13 not */
  MsResults *r = run_test (&s, &cfg, &st, NULL);
  const MsCell *c = ms_results_find (r, MS_MODE_MANAGED_PREFETCH, 10);
  MS_CHECK (c->status == MS_CELL_UNSUPPORTED, "unsupported");
  MS_CHECK_STR (c->message, "test backend: managed-prefetch marked unsupported");
  MS_CHECK (ms_results_find (r, MS_MODE_PINNED, 12)->status == MS_CELL_OK, "fits");
  c = ms_results_find (r, MS_MODE_PINNED, 13);
  MS_CHECK (c->status == MS_CELL_FAILED && strstr (c->message, "refused before allocating"),
            "refused: %s", c->message);
  MS_CHECK (ms_results_find (r, MS_MODE_HOST, 14)->status == MS_CELL_OK, "host unaffected");
  ms_results_free (r);

  cfg.no_device = true;
  r = run_test (&s, &cfg, &st, NULL);
  MS_CHECK (st == MS_RUN_NO_DEVICE, "no device: %d", st);
  ms_results_free (r);
  memset (s.modes, 0, sizeof s.modes);
  s.modes[MS_MODE_HOST] = true;
  r = run_test (&s, &cfg, &st, NULL);
  MS_CHECK (st == MS_RUN_OK && r->n_cells == 5, "host-only without a GPU: %d", st);
  ms_results_free (r);

  s.reps = 0;
  r = run_test (&s, &cfg, &st, NULL);
  MS_CHECK (st == MS_RUN_INVALID && r == NULL, "invalid sweep");
}

/* A seeded loop of cancels at random runs: the sweep stops, what finished
 * stays, and no buffer is left allocated. */
static void
test_random_cancels (void)
{
  MsSweep s;
  small_sweep (&s);
  s.reps = 3;
  /* A plain and an instrumented run per repetition. */
  long total_runs = (long) ms_sweep_n_cells (&s) * (s.reps + s.warmup) * 2;
  unsigned seed = 12345;
  int cancelled = 0;
  for (int i = 0; i < 1000; i++) {
    seed = seed * 1103515245u + 12345u;
    MsTestBackendConfig cfg;
    ms_test_backend_config_init (&cfg);
    cfg.cancel_at_run = (long) ((seed >> 8) % (unsigned long) (total_runs + 5));
    MsRunStatus st;
    long live = -1;
    MsResults *r = run_test (&s, &cfg, &st, &live);
    MS_CHECK (live == 0, "cancel at %ld left %ld buffers", cfg.cancel_at_run, live);
    if (cfg.cancel_at_run < total_runs) {
      cancelled++;
      MS_CHECK (st == MS_RUN_CANCELLED, "cancel at %ld: status %d", cfg.cancel_at_run, st);
      MS_CHECK (r->n_cells >= 1 && r->n_cells <= (size_t) ms_sweep_n_cells (&s), "cells");
      /* The stopped cell keeps the repetitions it finished, if any. */
      const MsCell *last = &r->cells[r->n_cells - 1];
      MS_CHECK (last->status == MS_CELL_CANCELLED ? last->n_reps == 0
                : last->status == MS_CELL_PARTIAL ? last->n_reps >= 1 && last->n_reps < s.reps
                                                  : false,
                "last cell %s with %d reps", ms_cell_status_name (last->status), last->n_reps);
      for (size_t k = 0; k + 1 < r->n_cells; k++)
        MS_CHECK (r->cells[k].status == MS_CELL_OK, "earlier cells kept");
      /* The stopped cell, partial or not, is not counted as finished. */
      char want[128];
      snprintf (want, sizeof want, "cancelled after %zu of %d cells", r->n_cells - 1,
                ms_sweep_n_cells (&s));
      MS_CHECK (strcmp (run_err, want) == 0, "'%s', want '%s'", run_err, want);
    } else {
      MS_CHECK (st == MS_RUN_OK, "no cancel: %d", st);
    }
    ms_results_free (r);
    if (ms_test_failures > 20)
      break;
  }
  MS_CHECK (cancelled > 900, "cancelled %d", cancelled);
}

int
main (void)
{
  MS_RUN (test_stats);
  MS_RUN (test_data);
  MS_RUN (test_fit_recovers_model);
  MS_RUN (test_progress_and_order);
  MS_RUN (test_faults);
  MS_RUN (test_unsupported_and_refused);
  MS_RUN (test_random_cancels);
  return ms_test_finish ();
}
