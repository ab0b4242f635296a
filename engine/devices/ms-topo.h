/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-topo.h: the GPUs of one host and how they are joined: NVLinks, the
 * PCIe path between each pair, serial numbers, from NVML loaded with
 * dlopen (ms-topo.c). Plain C like the rest of the engine. */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MS_MULTI_MAX_DEVICES 16 /* the largest servers have 8-16 */

/* ---- topology --------------------------------------------------------- */

typedef enum {
  MS_LINK_UNKNOWN,
  MS_LINK_SAME_BOARD,  /* NVML_TOPOLOGY_INTERNAL */
  MS_LINK_PCIE_SWITCH, /* one PCIe switch (SINGLE) */
  MS_LINK_PCIE_SWITCHES, /* several switches (MULTIPLE) */
  MS_LINK_PCIE_HOST_BRIDGE, /* the root complex (HOSTBRIDGE) */
  MS_LINK_NUMA_NODE,   /* across host bridges of one NUMA node (NODE) */
  MS_LINK_SYSTEM,      /* across NUMA nodes / sockets (SYSTEM) */
} MsLinkPath;

const char *ms_link_path_name (MsLinkPath path);

typedef struct {
  int n_devices;
  char serial[MS_MULTI_MAX_DEVICES][32];   /* "" when NVML says nothing */
  char bus_id[MS_MULTI_MAX_DEVICES][32];
  /* NVLinks between i and j (active links of i whose remote is j). */
  int nvlinks[MS_MULTI_MAX_DEVICES][MS_MULTI_MAX_DEVICES];
  MsLinkPath pcie_path[MS_MULTI_MAX_DEVICES][MS_MULTI_MAX_DEVICES];
  bool nvml; /* false: NVML missing, everything unknown */
  char error[160];
} MsTopology;

/* Fills topo for the PCI bus ids given (as MsDeviceInfo.pci_bus_id). */
void ms_topology_query (MsTopology *topo, char bus_ids[][32], int n_devices);
/* The serial number of the GPU at bus_id, or "" (false). */
bool ms_nvml_serial (const char *bus_id, char *serial, size_t len);

#ifdef __cplusplus
}
#endif
