/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-um-counters.c: CUPTI's unified-memory counters (activity kind
 * UNIFIED_MEMORY_COUNTER) summed over a window of a counted repetition.
 * CUPTI delivers records in buffers it asks us for; the buffer-completed
 * callback may run on CUPTI's own thread, hence the lock.
 *
 * Which records belong to the window is decided by when they arrive, not
 * by their timestamps. The records come from the unified-memory driver
 * and reach CUPTI's buffers later than the work they describe, and a
 * forced flush hands over only what CUPTI holds by then; and their
 * timestamps are taken on different clocks (a transfer's when it starts on
 * the GPU, a fault's when the driver starts servicing it). Filtering by
 * timestamp against the host's window and reading right after one flush
 * is how a first touch once read no GPU faults and 23 of 32 MiB: both
 * lose records at the edges. So at each edge of the window the device is
 * idle (the caller synchronised) and the records are drained: flushed
 * until several flushes in a row bring nothing new. What arrives while the
 * window is open is counted; the rest is not. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ms-um-counters.h"

#ifdef MS_HAVE_CUPTI
#include <cupti.h>
#include <dlfcn.h>
#include <pthread.h>

/* CUPTI is loaded at run time, as NVML is (engine/devices/ms-nvml.c), so
 * that memsweep starts where the toolkit is absent and only the counted
 * lessons need it. Its usual homes, after the default search path. */
static const char *const um_cupti_paths[] = {
  "libcupti.so." MS_CUPTI_SOVERSION,
  "/usr/local/cuda/extras/CUPTI/lib64/libcupti.so." MS_CUPTI_SOVERSION,
  "/usr/local/cuda/lib64/libcupti.so." MS_CUPTI_SOVERSION,
  "libcupti.so",
};

/* The CUPTI functions used, typed after cupti.h's own declarations. */
static struct {
  bool tried, loaded;
  char missing[160];
  __typeof__ (cuptiActivityRegisterCallbacks) *register_callbacks;
  __typeof__ (cuptiActivityGetNextRecord) *next_record;
  __typeof__ (cuptiActivityGetNumDroppedRecords) *dropped_records;
  __typeof__ (cuptiGetResultString) *result_string;
  __typeof__ (cuptiActivityFlushAll) *flush_all;
  __typeof__ (cuptiActivityConfigureUnifiedMemoryCounter) *configure_um;
  __typeof__ (cuptiActivityEnable) *enable;
  __typeof__ (cuptiActivityDisable) *disable;
} cupti;

static bool
um_cupti_symbols (void *lib)
{
#define UM_SYM(field, name)                                                   \
  if (!(*(void **) &cupti.field = dlsym (lib, #name))) {                      \
    snprintf (cupti.missing, sizeof cupti.missing, "libcupti has no %s", #name); \
    return false;                                                             \
  }
  UM_SYM (register_callbacks, cuptiActivityRegisterCallbacks);
  UM_SYM (next_record, cuptiActivityGetNextRecord);
  UM_SYM (dropped_records, cuptiActivityGetNumDroppedRecords);
  UM_SYM (result_string, cuptiGetResultString);
  UM_SYM (flush_all, cuptiActivityFlushAll);
  UM_SYM (configure_um, cuptiActivityConfigureUnifiedMemoryCounter);
  UM_SYM (enable, cuptiActivityEnable);
  UM_SYM (disable, cuptiActivityDisable);
#undef UM_SYM
  return true;
}

/* Loads CUPTI once; false with the reason in cupti.missing. */
static bool
um_cupti_load (void)
{
  if (cupti.tried)
    return cupti.loaded;
  cupti.tried = true;
  for (size_t i = 0; i < sizeof um_cupti_paths / sizeof *um_cupti_paths; i++) {
    void *lib = dlopen (um_cupti_paths[i], RTLD_NOW | RTLD_LOCAL);
    if (!lib)
      continue;
    if (um_cupti_symbols (lib))
      return cupti.loaded = true;
    dlclose (lib);
    return false;
  }
  snprintf (cupti.missing, sizeof cupti.missing,
            "libcupti.so.%s not found (searched the library path, "
            "/usr/local/cuda/extras/CUPTI/lib64 and /usr/local/cuda/lib64)",
            MS_CUPTI_SOVERSION);
  return false;
}

/* CUDA 13 renamed the record (the fields we read are the same). */
#if CUPTI_API_VERSION >= 130000
typedef CUpti_ActivityUnifiedMemoryCounter3 UmRecord;
#else
typedef CUpti_ActivityUnifiedMemoryCounter2 UmRecord;
#endif

#define UM_BUFFER_BYTES (4u << 20)
#define UM_BUFFER_ALIGN 8
/* Draining: a flush every UM_DRAIN_STEP_MS until UM_DRAIN_QUIET flushes
 * in a row brought no record, at most UM_DRAIN_MAX_MS. Only the counted
 * repetition pays this; its times are not kept. */
#define UM_DRAIN_STEP_MS 5
#define UM_DRAIN_QUIET 4
#define UM_DRAIN_MAX_MS 2000

typedef enum { UM_IDLE, UM_ARMED, UM_OPEN, UM_CLOSED } UmPhase;

static struct {
  pthread_mutex_t lock;
  int registered;
  UmPhase phase;
  uint64_t arrived; /* unified-memory records delivered, in any phase */
  int settled;      /* both drains went quiet before their limit */
  MsKUmCounts sums;
} um = { .lock = PTHREAD_MUTEX_INITIALIZER };

static void CUPTIAPI
um_buffer_requested (uint8_t **buffer, size_t *size, size_t *max_records)
{
  *buffer = aligned_alloc (UM_BUFFER_ALIGN, UM_BUFFER_BYTES);
  *size = *buffer ? UM_BUFFER_BYTES : 0;
  *max_records = 0;
}

static void
um_add (const UmRecord *r)
{
  um.arrived++;
  if (um.phase != UM_OPEN)
    return;
  switch (r->counterKind) {
  case CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_HTOD:
    um.sums.h2d_bytes += r->value;
    break;
  case CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_DTOH:
    um.sums.d2h_bytes += r->value;
    break;
  case CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_CPU_PAGE_FAULT_COUNT:
    um.sums.cpu_faults++; /* value is the faulting instruction's address */
    break;
  case CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_GPU_PAGE_FAULT:
    um.sums.gpu_faults++; /* one record per page-fault group */
    break;
  default:
    break;
  }
}

static void CUPTIAPI
um_buffer_completed (CUcontext ctx, uint32_t stream_id, uint8_t *buffer, size_t size,
                     size_t valid)
{
  CUpti_Activity *record = NULL;
  size_t dropped = 0;
  (void) size;
  pthread_mutex_lock (&um.lock);
  while (cupti.next_record (buffer, valid, &record) == CUPTI_SUCCESS)
    if (record->kind == CUPTI_ACTIVITY_KIND_UNIFIED_MEMORY_COUNTER)
      um_add ((const UmRecord *) record);
  if (cupti.dropped_records (ctx, stream_id, &dropped) == CUPTI_SUCCESS)
    um.sums.dropped += dropped;
  pthread_mutex_unlock (&um.lock);
  free (buffer);
}

static int
um_fail (MsKUmCounts *out, const char *call, CUptiResult r)
{
  const char *text = NULL;
  if (cupti.result_string (r, &text) != CUPTI_SUCCESS || !text)
    text = "unknown CUPTI error";
  memset (out, 0, sizeof *out);
  snprintf (out->reason, sizeof out->reason, "%s: %s%s", call, text,
            r == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES ||
                r == CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES
              ? " (profiling is restricted to administrators: ERR_NVGPUCTRPERM)"
              : "");
  return -1;
}

/* name: the CUPTI function that field of the loaded table is, named in
 * the reason. */
#define UM_CHECK(out, field, name, args)                                      \
  do {                                                                        \
    CUptiResult r_ = cupti.field args;                                        \
    if (r_ != CUPTI_SUCCESS)                                                  \
      return um_fail (out, name, r_);                                         \
  } while (0)

/* CUPTI could not be loaded: the counts are unavailable, saying why. */
static int
um_not_loaded (MsKUmCounts *out)
{
  memset (out, 0, sizeof *out);
  snprintf (out->reason, sizeof out->reason, "%s", cupti.missing);
  return -1;
}

int
ms_k_um_built (void)
{
  return 1;
}

static uint64_t
um_arrived (void)
{
  pthread_mutex_lock (&um.lock);
  uint64_t n = um.arrived;
  pthread_mutex_unlock (&um.lock);
  return n;
}

/* Flushes until UM_DRAIN_QUIET flushes in a row bring no record; false
 * when the records kept coming for UM_DRAIN_MAX_MS. */
static bool
um_drain (void)
{
  const struct timespec step = { 0, UM_DRAIN_STEP_MS * 1000000L };
  uint64_t seen = um_arrived ();
  int quiet = 0;
  for (int waited = 0; waited < UM_DRAIN_MAX_MS; waited += UM_DRAIN_STEP_MS) {
    cupti.flush_all (CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    uint64_t now = um_arrived ();
    quiet = now == seen ? quiet + 1 : 0;
    seen = now;
    if (quiet >= UM_DRAIN_QUIET)
      return true;
    nanosleep (&step, NULL);
  }
  return false;
}

int
ms_k_um_begin (MsKUmCounts *out)
{
  static const CUpti_ActivityUnifiedMemoryCounterKind kinds[] = {
    CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_HTOD,
    CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_DTOH,
    CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_CPU_PAGE_FAULT_COUNT,
    CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_GPU_PAGE_FAULT,
  };
  if (!um_cupti_load ())
    return um_not_loaded (out);
  CUpti_ActivityUnifiedMemoryCounterConfig config[4];
  memset (config, 0, sizeof config);
  for (int i = 0; i < 4; i++) {
    config[i].scope = CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_SCOPE_PROCESS_SINGLE_DEVICE;
    config[i].kind = kinds[i];
    config[i].enable = 1;
  }
  if (!um.registered) {
    UM_CHECK (out, register_callbacks, "cuptiActivityRegisterCallbacks", (um_buffer_requested, um_buffer_completed));
    um.registered = 1;
  }
  UM_CHECK (out, configure_um, "cuptiActivityConfigureUnifiedMemoryCounter", (config, 4));
  UM_CHECK (out, enable, "cuptiActivityEnable", (CUPTI_ACTIVITY_KIND_UNIFIED_MEMORY_COUNTER));
  pthread_mutex_lock (&um.lock);
  memset (&um.sums, 0, sizeof um.sums);
  um.phase = UM_ARMED;
  um.settled = 1;
  pthread_mutex_unlock (&um.lock);
  return 0;
}

void
ms_k_um_window (int open)
{
  pthread_mutex_lock (&um.lock);
  UmPhase phase = um.phase;
  pthread_mutex_unlock (&um.lock);
  if ((open && phase != UM_ARMED) || (!open && phase != UM_OPEN))
    return; /* not a counted repetition: costs the timed ones nothing */
  /* Opening: what the init phase caused arrives now and is not counted.
   * Closing: the window's last records arrive while it is still open. */
  bool settled = um_drain ();
  pthread_mutex_lock (&um.lock);
  um.settled = um.settled && settled;
  um.phase = open ? UM_OPEN : UM_CLOSED;
  pthread_mutex_unlock (&um.lock);
}

int
ms_k_um_end (MsKUmCounts *out)
{
  /* The caller synchronised the device; records after the window are not
   * counted, but they must not stay in CUPTI's buffers for the next one. */
  if (!um_cupti_load ())
    return um_not_loaded (out);
  CUptiResult flushed = cupti.flush_all (CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
  CUptiResult disabled = cupti.disable (CUPTI_ACTIVITY_KIND_UNIFIED_MEMORY_COUNTER);
  pthread_mutex_lock (&um.lock);
  *out = um.sums;
  bool windowed = um.phase == UM_CLOSED;
  bool settled = um.settled;
  um.phase = UM_IDLE;
  pthread_mutex_unlock (&um.lock);
  if (flushed != CUPTI_SUCCESS)
    return um_fail (out, "cuptiActivityFlushAll", flushed);
  if (disabled != CUPTI_SUCCESS)
    return um_fail (out, "cuptiActivityDisable", disabled);
  if (!windowed) {
    memset (out, 0, sizeof *out);
    snprintf (out->reason, sizeof out->reason,
              "the counted repetition never reached its measured part");
    return -1;
  }
  if (!settled) {
    memset (out, 0, sizeof *out);
    snprintf (out->reason, sizeof out->reason,
              "CUPTI's unified-memory records kept arriving for %d ms after the device was "
              "idle: the window's records cannot be told apart",
              UM_DRAIN_MAX_MS);
    return -1;
  }
  if (out->dropped > 0) {
    uint64_t dropped = out->dropped;
    memset (out, 0, sizeof *out);
    snprintf (out->reason, sizeof out->reason,
              "CUPTI dropped %llu unified-memory records: the counts would be short",
              (unsigned long long) dropped);
    return -1;
  }
  out->available = 1;
  return 0;
}

void
ms_k_um_prepare (void)
{
  static int prepared;
  MsKUmCounts scratch;
  if (prepared)
    return;
  prepared = 1;
  if (ms_k_um_begin (&scratch) == 0)
    ms_k_um_end (&scratch);
}

#else /* !MS_HAVE_CUPTI */

static int
um_not_built (MsKUmCounts *out)
{
  memset (out, 0, sizeof *out);
  snprintf (out->reason, sizeof out->reason,
            "not built with CUPTI (libcupti and cupti.h were not found at configure time)");
  return -1;
}

int
ms_k_um_built (void)
{
  return 0;
}

int
ms_k_um_begin (MsKUmCounts *out)
{
  return um_not_built (out);
}

void
ms_k_um_window (int open)
{
  (void) open;
}

int
ms_k_um_end (MsKUmCounts *out)
{
  return um_not_built (out);
}

void
ms_k_um_prepare (void)
{
}

#endif
