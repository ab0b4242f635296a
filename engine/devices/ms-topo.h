/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-topo.h: the GPUs of one host and how they are joined: NVLinks, the
 * PCIe path between each pair, serial numbers. NVML (loaded with dlopen,
 * ms-topo-nvml.c) gives the facts; ms-topo.c reads the topology from them
 * as `nvidia-smi topo -m` does, so that tests can give it fake facts of
 * hosts the lent machines are not. Plain C like the rest of the engine. */
#pragma once

#include <stdbool.h>
#include <stddef.h>

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
  /* NVLinks between i and j, as `nvidia-smi topo -m` counts them (NV18):
   * behind NVSwitch, every active link of the pair's lesser GPU. */
  int nvlinks[MS_MULTI_MAX_DEVICES][MS_MULTI_MAX_DEVICES];
  MsLinkPath pcie_path[MS_MULTI_MAX_DEVICES][MS_MULTI_MAX_DEVICES];
  /* Per GPU: its active NVLinks, their NVML version (0: unknown) and
   * whether they lead to NVSwitches. */
  int active_nvlinks[MS_MULTI_MAX_DEVICES];
  int nvlink_version[MS_MULTI_MAX_DEVICES];
  bool nvswitch[MS_MULTI_MAX_DEVICES];
  bool nvml; /* false: NVML missing, everything unknown */
  char error[160];
} MsTopology;

/* ---- what NVML says, for ms_topology_from_facts ----------------------- */

#define MS_NVLINK_MAX_LINKS 18 /* NVML_NVLINK_MAX_LINKS */

typedef enum {
  MS_NVLINK_FAR_GPU,     /* NVML_NVLINK_DEVICE_TYPE_GPU */
  MS_NVLINK_FAR_SWITCH,  /* NVML_NVLINK_DEVICE_TYPE_SWITCH */
  MS_NVLINK_FAR_UNKNOWN, /* the query failed or said something else */
} MsNvlinkFar;

typedef struct {
  bool active;
  int version;        /* nvmlDeviceGetNvLinkVersion, 0 when unknown */
  MsNvlinkFar far;
  char far_bus[32];   /* the far end's PCI address, "" when unknown */
} MsNvlinkFact;

typedef struct {
  int n_devices;
  char bus_id[MS_MULTI_MAX_DEVICES][32];
  char serial[MS_MULTI_MAX_DEVICES][32];
  bool found[MS_MULTI_MAX_DEVICES]; /* NVML has a handle for it */
  MsNvlinkFact link[MS_MULTI_MAX_DEVICES][MS_NVLINK_MAX_LINKS];
  /* nvmlDeviceGetTopologyCommonAncestor's level (0..50), -1 unknown. */
  int ancestor[MS_MULTI_MAX_DEVICES][MS_MULTI_MAX_DEVICES];
  /* nvmlDeviceGetP2PStatus with NVML_P2P_CAPS_INDEX_NVLINK: 1 OK, 0 any
   * other status, -1 the query is missing or failed. */
  int p2p_nvlink[MS_MULTI_MAX_DEVICES][MS_MULTI_MAX_DEVICES];
} MsTopoFacts;

/* Facts for n_devices GPUs of which nothing is known yet. */
void ms_topo_facts_init (MsTopoFacts *facts, int n_devices);
/* Reads the topology from the facts; no NVML involved. */
void ms_topology_from_facts (MsTopology *topo, const MsTopoFacts *facts);

/* Fills topo for the PCI bus ids given (as MsDeviceInfo.pci_bus_id). */
void ms_topology_query (MsTopology *topo, char bus_ids[][32], int n_devices);
/* The pair as `nvidia-smi topo -m` prints it: "NV18", "PIX", "PXB",
 * "PHB", "NODE", "SYS", "X" on the diagonal, "?" when unknown. */
const char *ms_topology_pair_code (const MsTopology *topo, int i, int j, char *buf, size_t len);
/* The serial number of the GPU at bus_id, or "" (false). */
bool ms_nvml_serial (const char *bus_id, char *serial, size_t len);
