/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-multi.c: a sweep on several fake devices at once through the test
 * backend: all devices run together, every cell starts after every device
 * finished the one before, one failing device leaves the others' results,
 * cancel stops every thread at the same cell, aggregates add up. */
#include <pthread.h>
#include <time.h>

#include "memsweep.h"
#include "ms-backend-test.h"
#include "ms-multi.h"
#include "ms-test.h"

static void
two_mode_sweep (MsSweep *s)
{
  ms_sweep_init_default (s);
  memset (s->modes, 0, sizeof s->modes);
  s->modes[MS_MODE_PINNED] = s->modes[MS_MODE_PAGEABLE] = true;
  s->min_exp = 10;
  s->max_exp = 14;
  s->reps = 4;
  s->reps_rule = MS_REPS_FIXED;
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
  MS_CHECK (st == MS_RUN_OK, "status %d: %s", st, err);
  int n_cells = ms_sweep_n_cells (&s);
  for (int i = 0; i < 4; i++) {
    MS_CHECK ((int) r->per_device[i]->n_cells == n_cells, "device %d has %zu cells", i,
              r->per_device[i]->n_cells);
    MS_CHECK (count_status (r->per_device[i], MS_CELL_OK) == n_cells, "device %d all ok", i);
    MS_CHECK (r->per_device[i]->device.index == i, "device %d facts", i);
    MS_CHECK (r->per_device[i]->sweep.device == i, "device %d in its sweep", i);
    MS_CHECK (p.calls[i] == n_cells, "progress for device %d: %d", i, p.calls[i]);
  }
  /* The cells held their threads 2 ms each: with four threads they must
   * have overlapped, and the barrier must have kept them in step. */
  MS_CHECK (ms_test_backend_max_concurrent (b) == 4, "max concurrent %d",
            ms_test_backend_max_concurrent (b));
  MS_CHECK (ms_test_backend_barrier_violations (b) == 0, "barrier violated %ld times",
            ms_test_backend_barrier_violations (b));
  MS_CHECK (ms_test_backend_live_buffers (b) == 0, "leaked %ld",
            ms_test_backend_live_buffers (b));

  MsMultiAggregate agg;
  MS_CHECK (ms_multi_aggregate (r, MS_MODE_PINNED, 14, &agg), "aggregate");
  const MsCell *one = ms_results_find (r->per_device[0], MS_MODE_PINNED, 14);
  MS_CHECK (agg.n_ok == 4, "n_ok %d", agg.n_ok);
  MS_CHECK_NEAR (agg.h2d_gbps, 4 * one->stats.h2d_gbps, 1e-9);
  MS_CHECK_NEAR (agg.d2h_min_gbps, one->stats.d2h_gbps, 1e-9);
  MS_CHECK (!ms_multi_aggregate (r, MS_MODE_HOST, 14, &agg), "no host cells");
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
  MS_CHECK (st == MS_RUN_OK, "one lost device is not a failed run: %d", st);
  MS_CHECK (count_status (r->per_device[0], MS_CELL_OK) == n_cells, "device 0 kept");
  MS_CHECK (count_status (r->per_device[2], MS_CELL_OK) == n_cells, "device 2 kept");
  MS_CHECK (count_status (r->per_device[1], MS_CELL_FAILED) == n_cells, "device 1 failed");
  MS_CHECK (strstr (r->per_device[1]->cells[0].message, "lost") != NULL, "reason: %s",
            r->per_device[1]->cells[0].message);
  MS_CHECK (strstr (err, "device 1") != NULL, "err names the device: %s", err);
  MsMultiAggregate agg;
  MS_CHECK (ms_multi_aggregate (r, MS_MODE_PINNED, 12, &agg) && agg.n_ok == 2, "two ok");
  ms_multi_results_free (r);
  ms_backend_free (b);

  /* Every device missing: no device at all. */
  cfg.n_devices = 1;
  cfg.missing_device = 0;
  b = ms_backend_new_test (&cfg);
  st = ms_multi_run (&s, devices, 1, b, NULL, NULL, NULL, &r, err, sizeof err);
  MS_CHECK (st == MS_RUN_NO_DEVICE, "status %d", st);
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
  MS_CHECK (st == MS_RUN_OK, "status %d: %s", st, err);
  const MsCell *bad = ms_results_find (r->per_device[1], MS_MODE_PINNED, 12);
  const MsCell *good = ms_results_find (r->per_device[0], MS_MODE_PINNED, 12);
  MS_CHECK (bad && bad->status == MS_CELL_FAILED, "device 1 cell failed");
  MS_CHECK (bad && strstr (bad->message, "injected fault in h2d") != NULL, "why: %s",
            bad ? bad->message : "");
  MS_CHECK (good && good->status == MS_CELL_OK && good->n_reps == 4, "device 0 kept it");
  MS_CHECK (count_status (r->per_device[1], MS_CELL_OK) == ms_sweep_n_cells (&s) - 1,
            "device 1 went on after the failure");
  MS_CHECK (ms_test_backend_live_buffers (b) == 0, "leaked");
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
    MS_CHECK (st == MS_RUN_CANCELLED, "at %d: status %d", at, st);
    size_t n0 = r->per_device[0]->n_cells;
    for (int i = 1; i < 3; i++)
      MS_CHECK (r->per_device[i]->n_cells == n0, "at %d: device %d has %zu cells, device 0 %zu",
                at, i, r->per_device[i]->n_cells, n0);
    MS_CHECK ((int) n0 < ms_sweep_n_cells (&s), "at %d: stopped early (%zu)", at, n0);
    MS_CHECK (ms_test_backend_live_buffers (b) == 0, "at %d: leaked", at);
    ms_multi_results_free (r);
    ms_backend_free (b);
  }
}

static void
test_parse_devices (void)
{
  int d[MS_MULTI_MAX_DEVICES], n;
  char err[160];
  MS_CHECK (ms_multi_parse_devices ("all", 3, d, &n, err, sizeof err) && n == 3 && d[2] == 2,
            "all");
  MS_CHECK (ms_multi_parse_devices ("2,0", 3, d, &n, err, sizeof err) && n == 2 && d[0] == 2,
            "list");
  MS_CHECK (!ms_multi_parse_devices ("0,3", 3, d, &n, err, sizeof err), "out of range");
  MS_CHECK (strstr (err, "0..2") != NULL, "%s", err);
  MS_CHECK (!ms_multi_parse_devices ("1,1", 3, d, &n, err, sizeof err), "twice");
  MS_CHECK (!ms_multi_parse_devices ("1,x", 3, d, &n, err, sizeof err), "garbage");
  MS_CHECK (!ms_multi_parse_devices ("", 3, d, &n, err, sizeof err), "empty");
  MS_CHECK (!ms_multi_parse_devices ("all", 0, d, &n, err, sizeof err), "none visible");
}

int
main (void)
{
  MS_RUN (test_concurrent);
  MS_RUN (test_one_device_lost);
  MS_RUN (test_one_cell_fails);
  MS_RUN (test_cancel);
  MS_RUN (test_parse_devices);
  return ms_test_finish ();
}
