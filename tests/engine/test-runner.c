/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-runner.c: statistics, the fit, host data, and the runner driven by
 * the test backend through the real cell driver: progress, faults,
 * unsupported modes, refusals, cancel. */
#define _GNU_SOURCE
#include <glib.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "memsweep.h"
#include "model/ms-fit.h"
#include "model/ms-results.h"
#include "model/ms-stats.h"
#include "ms-backend-private.h"
#include "ms-backend-test.h"
#include "ms-data.h"
#include "ms-sweep-test.h"
#include "ms-sweep.h"
#include "run/ms-backend.h"
#include "run/ms-cell-driver.h"
#include "run/ms-runner.h"
#include "ms-modes.h"

static void
small_sweep (MsSweep *s)
{
  ms_test_sweep_init (s, NULL, 10, 14, 5);
  s->warmup = 1;
}

static void
test_stats (void)
{
  double odd[] = { 5, 1, 3 }, even[] = { 4, 1, 3, 2 };
  MsStat st = ms_stat_compute (odd, 3);
  g_assert_true (st.n == 3);
  g_assert_true (st.median == 3);
  g_assert_true (st.min == 1);
  g_assert_true (st.max == 5);
  st = ms_stat_compute (even, 4);
  g_assert_cmpfloat (st.median, ==, 2.5);
  g_assert_true (st.min == 1);
  g_assert_true (st.max == 4);
  st = ms_stat_compute (NULL, 0);
  g_assert_true (st.n == 0);
  g_assert_true (st.median == 0);
}

static void
test_data (void)
{
  enum { N = 5000 };
  static float a[N], b[N], c[N];
  uint64_t first = 99;
  ms_data_fill (a, b, N);
  for (int i = 0; i < N; i++) {
    g_assert_true (a[i] >= 1);
    g_assert_true (a[i] < 2);
    g_assert_true (b[i] >= 2);
    g_assert_true (b[i] < 4);
    if (a[i] == b[i] || a[i] == 0)
      break;
    c[i] = a[i] + b[i];
  }
  g_assert_true (a[0] != a[1]);
  g_assert_true (a[1] != a[2]);
  g_assert_true (ms_data_verify (c, N, &first) == 0);
  g_assert_true (first == 0);
  c[1234] = 0;
  c[4000] += 1;
  g_assert_true (ms_data_verify (c, N, &first) == 2);
  g_assert_cmpuint (first, ==, 1234);
  ms_data_poison (c, N);
  g_assert_true (ms_data_verify (c, N, &first) == N);
  g_assert_true (first == 0);
}

/* Sizes that fill and verify split over threads (slices on 64-byte lines,
 * an odd tail): the same values as one thread, and the first wrong index
 * found whichever slice holds it. */
static void
test_data_threads (void)
{
  const uint64_t n = (1u << 21) + 37;
  float *a = g_new (float, n), *b = g_new (float, n), *c = g_new (float, n);
  uint64_t first = 99;
  ms_data_fill (a, b, n);
  for (uint64_t i = 0; i < n; i++) {
    g_assert_true (a[i] == ms_data_a (i));
    g_assert_true (b[i] == ms_data_b (i));
    c[i] = a[i] + b[i];
  }
  g_assert_cmpuint (ms_data_verify (c, n, &first), ==, 0);
  c[n - 1] = 0;
  c[n / 2 + 3] = 0;
  g_assert_cmpuint (ms_data_verify (c, n, &first), ==, 2);
  g_assert_cmpuint (first, ==, n / 2 + 3);
  g_free (a);
  g_free (b);
  g_free (c);
}

/* One fill and check at n elements with the thread count in force: the
 * values one thread writes into buffers that held none of them, and
 * wrong elements in the first and the last slice counted, the first
 * found. */
static void
check_fill_and_check (uint64_t n)
{
  float *a = g_new (float, n), *b = g_new (float, n), *c = g_new (float, n);
  uint64_t first = 99;
  memset (a, 0xff, n * sizeof *a);
  memset (b, 0xff, n * sizeof *b);
  ms_data_fill (a, b, n);
  for (uint64_t i = 0; i < n; i++) {
    g_assert_true (a[i] == ms_data_a (i) && b[i] == ms_data_b (i));
    c[i] = a[i] + b[i];
  }
  c[1] = 0;
  c[n - 2] = 0;
  g_assert_cmpuint (ms_data_verify_and_poison (c, n, &first), ==, 2);
  g_assert_cmpuint (first, ==, 1);
  g_assert_cmpuint (ms_data_verify (c, n, &first), ==, n);
  g_free (a);
  g_free (b);
  g_free (c);
}

static gpointer
fill_on_thread (gpointer data)
{
  ms_data_set_threads (GPOINTER_TO_INT (data));
  check_fill_and_check ((1u << 16) + 37 + 16 * GPOINTER_TO_INT (data));
  return NULL;
}

static int
count_threads (void)
{
  GDir *dir = g_dir_open ("/proc/self/task", 0, NULL);
  int n = 0;
  if (!dir)
    return -1;
  while (g_dir_read_name (dir))
    n++;
  g_dir_close (dir);
  return n;
}

/* Every thread count gives the same values, the rule's count on a helper
 * set too; a measuring thread that ends takes its parked helpers with it. */
static void
test_data_thread_counts (void)
{
  static const int counts[] = { 1, 2, 3, 7, 16 };
  cpu_set_t one;
  for (size_t k = 0; k < G_N_ELEMENTS (counts); k++) {
    ms_data_set_threads (counts[k]);
    check_fill_and_check ((1u << 16) + 37 + 16 * k);
  }
  g_assert_cmpint (ms_data_set_threads (0), ==, 16);
  CPU_ZERO (&one);
  CPU_SET (0, &one);
  ms_data_set_helper_cpus (&one, sizeof one);
  check_fill_and_check ((1u << 18) + 5);
  ms_data_set_helper_cpus (NULL, 0);
  int before = count_threads ();
  for (size_t k = 0; k < G_N_ELEMENTS (counts); k++) {
    GThread *t = g_thread_new ("measuring", fill_on_thread, GINT_TO_POINTER (counts[k]));
    g_thread_join (t);
  }
  /* A joined thread can stay listed in /proc for a moment (long under
   * valgrind on a busy host): a leak never leaves, so wait for at most 10 s. */
  gint64 until = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
  while (count_threads () > before && g_get_monotonic_time () < until)
    g_usleep (1000);
  g_assert_cmpint (count_threads (), <=, before);
}

/* Verifying and poisoning in one pass: the same counts and first index as
 * ms_data_verify, one thread or several, and c all poison afterwards. */
static void
test_data_verify_and_poison (void)
{
  const uint64_t sizes[] = { 5000, (1u << 21) + 37 };
  for (size_t k = 0; k < G_N_ELEMENTS (sizes); k++) {
    uint64_t n = sizes[k], first = 99;
    float *a = g_new (float, n), *b = g_new (float, n), *c = g_new (float, n);
    ms_data_fill (a, b, n);
    for (uint64_t i = 0; i < n; i++)
      c[i] = a[i] + b[i];
    g_assert_cmpuint (ms_data_verify_and_poison (c, n, &first), ==, 0);
    g_assert_cmpuint (first, ==, 0);
    g_assert_cmpuint (ms_data_verify (c, n, &first), ==, n);
    for (uint64_t i = 0; i < n; i++)
      c[i] = a[i] + b[i];
    c[n - 1] = 0;
    c[n / 2 + 3] = -c[n / 2 + 3];
    c[1500] += 1;
    g_assert_cmpuint (ms_data_verify_and_poison (c, n, &first), ==, 3);
    g_assert_cmpuint (first, ==, 1500);
    g_assert_cmpuint (ms_data_verify_and_poison (c, n, &first), ==, n);
    g_assert_cmpuint (first, ==, 0);
    g_free (a);
    g_free (b);
    g_free (c);
  }
}

/* The host mode's add, wrong on purpose at its call number fault_call:
 * writing nothing (the result as the last repetition's verification left
 * it) or one wrong element. */
static int add_calls, fault_call;
static bool fault_writes_nothing;

static void
faulty_add (const float *a, const float *b, float *c, uint64_t n)
{
  if (++add_calls == fault_call && fault_writes_nothing)
    return;
  for (uint64_t i = 0; i < n; i++)
    c[i] = a[i] + b[i];
  if (add_calls == fault_call)
    c[n / 3] = 0;
}

static void
always_wrong_add (const float *a, const float *b, float *c, uint64_t n)
{
  for (uint64_t i = 0; i < n; i++)
    c[i] = a[i] + b[i];
  c[n - 1] = 0;
}

/* --host-prep once poisons the result while verifying it: a repetition
 * that writes no result, after one that wrote it right, must still fail,
 * as one that writes one element wrong, in plain and in instrumented
 * repetitions, and either way of preparing, wherever the cell driver has
 * the repetition checked (ms-cell-driver.h: not the warm-up, every
 * instrumented repetition, every MS_VERIFY_EVERY-th plain one from the
 * first); a right add passes, and so does a fault in an unchecked one. */
static void
test_host_prep_catches_bad_results (void)
{
  /* Calls: the plain warm-up, then repetition r's plain and instrumented
   * ones as calls 2 + 2r and 3 + 2r. */
  for (int prep = 0; prep < MS_HOST_PREP_COUNT; prep++) {
    for (int call = 0; call <= 9; call++) {
      MsRunArgs args = { .mode = MS_MODE_HOST, .n = 3000, .warmup = 1, .reps = 4,
                         .host_prep = (MsHostPrep) prep };
      MsRunOutput out;
      add_calls = 0;
      fault_call = call; /* 0: none */
      fault_writes_nothing = call % 3 != 0;
      MsCellStatus st = ms_host_run_cell_with (&args, faulty_add, &out);
      int rep = call >= 2 ? (call - 2) / 2 : -1;
      bool instrumented = call >= 2 && call % 2 == 1;
      bool checked = rep >= 0 && (instrumented || rep % MS_VERIFY_EVERY == 0);
      if (!checked) {
        g_assert_cmpint (st, ==, MS_CELL_OK);
        g_assert_cmpint (out.n_reps, ==, 4);
        g_assert_cmpuint (out.mismatches, ==, 0);
      } else {
        g_assert_cmpint (st, ==, MS_CELL_VERIFY_FAILED);
        g_assert_cmpuint (out.mismatches, ==, fault_writes_nothing ? 3000 : 1);
        g_assert_cmpuint (out.first_mismatch, ==, fault_writes_nothing ? 0 : 1000);
        g_assert_cmpint (out.failed_rep, ==, rep);
      }
      ms_run_output_clear (&out);
    }
  }
}

/* A sum that is always wrong fails the cell at its first repetition,
 * whichever repetitions the driver has checked. */
static void
test_wrong_sum_fails_first_rep (void)
{
  MsRunArgs args = { .mode = MS_MODE_HOST, .n = 3000, .warmup = 2, .reps = 9 };
  MsRunOutput out;
  add_calls = 0;
  fault_call = -1;
  MsCellStatus st = ms_host_run_cell_with (&args, always_wrong_add, &out);
  g_assert_cmpint (st, ==, MS_CELL_VERIFY_FAILED);
  g_assert_cmpint (out.failed_rep, ==, 0);
  g_assert_cmpuint (out.mismatches, ==, 1);
  ms_run_output_clear (&out);
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
  g_assert_cmpint (st, ==, MS_RUN_OK);
  /* Non-stream copy modes: h2d (L + 8N/bw) + kernel L + d2h (L + 4N/bw). */
  MsFit fit = ms_results_fit (r, MS_MODE_PINNED, MS_PHASE_COUNT);
  g_assert_true (fit.valid);
  g_assert_cmpint (fit.n_points, ==, 5);
  g_assert_cmpfloat (fabs ((double)(fit.latency_us) - (double)(3 * cfg.latency_us)), <=, 1e-6);
  g_assert_cmpfloat (
      fabs ((double)(fit.bandwidth_gbps) - (double)(cfg.bandwidth_gbps[MS_MODE_PINNED])), <=, 1e-6);
  g_assert_cmpfloat (fabs ((double)(fit.r2) - (double)(1.0)), <=, 1e-9);
  MsFit h2d = ms_results_fit (r, MS_MODE_PINNED, MS_PHASE_H2D);
  g_assert_cmpfloat (fabs ((double)(h2d.latency_us) - (double)(cfg.latency_us)), <=, 1e-6);
  g_assert_cmpfloat (
      fabs ((double)(h2d.bandwidth_gbps) - (double)(cfg.bandwidth_gbps[MS_MODE_PINNED])), <=, 1e-6);

  const MsCell *c = ms_results_find (r, MS_MODE_PINNED, 12);
  g_assert_true (c);
  g_assert_cmpint (c->status, ==, MS_CELL_OK);
  g_assert_true (c->n_reps == 5);
  double want_h2d_us = cfg.latency_us + 2.0 * 4096 * 4 / (cfg.bandwidth_gbps[MS_MODE_PINNED] * 1e3);
  g_assert_cmpfloat (fabs ((double)(c->stats.phase[MS_PHASE_H2D].median) - (double)(want_h2d_us)),
                     <=, 1e-9);
  g_assert_cmpfloat (
      fabs ((double)(c->stats.h2d_gbps) - (double)(2.0 * 4096 * 4 / want_h2d_us * 1e-3)), <=, 1e-9);
  /* Streams overlap in the model: the whole is less than the parts. */
  const MsCell *sc = ms_results_find (r, MS_MODE_STREAMS, 14);
  g_assert_true (sc);
  g_assert_true (sc->stats.e2e.median < sc->stats.parts_sum.median);
  /* Only the first instr_reps repetitions are instrumented: they alone
   * have phases and an instrumented end-to-end time. */
  int timed[5];
  g_assert_cmpint (r->sweep.instr_reps, ==, 3);
  g_assert_cmpint (ms_cell_timeline_reps (c, timed, 5), ==, 3);
  g_assert_true (timed[0] == 0 && timed[1] == 1 && timed[2] == 2);
  g_assert_cmpint (c->stats.e2e_instr.n, ==, 3);
  g_assert_cmpint (c->stats.phase[MS_PHASE_H2D].n, ==, 3);
  g_assert_cmpint (c->stats.e2e.n, ==, 5);
  g_assert_true (c->e2e_instr_us[3] < 0 && c->e2e_instr_us[4] < 0);
  /* Alloc appears once, in repetition 0; free once, in the last
   * instrumented one. */
  int allocs = 0, frees = 0;
  for (size_t i = 0; i < c->n_events; i++) {
    allocs += c->events[i].phase == MS_PHASE_ALLOC && c->events[i].rep == 0;
    frees += c->events[i].phase == MS_PHASE_FREE && c->events[i].rep == 2;
    g_assert_cmpint (c->events[i].rep, <, 3);
  }
  g_assert_cmpint (allocs, ==, 1);
  g_assert_cmpint (frees, ==, 1);
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
  g_assert_cmpint (st, ==, MS_RUN_OK);
  g_assert_cmpint (log.calls, ==, 5 * MS_MODE_COUNT);
  g_assert_cmpint (log.n, ==, log.calls);
  g_assert_true (log.ordered);
  /* Size-major: all modes at 2^10 come first. */
  g_assert_true (r->cells[0].exponent == 10);
  g_assert_true (r->cells[MS_MODE_COUNT - 1].exponent == 10);
  g_assert_true (r->cells[MS_MODE_COUNT].exponent == 11);
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
  g_assert_cmpint (st, ==, MS_RUN_OK);
  g_assert_cmpint (live, ==, 0);
  const MsCell *c = ms_results_find (r, MS_MODE_PINNED, 12);
  g_assert_cmpint (c->status, ==, MS_CELL_FAILED);
  g_assert_cmpstr (c->message, ==, "injected fault in h2d in repetition 4");
  g_assert_true (c->n_reps == 0);
  g_assert_true (c->n_events == 0);
  g_assert_cmpint (ms_results_find (r, MS_MODE_PINNED, 13)->status, ==, MS_CELL_OK);
  g_assert_cmpuint (r->n_cells, ==, 5 * MS_MODE_COUNT);
  ms_results_free (r);

  cfg.fail_rep = -1; /* a warm-up */
  cfg.fail_phase = MS_PHASE_ALLOC;
  r = run_test (&s, &cfg, &st, &live);
  g_assert_cmpstr (ms_results_find (r, MS_MODE_PINNED, 12)->message, ==,
                   "injected fault in alloc before the first repetition");
  ms_results_free (r);

  cfg.fail_rep = 0;
  cfg.fail_phase = MS_PHASE_VERIFY;
  cfg.fail_status = MS_CELL_VERIFY_FAILED;
  r = run_test (&s, &cfg, &st, &live);
  c = ms_results_find (r, MS_MODE_PINNED, 12);
  g_assert_cmpint (c->status, ==, MS_CELL_VERIFY_FAILED);
  g_assert_cmpstr (c->message, ==,
                   "verification failed in repetition 1: 3 of 4096 elements wrong, "
                   "first at index 2048");
  g_assert_true (c->mismatches == 3);
  g_assert_true (c->first_mismatch == 2048);
  g_assert_cmpint (live, ==, 0);
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
  g_assert_cmpint (c->status, ==, MS_CELL_UNSUPPORTED);
  g_assert_cmpstr (c->message, ==, "test backend: managed-prefetch marked unsupported");
  g_assert_cmpint (ms_results_find (r, MS_MODE_PINNED, 12)->status, ==, MS_CELL_OK);
  c = ms_results_find (r, MS_MODE_PINNED, 13);
  g_assert_cmpint (c->status, ==, MS_CELL_FAILED);
  g_assert_nonnull (strstr (c->message, "refused before allocating"));
  g_assert_cmpint (ms_results_find (r, MS_MODE_HOST, 14)->status, ==, MS_CELL_OK);
  ms_results_free (r);

  cfg.no_device = true;
  r = run_test (&s, &cfg, &st, NULL);
  g_assert_cmpint (st, ==, MS_RUN_NO_DEVICE);
  ms_results_free (r);
  memset (s.modes, 0, sizeof s.modes);
  s.modes[MS_MODE_HOST] = true;
  r = run_test (&s, &cfg, &st, NULL);
  g_assert_cmpint (st, ==, MS_RUN_OK);
  g_assert_true (r->n_cells == 5);
  ms_results_free (r);

  s.reps = 0;
  r = run_test (&s, &cfg, &st, NULL);
  g_assert_cmpint (st, ==, MS_RUN_INVALID);
  g_assert_null (r);
}

/* A seeded loop of cancels at random runs: the sweep stops, what finished
 * stays, and no buffer is left allocated. */
static void
test_random_cancels (void)
{
  MsSweep s;
  small_sweep (&s);
  s.reps = 3;
  /* A plain and an instrumented run per repetition; warm-ups plain alone
   * but in the first cell, which warms the timers, and in managed memory's
   * (ms-cell-driver.h). */
  long total_runs = s.warmup; /* the first cell's */
  for (int m = 0; m < MS_MODE_COUNT; m++) {
    bool paired = ms_mode_memory (m) == MS_MEMORY_MANAGED;
    total_runs += (s.max_exp - s.min_exp + 1) * (2 * s.reps + s.warmup * (paired ? 2 : 1));
  }
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
    g_assert_cmpint (live, ==, 0);
    if (cfg.cancel_at_run < total_runs) {
      cancelled++;
      g_assert_cmpint (st, ==, MS_RUN_CANCELLED);
      g_assert_true (r->n_cells >= 1);
      g_assert_true (r->n_cells <= (size_t)ms_sweep_n_cells (&s));
      /* The stopped cell keeps the repetitions it finished, if any. */
      const MsCell *last = &r->cells[r->n_cells - 1];
      g_assert_true (last->status == MS_CELL_CANCELLED ? last->n_reps == 0
                     : last->status == MS_CELL_PARTIAL ? last->n_reps >= 1 && last->n_reps < s.reps
                                                       : false);
      for (size_t k = 0; k + 1 < r->n_cells; k++)
        g_assert_cmpint (r->cells[k].status, ==, MS_CELL_OK);
      /* The stopped cell, partial or not, is not counted as finished. */
      char want[128];
      snprintf (want, sizeof want, "cancelled after %zu of %d cells", r->n_cells - 1,
                ms_sweep_n_cells (&s));
      g_assert_cmpstr (run_err, ==, want);
    } else {
      g_assert_cmpint (st, ==, MS_RUN_OK);
    }
    ms_results_free (r);
  }
  g_assert_cmpint (cancelled, >, 900);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/runner/stats", test_stats);
  g_test_add_func ("/runner/data", test_data);
  g_test_add_func ("/runner/data-threads", test_data_threads);
  g_test_add_func ("/runner/data-thread-counts", test_data_thread_counts);
  g_test_add_func ("/runner/data-verify-and-poison", test_data_verify_and_poison);
  g_test_add_func ("/runner/host-prep-catches-bad-results", test_host_prep_catches_bad_results);
  g_test_add_func ("/runner/wrong-sum-fails-first-rep", test_wrong_sum_fails_first_rep);
  g_test_add_func ("/runner/fit-recovers-model", test_fit_recovers_model);
  g_test_add_func ("/runner/progress-and-order", test_progress_and_order);
  g_test_add_func ("/runner/faults", test_faults);
  g_test_add_func ("/runner/unsupported-and-refused", test_unsupported_and_refused);
  g_test_add_func ("/runner/random-cancels", test_random_cancels);
  int rc = g_test_run ();
  return rc;
}
