/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-gpu-state.c: bring the GPU to a steady clock before timing and keep
 * it there (idle GPUs clock down, and the first cells after idle read slow
 * and bimodal), and pin the measuring thread so that the host side of
 * every timing runs on one CPU near the GPU. */
#define _GNU_SOURCE
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ms-clock.h"
#include "ms-gpu-state.h"

#define MS_WARM_CHUNK_MS 10.0
#define MS_WARM_MIN_MS 50.0
#define MS_WARM_MAX_MS 2000.0
#define MS_WARM_STABLE_READINGS 3
#define MS_REWARM_MS 20.0
#define MS_REWARM_FRACTION 0.6

double
ms_gpu_warm (MsNvml *nvml, MsSpinFunc spin, void *user, int *steady_sm_mhz)
{
  double t0 = ms_now_us ();
  *steady_sm_mhz = 0;
  if (!spin)
    return 0;
  MsGpuState st;
  if (!ms_nvml_sample (nvml, &st)) {
    spin (user, MS_WARM_BLIND_MS);
    return (ms_now_us () - t0) * 1e-3;
  }
  int prev = -1, stable = 0;
  for (;;) {
    if (!spin (user, MS_WARM_CHUNK_MS) || !ms_nvml_sample (nvml, &st))
      break;
    double elapsed_ms = (ms_now_us () - t0) * 1e-3;
    if (prev > 0 && fabs ((double) st.sm_mhz - prev) <= 0.01 * prev)
      stable++;
    else
      stable = 0;
    prev = st.sm_mhz;
    if ((stable >= MS_WARM_STABLE_READINGS && elapsed_ms >= MS_WARM_MIN_MS) ||
        elapsed_ms >= MS_WARM_MAX_MS)
      break;
  }
  *steady_sm_mhz = prev > 0 ? prev : 0;
  return (ms_now_us () - t0) * 1e-3;
}

void
ms_gpu_state_before_cell (MsNvml *nvml, MsSpinFunc spin, void *user, int steady_sm_mhz,
                          MsGpuState *out)
{
  if (!ms_nvml_sample (nvml, out))
    return;
  /* Only a GPU that went back towards idle (345 MHz on the lent H100s
   * against 1980 steady) is warmed again: a light load may run a little
   * below the spin's clock, and a re-warm per cell would cost 20 ms each. */
  if (spin && steady_sm_mhz > 0 && out->sm_mhz < MS_REWARM_FRACTION * steady_sm_mhz) {
    spin (user, MS_REWARM_MS);
    ms_nvml_sample (nvml, out);
  }
}

void
ms_format_cpu_set (const cpu_set_t *set, char *buf, size_t len)
{
  size_t used = 0;
  if (len)
    buf[0] = '\0';
  /* Compress runs: "0-15" rather than sixteen numbers. */
  for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
    if (!CPU_ISSET (cpu, set))
      continue;
    int end = cpu;
    while (end + 1 < CPU_SETSIZE && CPU_ISSET (end + 1, set))
      end++;
    int n = end > cpu ? snprintf (buf + used, len - used, "%s%d-%d", used ? " " : "", cpu, end)
                      : snprintf (buf + used, len - used, "%s%d", used ? " " : "", cpu);
    if (n < 0 || (size_t) n >= len - used)
      break;
    used += n;
    cpu = end;
  }
}

static int
first_cpu (const cpu_set_t *set)
{
  for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
    if (CPU_ISSET (cpu, set))
      return cpu;
  return -1;
}

int
ms_pin_thread_at (MsNvml *nvml, bool fixed, cpu_set_t *saved, char *near, size_t nearlen)
{
  cpu_set_t near_set, usable, one;
  if (near && nearlen)
    near[0] = '\0';
  if (sched_getaffinity (0, sizeof *saved, saved) != 0) {
    CPU_ZERO (saved);
    return -1;
  }
  int cpu = sched_getcpu ();
  if (ms_nvml_near_cpus (nvml, &near_set)) {
    if (near)
      ms_format_cpu_set (&near_set, near, nearlen);
    CPU_AND (&usable, &near_set, saved);
    if (CPU_COUNT (&usable) > 0 && (fixed || cpu < 0 || !CPU_ISSET (cpu, &usable)))
      cpu = first_cpu (&usable);
  } else if (fixed) {
    cpu = first_cpu (saved);
  }
  if (cpu < 0 || !CPU_ISSET (cpu, saved))
    cpu = first_cpu (saved);
  if (cpu < 0)
    return -1;
  CPU_ZERO (&one);
  CPU_SET (cpu, &one);
  return sched_setaffinity (0, sizeof one, &one) == 0 ? cpu : -1;
}

int
ms_pin_thread_random (MsNvml *nvml, const cpu_set_t *allowed, unsigned *seed)
{
  cpu_set_t near_set, usable, one;
  CPU_ZERO (&usable);
  if (ms_nvml_near_cpus (nvml, &near_set))
    CPU_AND (&usable, &near_set, allowed);
  if (CPU_COUNT (&usable) == 0)
    CPU_OR (&usable, allowed, allowed);
  int n = CPU_COUNT (&usable);
  if (n == 0)
    return -1;
  int pick = (int) (rand_r (seed) % (unsigned) n), cpu = -1;
  for (int c = 0; c < CPU_SETSIZE && pick >= 0; c++)
    if (CPU_ISSET (c, &usable) && pick-- == 0)
      cpu = c;
  CPU_ZERO (&one);
  CPU_SET (cpu, &one);
  return sched_setaffinity (0, sizeof one, &one) == 0 ? cpu : -1;
}

void
ms_unpin_thread (const cpu_set_t *saved)
{
  if (CPU_COUNT (saved) > 0)
    sched_setaffinity (0, sizeof *saved, saved);
}

int
ms_current_node (void)
{
  unsigned cpu = 0, node = 0;
  return syscall (SYS_getcpu, &cpu, &node, NULL) == 0 ? (int) node : -1;
}

/* The kernel's policy numbers (numaif.h is libnuma's, not always there). */
#define MS_MPOL_DEFAULT 0
#define MS_MPOL_PREFERRED 1

bool
ms_prefer_node (int node)
{
  unsigned long mask[16] = { 0 };
  const unsigned long bits = 8 * sizeof mask[0];
  if (node >= (int) (16 * bits))
    return false;
  if (node < 0)
    return syscall (SYS_set_mempolicy, MS_MPOL_DEFAULT, NULL, 0) == 0;
  mask[node / bits] = 1ul << (node % bits);
  return syscall (SYS_set_mempolicy, MS_MPOL_PREFERRED, mask, 16 * bits + 1) == 0;
}
