/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-um-counters.c: CUPTI's unified-memory counters (activity kind
 * UNIFIED_MEMORY_COUNTER) summed over a window of a counted repetition.
 * CUPTI delivers records in buffers it asks us for; the buffer-completed
 * callback may run on CUPTI's own thread, hence the lock. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ms-um-counters.h"

#ifdef MS_HAVE_CUPTI
#include <cupti.h>
#include <pthread.h>

/* CUDA 13 renamed the record (the fields we read are the same). */
#if CUPTI_API_VERSION >= 130000
typedef CUpti_ActivityUnifiedMemoryCounter3 UmRecord;
#else
typedef CUpti_ActivityUnifiedMemoryCounter2 UmRecord;
#endif

#define UM_BUFFER_BYTES (4u << 20)
#define UM_BUFFER_ALIGN 8

static struct {
  pthread_mutex_t lock;
  int registered;
  int counting;
  uint64_t open_ns, close_ns; /* the window; close_ns 0 while open */
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
  if (!um.counting || um.open_ns == 0 || r->start < um.open_ns ||
      (um.close_ns && r->start > um.close_ns))
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
  while (cuptiActivityGetNextRecord (buffer, valid, &record) == CUPTI_SUCCESS)
    if (record->kind == CUPTI_ACTIVITY_KIND_UNIFIED_MEMORY_COUNTER)
      um_add ((const UmRecord *) record);
  if (cuptiActivityGetNumDroppedRecords (ctx, stream_id, &dropped) == CUPTI_SUCCESS)
    um.sums.dropped += dropped;
  pthread_mutex_unlock (&um.lock);
  free (buffer);
}

static int
um_fail (MsKUmCounts *out, const char *call, CUptiResult r)
{
  const char *text = NULL;
  if (cuptiGetResultString (r, &text) != CUPTI_SUCCESS || !text)
    text = "unknown CUPTI error";
  memset (out, 0, sizeof *out);
  snprintf (out->reason, sizeof out->reason, "%s: %s%s", call, text,
            r == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES ||
                r == CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES
              ? " (profiling is restricted to administrators: ERR_NVGPUCTRPERM)"
              : "");
  return -1;
}

/* fn: the CUPTI function called, named in the reason. */
#define UM_CHECK(out, fn, args)                                               \
  do {                                                                        \
    CUptiResult r_ = fn args;                                                 \
    if (r_ != CUPTI_SUCCESS)                                                  \
      return um_fail (out, #fn, r_);                                          \
  } while (0)

int
ms_k_um_built (void)
{
  return 1;
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
  CUpti_ActivityUnifiedMemoryCounterConfig config[4];
  memset (config, 0, sizeof config);
  for (int i = 0; i < 4; i++) {
    config[i].scope = CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_SCOPE_PROCESS_SINGLE_DEVICE;
    config[i].kind = kinds[i];
    config[i].enable = 1;
  }
  if (!um.registered) {
    UM_CHECK (out, cuptiActivityRegisterCallbacks, (um_buffer_requested, um_buffer_completed));
    um.registered = 1;
  }
  UM_CHECK (out, cuptiActivityConfigureUnifiedMemoryCounter, (config, 4));
  UM_CHECK (out, cuptiActivityEnable, (CUPTI_ACTIVITY_KIND_UNIFIED_MEMORY_COUNTER));
  pthread_mutex_lock (&um.lock);
  memset (&um.sums, 0, sizeof um.sums);
  um.open_ns = um.close_ns = 0;
  um.counting = 1;
  pthread_mutex_unlock (&um.lock);
  return 0;
}

void
ms_k_um_window (int open)
{
  uint64_t now = 0;
  if (!um.counting || cuptiGetTimestamp (&now) != CUPTI_SUCCESS)
    return;
  pthread_mutex_lock (&um.lock);
  if (open)
    um.open_ns = now;
  else if (um.open_ns)
    um.close_ns = now;
  pthread_mutex_unlock (&um.lock);
}

int
ms_k_um_end (MsKUmCounts *out)
{
  /* The caller synchronised the device: every record is complete. */
  CUptiResult flushed = cuptiActivityFlushAll (CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
  CUptiResult disabled = cuptiActivityDisable (CUPTI_ACTIVITY_KIND_UNIFIED_MEMORY_COUNTER);
  pthread_mutex_lock (&um.lock);
  *out = um.sums;
  bool windowed = um.open_ns != 0 && um.close_ns != 0;
  um.counting = 0;
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
