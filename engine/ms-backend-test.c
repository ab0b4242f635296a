/* ms-backend-test.c: deterministic timings and fault injection for tests.
 * Runs no GPU code; the host mode still computes and verifies for real. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ms-backend-test.h"
#include "ms-backend.h"

typedef struct {
  MsBackend parent;
  MsTestBackendConfig config;
  long live_buffers;
  long runs;
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
  config->device_free_mem = 80ull << 30;
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
  if (index != 0) {
    snprintf (info->error, sizeof info->error,
              "device index %d is out of range: 1 CUDA device visible", index);
    info->count = 1;
    return false;
  }
  info->present = true;
  info->count = 1;
  snprintf (info->name, sizeof info->name, "Test GPU");
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
  const MsRunArgs *args;
  MsRunOutput *out;
  int rep;
  double clock;
  MsCellStatus status;
} TestRun;

/* Adds one event of modelled duration; false when a fault or a cancel
 * stops the run here. */
static bool
step (TestRun *t, MsPhase phase, int lane, int chunk, uint64_t bytes, bool gpu)
{
  const MsTestBackendConfig *cfg = &t->tb->config;
  const MsRunArgs *a = t->args;
  if (cfg->fail_exponent >= 0 && a->mode == cfg->fail_mode &&
      a->n == (1ull << cfg->fail_exponent) && t->rep == cfg->fail_rep &&
      phase == cfg->fail_phase) {
    if (cfg->fail_status == MS_CELL_VERIFY_FAILED) {
      t->out->mismatches = 3;
      t->out->first_mismatch = a->n / 2;
    } else {
      snprintf (t->out->error, sizeof t->out->error, "injected fault in %s",
                ms_phase_name (phase));
    }
    t->status = cfg->fail_status;
    return false;
  }
  if (a->cancel && atomic_load (a->cancel)) {
    t->status = MS_CELL_CANCELLED;
    return false;
  }
  double bw = cfg->bandwidth_gbps[a->mode];
  double dur = cfg->latency_us + (bytes ? bytes / (bw * 1e3) : 0);
  if (t->out->n_events < t->out->max_events) {
    MsEvent *ev = &t->out->events[t->out->n_events++];
    memset (ev, 0, sizeof *ev);
    ev->phase = phase;
    ev->lane = lane;
    ev->chunk = chunk;
    ev->rep = t->rep < 0 ? 0 : t->rep;
    ev->host_start_us = t->clock;
    ev->host_us = gpu ? 2.0 : dur;
    ev->gpu_start_us = gpu ? t->clock : -1;
    ev->gpu_us = gpu ? dur : -1;
    ev->bytes = bytes;
  }
  t->clock += dur;
  return true;
}

/* One repetition after alloc: init .. verify. */
static bool
test_rep (TestRun *t)
{
  const MsRunArgs *args = t->args;
  uint64_t vec = args->n * sizeof (float);
  long run_index = t->tb->runs++;

  if (run_index == t->tb->config.cancel_at_run && args->cancel)
    atomic_store (args->cancel, 1);
  if (!step (t, MS_PHASE_INIT, 0, 0, 0, false))
    return false;
  if (args->mode == MS_MODE_REGISTERED && !step (t, MS_PHASE_REGISTER, 0, 0, 3 * vec, false))
    return false;
  double e2e_start = t->clock;
  if (args->mode == MS_MODE_STREAMS) {
    int k = args->streams;
    double t0 = t->clock, longest = 0;
    for (int s = 0; s < k; s++) {
      /* Chunks run side by side: each stream's clock starts at t0. */
      t->clock = t0;
      uint64_t cb = vec / k;
      if (!step (t, MS_PHASE_H2D, s + 1, s, 2 * cb, true) ||
          !step (t, MS_PHASE_KERNEL, s + 1, s, 0, true) ||
          !step (t, MS_PHASE_D2H, s + 1, s, cb, true))
        return false;
      if (t->clock - t0 > longest)
        longest = t->clock - t0;
    }
    t->clock = t0 + longest;
  } else {
    MsPhase to_dev = ms_mode_to_device_phase (args->mode);
    MsPhase to_host = ms_mode_to_host_phase (args->mode);
    bool on_gpu = args->mode != MS_MODE_HOST;
    if (to_dev < MS_PHASE_COUNT && !step (t, to_dev, 1, 0, 2 * vec, true))
      return false;
    if (!step (t, MS_PHASE_KERNEL, on_gpu ? 1 : 0, 0, 0, on_gpu))
      return false;
    if (to_host < MS_PHASE_COUNT && !step (t, to_host, 1, 0, vec, true))
      return false;
  }
  if (t->rep >= 0)
    t->out->e2e_us[t->rep] = t->clock - e2e_start;
  if (!step (t, MS_PHASE_VERIFY, 0, 0, 0, false))
    return false;
  if (args->mode == MS_MODE_REGISTERED && !step (t, MS_PHASE_UNREGISTER, 0, 0, 3 * vec, false))
    return false;
  return true;
}

static MsCellStatus
test_run_cell (MsBackend *self, const MsRunArgs *args, MsRunOutput *out)
{
  MsTestBackend *tb = (MsTestBackend *) self;
  TestRun t = { .tb = tb, .args = args, .out = out, .status = MS_CELL_OK };

  out->n_events = 0;
  out->n_reps = 0;
  out->mismatches = 0;
  /* Alloc happens before the first warm-up, as in the real backends. */
  t.rep = args->warmup > 0 ? -1 : 0;
  out->failed_rep = t.rep;
  if (!step (&t, MS_PHASE_ALLOC, 0, 0, 0, false))
    return t.status;
  tb->live_buffers += 3;
  int keep = out->n_events;

  for (t.rep = -args->warmup; t.rep < args->reps; t.rep++) {
    out->failed_rep = t.rep;
    if (!test_rep (&t))
      break;
    if (t.rep < 0)
      out->n_events = keep;
    else
      out->n_reps = t.rep + 1;
    t.clock += 100; /* the gap between repetitions */
  }
  /* Free runs whatever happened before, as in the real backends. */
  tb->live_buffers -= 3;
  if (out->n_events < out->max_events)
    out->events[out->n_events++] = (MsEvent){ .phase = MS_PHASE_FREE,
                                              .rep = out->n_reps ? out->n_reps - 1 : 0,
                                              .host_start_us = t.clock,
                                              .host_us = tb->config.latency_us,
                                              .gpu_start_us = -1,
                                              .gpu_us = -1 };
  return t.status;
}

static void
test_free (MsBackend *self)
{
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
  tb->parent.name = "test";
  tb->parent.query_device = test_query_device;
  tb->parent.supports = test_supports;
  tb->parent.check_fit = test_check_fit;
  tb->parent.run_cell = test_run_cell;
  tb->parent.free = test_free;
  return &tb->parent;
}

long
ms_test_backend_live_buffers (MsBackend *backend)
{
  return ((MsTestBackend *) backend)->live_buffers;
}
