/* ms-nvml.c: PCIe link facts and the driver release from NVML, loaded at
 * run time so that memsweep neither links against nor requires the NVIDIA
 * management library. */
#include <dlfcn.h>
#include <stdio.h>

#include "ms-backend.h"

typedef int (*NvmlInit) (void);
typedef int (*NvmlShutdown) (void);
typedef int (*NvmlByBusId) (const char *, void **);
typedef int (*NvmlUint) (void *, unsigned int *);
typedef int (*NvmlDriverVersion) (char *, unsigned int);

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

  if (init && shutdown && init () == 0) {
    char release[96] = "";
    if (version && version (release, sizeof release) == 0)
      snprintf (info->driver_release, sizeof info->driver_release, "%s", release);
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
