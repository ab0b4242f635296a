/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-csv-meta.c: the samples reader's '#' metadata lines. */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "memsweep.h"
#include "ms-csv-private.h"
#include "ms-csv-reader.h"
#include "ms-gpu-state.h"
#include "ms-small-file.h"

/* The run's own words: version, date, label, note, experiment. */
static bool
read_text_metadata (MsResults *r, const char *key, const char *value)
{
  if (strcmp (key, "memsweep-version") == 0)
    snprintf (r->version, sizeof r->version, "%s", value);
  else if (strcmp (key, "date") == 0)
    snprintf (r->date, sizeof r->date, "%s", value);
  else if (strcmp (key, "label") == 0)
    snprintf (r->label, sizeof r->label, "%s", value);
  else if (strcmp (key, "note") == 0)
    snprintf (r->note, sizeof r->note, "%s", value);
  else if (strcmp (key, "experiment") == 0)
    snprintf (r->experiment, sizeof r->experiment, "%s",
              strcmp (value, "sweep") == 0 ? "" : value);
  else if (strcmp (key, "experiment-settings") == 0)
    snprintf (r->experiment_settings, sizeof r->experiment_settings, "%s", value);
  else if (strcmp (key, "nvidia-driver") == 0 && strcmp (value, "unknown") != 0)
    snprintf (r->device.driver_release, sizeof r->device.driver_release, "%s", value);
  else
    return false;
  return true;
}

void
ms_csv_parse_metadata (MsResults *r, const char *line, size_t len)
{
  char buf[512], *key, *value;
  if (len >= sizeof buf)
    len = sizeof buf - 1;
  memcpy (buf, line, len);
  buf[len] = '\0';
  while (len && (buf[len - 1] == '\r' || buf[len - 1] == '\n'))
    buf[--len] = '\0';
  key = buf + 1;
  while (*key == ' ')
    key++;
  value = strstr (key, ": ");
  if (!value)
    return;
  *value = '\0';
  value += 2;

  MsDeviceInfo *d = &r->device;
  MsSweep *s = &r->sweep;
  int a, b, c, e;
  /* Unknown or malformed metadata is ignored: it describes, it does not
   * drive, the data. */
  if (ms_read_state_metadata (r, key, value) ||
      ms_run_to_run_read_metadata (&r->run_to_run, key, value))
    return;
#define INT_KEY(name, dst)                                                    \
  if (strcmp (key, name) == 0) {                                              \
    long v;                                                                   \
    if (ms_small_parse_long (value, -1, 1 << 30, &v))                         \
      dst = (int) v;                                                          \
    return;                                                                   \
  }
  INT_KEY ("device-index", d->index);
  INT_KEY ("min-exp", s->min_exp);
  INT_KEY ("max-exp", s->max_exp);
  INT_KEY ("step", s->step);
  INT_KEY ("reps", s->reps);
  INT_KEY ("warmup", s->warmup);
  INT_KEY ("streams", s->streams);
  INT_KEY ("async-engine-count", d->async_engine_count);
  INT_KEY ("multiprocessors", d->multiprocessors);
  INT_KEY ("l2-bytes", d->l2_bytes);
#undef INT_KEY
#define BOOL_KEY(name, dst)                                                   \
  if (strcmp (key, name) == 0) {                                              \
    dst = strcmp (value, "1") == 0;                                           \
    return;                                                                   \
  }
  BOOL_KEY ("can-map-host-memory", d->can_map_host_memory);
  BOOL_KEY ("concurrent-managed-access", d->concurrent_managed_access);
  BOOL_KEY ("pageable-memory-access", d->pageable_memory_access);
  BOOL_KEY ("managed-memory", d->managed_memory);
  BOOL_KEY ("unified-addressing", d->unified_addressing);
#undef BOOL_KEY
  if (ms_csv_read_rule_metadata (s, key, value))
    return;
  if (read_text_metadata (r, key, value))
    return;
  if (strcmp (key, "device") == 0) {
    snprintf (d->name, sizeof d->name, "%s", value);
    d->present = strcmp (value, "none") != 0;
  } else if (strcmp (key, "compute-capability") == 0 && sscanf (value, "%3d.%3d", &a, &b) == 2) {
    d->cc_major = a;
    d->cc_minor = b;
  } else if (strcmp (key, "memory-total-bytes") == 0)
    ms_csv_parse_count (value, strlen (value), &d->total_mem);
  else if (strcmp (key, "memory-free-bytes") == 0)
    ms_csv_parse_count (value, strlen (value), &d->free_mem);
  /* Field widths bound the numbers: no overflow from a hostile file. */
  else if (strcmp (key, "driver") == 0 && sscanf (value, "%4d.%2d", &a, &b) == 2)
    d->driver_version = a * 1000 + b * 10;
  else if (strcmp (key, "cuda-runtime") == 0 && sscanf (value, "%4d.%2d", &a, &b) == 2)
    d->runtime_version = a * 1000 + b * 10;
  else if (strcmp (key, "pcie-link") == 0 &&
           sscanf (value, "gen%2d x%3d (max gen%2d x%3d)", &a, &b, &c, &e) == 4) {
    d->pcie_gen = a;
    d->pcie_width = b;
    d->pcie_gen_max = c;
    d->pcie_width_max = e;
  } else if (strcmp (key, "cpu-affinity") == 0)
    snprintf (d->host_cpu_affinity, sizeof d->host_cpu_affinity, "%s", value);
  else if (strcmp (key, "order") == 0)
    s->order = strcmp (value, "breadth") == 0 ? MS_ORDER_BREADTH_FIRST : MS_ORDER_DEPTH_FIRST;
  else if (strcmp (key, "modes") == 0) {
    char err[128];
    MsSweep tmp = *s;
    if (ms_sweep_set_modes (&tmp, value, err, sizeof err))
      *s = tmp;
  }
}
