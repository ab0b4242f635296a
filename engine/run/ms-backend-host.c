/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-backend-host.c: the CPU baseline (c = a + b on the host) and the host
 * facts every backend needs. */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ms-cell-driver.h"
#include "ms-clock.h"
#include "ms-gpu-state.h"
#include "ms-i18n.h"
#include "ms-data.h"
#include "ms-experiment.h"
#include "ms-host-mem.h"

void
ms_host_cpu_affinity (char *buf, size_t len)
{
  cpu_set_t set;
  buf[0] = '\0';
  if (sched_getaffinity (0, sizeof set, &set) != 0) {
    snprintf (buf, len, "unknown");
    return;
  }
  ms_format_cpu_set (&set, buf, len);
}

/* Keeps the compiler from dropping or fusing the add into verification. */
static void
host_add (const float *a, const float *b, float *c, uint64_t n)
{
  for (uint64_t i = 0; i < n; i++)
    c[i] = a[i] + b[i];
  __asm__ volatile ("" : : "r"(c) : "memory");
}

typedef struct {
  float *a, *b, *c;
  bool c_poisoned; /* c holds the poison of the last verification */
  MsHostAdd add;
} HostBuffers;

static MsCellStatus
host_alloc (void *data, MsCellDriver *drv)
{
  HostBuffers *hb = data;
  size_t bytes = ms_vector_bytes (ms_cell_driver_args (drv)->n);
  /* Huge pages only as an experiment on the run-to-run spread. */
  const MsExperiment *x = ms_experiment_get (NULL, 0);
  int huge = x && x->hugepages;
  hb->a = ms_host_alloc (bytes, huge);
  hb->b = ms_host_alloc (bytes, huge);
  hb->c = ms_host_alloc (bytes, huge);
  if (!hb->a || !hb->b || !hb->c) {
    ms_cell_driver_fail (drv, ms_gettext ("malloc: out of host memory"));
    return MS_CELL_FAILED;
  }
  return MS_CELL_OK;
}

static MsCellStatus
host_rep (void *data, MsCellDriver *drv)
{
  HostBuffers *hb = data;
  uint64_t n = ms_cell_driver_args (drv)->n, first = 0;
  double hs = ms_now_us ();

  /* The inputs every time, whatever --host-prep says: the CPU reads them
   * through its cache, so a repetition leaves them cached for the next. */
  ms_data_fill (hb->a, hb->b, n);
  if (!hb->c_poisoned)
    ms_data_poison (hb->c, n);
  hb->c_poisoned = false;
  ms_cell_driver_host_event (drv, MS_PHASE_INIT, hs, 0);
  if (ms_cell_driver_cancelled (drv))
    return MS_CELL_CANCELLED;

  /* The host has no timers between steps: its one phase is the add, so
   * the instrumented repetition differs only by recording that event. */
  hs = ms_now_us ();
  hb->add (hb->a, hb->b, hb->c, n);
  if (ms_cell_driver_instrumented (drv))
    ms_cell_driver_host_event (drv, MS_PHASE_KERNEL, hs, 0);
  ms_cell_driver_set_e2e (drv, ms_now_us () - hs);
  if (ms_cell_driver_cancelled (drv))
    return MS_CELL_CANCELLED;

  if (!ms_cell_driver_verifies (drv))
    return MS_CELL_OK;
  hs = ms_now_us ();
  bool poisons = ms_cell_driver_args (drv)->host_prep == MS_HOST_PREP_ONCE;
  uint64_t wrong = poisons ? ms_data_verify_and_poison (hb->c, n, &first)
                           : ms_data_verify (hb->c, n, &first);
  hb->c_poisoned = poisons;
  ms_cell_driver_host_event (drv, MS_PHASE_VERIFY, hs, 0);
  ms_cell_driver_set_mismatches (drv, wrong, first);
  return MS_CELL_OK;
}

static void
host_release (void *data, MsCellDriver *drv)
{
  HostBuffers *hb = data;
  (void) drv;
  free (hb->a);
  free (hb->b);
  free (hb->c);
}

static const MsCellOps host_cell_ops = {
  .alloc = host_alloc,
  .rep = host_rep,
  .release = host_release,
};

MsCellStatus
ms_host_run_cell_with (const MsRunArgs *args, MsHostAdd add, MsRunOutput *out)
{
  HostBuffers hb = { .add = add };
  return ms_cell_driver_run (&host_cell_ops, &hb, args, out);
}

MsCellStatus
ms_host_run_cell (const MsRunArgs *args, MsRunOutput *out)
{
  return ms_host_run_cell_with (args, host_add, out);
}
