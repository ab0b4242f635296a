/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-meta.c: the metadata keys of the samples and summary files, listed
 * once, and the checks every value read passes (see ms-meta.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ms-meta.h"

/* One row per key, in MsMetaId's order. Ranges are what memsweep itself
 * can write (ms-sweep.c's limits): anything else in a file is ignored.
 * IN: the member of MsResults that a plain key's value is read into and
 * written from. */
#define IN(member) .offset = offsetof (MsResults, member), .size = sizeof ((MsResults *) 0)->member
static const MsMetaKey keys[MS_META_N_KEYS] = {
  [MS_META_RUN_ID] = { "run-id", MS_META_TEXT, IN (run_id) },
  [MS_META_VERSION] = { "memsweep-version", MS_META_TEXT, IN (version) },
  [MS_META_DATE] = { "date", MS_META_TEXT, IN (date) },
  [MS_META_LABEL] = { "label", MS_META_TEXT, IN (label) },
  [MS_META_NOTE] = { "note", MS_META_TEXT, IN (note) },
  [MS_META_DEVICE] = { "device", MS_META_TEXT },
  [MS_META_DEVICE_INDEX] = { "device-index", MS_META_INT, -1, 1 << 20, IN (device.index) },
  [MS_META_PCI_BUS_ID] = { "pci-bus-id", MS_META_TEXT, IN (device.pci_bus_id) },
  [MS_META_COMPUTE_CAPABILITY] = { "compute-capability", MS_META_FORM },
  [MS_META_MEMORY_TOTAL] = { "memory-total-bytes", MS_META_COUNT, IN (device.total_mem) },
  [MS_META_MEMORY_FREE] = { "memory-free-bytes", MS_META_COUNT, IN (device.free_mem) },
  [MS_META_DRIVER] = { "driver", MS_META_FORM },
  [MS_META_NVIDIA_DRIVER]
  = { "nvidia-driver", MS_META_TEXT, IN (device.driver_release), .empty = "unknown" },
  [MS_META_CUDA_RUNTIME] = { "cuda-runtime", MS_META_FORM },
  [MS_META_PCIE_LINK] = { "pcie-link", MS_META_FORM },
  [MS_META_CAN_MAP_HOST_MEMORY]
  = { "can-map-host-memory", MS_META_FLAG, 0, 1, IN (device.can_map_host_memory) },
  [MS_META_CONCURRENT_MANAGED_ACCESS]
  = { "concurrent-managed-access", MS_META_FLAG, 0, 1, IN (device.concurrent_managed_access) },
  [MS_META_PAGEABLE_MEMORY_ACCESS]
  = { "pageable-memory-access", MS_META_FLAG, 0, 1, IN (device.pageable_memory_access) },
  [MS_META_MANAGED_MEMORY] = { "managed-memory", MS_META_FLAG, 0, 1, IN (device.managed_memory) },
  [MS_META_UNIFIED_ADDRESSING]
  = { "unified-addressing", MS_META_FLAG, 0, 1, IN (device.unified_addressing) },
  [MS_META_ASYNC_ENGINE_COUNT]
  = { "async-engine-count", MS_META_INT, 0, 1024, IN (device.async_engine_count) },
  [MS_META_CONCURRENT_KERNELS]
  = { "concurrent-kernels", MS_META_INT, 0, 1, IN (device.concurrent_kernels) },
  [MS_META_PRIORITY_LEAST]
  = { "stream-priority-least", MS_META_INT, -1024, 1024, IN (device.priority_least) },
  [MS_META_PRIORITY_GREATEST]
  = { "stream-priority-greatest", MS_META_INT, -1024, 1024, IN (device.priority_greatest) },
  [MS_META_MULTIPROCESSORS]
  = { "multiprocessors", MS_META_INT, 0, 1 << 20, IN (device.multiprocessors) },
  [MS_META_L2_BYTES] = { "l2-bytes", MS_META_INT, 0, 1 << 30, IN (device.l2_bytes) },
  [MS_META_CPU_AFFINITY] = { "cpu-affinity", MS_META_TEXT, IN (device.host_cpu_affinity) },
  [MS_META_MODES] = { "modes", MS_META_FORM },
  [MS_META_MIN_EXP]
  = { "min-exp", MS_META_INT, MS_MIN_EXPONENT, MS_MAX_EXPONENT, IN (sweep.min_exp) },
  [MS_META_MAX_EXP]
  = { "max-exp", MS_META_INT, MS_MIN_EXPONENT, MS_MAX_EXPONENT, IN (sweep.max_exp) },
  [MS_META_STEP] = { "step", MS_META_INT, 1, MS_MAX_EXPONENT, IN (sweep.step) },
  [MS_META_REPS] = { "reps", MS_META_INT, 0, MS_MAX_REPS, IN (sweep.reps) },
  [MS_META_REPS_RULE] = { "reps-rule", MS_META_FORM },
  [MS_META_MIN_REPS] = { "min-reps", MS_META_INT, 0, MS_MAX_REPS, IN (sweep.min_reps) },
  [MS_META_CI_TARGET_PCT]
  = { "ci-target-pct", MS_META_NUMBER, 0, MS_MAX_CI_TARGET_PCT, IN (sweep.ci_target_pct) },
  [MS_META_CELL_BUDGET_MS]
  = { "cell-budget-ms", MS_META_NUMBER, 0, MS_MAX_CELL_BUDGET_MS, IN (sweep.cell_budget_ms) },
  [MS_META_INSTR_REPS]
  = { "instrumented-reps", MS_META_INT, 0, MS_MAX_REPS, IN (sweep.instr_reps) },
  [MS_META_WARMUP] = { "warmup", MS_META_INT, 0, MS_MAX_WARMUP, IN (sweep.warmup) },
  [MS_META_STREAMS] = { "streams", MS_META_INT, 1, MS_MAX_STREAMS, IN (sweep.streams) },
  [MS_META_ORDER] = { "order", MS_META_FORM },
  [MS_META_HOST_INPUTS] = { "host-inputs", MS_META_TEXT },
  [MS_META_ROUNDS] = { "rounds", MS_META_INT, 1, MS_MAX_ROUNDS, IN (sweep.rounds) },
  [MS_META_VARY] = { "vary", MS_META_FORM },
  [MS_META_PROCESSES] = { "processes", MS_META_INT, 1, MS_MAX_PROCESSES, IN (sweep.processes) },
  [MS_META_GRADE_TARGET_PCT]
  = { "grade-target-pct", MS_META_NUMBER, 0, 50, IN (sweep.grade_target_pct) },
  [MS_META_GRADE_WIDE] = { "grade-wide", MS_META_TEXT, IN (grade_wide), .empty = "none" },
  [MS_META_MEASURING_CPU] = { "measuring-cpu", MS_META_INT, 0, 1 << 20 },
  [MS_META_MEASURING_NODE] = { "measuring-node", MS_META_INT, 0, 4095 },
  [MS_META_EXPERIMENT_SWITCHES]
  = { "experiment-switches", MS_META_TEXT, IN (device.experiment_switches) },
  [MS_META_PREP_THREADS] = { "prep-threads", MS_META_INT, 2, 256, IN (device.prep_threads) },
  [MS_META_GPU_NEAR_CPUS] = { "gpu-near-cpus", MS_META_TEXT, IN (device.gpu_near_cpus) },
  [MS_META_GPU_WARMUP] = { "gpu-warmup", MS_META_FORM },
  [MS_META_PCIE_LINK_UNDER_LOAD] = { "pcie-link-under-load", MS_META_FORM },
  [MS_META_PCIE_LINK_UNDER_LOAD_CELL] = { "pcie-link-under-load-cell", MS_META_FORM },
  [MS_META_PCIE_CORRECTABLE_ERRORS] = { "pcie-correctable-errors", MS_META_FORM },
  [MS_META_PCIE_REPLAYS] = { "pcie-replays", MS_META_FORM },
  [MS_META_RUN_TO_RUN] = { "run-to-run", MS_META_FORM },
  [MS_META_RUN_TO_RUN_SD] = { "run-to-run-sd-", MS_META_FORM },
  [MS_META_EXPERIMENT] = { "experiment", MS_META_TEXT, IN (experiment), .empty = "sweep" },
  [MS_META_EXPERIMENT_SETTINGS] = { "experiment-settings", MS_META_TEXT, IN (experiment_settings) },
  /* Written for people, not read: the reason comes from the experiment's name. */
  [MS_META_EXPERIMENT_REASON] = { "experiment-reason", MS_META_TEXT },
  [MS_META_UM_COUNTS_COLUMNS] = { "um-counts-columns", MS_META_TEXT },
  [MS_META_UM_COUNTS] = { "um-counts", MS_META_FORM },
  [MS_META_UNITS] = { "units", MS_META_TEXT },
  [MS_META_FIT] = { "fit", MS_META_TEXT },
};
#undef IN

const MsMetaKey *
ms_meta_table (MsMetaId id)
{
  return id < MS_META_N_KEYS ? &keys[id] : NULL;
}

MsMetaId
ms_meta_lookup (const char *key)
{
  for (int i = 0; i < MS_META_N_KEYS; i++) {
    size_t n = strlen (keys[i].key);
    bool prefix = keys[i].key[n - 1] == '-';
    if (prefix ? strncmp (key, keys[i].key, n) == 0 : strcmp (key, keys[i].key) == 0)
      return (MsMetaId) i;
  }
  return MS_META_N_KEYS;
}

char *
ms_meta_split (char *line, char **key)
{
  char *k = line + 1, *colon;
  if (line[0] != '#' || !(colon = strstr (k += strspn (k, " "), ": ")))
    return NULL;
  *colon = '\0';
  *key = k;
  return colon + 2;
}

void
ms_meta_put (FILE *f, const char *key, const char *fmt, ...)
{
  char line[1024], *value = line;
  va_list ap, again;
  va_start (ap, fmt);
  va_copy (again, ap);
  int n = vsnprintf (line, sizeof line, fmt, ap);
  va_end (ap);
  /* A longer value (none is, today) is made whole where memory allows. */
  if (n >= (int) sizeof line && (value = malloc ((size_t) n + 1)))
    vsnprintf (value, (size_t) n + 1, fmt, again);
  va_end (again);
  value = value ? value : line;
  for (char *p = value; *p; p++)
    if (*p == '\n' || *p == '\r')
      *p = ' ';
  fprintf (f, "# %s: %s\n", key, value);
  if (value != line)
    free (value);
}

void
ms_meta_put_field (FILE *f, MsMetaId id, const MsResults *r)
{
  const MsMetaKey *k = &keys[id];
  const void *at = (const char *)r + k->offset;
  if (!k->size)
    return;
  if (k->type == MS_META_TEXT)
    ms_meta_printf (f, id, "%s", *(const char *)at || !k->empty ? (const char *)at : k->empty);
  else if (k->type == MS_META_INT)
    ms_meta_printf (f, id, "%d", *(const int *)at);
  else if (k->type == MS_META_FLAG)
    ms_meta_printf (f, id, "%d", *(const bool *)at);
  else if (k->type == MS_META_COUNT)
    ms_meta_printf (f, id, "%llu", (unsigned long long)*(const uint64_t *)at);
  else if (k->type == MS_META_NUMBER)
    ms_meta_printf (f, id, "%g", *(const double *)at);
}

/* Digits, with a '-' for ranges below 0: no spaces, '+', hex or exponent. */
bool
ms_meta_int (MsMetaId id, const char *value, int *out)
{
  const MsMetaKey *k = ms_meta_table (id);
  const char *p = value + (value[0] == '-');
  if (!k || k->type != MS_META_INT || !*p || strspn (p, "0123456789") != strlen (p) ||
      strlen (p) > 10)
    return false;
  long long v = strtoll (value, NULL, 10);
  if (v < k->lo || v > k->hi)
    return false;
  *out = (int) v;
  return true;
}

bool
ms_meta_number (MsMetaId id, const char *value, double *out)
{
  const MsMetaKey *k = ms_meta_table (id);
  char *end;
  /* As %g writes it: digits, a point, an exponent; no hex, inf or nan. */
  if (!k || k->type != MS_META_NUMBER || strspn (value, "0123456789.e+-") != strlen (value))
    return false;
  errno = 0;
  double v = strtod (value, &end);
  if (end == value || *end || errno || !isfinite (v) || v < k->lo || v > k->hi)
    return false;
  *out = v;
  return true;
}

bool
ms_meta_flag (const char *value, bool *out)
{
  if (strcmp (value, "0") != 0 && strcmp (value, "1") != 0)
    return false;
  *out = value[0] == '1';
  return true;
}

void
ms_meta_refuse (MsResults *results, const char *key)
{
  char *named = results->metadata_refused_keys;
  size_t used = strlen (named), n = strlen (key);
  results->metadata_refused++;
  for (const char *p = named; (p = strstr (p, key)); p += n)
    if ((p == named || p[-1] == ' ') && (p[n] == ',' || p[n] == '\0'))
      return; /* named already */
  if (used + n + 3 <= sizeof results->metadata_refused_keys)
    snprintf (named + used, sizeof results->metadata_refused_keys - used, "%s%s",
              used ? ", " : "", key);
}

void
ms_meta_pending_add (MsMetaPending *pending, const void *item, size_t size)
{
  if (pending->n >= MS_META_MAX_PENDING)
    return;
  if (pending->n == pending->cap) {
    int cap = pending->cap ? 2 * pending->cap : 16;
    void *grown = realloc (pending->items, (size_t) cap * size);
    if (!grown)
      return;
    pending->items = grown;
    pending->cap = cap;
  }
  memcpy ((char *) pending->items + (size_t) pending->n++ * size, item, size);
}

void
ms_meta_pending_clear (MsMetaPending *pending)
{
  free (pending->items);
  *pending = (MsMetaPending){ 0 };
}
