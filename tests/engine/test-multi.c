/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-multi.c: a sweep on several fake devices at once through the test
 * backend: all devices run together, every cell starts after every device
 * finished the one before, one failing device leaves the others' results,
 * cancel stops every thread at the same cell, aggregates add up. */
#include <pthread.h>
#include <time.h>
#include <glib.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "memsweep.h"
#include "model/ms-results.h"
#include "ms-backend-test.h"
#include "ms-multi.h"
#include "ms-sweep-test.h"
#include "ms-sweep.h"
#include "run/ms-backend.h"

static void
two_mode_sweep (MsSweep *s)
{
  ms_test_sweep_init (s, "pinned,pageable", 10, 14, 4);
  s->warmup = 1;
}

static int
count_status (const MsResults *r, MsCellStatus st)
{
  int n = 0;
  for (size_t i = 0; i < r->n_cells; i++)
    n += r->cells[i].status == st;
  return n;
}

typedef struct {
  pthread_mutex_t lock;
  int calls[MS_MULTI_MAX_DEVICES];
} Progress;

static void
on_progress (int slot, int index, int n_cells, const MsCell *cell, void *user_data)
{
  Progress *p = user_data;
  (void) index;
  (void) n_cells;
  (void) cell;
  p->calls[slot]++; /* called under the engine's lock */
}

static void
test_concurrent (void)
{
  MsTestBackendConfig cfg;
  ms_test_backend_config_init (&cfg);
  cfg.n_devices = 4;
  cfg.hold_us = 2000;
  MsBackend *b = ms_backend_new_test (&cfg);
  MsSweep s;
  two_mode_sweep (&s);
  int devices[] = { 0, 1, 2, 3 };
  MsMultiResults *r = NULL;
  Progress p = { .calls = { 0 } };
  char err[256] = "";
  MsRunStatus st = ms_multi_run (&s, devices, 4, b, on_progress, &p, NULL, &r, err, sizeof err);
  g_assert_cmpint (st, ==, MS_RUN_OK);
  int n_cells = ms_sweep_n_cells (&s);
  for (int i = 0; i < 4; i++) {
    g_assert_true ((int)r->per_device[i]->n_cells == n_cells);
    g_assert_true (count_status (r->per_device[i], MS_CELL_OK) == n_cells);
    g_assert_cmpint (r->per_device[i]->device.index, ==, i);
    g_assert_cmpint (r->per_device[i]->sweep.device, ==, i);
    g_assert_cmpint (p.calls[i], ==, n_cells);
  }
  /* The cells held their threads 2 ms each: with four threads they must
   * have overlapped, and the barrier must have kept them in step. */
  g_assert_cmpint (ms_test_backend_max_concurrent (b), ==, 4);
  g_assert_cmpint (ms_test_backend_barrier_violations (b), ==, 0);
  g_assert_cmpint (ms_test_backend_live_buffers (b), ==, 0);

  MsMultiAggregate agg;
  g_assert_true (ms_multi_aggregate (r, MS_MODE_PINNED, 14, &agg));
  const MsCell *one = ms_results_find (r->per_device[0], MS_MODE_PINNED, 14);
  g_assert_cmpint (agg.n_ok, ==, 4);
  g_assert_cmpfloat (fabs ((double)(agg.h2d_gbps) - (double)(4 * one->stats.h2d_gbps)), <=, 1e-9);
  g_assert_cmpfloat (fabs ((double)(agg.d2h_min_gbps) - (double)(one->stats.d2h_gbps)), <=, 1e-9);
  g_assert_false (ms_multi_aggregate (r, MS_MODE_HOST, 14, &agg));
  ms_multi_results_free (r);
  ms_backend_free (b);
}

static void
test_one_device_lost (void)
{
  MsTestBackendConfig cfg;
  ms_test_backend_config_init (&cfg);
  cfg.n_devices = 3;
  cfg.missing_device = 1;
  MsBackend *b = ms_backend_new_test (&cfg);
  MsSweep s;
  two_mode_sweep (&s);
  int devices[] = { 0, 1, 2 };
  MsMultiResults *r = NULL;
  char err[256] = "";
  MsRunStatus st = ms_multi_run (&s, devices, 3, b, NULL, NULL, NULL, &r, err, sizeof err);
  int n_cells = ms_sweep_n_cells (&s);
  g_assert_cmpint (st, ==, MS_RUN_OK);
  g_assert_true (count_status (r->per_device[0], MS_CELL_OK) == n_cells);
  g_assert_true (count_status (r->per_device[2], MS_CELL_OK) == n_cells);
  g_assert_true (count_status (r->per_device[1], MS_CELL_FAILED) == n_cells);
  g_assert_nonnull (strstr (r->per_device[1]->cells[0].message, "lost"));
  g_assert_nonnull (strstr (err, "device 1"));
  MsMultiAggregate agg;
  g_assert_true (ms_multi_aggregate (r, MS_MODE_PINNED, 12, &agg));
  g_assert_true (agg.n_ok == 2);
  ms_multi_results_free (r);
  ms_backend_free (b);

  /* Every device missing: no device at all. */
  cfg.n_devices = 1;
  cfg.missing_device = 0;
  b = ms_backend_new_test (&cfg);
  st = ms_multi_run (&s, devices, 1, b, NULL, NULL, NULL, &r, err, sizeof err);
  g_assert_cmpint (st, ==, MS_RUN_NO_DEVICE);
  ms_multi_results_free (r);
  ms_backend_free (b);
}

static void
test_one_cell_fails (void)
{
  MsTestBackendConfig cfg;
  ms_test_backend_config_init (&cfg);
  cfg.n_devices = 2;
  cfg.fail_device = 1;
  cfg.fail_mode = MS_MODE_PINNED;
  cfg.fail_exponent = 12;
  cfg.fail_rep = 2;
  cfg.fail_phase = MS_PHASE_H2D;
  MsBackend *b = ms_backend_new_test (&cfg);
  MsSweep s;
  two_mode_sweep (&s);
  int devices[] = { 0, 1 };
  MsMultiResults *r = NULL;
  char err[256] = "";
  MsRunStatus st = ms_multi_run (&s, devices, 2, b, NULL, NULL, NULL, &r, err, sizeof err);
  g_assert_cmpint (st, ==, MS_RUN_OK);
  const MsCell *bad = ms_results_find (r->per_device[1], MS_MODE_PINNED, 12);
  const MsCell *good = ms_results_find (r->per_device[0], MS_MODE_PINNED, 12);
  g_assert_true (bad);
  g_assert_cmpint (bad->status, ==, MS_CELL_FAILED);
  g_assert_true (bad);
  g_assert_nonnull (strstr (bad->message, "injected fault in h2d"));
  g_assert_true (good);
  g_assert_cmpint (good->status, ==, MS_CELL_OK);
  g_assert_true (good->n_reps == 4);
  g_assert_true (count_status (r->per_device[1], MS_CELL_OK) == ms_sweep_n_cells (&s) - 1);
  g_assert_true (ms_test_backend_live_buffers (b) == 0);
  ms_multi_results_free (r);
  ms_backend_free (b);
}

typedef struct {
  atomic_int *cancel;
  int after_calls;
  atomic_int calls;
} CancelAt;

static void
cancel_progress (int slot, int index, int n_cells, const MsCell *cell, void *user_data)
{
  CancelAt *c = user_data;
  (void) slot;
  (void) index;
  (void) n_cells;
  (void) cell;
  if (atomic_fetch_add (&c->calls, 1) + 1 == c->after_calls)
    atomic_store (c->cancel, 1);
}

static void
test_cancel (void)
{
  MsTestBackendConfig cfg;
  ms_test_backend_config_init (&cfg);
  cfg.n_devices = 3;
  cfg.hold_us = 500;
  MsSweep s;
  two_mode_sweep (&s);
  int devices[] = { 0, 1, 2 };
  /* Cancel at several points, from inside a progress callback of any
   * device: every thread stops, nothing leaks, nothing hangs, and no device
   * starts a cell the others skip. */
  for (int at = 1; at <= 7; at += 3) {
    MsBackend *b = ms_backend_new_test (&cfg);
    atomic_int cancel = 0;
    CancelAt c = { .cancel = &cancel, .after_calls = at };
    MsMultiResults *r = NULL;
    char err[256] = "";
    MsRunStatus st = ms_multi_run (&s, devices, 3, b, cancel_progress, &c, &cancel, &r, err,
                                   sizeof err);
    g_assert_cmpint (st, ==, MS_RUN_CANCELLED);
    size_t n0 = r->per_device[0]->n_cells;
    for (int i = 1; i < 3; i++)
      g_assert_cmpuint (r->per_device[i]->n_cells, ==, n0);
    g_assert_true ((int)n0 < ms_sweep_n_cells (&s));
    g_assert_true (ms_test_backend_live_buffers (b) == 0);
    ms_multi_results_free (r);
    ms_backend_free (b);
  }
}

static void
test_parse_devices (void)
{
  int d[MS_MULTI_MAX_DEVICES], n;
  char err[160];
  g_assert_true (ms_multi_parse_devices ("all", 3, d, &n, err, sizeof err));
  g_assert_true (n == 3);
  g_assert_true (d[2] == 2);
  g_assert_true (ms_multi_parse_devices ("2,0", 3, d, &n, err, sizeof err));
  g_assert_true (n == 2);
  g_assert_true (d[0] == 2);
  g_assert_false (ms_multi_parse_devices ("0,3", 3, d, &n, err, sizeof err));
  g_assert_nonnull (strstr (err, "0..2"));
  g_assert_false (ms_multi_parse_devices ("1,1", 3, d, &n, err, sizeof err));
  g_assert_false (ms_multi_parse_devices ("1,x", 3, d, &n, err, sizeof err));
  g_assert_false (ms_multi_parse_devices ("", 3, d, &n, err, sizeof err));
  g_assert_false (ms_multi_parse_devices ("all", 0, d, &n, err, sizeof err));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/multi/concurrent", test_concurrent);
  g_test_add_func ("/multi/one-device-lost", test_one_device_lost);
  g_test_add_func ("/multi/one-cell-fails", test_one_cell_fails);
  g_test_add_func ("/multi/cancel", test_cancel);
  g_test_add_func ("/multi/parse-devices", test_parse_devices);
  int rc = g_test_run ();
  return rc;
}
