/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-topo-nvml.c: the facts of a host's GPUs that the topology is read
 * from (ms-topo.h), and their serial numbers, from NVML through
 * ms-nvml.c's loader, so that nothing links against it. NVML needs no CUDA
 * context: asking it starts no GPU. */
#define _GNU_SOURCE /* ms-gpu-state.h's cpu_set_t */
#include <stdio.h>
#include <string.h>

#include "ms-gpu-state.h"
#include "ms-i18n.h"
#include "ms-topo.h"

/* NVML's nvmlPciInfo_t, as its header declares it. */
typedef struct {
  char bus_id_legacy[16];
  unsigned int domain, bus, device, pci_device_id, pci_subsystem_id;
  char bus_id[32];
} NvmlPciInfo;

/* NVML's enum values (nvml.h), fixed by its ABI. */
#define NVML_P2P_CAPS_INDEX_NVLINK 2
#define NVML_P2P_STATUS_OK 0
#define NVML_NVLINK_DEVICE_TYPE_GPU 0
#define NVML_NVLINK_DEVICE_TYPE_SWITCH 2

static void
link_fact (MsNvml *n, void *dev, unsigned int l, MsNvlinkFact *out)
{
  int active = 0, type = -1;
  unsigned int version = 0;
  NvmlPciInfo pci;
  memset (&pci, 0, sizeof pci);
  if (!n->link_state || n->link_state (dev, l, &active) != 0 || !active)
    return;
  out->active = true;
  if (n->link_version && n->link_version (dev, l, &version) == 0)
    out->version = (int) version;
  if (n->link_far_type && n->link_far_type (dev, l, &type) != 0)
    type = -1;
  out->far = type == NVML_NVLINK_DEVICE_TYPE_SWITCH ? MS_NVLINK_FAR_SWITCH
             : type == NVML_NVLINK_DEVICE_TYPE_GPU  ? MS_NVLINK_FAR_GPU
                                                    : MS_NVLINK_FAR_UNKNOWN;
  if (n->link_remote && n->link_remote (dev, l, &pci) == 0)
    snprintf (out->far_bus, sizeof out->far_bus, "%.31s", pci.bus_id);
}

static void
pair_facts (MsNvml *n, void **dev, MsTopoFacts *f)
{
  for (int i = 0; i < f->n_devices; i++)
    for (int j = 0; j < f->n_devices; j++) {
      int level = -1, status = -1;
      if (i == j || !dev[i] || !dev[j])
        continue;
      if (n->ancestor && n->ancestor (dev[i], dev[j], &level) == 0)
        f->ancestor[i][j] = level;
      if (n->p2p && n->p2p (dev[i], dev[j], NVML_P2P_CAPS_INDEX_NVLINK, &status) == 0)
        f->p2p_nvlink[i][j] = status == NVML_P2P_STATUS_OK;
    }
}

/* The facts from NVML for the PCI bus ids given; false with error filled
 * when NVML is missing. */
static bool
facts_query (MsTopoFacts *f, char bus_ids[][32], int n_devices, char *error, size_t errlen)
{
  ms_topo_facts_init (f, n_devices);
  MsNvml n;
  if (!ms_nvml_load (&n) || !n.by_bus) {
    ms_nvml_unload (&n);
    snprintf (error, errlen, "%s", ms_gettext ("NVML (libnvidia-ml.so.1) not available"));
    return false;
  }
  void *dev[MS_MULTI_MAX_DEVICES] = { 0 };
  for (int i = 0; i < f->n_devices; i++) {
    snprintf (f->bus_id[i], sizeof f->bus_id[i], "%s", bus_ids[i]);
    if (n.by_bus (bus_ids[i], &dev[i]) != 0) {
      dev[i] = NULL;
      continue;
    }
    f->found[i] = true;
    if (n.serial && n.serial (dev[i], f->serial[i], sizeof f->serial[i]) != 0)
      f->serial[i][0] = '\0';
    for (unsigned int l = 0; l < MS_NVLINK_MAX_LINKS; l++)
      link_fact (&n, dev[i], l, &f->link[i][l]);
  }
  pair_facts (&n, dev, f);
  ms_nvml_unload (&n);
  return true;
}

void
ms_topology_query (MsTopology *topo, char bus_ids[][32], int n_devices)
{
  MsTopoFacts facts;
  char error[160] = "";
  if (!facts_query (&facts, bus_ids, n_devices, error, sizeof error)) {
    memset (topo, 0, sizeof *topo);
    topo->n_devices = n_devices;
    snprintf (topo->error, sizeof topo->error, "%s", error);
    return;
  }
  ms_topology_from_facts (topo, &facts);
}

bool
ms_nvml_serial (const char *bus_id, char *serial, size_t len)
{
  serial[0] = '\0';
  MsNvml n;
  if (!ms_nvml_load (&n) || !n.by_bus) {
    ms_nvml_unload (&n);
    return false;
  }
  void *dev = NULL;
  if (n.serial && n.by_bus (bus_id, &dev) == 0 && n.serial (dev, serial, (unsigned) len) != 0)
    serial[0] = '\0';
  ms_nvml_unload (&n);
  return serial[0] != '\0';
}
