/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-nvml.c: facts and state of the GPU from NVML, loaded at run time so
 * that memsweep neither links against nor requires the NVIDIA management
 * library: the PCIe link and driver release once per device query, and the
 * clocks, temperature, performance state and throttle reasons around every
 * cell. Also where the measuring thread is pinned. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <sched.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ms-gpu-start.h"
#include "ms-gpu-state.h"

/* NVML's enum values (nvml.h), fixed by its ABI. */
#define NVML_CLOCK_SM 1
#define NVML_CLOCK_MEM 2
#define NVML_TEMPERATURE_GPU 0

/* Where each function of MsNvml is found, by its symbol. */
#define NVML_SYMBOL(field, name) { offsetof (MsNvml, field), name }
static const struct {
  size_t at;
  const char *name;
} symbols[] = {
  NVML_SYMBOL (shutdown, "nvmlShutdown"),
  NVML_SYMBOL (by_bus, "nvmlDeviceGetHandleByPciBusId_v2"),
  NVML_SYMBOL (count, "nvmlDeviceGetCount_v2"),
  NVML_SYMBOL (driver_version, "nvmlSystemGetDriverVersion"),
  NVML_SYMBOL (clock, "nvmlDeviceGetClockInfo"),
  NVML_SYMBOL (temperature, "nvmlDeviceGetTemperature"),
  NVML_SYMBOL (pstate, "nvmlDeviceGetPerformanceState"),
  /* Renamed "clocks event reasons" in newer drivers; the old name stays. */
  NVML_SYMBOL (reasons, "nvmlDeviceGetCurrentClocksEventReasons"),
  NVML_SYMBOL (cpu_affinity, "nvmlDeviceGetCpuAffinity"),
  NVML_SYMBOL (link_gen, "nvmlDeviceGetCurrPcieLinkGeneration"),
  NVML_SYMBOL (link_width, "nvmlDeviceGetCurrPcieLinkWidth"),
  NVML_SYMBOL (max_gen, "nvmlDeviceGetMaxPcieLinkGeneration"),
  NVML_SYMBOL (max_width, "nvmlDeviceGetMaxPcieLinkWidth"),
  NVML_SYMBOL (replays, "nvmlDeviceGetPcieReplayCounter"),
  NVML_SYMBOL (serial, "nvmlDeviceGetSerial"),
  NVML_SYMBOL (link_state, "nvmlDeviceGetNvLinkState"),
  NVML_SYMBOL (link_version, "nvmlDeviceGetNvLinkVersion"),
  NVML_SYMBOL (link_far_type, "nvmlDeviceGetNvLinkRemoteDeviceType"),
  NVML_SYMBOL (link_remote, "nvmlDeviceGetNvLinkRemotePciInfo_v2"),
  NVML_SYMBOL (ancestor, "nvmlDeviceGetTopologyCommonAncestor"),
  NVML_SYMBOL (p2p, "nvmlDeviceGetP2PStatus"),
};

bool
ms_nvml_load (MsNvml *n)
{
  memset (n, 0, sizeof *n);
  if (!(n->lib = dlopen ("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL)))
    return false;
  for (size_t i = 0; i < sizeof symbols / sizeof *symbols; i++)
    *(void **) ((char *) n + symbols[i].at) = dlsym (n->lib, symbols[i].name);
  if (!n->reasons)
    *(void **) &n->reasons = dlsym (n->lib, "nvmlDeviceGetCurrentClocksThrottleReasons");
  int (*init) (void);
  *(void **) &init = dlsym (n->lib, "nvmlInit_v2");
  if (!init || !n->shutdown || init () != 0) {
    dlclose (n->lib);
    memset (n, 0, sizeof *n);
    return false;
  }
  return true;
}

void
ms_nvml_unload (MsNvml *n)
{
  if (n->lib) {
    n->shutdown ();
    dlclose (n->lib);
  }
  memset (n, 0, sizeof *n);
}

MsNvml *
ms_nvml_open (const char *pci_bus_id)
{
  if (!pci_bus_id || !pci_bus_id[0])
    return NULL;
  MsNvml *n = calloc (1, sizeof *n);
  if (n && ms_nvml_load (n) && n->by_bus && n->by_bus (pci_bus_id, &n->dev) == 0)
    return n;
  ms_nvml_close (n);
  return NULL;
}

void
ms_nvml_close (MsNvml *nvml)
{
  if (!nvml)
    return;
  ms_nvml_unload (nvml);
  free (nvml);
}

bool
ms_nvml_sample (MsNvml *nvml, MsGpuState *out)
{
  memset (out, 0, sizeof *out);
  out->pstate = -1;
  if (!nvml || !nvml->clock)
    return false;
  unsigned int v;
  if (nvml->clock (nvml->dev, NVML_CLOCK_SM, &v) != 0)
    return false;
  out->sm_mhz = (int) v;
  if (nvml->clock (nvml->dev, NVML_CLOCK_MEM, &v) == 0)
    out->mem_mhz = (int) v;
  if (nvml->temperature && nvml->temperature (nvml->dev, NVML_TEMPERATURE_GPU, &v) == 0)
    out->temp_c = (int) v;
  int p;
  if (nvml->pstate && nvml->pstate (nvml->dev, &p) == 0)
    out->pstate = p;
  unsigned long long reasons;
  if (nvml->reasons && nvml->reasons (nvml->dev, &reasons) == 0)
    out->throttle = reasons;
  out->valid = true;
  return true;
}

bool
ms_nvml_link (MsNvml *nvml, int *gen, int *width)
{
  unsigned int g, w;
  *gen = *width = 0;
  if (!nvml || !nvml->link_gen || !nvml->link_width || nvml->link_gen (nvml->dev, &g) != 0 ||
      nvml->link_width (nvml->dev, &w) != 0 || g == 0 || w == 0 || g > 64 || w > 64)
    return false;
  *gen = (int) g;
  *width = (int) w;
  return true;
}

bool
ms_nvml_replays (MsNvml *nvml, uint64_t *count)
{
  unsigned int v;
  if (!nvml || !nvml->replays || nvml->replays (nvml->dev, &v) != 0)
    return false;
  *count = v;
  return true;
}

bool
ms_nvml_near_cpus (MsNvml *nvml, cpu_set_t *set)
{
  unsigned long words[CPU_SETSIZE / (8 * sizeof (unsigned long))];
  const unsigned int n_words = sizeof words / sizeof words[0];
  CPU_ZERO (set);
  if (!nvml || !nvml->cpu_affinity || nvml->cpu_affinity (nvml->dev, n_words, words) != 0)
    return false;
  for (unsigned int w = 0; w < n_words; w++)
    for (unsigned int b = 0; b < 8 * sizeof (unsigned long); b++)
      if (words[w] & (1ul << b))
        CPU_SET (w * 8 * sizeof (unsigned long) + b, set);
  return CPU_COUNT (set) > 0;
}

/* What NVML knows about one device; fields stay 0 or "" where it says
 * nothing. One dlopen and one init for all of it. */
void
ms_nvml_query (MsDeviceInfo *info)
{
  info->pcie_gen = info->pcie_width = info->pcie_gen_max = info->pcie_width_max = 0;
  info->driver_release[0] = '\0';
  MsNvml n;
  if (!ms_nvml_load (&n))
    return;
  char release[96] = "";
  if (n.driver_version && n.driver_version (release, sizeof release) == 0)
    snprintf (info->driver_release, sizeof info->driver_release, "%s", release);
  /* Narrowed to one GPU with the host's count unknown: NVML's, which
   * ignores CUDA_VISIBLE_DEVICES (ms-gpu-start.h). */
  unsigned int count = 0, v;
  if (ms_gpu_narrowed () && ms_gpu_count_before () < 0 && n.count && n.count (&count) == 0 &&
      count > 0)
    info->count = (int) count;
  if (n.by_bus && info->pci_bus_id[0] && n.by_bus (info->pci_bus_id, &n.dev) == 0) {
    if (n.link_gen && n.link_gen (n.dev, &v) == 0)
      info->pcie_gen = (int) v;
    if (n.link_width && n.link_width (n.dev, &v) == 0)
      info->pcie_width = (int) v;
    if (n.max_gen && n.max_gen (n.dev, &v) == 0)
      info->pcie_gen_max = (int) v;
    if (n.max_width && n.max_width (n.dev, &v) == 0)
      info->pcie_width_max = (int) v;
  }
  ms_nvml_unload (&n);
}
