/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-multi.c: one sweep on several GPUs at once. Each device gets a thread
 * that runs the sweep cell by cell through ms_sweep_run (one cell per call,
 * so every rule of a single-device run applies unchanged); a barrier makes
 * every cell start on all devices together. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ms-i18n.h"
#include "ms-multi.h"
#include "ms-results.h"
#include "ms-runner.h"
#include "ms-sweep.h"
#ifdef MS_HAVE_CUDA
#include "ms-kernels.h"
#endif

typedef struct MsMultiRun MsMultiRun;

typedef struct {
  MsMultiRun *run;
  int slot;
  MsRunStatus status;
  char err[256];
} DeviceThread;

struct MsMultiRun {
  const MsSweep *sweep;
  MsBackend *backend;
  MsMultiResults *results;
  MsMultiProgressFunc progress;
  void *user_data;
  atomic_int *cancel;
  pthread_barrier_t barrier;
  pthread_mutex_t lock;
  /* Threads wait at the gate until all of them exist: the barrier counts
   * every one, so if one cannot start, none may reach it. */
  pthread_cond_t gate;
  int gate_state; /* 0 closed, 1 open, -1 give up */
  bool stop; /* decided at the barrier, so that every thread agrees */
  DeviceThread threads[MS_MULTI_MAX_DEVICES];
};

/* Everyone waits here between cells. One thread reads the cancel flag for
 * all, so that no thread goes on to a cell the others will not start. */
static bool
barrier_says_stop (MsMultiRun *run)
{
  int rc = pthread_barrier_wait (&run->barrier);
  if (rc == PTHREAD_BARRIER_SERIAL_THREAD)
    run->stop = run->cancel && atomic_load (run->cancel);
  pthread_barrier_wait (&run->barrier);
  return run->stop;
}

/* A cell that never reached the backend (e.g. the device is missing). */
static void
add_failed_cell (MsResults *results, MsMode mode, int e, MsCellStatus status, const char *why)
{
  MsCell cell = { .mode = mode, .exponent = e, .elements = 1ull << e, .status = status };
  snprintf (cell.message, sizeof cell.message, "%s", why);
  ms_results_add_cell (results, &cell);
}

static void
run_one_cell (DeviceThread *t, MsSweep *one, MsMode mode, int e, int index, int n_cells)
{
  MsMultiRun *run = t->run;
  MsResults **mine = &run->results->per_device[t->slot];
  MsResults *cell_results = NULL;
  char err[256] = "";
  memset (one->modes, 0, sizeof one->modes);
  one->modes[mode] = true;
  one->min_exp = one->max_exp = e;
  MsRunStatus st = ms_sweep_run (one, run->backend, NULL, NULL, run->cancel, &cell_results,
                                 err, sizeof err);
  if (!*mine && cell_results) {
    /* The first cell brings the device facts; keep the whole sweep's. */
    *mine = ms_results_new (run->sweep, &cell_results->device);
    if (*mine)
      (*mine)->sweep.device = run->results->devices[t->slot];
  }
  if (*mine) {
    if (cell_results && cell_results->n_cells == 1)
      ms_results_add_cell (*mine, &cell_results->cells[0]);
    else
      add_failed_cell (*mine, mode, e, st == MS_RUN_CANCELLED ? MS_CELL_CANCELLED
                                                                : MS_CELL_FAILED, err);
  }
  if (st == MS_RUN_NO_DEVICE || st == MS_RUN_INVALID) {
    t->status = st;
    snprintf (t->err, sizeof t->err, "%s", err);
  }
  ms_results_free (cell_results);
  if (run->progress && *mine && (*mine)->n_cells > 0) {
    pthread_mutex_lock (&run->lock);
    run->progress (t->slot, index, n_cells, &(*mine)->cells[(*mine)->n_cells - 1],
                   run->user_data);
    pthread_mutex_unlock (&run->lock);
  }
}

static void *
device_thread (void *data)
{
  DeviceThread *t = data;
  MsMultiRun *run = t->run;
  pthread_mutex_lock (&run->lock);
  while (run->gate_state == 0)
    pthread_cond_wait (&run->gate, &run->lock);
  bool give_up = run->gate_state < 0;
  pthread_mutex_unlock (&run->lock);
  if (give_up)
    return NULL;
  MsSweep one = *run->sweep;
  one.device = run->results->devices[t->slot];
  int n_cells = ms_sweep_n_cells (run->sweep), index = 0;
  /* Size-major like the single-device runner. */
  for (int e = run->sweep->min_exp; e <= run->sweep->max_exp; e += run->sweep->step) {
    for (int m = 0; m < MS_MODE_COUNT; m++) {
      if (!run->sweep->modes[m])
        continue;
      if (barrier_says_stop (run))
        goto done;
      run_one_cell (t, &one, (MsMode) m, e, index++, n_cells);
    }
  }
done:
#ifdef MS_HAVE_CUDA
  ms_k_shutdown (); /* this thread's cached events */
#endif
  return NULL;
}

/* Starts a thread per device and opens the gate, or sends those started
 * home when one cannot start; joins them all either way. */
static bool
run_threads (MsMultiRun *run, int n, char *err, size_t errlen)
{
  pthread_t tids[MS_MULTI_MAX_DEVICES];
  int started = 0;
  for (; started < n; started++) {
    run->threads[started] = (DeviceThread) { .run = run, .slot = started,
                                             .status = MS_RUN_OK };
    if (pthread_create (&tids[started], NULL, device_thread, &run->threads[started]) != 0) {
      snprintf (err, errlen, ms_gettext ("could not start a thread for device slot %d of %d"),
                started + 1, n);
      break;
    }
  }
  pthread_mutex_lock (&run->lock);
  run->gate_state = started == n ? 1 : -1;
  pthread_cond_broadcast (&run->gate);
  pthread_mutex_unlock (&run->lock);
  for (int i = 0; i < started; i++)
    pthread_join (tids[i], NULL);
  return started == n;
}

MsRunStatus
ms_multi_run (const MsSweep *sweep, const int *devices, int n_devices, MsBackend *backend,
              MsMultiProgressFunc progress, void *user_data, atomic_int *cancel,
              MsMultiResults **out, char *err, size_t errlen)
{
  *out = NULL;
  if (n_devices < 1 || n_devices > MS_MULTI_MAX_DEVICES) {
    snprintf (err, errlen, ms_gettext ("between 1 and %d devices, not %d"), MS_MULTI_MAX_DEVICES,
              n_devices);
    return MS_RUN_INVALID;
  }
  if (!ms_sweep_validate (sweep, err, errlen))
    return MS_RUN_INVALID;
  MsMultiResults *results = calloc (1, sizeof *results);
  MsMultiRun *run = calloc (1, sizeof *run);
  if (!results || !run) {
    free (results);
    free (run);
    snprintf (err, errlen, ms_gettext ("out of memory"));
    return MS_RUN_INVALID;
  }
  results->n_devices = n_devices;
  memcpy (results->devices, devices, n_devices * sizeof *devices);
  *run = (MsMultiRun) { .sweep = sweep, .backend = backend, .results = results,
                        .progress = progress, .user_data = user_data, .cancel = cancel };
  pthread_barrier_init (&run->barrier, NULL, (unsigned) n_devices);
  pthread_mutex_init (&run->lock, NULL);
  pthread_cond_init (&run->gate, NULL);
  bool ran = run_threads (run, n_devices, err, errlen);

  MsRunStatus status = ran ? MS_RUN_OK : MS_RUN_CANCELLED;
  int no_device = 0;
  for (int i = 0; i < n_devices; i++) {
    if (run->threads[i].status == MS_RUN_NO_DEVICE) {
      no_device++;
      snprintf (err, errlen, ms_gettext ("device %d: %s"), devices[i], run->threads[i].err);
    }
    if (!results->per_device[i]) {
      MsDeviceInfo none = { 0 };
      results->per_device[i] = ms_results_new (sweep, &none);
    }
  }
  /* When not every thread started, err already says why. */
  if (ran && no_device == n_devices)
    status = MS_RUN_NO_DEVICE;
  else if (ran && (run->stop || (cancel && atomic_load (cancel))))
    status = MS_RUN_CANCELLED;
  pthread_barrier_destroy (&run->barrier);
  pthread_mutex_destroy (&run->lock);
  pthread_cond_destroy (&run->gate);
  free (run);
  *out = results;
  return status;
}

bool
ms_multi_parse_devices (const char *list, int count, int *devices, int *n_devices, char *err,
                        size_t errlen)
{
  *n_devices = 0;
  if (strcmp (list, "all") == 0) {
    if (count < 1) {
      snprintf (err, errlen, ms_gettext ("no device visible"));
      return false;
    }
    for (int i = 0; i < count && i < MS_MULTI_MAX_DEVICES; i++)
      devices[(*n_devices)++] = i;
    return true;
  }
  const char *p = list;
  while (*p) {
    char *end;
    long v = strtol (p, &end, 10);
    if (end == p || v < 0 || v >= count || (*end && *end != ',')) {
      snprintf (err, errlen,
                ms_gettext ("bad device list '%s': want indices 0..%d separated by commas, or all"),
                list, count - 1);
      return false;
    }
    for (int i = 0; i < *n_devices; i++) {
      if (devices[i] == v) {
        snprintf (err, errlen, ms_gettext ("device %ld is listed twice"), v);
        return false;
      }
    }
    if (*n_devices == MS_MULTI_MAX_DEVICES) {
      snprintf (err, errlen, ms_gettext ("at most %d devices"), MS_MULTI_MAX_DEVICES);
      return false;
    }
    devices[(*n_devices)++] = (int) v;
    p = *end ? end + 1 : end;
  }
  if (*n_devices == 0) {
    snprintf (err, errlen, ms_gettext ("empty device list"));
    return false;
  }
  return true;
}
