/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-nvml.c: facts and state of the GPU from NVML, loaded at run time so
 * that memsweep neither links against nor requires the NVIDIA management
 * library: the PCIe link and driver release once per device query, and the
 * clocks, temperature, performance state and throttle reasons around every
 * cell. Also where the measuring thread is pinned. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ms-gpu-start.h"
#include "ms-gpu-state.h"

typedef int (*NvmlInit) (void);
typedef int (*NvmlShutdown) (void);
typedef int (*NvmlByBusId) (const char *, void **);
typedef int (*NvmlUint) (void *, unsigned int *);
typedef int (*NvmlCount) (unsigned int *);
typedef int (*NvmlDriverVersion) (char *, unsigned int);
typedef int (*NvmlClock) (void *, int, unsigned int *);
typedef int (*NvmlPstate) (void *, int *);
typedef int (*NvmlReasons) (void *, unsigned long long *);
typedef int (*NvmlCpuAffinity) (void *, unsigned int, unsigned long *);

/* NVML's enum values (nvml.h), fixed by its ABI. */
#define NVML_CLOCK_SM 1
#define NVML_CLOCK_MEM 2
#define NVML_TEMPERATURE_GPU 0

struct MsNvml {
  void *lib;
  void *dev;
  NvmlShutdown shutdown;
  NvmlClock clock;
  NvmlClock temperature;
  NvmlPstate pstate;
  NvmlReasons reasons;
  NvmlCpuAffinity cpu_affinity;
  NvmlUint link_gen, link_width, replays;
};

MsNvml *
ms_nvml_open (const char *pci_bus_id)
{
  if (!pci_bus_id || !pci_bus_id[0])
    return NULL;
  void *lib = dlopen ("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib)
    return NULL;
  NvmlInit init = (NvmlInit) dlsym (lib, "nvmlInit_v2");
  NvmlByBusId by_bus = (NvmlByBusId) dlsym (lib, "nvmlDeviceGetHandleByPciBusId_v2");
  MsNvml *n = calloc (1, sizeof *n);
  if (!n || !init || !by_bus || init () != 0) {
    free (n);
    dlclose (lib);
    return NULL;
  }
  n->lib = lib;
  n->shutdown = (NvmlShutdown) dlsym (lib, "nvmlShutdown");
  if (by_bus (pci_bus_id, &n->dev) != 0) {
    ms_nvml_close (n);
    return NULL;
  }
  n->clock = (NvmlClock) dlsym (lib, "nvmlDeviceGetClockInfo");
  n->temperature = (NvmlClock) dlsym (lib, "nvmlDeviceGetTemperature");
  n->pstate = (NvmlPstate) dlsym (lib, "nvmlDeviceGetPerformanceState");
  /* Renamed "clocks event reasons" in newer drivers; the old name stays. */
  n->reasons = (NvmlReasons) dlsym (lib, "nvmlDeviceGetCurrentClocksEventReasons");
  if (!n->reasons)
    n->reasons = (NvmlReasons) dlsym (lib, "nvmlDeviceGetCurrentClocksThrottleReasons");
  n->cpu_affinity = (NvmlCpuAffinity) dlsym (lib, "nvmlDeviceGetCpuAffinity");
  n->link_gen = (NvmlUint) dlsym (lib, "nvmlDeviceGetCurrPcieLinkGeneration");
  n->link_width = (NvmlUint) dlsym (lib, "nvmlDeviceGetCurrPcieLinkWidth");
  n->replays = (NvmlUint) dlsym (lib, "nvmlDeviceGetPcieReplayCounter");
  return n;
}

void
ms_nvml_close (MsNvml *nvml)
{
  if (!nvml)
    return;
  if (nvml->shutdown)
    nvml->shutdown ();
  dlclose (nvml->lib);
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
  void *lib = dlopen ("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib)
    return;

  NvmlInit init = (NvmlInit) dlsym (lib, "nvmlInit_v2");
  NvmlShutdown shutdown = (NvmlShutdown) dlsym (lib, "nvmlShutdown");
  NvmlDriverVersion version = (NvmlDriverVersion) dlsym (lib, "nvmlSystemGetDriverVersion");
  NvmlByBusId by_bus = (NvmlByBusId) dlsym (lib, "nvmlDeviceGetHandleByPciBusId_v2");
  NvmlUint cur_gen = (NvmlUint) dlsym (lib, "nvmlDeviceGetCurrPcieLinkGeneration");
  NvmlUint cur_width = (NvmlUint) dlsym (lib, "nvmlDeviceGetCurrPcieLinkWidth");
  NvmlUint max_gen = (NvmlUint) dlsym (lib, "nvmlDeviceGetMaxPcieLinkGeneration");
  NvmlUint max_width = (NvmlUint) dlsym (lib, "nvmlDeviceGetMaxPcieLinkWidth");
  NvmlCount count = (NvmlCount) dlsym (lib, "nvmlDeviceGetCount_v2");

  if (init && shutdown && init () == 0) {
    char release[96] = "";
    if (version && version (release, sizeof release) == 0)
      snprintf (info->driver_release, sizeof info->driver_release, "%s", release);
    /* Narrowed to one GPU with the host's count unknown: NVML's, which
     * ignores CUDA_VISIBLE_DEVICES (ms-gpu-start.h). */
    unsigned int n = 0;
    if (ms_gpu_narrowed () && ms_gpu_count_before () < 0 && count && count (&n) == 0 && n > 0)
      info->count = (int) n;
    void *dev = NULL;
    unsigned int v;
    if (by_bus && info->pci_bus_id[0] && by_bus (info->pci_bus_id, &dev) == 0) {
      if (cur_gen && cur_gen (dev, &v) == 0)
        info->pcie_gen = (int) v;
      if (cur_width && cur_width (dev, &v) == 0)
        info->pcie_width = (int) v;
      if (max_gen && max_gen (dev, &v) == 0)
        info->pcie_gen_max = (int) v;
      if (max_width && max_width (dev, &v) == 0)
        info->pcie_width_max = (int) v;
    }
    shutdown ();
  }
  dlclose (lib);
}
