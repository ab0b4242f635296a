/* ms-backend-host.c: the CPU baseline (c = a + b on the host) and the host
 * facts every backend needs. */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ms-backend.h"
#include "ms-data.h"

double
ms_now_us (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e6 + ts.tv_nsec * 1e-3;
}

uint64_t
ms_host_available_memory (void)
{
  FILE *f = fopen ("/proc/meminfo", "r");
  char line[256];
  unsigned long long kib = 0;
  if (!f)
    return 0;
  while (fgets (line, sizeof line, f))
    if (sscanf (line, "MemAvailable: %llu kB", &kib) == 1)
      break;
  fclose (f);
  return (uint64_t) kib * 1024;
}

void
ms_host_cpu_affinity (char *buf, size_t len)
{
  cpu_set_t set;
  size_t used = 0;
  buf[0] = '\0';
  if (sched_getaffinity (0, sizeof set, &set) != 0) {
    snprintf (buf, len, "unknown");
    return;
  }
  /* Compress runs: "0-15" rather than sixteen numbers. */
  for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
    if (!CPU_ISSET (cpu, &set))
      continue;
    int end = cpu;
    while (end + 1 < CPU_SETSIZE && CPU_ISSET (end + 1, &set))
      end++;
    int n = end > cpu ? snprintf (buf + used, len - used, "%s%d-%d", used ? " " : "", cpu, end)
                      : snprintf (buf + used, len - used, "%s%d", used ? " " : "", cpu);
    if (n < 0 || (size_t) n >= len - used)
      break;
    used += n;
    cpu = end;
  }
}

static void
host_event (MsRunOutput *out, MsPhase phase, int rep, double t0, double start, uint64_t bytes)
{
  if (out->n_events >= out->max_events)
    return;
  MsEvent *ev = &out->events[out->n_events++];
  memset (ev, 0, sizeof *ev);
  ev->phase = phase;
  ev->rep = rep;
  ev->lane = MS_LANE_HOST;
  ev->host_start_us = start - t0;
  ev->host_us = ms_now_us () - start;
  ev->gpu_start_us = -1;
  ev->gpu_us = -1;
  ev->bytes = bytes;
}

/* Keeps the compiler from dropping or fusing the add into verification. */
static void
host_add (const float *a, const float *b, float *c, uint64_t n)
{
  for (uint64_t i = 0; i < n; i++)
    c[i] = a[i] + b[i];
  __asm__ volatile ("" : : "r"(c) : "memory");
}

MsCellStatus
ms_host_run_cell (const MsRunArgs *args, MsRunOutput *out)
{
  uint64_t n = args->n;
  size_t bytes = n * sizeof (float);
  double cell_t0 = ms_now_us (), t0 = cell_t0, hs = cell_t0;
  MsCellStatus status = MS_CELL_OK;
  int rep = 0;

  out->n_events = 0;
  out->n_reps = 0;
  out->mismatches = 0;
  out->failed_rep = -1;
  float *a = malloc (bytes), *b = malloc (bytes), *c = malloc (bytes);
  if (!a || !b || !c) {
    snprintf (out->error, sizeof out->error, "malloc: out of host memory");
    status = MS_CELL_FAILED;
    goto cleanup;
  }
  host_event (out, MS_PHASE_ALLOC, 0, t0, hs, 0);
  int keep = out->n_events;

  for (rep = -args->warmup; rep < args->reps; rep++) {
    out->failed_rep = rep;
    /* Repetition 0 shares the cell's origin so that it shows the alloc. */
    t0 = rep == 0 ? cell_t0 : ms_now_us ();
    if (args->cancel && atomic_load (args->cancel)) {
      status = MS_CELL_CANCELLED;
      break;
    }
    hs = ms_now_us ();
    ms_data_fill (a, b, n);
    ms_data_poison (c, n);
    host_event (out, MS_PHASE_INIT, rep, t0, hs, 0);

    hs = ms_now_us ();
    host_add (a, b, c, n);
    host_event (out, MS_PHASE_KERNEL, rep, t0, hs, 0);
    if (rep >= 0)
      out->e2e_us[rep] = ms_now_us () - hs;

    hs = ms_now_us ();
    out->mismatches = ms_data_verify (c, n, &out->first_mismatch);
    host_event (out, MS_PHASE_VERIFY, rep, t0, hs, 0);
    if (out->mismatches) {
      status = MS_CELL_VERIFY_FAILED;
      break;
    }
    if (rep < 0)
      out->n_events = keep;
    else
      out->n_reps = rep + 1;
  }

cleanup:
  hs = ms_now_us ();
  free (a);
  free (b);
  free (c);
  host_event (out, MS_PHASE_FREE, rep < args->reps ? rep : args->reps - 1, t0, hs, 0);
  return status;
}
