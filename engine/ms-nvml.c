/* ms-nvml.c: PCIe link facts from NVML, loaded at run time so that memsweep
 * neither links against nor requires the NVIDIA management library. */
#include <dlfcn.h>
#include <stdio.h>

#include "ms-backend.h"

typedef int (*NvmlInit) (void);
typedef int (*NvmlShutdown) (void);
typedef int (*NvmlByBusId) (const char *, void **);
typedef int (*NvmlUint) (void *, unsigned int *);

bool
ms_nvml_pcie_link (const char *pci_bus_id, int *gen, int *width, int *gen_max, int *width_max)
{
  *gen = *width = *gen_max = *width_max = 0;
  if (!pci_bus_id || !*pci_bus_id)
    return false;
  void *lib = dlopen ("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib)
    return false;

  NvmlInit init = (NvmlInit) dlsym (lib, "nvmlInit_v2");
  NvmlShutdown shutdown = (NvmlShutdown) dlsym (lib, "nvmlShutdown");
  NvmlByBusId by_bus = (NvmlByBusId) dlsym (lib, "nvmlDeviceGetHandleByPciBusId_v2");
  NvmlUint cur_gen = (NvmlUint) dlsym (lib, "nvmlDeviceGetCurrPcieLinkGeneration");
  NvmlUint cur_width = (NvmlUint) dlsym (lib, "nvmlDeviceGetCurrPcieLinkWidth");
  NvmlUint max_gen = (NvmlUint) dlsym (lib, "nvmlDeviceGetMaxPcieLinkGeneration");
  NvmlUint max_width = (NvmlUint) dlsym (lib, "nvmlDeviceGetMaxPcieLinkWidth");
  bool ok = false;

  if (init && shutdown && by_bus && cur_gen && cur_width && init () == 0) {
    void *dev = NULL;
    unsigned int v;
    if (by_bus (pci_bus_id, &dev) == 0) {
      if (cur_gen (dev, &v) == 0)
        *gen = (int) v;
      if (cur_width (dev, &v) == 0)
        *width = (int) v;
      if (max_gen && max_gen (dev, &v) == 0)
        *gen_max = (int) v;
      if (max_width && max_width (dev, &v) == 0)
        *width_max = (int) v;
      ok = *gen > 0 && *width > 0;
    }
    shutdown ();
  }
  dlclose (lib);
  return ok;
}

typedef int (*NvmlDriverVersion) (char *, unsigned int);

bool
ms_nvml_driver_release (char *buf, size_t len)
{
  buf[0] = '\0';
  void *lib = dlopen ("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib)
    return false;
  NvmlInit init = (NvmlInit) dlsym (lib, "nvmlInit_v2");
  NvmlShutdown shutdown = (NvmlShutdown) dlsym (lib, "nvmlShutdown");
  NvmlDriverVersion version = (NvmlDriverVersion) dlsym (lib, "nvmlSystemGetDriverVersion");
  bool ok = false;
  if (init && shutdown && version && init () == 0) {
    char tmp[96] = "";
    ok = version (tmp, sizeof tmp) == 0;
    if (ok)
      snprintf (buf, len, "%s", tmp);
    shutdown ();
  }
  dlclose (lib);
  return ok;
}
