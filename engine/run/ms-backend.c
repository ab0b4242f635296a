/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-backend.c: the public face of backends, and the system backend (CUDA
 * for the GPU modes, the host for the CPU baseline). */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ms-backend.h"
#include "ms-time-ledger.h"
#include "ms-cell-driver.h"
#include "ms-experiment.h"
#include "ms-gpu-start.h"
#include "ms-gpu-state.h"
#include "ms-host-mem.h"
#include "ms-i18n.h"
#include "ms-lesson-list.h"
#include "ms-mode-list.h"
#include "ms-modes.h"

#ifdef MS_HAVE_CUDA
#include "ms-kernels.h"
#include "ms-um-counters.h"

/* The kernels use the engine's numbering. */
_Static_assert (MS_PHASE_ALLOC == 0 && MS_PHASE_INIT == 1 && MS_PHASE_REGISTER == 2 &&
                  MS_PHASE_PREFETCH == 3 && MS_PHASE_H2D == 4 && MS_PHASE_KERNEL == 5 &&
                  MS_PHASE_D2H == 6 && MS_PHASE_VERIFY == 7 && MS_PHASE_UNREGISTER == 8 &&
                  MS_PHASE_FREE == 9 && MS_PHASE_LAUNCH == 10 && MS_PHASE_HOST_FUNC == 11 &&
                  MS_PHASE_CALL == 12,
                "phase numbers shared with kernels/ms-k-common.cuh");
/* The modes the kernels treat specially, in the kernels' own numbers, so
 * that no mode's place in ms-mode-list.h matters to them; every mode's
 * steps come through mode_steps. */
static MsKNamedMode
kernels_named_mode (MsMode mode)
{
  switch (mode) {
  case MS_MODE_PAGEABLE: return MS_K_MODE_PAGEABLE;
  case MS_MODE_PINNED: return MS_K_MODE_PINNED;
  case MS_MODE_REGISTERED: return MS_K_MODE_REGISTERED;
  case MS_MODE_WRITE_COMBINED: return MS_K_MODE_WRITE_COMBINED;
  default: return MS_K_MODE_OTHER;
  }
}

/* Each GPU mode's steps, kernels/mode-FILE.cu, by the mode's id: its line of
 * ms-mode-list.h names them. */
#define STEPS_DECLARE_GPU(cname) extern const MsKMode ms_k_mode_##cname;
#define STEPS_DECLARE_CPU(cname)
#define STEPS_DECLARE(id, cname, kind, ...) STEPS_DECLARE_##kind (cname)
MS_MODE_LIST (STEPS_DECLARE)

#define STEPS_ENTRY_GPU(id, cname) [MS_MODE_##id] = &ms_k_mode_##cname,
#define STEPS_ENTRY_CPU(id, cname)
#define STEPS_ENTRY(id, cname, kind, ...) STEPS_ENTRY_##kind (id, cname)
static const MsKMode *const mode_steps[MS_MODE_COUNT] = { MS_MODE_LIST (STEPS_ENTRY) };

_Static_assert (MS_ACCESS_READ == 1 && MS_ACCESS_WRITE == 2 && MS_ACCESS_WRITE_IN_KERNEL == 3 &&
                  MS_STORES_ORDINARY == 1 && MS_STORES_FRESH == 2 && MS_DUPLEX_H2D == 1 &&
                  MS_DUPLEX_D2H == 2 && MS_DUPLEX_BOTH == 3,
                "lesson settings shared with kernels/ms-k-common.cuh");
#endif

void
ms_backend_free (MsBackend *backend)
{
  if (backend)
    backend->free (backend);
}

bool
ms_backend_query_device (MsBackend *backend, int index, MsDeviceInfo *info)
{
  memset (info, 0, sizeof *info);
  info->index = index;
  ms_host_cpu_affinity (info->host_cpu_affinity, sizeof info->host_cpu_affinity);
  return backend->query_device (backend, index, info);
}

bool
ms_backend_supports (MsBackend *backend, const MsDeviceInfo *info, MsMode mode, char *why,
                     size_t whylen)
{
  return backend->supports (backend, info, mode, why, whylen);
}

/* ---- the system backend ----------------------------------------------- */

static bool
system_query_device (MsBackend *self, int index, MsDeviceInfo *info)
{
  (void) self;
#ifdef MS_HAVE_CUDA
  MsKDeviceInfo k;
  ms_k_device_query (ms_gpu_cuda_index (index), &k);
  /* Narrowed to this GPU (ms-gpu-start.h): the host's count, as before. */
  info->count = ms_gpu_count_before () > 0 ? ms_gpu_count_before () : k.count;
  info->driver_version = k.driver_version;
  info->runtime_version = k.runtime_version;
  if (!k.ok) {
    /* Narrowed to an index CUDA does not have, CUDA sees no GPU at all. */
    if (ms_gpu_narrowed () && strstr (k.error, "cudaErrorNoDevice"))
      snprintf (info->error, sizeof info->error,
                ms_gettext ("%s (only device %d was shown to CUDA: is there such a device? "
                            "MEMSWEEP_ALL_GPUS=1 shows every one)"),
                k.error, index);
    else if (k.no_driver)
      snprintf (info->error, sizeof info->error,
                ms_gettext ("%s: no NVIDIA driver is installed (libcuda.so.1 not found)"), k.error);
    else
      snprintf (info->error, sizeof info->error, "%s", k.error);
    return false;
  }
  info->present = true;
  snprintf (info->name, sizeof info->name, "%s", k.name);
  info->cc_major = k.cc_major;
  info->cc_minor = k.cc_minor;
  info->total_mem = k.total_mem;
  info->free_mem = k.free_mem;
  info->can_map_host_memory = k.can_map_host_memory;
  info->concurrent_managed_access = k.concurrent_managed_access;
  info->pageable_memory_access = k.pageable_memory_access;
  info->managed_memory = k.managed_memory;
  info->unified_addressing = k.unified_addressing;
  info->async_engine_count = k.async_engine_count;
  info->concurrent_kernels = k.concurrent_kernels;
  info->priority_least = k.priority_least;
  info->priority_greatest = k.priority_greatest;
  info->multiprocessors = k.multiprocessors;
  info->l2_bytes = k.l2_bytes;
  snprintf (info->pci_bus_id, sizeof info->pci_bus_id, "%s", k.pci_bus_id);
  double t0 = ms_ledger_now ();
  ms_nvml_query (info);
  ms_ledger_since (MS_LEDGER_QUERY_NVML, t0);
  return true;
#else
  (void) index;
  snprintf (info->error, sizeof info->error,
            ms_gettext ("this build of memsweep has no CUDA support (it was configured "
                        "without nvcc)"));
  return false;
#endif
}

/* What each device capability a mode may need (its record's .need) is
 * read from, and the reason given where the device lacks it. */
static const struct {
  size_t has; /* offset of a bool of MsDeviceInfo */
  const char *why;
} needs[] = {
  [MS_NEED_NOTHING] = { 0, NULL },
  [MS_NEED_MAP_HOST_MEMORY] = { offsetof (MsDeviceInfo, can_map_host_memory),
                                MS_N_ ("the device cannot map host memory "
                                       "(canMapHostMemory = 0)") },
  [MS_NEED_UNIFIED_ADDRESSING] = { offsetof (MsDeviceInfo, unified_addressing),
                                   MS_N_ ("the device has no unified addressing "
                                          "(unifiedAddressing = 0)") },
  [MS_NEED_MANAGED_MEMORY] = { offsetof (MsDeviceInfo, managed_memory),
                               MS_N_ ("the device has no managed memory (managedMemory = 0)") },
  [MS_NEED_CONCURRENT_MANAGED_ACCESS] = { offsetof (MsDeviceInfo, concurrent_managed_access),
                                          MS_N_ ("prefetching needs concurrentManagedAccess, "
                                                 "which this device lacks") },
};
_Static_assert (sizeof needs / sizeof needs[0] == MS_NEED_COUNT, "every need has its line");

static bool
system_supports (MsBackend *self, const MsDeviceInfo *info, MsMode mode, char *why,
                 size_t whylen)
{
  (void) self;
  if (!ms_mode_uses_gpu (mode))
    return true;
  if (!info->present) {
    snprintf (why, whylen, ms_gettext ("no usable CUDA device: %s"), info->error);
    return false;
  }
  MsModeNeed need = ms_mode_need (mode);
  if (need == MS_NEED_NOTHING || *(const bool *) ((const char *) info + needs[need].has))
    return true;
  snprintf (why, whylen, "%s", ms_gettext (needs[need].why));
  return false;
}

/* Headroom left for the CUDA context, the driver and other programs. */
#define MS_DEVICE_HEADROOM (256ull << 20)

static bool
system_check_fit (MsBackend *self, const MsDeviceInfo *info, MsMode mode, uint64_t n,
                  char *why, size_t whylen)
{
  (void) self;
  uint64_t vec = ms_vector_bytes (n);
  MsModeMemory memory = ms_mode_memory (mode);
  /* Device data needs host memory for the result alone. */
  uint64_t host_need = memory == MS_MEMORY_DEVICE ? vec : 3 * vec;
  bool device_buffers = memory != MS_MEMORY_HOST && memory != MS_MEMORY_MAPPED;
  uint64_t host_free = ms_host_meminfo ("MemAvailable:");
  char need_s[32], have_s[32], vec_s[32];

  ms_format_bytes (vec, vec_s, sizeof vec_s);
  /* Leave a tenth of the available memory to everything else. */
  if (host_free && host_need > host_free / 10 * 9) {
    ms_format_bytes (host_need, need_s, sizeof need_s);
    ms_format_bytes (host_free, have_s, sizeof have_s);
    snprintf (why, whylen,
              ms_gettext ("refused before allocating: needs %s of host memory (vectors of %s) "
                          "but only %s is available"),
              need_s, vec_s, have_s);
    return false;
  }
#ifdef MS_HAVE_CUDA
  /* Buffers kept from the cells before (an experiment) must not make
   * managed memory look short, nor stay while it is sized. */
  if (memory == MS_MEMORY_MANAGED)
    ms_k_buffers_release ();
  if (device_buffers) {
    char err[256] = "";
    uint64_t dev_free = ms_k_device_free_memory (ms_gpu_cuda_index (info->index), err, sizeof err);
    uint64_t dev_need = 3 * vec;
    if (dev_free == 0 && err[0]) {
      snprintf (why, whylen, "%s", err);
      return false;
    }
    if (dev_need + MS_DEVICE_HEADROOM > dev_free) {
      ms_format_bytes (dev_need, need_s, sizeof need_s);
      ms_format_bytes (dev_free, have_s, sizeof have_s);
      /* TRANSLATORS: the second %s is "managed" or "device" (memory). */
      snprintf (why, whylen,
                ms_gettext ("refused before allocating: needs %s of %s memory (3 vectors of %s) "
                            "but the device has only %s free"),
                need_s,
                memory == MS_MEMORY_MANAGED
                  ? ms_gettext ("managed")
                  : ms_gettext ("device"),
                vec_s, have_s);
      return false;
    }
  }
#else
  (void) info;
  (void) device_buffers;
#endif
  return true;
}

#ifdef MS_HAVE_CUDA
/* Whether --host-prep once may write a cell's inputs before its first
 * repetition only: where the mode's inputs allow it (ms_mode_inputs_written),
 * written with the streaming stores that leave them out of the CPU's
 * cache, not the lessons' other ways of writing. */
static bool
inputs_may_be_kept (const MsRunArgs *args)
{
  return args->host_prep == MS_HOST_PREP_ONCE && args->knobs.stores == MS_STORES_STREAMED &&
         ms_mode_inputs_written (args->mode) == MS_INPUTS_FIRST_REP;
}

/* The GPU modes: the driver's callbacks call the steps in kernels/. */
typedef struct {
  MsKRun run;
  MsKCell *kcell;
  MsCellDriver *drv; /* for the cancel points inside kernels/ */
} CudaCell;

static int
cuda_cancel_point (void *user)
{
  CudaCell *cc = user;
  return cc->drv && ms_cell_driver_cancelled (cc->drv);
}

/* The kernels' event and status in the engine's types (cells and probes). */
static MsEvent
event_of (const MsKEvent *k)
{
  return (MsEvent) { .phase = (MsPhase) k->phase, .lane = k->lane, .chunk = k->chunk,
                     .host_start_us = k->host_start_us, .host_us = k->host_us,
                     .gpu_start_us = k->gpu_start_us, .gpu_us = k->gpu_us, .bytes = k->bytes };
}

static MsCellStatus
status_of (MsKStatus st)
{
  switch (st) {
  case MS_K_OK: return MS_CELL_OK;
  case MS_K_CANCELLED: return MS_CELL_CANCELLED;
  case MS_K_UNSUPPORTED: return MS_CELL_UNSUPPORTED;
  case MS_K_VERIFY_FAILED: return MS_CELL_VERIFY_FAILED;
  case MS_K_FAILED:
  default: return MS_CELL_FAILED;
  }
}

/* Hands the step's events and results to the driver; maps the status. */
static MsCellStatus
cuda_step_done (CudaCell *cc, MsCellDriver *drv, MsKStatus st)
{
  const MsKRun *run = &cc->run;
  for (int i = 0; i < run->n_events; i++) {
    MsEvent ev = event_of (&run->events[i]);
    if (!ms_cell_driver_add_event (drv, &ev))
      return MS_CELL_FAILED;
  }
  if (run->e2e_us >= 0)
    ms_cell_driver_set_e2e (drv, run->e2e_us);
  ms_cell_driver_set_mismatches (drv, run->mismatches, run->first_mismatch);
  if (run->error[0])
    ms_cell_driver_fail (drv, "%s", run->error);
  return status_of (st);
}

static bool
cuda_origin (void *data, MsCellDriver *drv, MsOrigin origin)
{
  CudaCell *cc = data;
  cc->drv = drv;
  MsKOrigin k = origin == MS_ORIGIN_CELL         ? MS_K_ORIGIN_CELL
                : origin == MS_ORIGIN_CELL_AGAIN ? MS_K_ORIGIN_CELL_AGAIN
                                                 : MS_K_ORIGIN_REP;
  return cuda_step_done (cc, drv, ms_k_cell_origin (cc->kcell, k)) == MS_CELL_OK;
}

static MsCellStatus
cuda_alloc (void *data, MsCellDriver *drv)
{
  CudaCell *cc = data;
  const MsRunArgs *args = ms_cell_driver_args (drv);
  /* CUPTI's first session in a process counted nothing for buffers made
   * before it (the first managed-touch cell read all zeros on both GPUs):
   * one session before the buffers exist. */
  if (args->knobs.um_counts && ms_k_um_built ())
    ms_k_um_prepare ();
  return cuda_step_done (cc, drv, ms_k_cell_alloc (cc->kcell));
}

/* Where a plain repetition's time goes beyond its end-to-end window: the
 * time ledger's split of the sweep's unexplained rest (ms-time-ledger.h). */
static void
ledger_plain_step (const MsKRun *run, double t0)
{
  ms_ledger_since (MS_LEDGER_PLAIN_STEP, t0);
  for (int i = 0; i < run->n_events; i++) {
    const MsKEvent *k = &run->events[i];
    if (k->phase == MS_PHASE_INIT)
      ms_ledger_add (MS_LEDGER_PLAIN_INIT, k->host_us * 1e-6);
    else if (k->phase == MS_PHASE_VERIFY)
      ms_ledger_add (MS_LEDGER_PLAIN_VERIFY, k->host_us * 1e-6);
  }
}

static MsCellStatus
cuda_rep (void *data, MsCellDriver *drv)
{
  CudaCell *cc = data;
  cc->run.instrumented = ms_cell_driver_instrumented (drv);
  cc->run.verify = ms_cell_driver_verifies (drv);
  double lt = ms_ledger_now ();
  MsKStatus st = ms_k_cell_rep (cc->kcell);
  if (!cc->run.instrumented && ms_ledger_on ())
    ledger_plain_step (&cc->run, lt);
  return cuda_step_done (cc, drv, st);
}

/* The managed-touch lesson's counts: one more repetition with CUPTI's
 * unified-memory counters on, after the timed ones (the counters slow the
 * faults down). Its events and times are dropped; a failure to count
 * leaves the cell's measurements as they are and says why. */
static void
cuda_count_um (CudaCell *cc, MsCellDriver *drv)
{
  MsKUmCounts k;
  MsUmCounts um = { .state = MS_UM_UNAVAILABLE };
  if (!ms_k_um_built ()) {
    snprintf (um.reason, sizeof um.reason,
              ms_gettext ("not built with CUPTI (libcupti was not found at configure time)"));
  } else if (ms_k_um_begin (&k) == 0) {
    MsKStatus st = ms_k_cell_rep (cc->kcell);
    int ended = ms_k_um_end (&k);
    if (st != MS_K_OK || cc->run.mismatches > 0)
      snprintf (um.reason, sizeof um.reason, "%s: %.150s",
                ms_gettext ("the counted repetition did not complete"), cc->run.error);
    else if (ended == 0)
      um = (MsUmCounts){ .state = MS_UM_COUNTED, .gpu_faults = k.gpu_faults,
                         .cpu_faults = k.cpu_faults, .h2d_bytes = k.h2d_bytes,
                         .d2h_bytes = k.d2h_bytes };
  }
  if (um.state == MS_UM_UNAVAILABLE && !um.reason[0])
    snprintf (um.reason, sizeof um.reason, "%s: %.150s", ms_gettext ("CUPTI cannot count here"),
              k.reason);
  cc->run.error[0] = '\0';
  cc->run.mismatches = 0;
  ms_cell_driver_set_um_counts (drv, &um);
}

/* Steady-state copy bursts with the cell's buffers; modes without copies
 * of their own have none. */
static MsCellStatus
cuda_after_reps (void *data, MsCellDriver *drv)
{
  CudaCell *cc = data;
  const MsRunArgs *args = ms_cell_driver_args (drv);
  if (args->knobs.um_counts && ms_mode_memory (args->mode) == MS_MEMORY_MANAGED)
    cuda_count_um (cc, drv);
  if (args->no_copy_bursts)
    return MS_CELL_OK;
  MsKCopy copies[2 * MS_COPY_SAMPLES];
  MsKStatus st = ms_k_cell_copy_bursts (cc->kcell, MS_COPY_SAMPLES, MS_COPY_BURST, copies);
  if (st == MS_K_UNSUPPORTED)
    return MS_CELL_OK;
  if (st == MS_K_OK)
    for (int i = 0; i < 2 * MS_COPY_SAMPLES; i++)
      ms_cell_driver_add_copy (drv, copies[i].to_device, copies[i].gpu_us, copies[i].bytes);
  return cuda_step_done (cc, drv, st);
}

static void
cuda_release (void *data, MsCellDriver *drv)
{
  CudaCell *cc = data;
  (void) drv;
  ms_k_cell_free (cc->kcell);
  cc->kcell = NULL;
}

static const MsCellOps cuda_cell_ops = {
  .origin = cuda_origin,
  .alloc = cuda_alloc,
  .rep = cuda_rep,
  .after_reps = cuda_after_reps,
  .release = cuda_release,
};

static MsCellStatus
cuda_run_cell (const MsRunArgs *args, MsRunOutput *out)
{
  CudaCell *cc = calloc (1, sizeof *cc);
  if (cc) {
    cc->run = (MsKRun){
      .mode = args->mode,
      .named = kernels_named_mode (args->mode),
      .steps = (unsigned) args->mode < MS_MODE_COUNT ? mode_steps[args->mode] : NULL,
      .device = ms_gpu_cuda_index (args->device),
      .n = args->n,
      .streams = args->streams,
      .breadth_first = args->order == MS_ORDER_BREADTH_FIRST,
      .reuse = args->knobs.reuse,
      .access = args->knobs.access,
      .stores = args->knobs.stores,
      .read_wc = args->knobs.read_wc,
      .duplex = args->knobs.duplex,
      .host_work = args->knobs.host_work,
      .spin_us = args->knobs.spin_us,
      .resident = args->knobs.resident,
      .inputs_kept = args->knobs.inputs_kept || inputs_may_be_kept (args),
      .verify_poisons = args->host_prep == MS_HOST_PREP_ONCE,
      .is_cancelled = cuda_cancel_point,
      .user = cc,
    };
    cc->kcell = ms_k_cell_new (&cc->run);
  }
  if (!cc || !cc->kcell) {
    free (cc);
    memset (out, 0, sizeof *out);
    snprintf (out->error, sizeof out->error, ms_gettext ("out of host memory"));
    return MS_CELL_FAILED;
  }
  MsCellStatus st = ms_cell_driver_run (&cuda_cell_ops, cc, args, out);
  ms_k_cell_free (cc->kcell); /* only when release never ran */
  free (cc);
  return st;
}
#endif

static MsCellStatus
system_run_cell (MsBackend *self, const MsRunArgs *args, MsRunOutput *out)
{
  (void) self;
  if (!ms_mode_uses_gpu (args->mode))
    return ms_host_run_cell (args, out);
#ifdef MS_HAVE_CUDA
  const MsExperiment *x = ms_experiment_get (NULL, 0);
  ms_k_set_buffer_options (x && x->hugepages, x && x->keep_buffers);
  return cuda_run_cell (args, out);
#else
  memset (out, 0, sizeof *out);
  snprintf (out->error, sizeof out->error,
            ms_gettext ("this build of memsweep has no CUDA support"));
  return MS_CELL_UNSUPPORTED;
#endif
}

#ifdef MS_HAVE_CUDA
_Static_assert ((int) MS_COST_CONTEXT_FIRST == (int) MS_K_COST_CONTEXT_FIRST &&
                  (int) MS_COST_REGISTER == (int) MS_K_COST_REGISTER &&
                  (int) MS_COST_POOL_KEEP == (int) MS_K_COST_POOL_KEEP &&
                  (int) MS_COST_COUNT == (int) MS_K_COST_COUNT,
                "cost numbers shared with kernels/ms-kernels.h");

static bool
system_cost_sample (MsBackend *self, int device, int what, uint64_t bytes, uint64_t keep_bytes,
                    double *alloc_us, double *free_us, uint64_t pool[2], char *err, size_t errlen)
{
  (void) self;
  return ms_k_cost_sample (ms_gpu_cuda_index (device), what, bytes, keep_bytes, alloc_us, free_us, pool, err,
                           errlen) == 0;
}

_Static_assert (MS_PROBE_N_ARGS == MS_K_PROBE_N_ARGS &&
                  MS_PROBE_MAX_EVENTS == MS_K_PROBE_MAX_EVENTS,
                "probe sizes shared with kernels/ms-kernels.h");

/* Each probe lesson's sample, kernels/lesson-NAME.cu, in the order of
 * ms-lesson-list.h (so by the lesson's id, MsLessonTopic): its line names
 * it. */
#define DECLARE_PLAIN(name)
#define DECLARE_SWEEP(name)
#define DECLARE_PROBE(name) MsKStatus ms_k_lesson_##name (MsKProbe *p);
#define SAMPLE_DECLARE(id, name, kind, picture) DECLARE_##kind (name)
MS_LESSON_LIST (SAMPLE_DECLARE)

#define ENTRY_PLAIN(name) NULL,
#define ENTRY_SWEEP(name) NULL,
#define ENTRY_PROBE(name) ms_k_lesson_##name,
#define SAMPLE_ENTRY(id, name, kind, picture) ENTRY_##kind (name)
static const MsKLessonSample lesson_samples[] = { MS_LESSON_LIST (SAMPLE_ENTRY) };

static MsCellStatus
system_probe (MsBackend *self, const MsProbeArgs *args, MsProbeSample *out)
{
  (void) self;
  /* Large (its events): one per thread, reused. */
  static _Thread_local MsKProbe k;
  memset (&k, 0, offsetof (MsKProbe, events));
  MsKLessonSample sample =
    args->lesson >= 0 && (size_t) args->lesson < sizeof lesson_samples / sizeof *lesson_samples
        ? lesson_samples[args->lesson]
        : NULL;
  if (!sample) {
    snprintf (out->error, sizeof out->error, "this build of memsweep has no probe %d",
              args->lesson);
    return MS_CELL_UNSUPPORTED;
  }
  k.device = ms_gpu_cuda_index (args->device);
  k.mode = kernels_named_mode (args->mode);
  k.bytes = args->bytes;
  memcpy (k.arg, args->arg, sizeof k.arg);
  k.instrumented = args->instrumented;
  MsKStatus st = ms_k_probe_run (&k, sample);
  out->value_us = k.value_us;
  out->n_events = 0;
  for (int i = 0; i < k.n_events && i < MS_PROBE_MAX_EVENTS; i++)
    out->events[out->n_events++] = event_of (&k.events[i]);
  snprintf (out->error, sizeof out->error, "%s", k.error);
  /* Probes end ok, unsupported or failed (no cancel points, no verify). */
  return status_of (st);
}

static bool
system_spin (MsBackend *self, int device, double ms)
{
  (void) self;
  char err[256];
  return ms_k_spin (ms_gpu_cuda_index (device), ms, err, sizeof err) == 0;
}

static bool
system_copy_warm (MsBackend *self, int device, double ms)
{
  (void) self;
  char err[256];
  return ms_k_copy_warm (ms_gpu_cuda_index (device), ms, err, sizeof err) == 0;
}

static void
system_release_kept (MsBackend *self)
{
  (void) self;
  ms_k_buffers_release ();
}
#endif

static void
system_free (MsBackend *self)
{
#ifdef MS_HAVE_CUDA
  ms_k_shutdown ();
#endif
  free (self);
}

MsBackend *
ms_backend_new_system (void)
{
  MsBackend *b = calloc (1, sizeof *b);
  if (!b)
    return NULL;
#ifdef MS_HAVE_CUDA
  b->name = "cuda";
#else
  b->name = "host-only";
#endif
  b->query_device = system_query_device;
  b->supports = system_supports;
  b->check_fit = system_check_fit;
  b->run_cell = system_run_cell;
  b->free = system_free;
#ifdef MS_HAVE_CUDA
  b->spin = system_spin;
  b->copy_warm = system_copy_warm;
  b->release_kept = system_release_kept;
  b->cost_sample = system_cost_sample;
  b->probe = system_probe;
#endif
  return b;
}
