/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-topo.c: how the GPUs of a host are joined (NVLinks, the PCIe path
 * between each pair) and their serial numbers, from NVML loaded with
 * dlopen as ms-nvml.c does, so that nothing links against it. */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "ms-i18n.h"
#include "ms-topo.h"

/* NVML's nvmlPciInfo_t, as its header declares it. */
typedef struct {
  char bus_id_legacy[16];
  unsigned int domain, bus, device, pci_device_id, pci_subsystem_id;
  char bus_id[32];
} NvmlPciInfo;

#define NVML_MAX_NVLINKS 18

typedef struct {
  void *lib;
  int (*init) (void);
  int (*shutdown) (void);
  int (*by_bus) (const char *, void **);
  int (*serial) (void *, char *, unsigned int);
  int (*link_state) (void *, unsigned int, int *);
  int (*link_remote) (void *, unsigned int, NvmlPciInfo *);
  int (*ancestor) (void *, void *, int *);
} Nvml;

static bool
nvml_open (Nvml *n)
{
  memset (n, 0, sizeof *n);
  n->lib = dlopen ("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!n->lib)
    return false;
  *(void **) &n->init = dlsym (n->lib, "nvmlInit_v2");
  *(void **) &n->shutdown = dlsym (n->lib, "nvmlShutdown");
  *(void **) &n->by_bus = dlsym (n->lib, "nvmlDeviceGetHandleByPciBusId_v2");
  *(void **) &n->serial = dlsym (n->lib, "nvmlDeviceGetSerial");
  *(void **) &n->link_state = dlsym (n->lib, "nvmlDeviceGetNvLinkState");
  *(void **) &n->link_remote = dlsym (n->lib, "nvmlDeviceGetNvLinkRemotePciInfo_v2");
  *(void **) &n->ancestor = dlsym (n->lib, "nvmlDeviceGetTopologyCommonAncestor");
  if (!n->init || !n->shutdown || !n->by_bus || n->init () != 0) {
    dlclose (n->lib);
    n->lib = NULL;
    return false;
  }
  return true;
}

static void
nvml_close (Nvml *n)
{
  if (!n->lib)
    return;
  n->shutdown ();
  dlclose (n->lib);
  n->lib = NULL;
}

/* CUDA writes "0000:18:00.0", NVML "00000000:18:00.0": compare numbers. */
static bool
same_bus (const char *a, const char *b)
{
  unsigned da, ba, xa, db, bb, xb;
  return sscanf (a, "%x:%x:%x", &da, &ba, &xa) == 3 && sscanf (b, "%x:%x:%x", &db, &bb, &xb) == 3
         && da == db && ba == bb && xa == xb;
}

const char *
ms_link_path_name (MsLinkPath path)
{
  switch (path) {
  case MS_LINK_SAME_BOARD: return ms_gettext ("same board");
  case MS_LINK_PCIE_SWITCH: return ms_gettext ("one PCIe switch");
  case MS_LINK_PCIE_SWITCHES: return ms_gettext ("several PCIe switches");
  case MS_LINK_PCIE_HOST_BRIDGE: return ms_gettext ("PCIe host bridge");
  case MS_LINK_NUMA_NODE: return ms_gettext ("host bridges of one NUMA node");
  case MS_LINK_SYSTEM: return ms_gettext ("across NUMA nodes (SMP interconnect)");
  case MS_LINK_UNKNOWN:
  default: return ms_gettext ("unknown");
  }
}

static MsLinkPath
path_from_level (int level)
{
  switch (level) {
  case 0: return MS_LINK_SAME_BOARD;
  case 10: return MS_LINK_PCIE_SWITCH;
  case 20: return MS_LINK_PCIE_SWITCHES;
  case 30: return MS_LINK_PCIE_HOST_BRIDGE;
  case 40: return MS_LINK_NUMA_NODE;
  case 50: return MS_LINK_SYSTEM;
  default: return MS_LINK_UNKNOWN;
  }
}

/* Active NVLinks of dev (device `self` of the list) whose far end is the
 * GPU at bus_ids[j], for all j. In a virtual machine the far end is named
 * by the host's PCI address, which matches none of the guest's: with two
 * GPUs such a link can only lead to the other one. */
static void
count_nvlinks (Nvml *n, void *dev, int self, char bus_ids[][32], int n_devices, int *row)
{
  if (!n->link_state || !n->link_remote)
    return;
  for (unsigned l = 0; l < NVML_MAX_NVLINKS; l++) {
    int active = 0;
    bool matched = false;
    NvmlPciInfo pci;
    memset (&pci, 0, sizeof pci);
    if (n->link_state (dev, l, &active) != 0 || !active || n->link_remote (dev, l, &pci) != 0)
      continue;
    for (int j = 0; j < n_devices; j++)
      if (same_bus (pci.bus_id, bus_ids[j])) {
        row[j]++;
        matched = true;
      }
    if (!matched && n_devices == 2)
      row[1 - self]++;
  }
}

void
ms_topology_query (MsTopology *topo, char bus_ids[][32], int n_devices)
{
  memset (topo, 0, sizeof *topo);
  topo->n_devices = n_devices;
  Nvml n;
  if (!nvml_open (&n)) {
    snprintf (topo->error, sizeof topo->error,
              ms_gettext ("NVML (libnvidia-ml.so.1) not available"));
    return;
  }
  topo->nvml = true;
  void *dev[MS_MULTI_MAX_DEVICES] = { 0 };
  for (int i = 0; i < n_devices; i++) {
    snprintf (topo->bus_id[i], sizeof topo->bus_id[i], "%s", bus_ids[i]);
    if (n.by_bus (bus_ids[i], &dev[i]) != 0) {
      dev[i] = NULL;
      continue;
    }
    if (n.serial && n.serial (dev[i], topo->serial[i], sizeof topo->serial[i]) != 0)
      topo->serial[i][0] = '\0';
    count_nvlinks (&n, dev[i], i, bus_ids, n_devices, topo->nvlinks[i]);
  }
  for (int i = 0; i < n_devices; i++) {
    for (int j = 0; j < n_devices; j++) {
      int level = -1;
      if (i != j && dev[i] && dev[j] && n.ancestor && n.ancestor (dev[i], dev[j], &level) == 0)
        topo->pcie_path[i][j] = path_from_level (level);
    }
  }
  nvml_close (&n);
}

bool
ms_nvml_serial (const char *bus_id, char *serial, size_t len)
{
  serial[0] = '\0';
  Nvml n;
  if (!nvml_open (&n))
    return false;
  void *dev = NULL;
  if (n.serial && n.by_bus (bus_id, &dev) == 0 && n.serial (dev, serial, (unsigned) len) != 0)
    serial[0] = '\0';
  nvml_close (&n);
  return serial[0] != '\0';
}
