/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-backend-test.c: deterministic timings and fault injection for tests,
 * run through the engine's cell driver so that tests exercise its rules.
 * Runs no GPU code and computes nothing: every mode is modelled. Linked
 * into the tests only. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ms-backend-test.h"
#include "ms-cell-driver.h"
#include "ms-probe.h"

typedef struct {
  MsBackend parent;
  MsTestBackendConfig config;
  atomic_long live_buffers;
  atomic_long runs;  /* repetitions started, warm-ups included */
  atomic_long steps; /* modelled steps (alloc and phases) started */
  long cost_calls;   /* the costs lesson's samples taken */
  double clock[MS_TEST_MAX_DEVICES]; /* one model clock per device */
  /* Several devices at once: cells started and finished per device. */
  pthread_mutex_t lock;
  pthread_cond_t cell_started; /* broadcast as each device starts a cell */
  long started[MS_TEST_MAX_DEVICES];
  long finished[MS_TEST_MAX_DEVICES];
  int running, max_running;
  long barrier_violations;
  unsigned noise_state; /* the noise's linear congruential generator */
} MsTestBackend;

void
ms_test_backend_config_init (MsTestBackendConfig *config)
{
  memset (config, 0, sizeof *config);
  config->latency_us = 10;
  for (int m = 0; m < MS_MODE_COUNT; m++)
    config->bandwidth_gbps[m] = 5.0 + m; /* distinct per mode */
  config->fail_exponent = -1;
  config->fail_status = MS_CELL_FAILED;
  config->cancel_at_run = -1;
  config->cancel_at_step = -1;
  config->fail_at_step = -1;
  config->device_free_mem = 80ull << 30;
  config->n_devices = 1;
  config->missing_device = -1;
  config->fail_device = -1;
}

static bool
test_query_device (MsBackend *self, int index, MsDeviceInfo *info)
{
  MsTestBackend *tb = (MsTestBackend *) self;
  if (tb->config.no_device) {
    snprintf (info->error, sizeof info->error,
              "cudaGetDeviceCount: no CUDA-capable device is detected (cudaErrorNoDevice)");
    return false;
  }
  int count = tb->config.n_devices;
  if (index < 0 || index >= count) {
    snprintf (info->error, sizeof info->error,
              "device index %d is out of range: %d CUDA device%s visible", index, count,
              count == 1 ? "" : "s");
    info->count = count;
    return false;
  }
  if (index == tb->config.missing_device) {
    snprintf (info->error, sizeof info->error,
              "cudaSetDevice: unspecified launch failure (test device %d is lost)", index);
    info->count = count;
    return false;
  }
  info->present = true;
  info->index = index;
  info->count = count;
  snprintf (info->name, sizeof info->name, "Test GPU");
  snprintf (info->pci_bus_id, sizeof info->pci_bus_id, "00000000:%02X:00.0", 0x10 + index);
  info->cc_major = 9;
  info->total_mem = 80ull << 30;
  info->free_mem = tb->config.device_free_mem;
  info->driver_version = 13000;
  info->runtime_version = 13000;
  info->pcie_gen = info->pcie_gen_max = 4;
  info->pcie_width = info->pcie_width_max = 16;
  info->can_map_host_memory = info->concurrent_managed_access = true;
  info->managed_memory = info->unified_addressing = true;
  info->async_engine_count = 2;
  return true;
}

static bool
test_supports (MsBackend *self, const MsDeviceInfo *info, MsMode mode, char *why, size_t len)
{
  MsTestBackend *tb = (MsTestBackend *) self;
  if (tb->config.unsupported[mode]) {
    snprintf (why, len, "test backend: %s marked unsupported", ms_mode_name (mode));
    return false;
  }
  if (mode != MS_MODE_HOST && !info->present) {
    snprintf (why, len, "no usable CUDA device: %s", info->error);
    return false;
  }
  return true;
}

static bool
test_check_fit (MsBackend *self, const MsDeviceInfo *info, MsMode mode, uint64_t n, char *why,
                size_t len)
{
  MsTestBackend *tb = (MsTestBackend *) self;
  (void) info;
  uint64_t need = 3 * n * sizeof (float);
  if (mode != MS_MODE_HOST && need > tb->config.device_free_mem) {
    snprintf (why, len,
              "refused before allocating: needs %llu bytes of device memory but only %llu are "
              "free",
              (unsigned long long) need, (unsigned long long) tb->config.device_free_mem);
    return false;
  }
  return true;
}

typedef struct {
  MsTestBackend *tb;
  double clock; /* the modelled clock, in microseconds */
  bool allocated;
} TestRun;

static bool
injected_fault_here (TestRun *t, MsCellDriver *drv, MsPhase phase, long step_index)
{
  const MsTestBackendConfig *cfg = &t->tb->config;
  const MsRunArgs *a = ms_cell_driver_args (drv);
  if (cfg->fail_device >= 0 && a->device != cfg->fail_device)
    return false;
  if (step_index == cfg->fail_at_step)
    return true;
  return cfg->fail_exponent >= 0 && a->mode == cfg->fail_mode &&
         a->n == (1ull << cfg->fail_exponent) && ms_cell_driver_rep (drv) == cfg->fail_rep &&
         phase == cfg->fail_phase;
}

/* Advances the model clock by one step and records it (unless it is alloc,
 * which the driver records); returns the status that stops the run here,
 * MS_CELL_OK to go on. Faults come before the cancel check, as a CUDA error
 * would. */
static MsCellStatus
step (TestRun *t, MsCellDriver *drv, MsPhase phase, int lane, int chunk, uint64_t bytes,
      bool gpu)
{
  const MsTestBackendConfig *cfg = &t->tb->config;
  const MsRunArgs *a = ms_cell_driver_args (drv);
  long step_index = t->tb->steps++;

  if (step_index == cfg->cancel_at_step && a->cancel)
    atomic_store (a->cancel, 1);
  if (injected_fault_here (t, drv, phase, step_index)) {
    if (cfg->fail_status != MS_CELL_VERIFY_FAILED) {
      ms_cell_driver_fail (drv, "injected fault in %s", ms_phase_name (phase));
      return MS_CELL_FAILED;
    }
    /* Wrong results: the repetition goes on, the driver sees them. */
    if (phase == MS_PHASE_VERIFY)
      ms_cell_driver_set_mismatches (drv, 3, a->n / 2);
  }
  if (ms_cell_driver_cancelled (drv))
    return MS_CELL_CANCELLED;
  double bw = cfg->bandwidth_gbps[a->mode];
  double dur = cfg->latency_us + (bytes ? bytes / (bw * 1e3) : 0);
  MsEvent ev = {
    .phase = phase,
    .lane = lane,
    .chunk = chunk,
    .host_start_us = t->clock,
    .host_us = gpu ? 2.0 : dur,
    .gpu_start_us = gpu ? t->clock : -1,
    .gpu_us = gpu ? dur : -1,
    .bytes = bytes,
  };
  t->clock += dur;
  if (phase != MS_PHASE_ALLOC && !ms_cell_driver_add_event (drv, &ev))
    return MS_CELL_FAILED;
  return MS_CELL_OK;
}

#define STEP(...)                                                             \
  do {                                                                        \
    MsCellStatus step_st_ = step (__VA_ARGS__);                               \
    if (step_st_ != MS_CELL_OK)                                               \
      return step_st_;                                                        \
  } while (0)

static double
test_now (void *data)
{
  return ((TestRun *) data)->clock;
}

static MsCellStatus
test_alloc (void *data, MsCellDriver *drv)
{
  TestRun *t = data;
  STEP (t, drv, MS_PHASE_ALLOC, 0, 0, 0, false);
  t->tb->live_buffers += 3;
  t->allocated = true;
  return MS_CELL_OK;
}

/* K chunks side by side: each stream's clock starts at the same time. */
static MsCellStatus
test_streams (TestRun *t, MsCellDriver *drv, uint64_t vec)
{
  int k = ms_cell_driver_args (drv)->streams;
  double t0 = t->clock, longest = 0;
  for (int s = 0; s < k; s++) {
    t->clock = t0;
    uint64_t cb = vec / k;
    STEP (t, drv, MS_PHASE_H2D, s + 1, s, 2 * cb, true);
    STEP (t, drv, MS_PHASE_KERNEL, s + 1, s, 0, true);
    STEP (t, drv, MS_PHASE_D2H, s + 1, s, cb, true);
    if (t->clock - t0 > longest)
      longest = t->clock - t0;
  }
  t->clock = t0 + longest;
  return MS_CELL_OK;
}

/* The bytes the kernel moves across the bus under the lessons' settings:
 * zero-copy and uva R times (their accesses cross PCIe), managed once (its
 * faults), none on device memory; the duplex copies move one vector. */
static uint64_t
test_kernel_bytes (const MsRunArgs *a, uint64_t vec)
{
  int r = a->knobs.reuse;
  if ((a->mode == MS_MODE_ZERO_COPY || a->mode == MS_MODE_UVA) && r > 0)
    return (uint64_t) r * (a->knobs.access == MS_ACCESS_READ_WRITE ? 3 : 2) * vec;
  return a->mode == MS_MODE_MANAGED && !a->knobs.resident ? 2 * vec : 0;
}

/* to-device, kernel, to-host as the mode has them. */
static MsCellStatus
test_moves (TestRun *t, MsCellDriver *drv, uint64_t vec)
{
  const MsRunArgs *a = ms_cell_driver_args (drv);
  MsMode mode = a->mode;
  MsPhase to_dev = ms_mode_to_device_phase (mode);
  MsPhase to_host = ms_mode_to_host_phase (mode);
  bool on_gpu = mode != MS_MODE_HOST;
  if (a->knobs.duplex != MS_DUPLEX_NONE) {
    /* Both directions start together on lanes 1 and 2. */
    double t0 = t->clock, end = t0;
    if (a->knobs.duplex != MS_DUPLEX_D2H)
      STEP (t, drv, MS_PHASE_H2D, 1, 0, vec, true);
    end = t->clock;
    t->clock = t0;
    if (a->knobs.duplex != MS_DUPLEX_H2D)
      STEP (t, drv, MS_PHASE_D2H, 2, 0, vec, true);
    t->clock = end > t->clock ? end : t->clock;
    return MS_CELL_OK;
  }
  if (to_dev < MS_PHASE_COUNT)
    STEP (t, drv, to_dev, 1, 0, 2 * vec, true);
  STEP (t, drv, MS_PHASE_KERNEL, on_gpu ? 1 : 0, 0, test_kernel_bytes (a, vec), on_gpu);
  if (to_host < MS_PHASE_COUNT)
    STEP (t, drv, to_host, 1, 0, vec, true);
  return MS_CELL_OK;
}

/* One repetition after alloc: init .. verify. */
static double
test_noise (MsTestBackend *tb)
{
  if (tb->config.noise_pct <= 0)
    return 1;
  tb->noise_state = tb->noise_state * 1103515245u + 12345u;
  double u = ((tb->noise_state >> 8) & 0xffff) / 65535.0; /* 0 .. 1 */
  return 1 + tb->config.noise_pct / 100 * (2 * u - 1);
}

static MsCellStatus
test_rep (void *data, MsCellDriver *drv)
{
  TestRun *t = data;
  const MsRunArgs *args = ms_cell_driver_args (drv);
  uint64_t vec = args->n * sizeof (float);
  long run_index = t->tb->runs++;
  bool registered = args->mode == MS_MODE_REGISTERED;

  if (run_index == t->tb->config.cancel_at_run && args->cancel)
    atomic_store (args->cancel, 1);
  STEP (t, drv, MS_PHASE_INIT, 0, 0, 0, false);
  if (registered)
    STEP (t, drv, MS_PHASE_REGISTER, 0, 0, 3 * vec, false);
  double e2e_start = t->clock;
  MsCellStatus st = args->mode == MS_MODE_STREAMS ? test_streams (t, drv, vec)
                                                  : test_moves (t, drv, vec);
  if (st != MS_CELL_OK)
    return st;
  if (ms_cell_driver_instrumented (drv))
    t->clock += t->tb->config.instr_cost_us;
  ms_cell_driver_set_e2e (drv, (t->clock - e2e_start) * test_noise (t->tb));
  STEP (t, drv, MS_PHASE_VERIFY, 0, 0, 0, false);
  if (registered)
    STEP (t, drv, MS_PHASE_UNREGISTER, 0, 0, 3 * vec, false);
  t->clock += 100; /* the gap between repetitions */
  return MS_CELL_OK;
}

/* The costs lesson's calls: latency plus bytes at the mode's bandwidth,
 * the first context ten times the latency. */
static bool
test_cost_sample (MsBackend *self, int device, int what, uint64_t bytes, double *alloc_us,
                  double *free_us, char *err, size_t errlen)
{
  MsTestBackend *tb = (MsTestBackend *) self;
  (void) device;
  if (tb->config.no_device) {
    snprintf (err, errlen, "no device (test backend)");
    return false;
  }
  MsMode mode = what == MS_COST_MALLOC_HOST ? MS_MODE_PINNED
                : what == MS_COST_MALLOC    ? MS_MODE_PAGEABLE
                : what == MS_COST_REGISTER  ? MS_MODE_REGISTERED
                                            : MS_MODE_DEVICE;
  double lat = tb->config.latency_us * (what == MS_COST_CONTEXT_FIRST ? 10 : 1);
  bool sized = what != MS_COST_CONTEXT_FIRST && what != MS_COST_CONTEXT;
  *alloc_us = lat + (sized ? bytes / (tb->config.bandwidth_gbps[mode] * 1e3) : 0);
  *free_us = lat / 2;
  tb->cost_calls++;
  return true;
}

static MsCellStatus
test_probe (MsBackend *self, const MsProbeArgs *args, MsProbeSample *out)
{
  MsTestBackend *tb = (MsTestBackend *) self;
  if (tb->config.no_device) {
    snprintf (out->error, sizeof out->error, "no device (test backend)");
    return MS_CELL_FAILED;
  }
  out->value_us = tb->config.latency_us;
  MsCellStatus st =
    tb->config.probe ? tb->config.probe (args, out, tb->config.probe_user) : MS_CELL_OK;
  if (st == MS_CELL_OK && args->instrumented)
    out->value_us += tb->config.instr_cost_us;
  return st;
}

static void
test_release (void *data, MsCellDriver *drv)
{
  TestRun *t = data;
  (void) drv;
  /* Only what alloc got: a fault in alloc leaves nothing to free. */
  if (t->allocated)
    t->tb->live_buffers -= 3;
  t->allocated = false;
  t->clock += t->tb->config.latency_us;
}

/* The counted repetition's model: first touch faults a and b over (GPU)
 * and c back (CPU); resident pages fault only c back; prefetch moves the
 * same bytes without faults. */
static void
test_um_counts (const MsTestBackendConfig *cfg, const MsRunArgs *a, MsCellDriver *drv)
{
  uint64_t vec = a->n * sizeof (float);
  bool prefetch = a->mode == MS_MODE_MANAGED_PREFETCH;
  MsUmCounts um = { .state = MS_UM_COUNTED };
  if (cfg->um_unavailable) {
    um.state = MS_UM_UNAVAILABLE;
    snprintf (um.reason, sizeof um.reason, "%s", cfg->um_reason ? cfg->um_reason : "");
  } else {
    um.h2d_bytes = a->knobs.resident ? 0 : 2 * vec;
    um.d2h_bytes = vec;
    um.gpu_faults = a->knobs.resident || prefetch ? 0 : (2 * vec + 65535) / 65536;
    um.cpu_faults = prefetch ? 0 : (vec + 4095) / 4096;
    if (cfg->um_lost && !a->knobs.resident) {
      um.gpu_faults = 0;
      um.h2d_bytes = vec;
    }
  }
  ms_cell_driver_set_um_counts (drv, &um);
}

static MsCellStatus
test_after_reps (void *data, MsCellDriver *drv)
{
  TestRun *t = data;
  const MsTestBackendConfig *cfg = &t->tb->config;
  const MsRunArgs *a = ms_cell_driver_args (drv);
  if (a->knobs.um_counts && (a->mode == MS_MODE_MANAGED || a->mode == MS_MODE_MANAGED_PREFETCH))
    test_um_counts (cfg, a, drv);
  if (!cfg->copy_bursts || a->mode != MS_MODE_PINNED)
    return MS_CELL_OK;
  uint64_t bytes = MS_COPY_BURST * a->n * sizeof (float);
  for (int i = 0; i < 2 * MS_COPY_SAMPLES; i++) {
    double us = cfg->latency_us + bytes / (cfg->bandwidth_gbps[a->mode] * 1e3);
    t->clock += us;
    if (!ms_cell_driver_add_copy (drv, i % 2 == 0, us, bytes))
      return MS_CELL_FAILED;
  }
  return MS_CELL_OK;
}

static const MsCellOps test_cell_ops = {
  .after_reps = test_after_reps,
  .now = test_now,
  .alloc = test_alloc,
  .rep = test_rep,
  .release = test_release,
};

/* With hold_us, a device that starts a cell waits (lock held) until every
 * other device has started it too, at most a quarter second: a sleep alone
 * let a thread finish before the last of 16 had been scheduled on a loaded
 * 2-core machine, and the overlap the tests check went missing by chance.
 * A runner that does not run devices together still fails them. */
static void
wait_for_all_devices (MsTestBackend *tb, int dev)
{
  struct timespec deadline;
  clock_gettime (CLOCK_REALTIME, &deadline);
  deadline.tv_nsec += 250000000L;
  if (deadline.tv_nsec >= 1000000000L) {
    deadline.tv_sec++;
    deadline.tv_nsec -= 1000000000L;
  }
  for (;;) {
    bool all = true;
    for (int d = 0; d < tb->config.n_devices && d < MS_TEST_MAX_DEVICES; d++)
      if (d != tb->config.missing_device && tb->started[d] < tb->started[dev])
        all = false;
    if (all || pthread_cond_timedwait (&tb->cell_started, &tb->lock, &deadline) != 0)
      return;
  }
}

/* A cell may start only once every device has finished every earlier
 * cell: each device's count of finished cells must have caught up with
 * this one's count of started ones. */
static void
cell_begins (MsTestBackend *tb, int dev)
{
  pthread_mutex_lock (&tb->lock);
  for (int d = 0; d < tb->config.n_devices && d < MS_TEST_MAX_DEVICES; d++) {
    if (d != dev && d != tb->config.missing_device && tb->finished[d] < tb->started[dev])
      tb->barrier_violations++;
  }
  tb->started[dev]++;
  if (++tb->running > tb->max_running)
    tb->max_running = tb->running;
  pthread_cond_broadcast (&tb->cell_started);
  if (tb->config.hold_us > 0)
    wait_for_all_devices (tb, dev);
  pthread_mutex_unlock (&tb->lock);
  if (tb->config.hold_us > 0) {
    struct timespec ts = { 0, tb->config.hold_us * 1000L };
    nanosleep (&ts, NULL);
  }
}

static void
cell_ends (MsTestBackend *tb, int dev)
{
  pthread_mutex_lock (&tb->lock);
  tb->finished[dev]++;
  tb->running--;
  pthread_mutex_unlock (&tb->lock);
}

static MsCellStatus
test_run_cell (MsBackend *self, const MsRunArgs *args, MsRunOutput *out)
{
  MsTestBackend *tb = (MsTestBackend *) self;
  int dev = args->device >= 0 && args->device < MS_TEST_MAX_DEVICES ? args->device : 0;
  cell_begins (tb, dev);
  TestRun t = { .tb = tb, .clock = tb->clock[dev] };
  MsCellStatus st = ms_cell_driver_run (&test_cell_ops, &t, args, out);
  tb->clock[dev] = t.clock;
  cell_ends (tb, dev);
  return st;
}

static bool
test_read_link (MsBackend *self, int device, int *gen, int *width)
{
  const MsTestBackendConfig *c = &((MsTestBackend *) self)->config;
  if (c->link_gen < 0)
    return false;
  *gen = c->link_gen > 0 ? c->link_gen : 4;
  *width = c->link_gen > 0 ? c->link_width : 16;
  return true;
}

static void
test_free (MsBackend *self)
{
  pthread_mutex_destroy (&((MsTestBackend *) self)->lock);
  pthread_cond_destroy (&((MsTestBackend *) self)->cell_started);
  free (self);
}

MsBackend *
ms_backend_new_test (const MsTestBackendConfig *config)
{
  MsTestBackend *tb = calloc (1, sizeof *tb);
  if (!tb)
    return NULL;
  if (config)
    tb->config = *config;
  else
    ms_test_backend_config_init (&tb->config);
  pthread_mutex_init (&tb->lock, NULL);
  pthread_cond_init (&tb->cell_started, NULL);
  tb->parent.name = "test";
  tb->parent.query_device = test_query_device;
  tb->parent.supports = test_supports;
  tb->parent.check_fit = test_check_fit;
  tb->parent.run_cell = test_run_cell;
  tb->parent.free = test_free;
  tb->parent.cost_sample = test_cost_sample;
  tb->parent.probe = test_probe;
  tb->parent.read_link = test_read_link;
  return &tb->parent;
}

long
ms_test_backend_live_buffers (MsBackend *backend)
{
  return ((MsTestBackend *) backend)->live_buffers;
}

long
ms_test_backend_cost_calls (MsBackend *backend)
{
  return ((MsTestBackend *) backend)->cost_calls;
}

long
ms_test_backend_steps (MsBackend *backend)
{
  return ((MsTestBackend *) backend)->steps;
}

int
ms_test_backend_max_concurrent (MsBackend *backend)
{
  return ((MsTestBackend *) backend)->max_running;
}

long
ms_test_backend_barrier_violations (MsBackend *backend)
{
  return ((MsTestBackend *) backend)->barrier_violations;
}
