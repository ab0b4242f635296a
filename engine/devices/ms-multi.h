/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-multi.h: beyond one GPU.
 *
 * - A sweep on several devices at once: one host thread per device, every
 *   cell starts on all of them together (a barrier), per-device results and
 *   aggregate figures (ms-multi.c).
 * - Portable pinned memory and peer-to-peer copies as experiments with their
 *   own small result types (ms-peer.c, kernels/ms-multi.cu).
 * - GPU topology and serial numbers from NVML, loaded with dlopen
 *   (ms-topo.c).
 *
 * Plain C like the rest of the engine.
 */
#pragma once

#include "memsweep.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MS_MULTI_MAX_DEVICES 16 /* the largest servers have 8-16 */

/* ---- every GPU at once ------------------------------------------------ */

typedef struct {
  int n_devices;
  int devices[MS_MULTI_MAX_DEVICES];
  /* One per device, in the order of devices; each holds that device's cells
   * and facts as a single-device run would. */
  MsResults *per_device[MS_MULTI_MAX_DEVICES];
} MsMultiResults;

/* Called from the device threads after every cell of every device (under a
 * lock: one call at a time). */
typedef void (*MsMultiProgressFunc) (int device_slot, int cell_index, int n_cells,
                                     const MsCell *cell, void *user_data);

/* Runs sweep on every device of devices at once: each cell starts on all of
 * them together, after all of them have finished the cell before. A device
 * that fails (no device, a failed cell) leaves the others' results intact;
 * its own cells carry the reason. sweep->device is ignored. MS_RUN_NO_DEVICE
 * only when no device of the list could be used for a GPU mode. */
MsRunStatus ms_multi_run (const MsSweep *sweep, const int *devices, int n_devices,
                          MsBackend *backend, MsMultiProgressFunc progress, void *user_data,
                          atomic_int *cancel, MsMultiResults **out, char *err, size_t errlen);
void ms_multi_results_free (MsMultiResults *results);

typedef struct {
  int n_ok;         /* devices with an OK cell at this (mode, size) */
  double h2d_gbps;  /* sum over those devices of their own figures */
  double d2h_gbps;
  double e2e_gbps;
  double h2d_min_gbps; /* the slowest device, to see an unfair share */
  double d2h_min_gbps;
} MsMultiAggregate;

/* Aggregate of one (mode, size) over the devices; false when no device has
 * an OK cell there. */
bool ms_multi_aggregate (const MsMultiResults *results, MsMode mode, int exponent,
                         MsMultiAggregate *agg);

/* Parses "0,1,3" or "all" (count devices visible) into devices; false with
 * a message. */
bool ms_multi_parse_devices (const char *list, int count, int *devices, int *n_devices,
                             char *err, size_t errlen);

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

/* ---- portable pinned memory and peer copies --------------------------- */

typedef enum {
  MS_PORTABLE_PER_DEVICE, /* one cudaMallocHost buffer per GPU, made on it */
  MS_PORTABLE_SHARED,     /* one cudaHostAlloc(Portable) buffer for all GPUs */
  MS_PORTABLE_FOREIGN,    /* cudaMallocHost on device 0, used from the others */
  MS_PORTABLE_COUNT
} MsPortableCase;

const char *ms_portable_case_name (MsPortableCase c);

typedef struct {
  bool ok;
  double h2d_gbps; /* median of the samples, each GPU alone */
  double d2h_gbps;
  bool pinned_path; /* the runtime saw the buffer as pinned for this GPU */
  char note[256];   /* the error, or what the runtime said about the buffer */
} MsPortableCell;

typedef struct {
  int n_devices;
  uint64_t bytes;
  MsPortableCell cell[MS_PORTABLE_COUNT][MS_MULTI_MAX_DEVICES];
  char error[256];
} MsPortableResults;

/* Runs the three cases on devices with copies of bytes. false with
 * results->error when the experiment could not run at all. */
bool ms_portable_run (const int *devices, int n_devices, uint64_t bytes, int reps,
                      MsPortableResults *results);

typedef enum {
  MS_PEER_COPY_ENABLED,  /* cudaMemcpyPeerAsync, peer access enabled */
  MS_PEER_COPY_DISABLED, /* cudaMemcpyPeerAsync without peer access */
  MS_PEER_KERNEL_READ,   /* a kernel on dst reads src's memory directly */
  MS_PEER_STAGED,        /* through pinned host memory: the baseline */
  MS_PEER_METHOD_COUNT
} MsPeerMethod;

const char *ms_peer_method_name (MsPeerMethod m);

typedef struct {
  bool ok;
  double uni_gbps; /* src -> dst alone */
  double bi_gbps;  /* src -> dst and dst -> src at once, both directions
                    * counted */
  char note[160];  /* why not, when !ok */
} MsPeerCell;

typedef struct {
  int n_devices;
  int devices[MS_MULTI_MAX_DEVICES];
  uint64_t bytes;
  bool can_access[MS_MULTI_MAX_DEVICES][MS_MULTI_MAX_DEVICES];
  /* [method][src][dst]; the diagonal stays empty. */
  MsPeerCell cell[MS_PEER_METHOD_COUNT][MS_MULTI_MAX_DEVICES][MS_MULTI_MAX_DEVICES];
  double reference_gbps[MS_MULTI_MAX_DEVICES][MS_MULTI_MAX_DEVICES]; /* plain loop */
  MsTopology topo;
  char error[256];
} MsPeerResults;

/* Fills the peer matrix for devices with copies of bytes. The results are
 * large: allocate them on the heap. false with results->error when the
 * experiment could not run (fewer than 2 devices, no CUDA). */
bool ms_peer_run (const int *devices, int n_devices, uint64_t bytes, int reps,
                  MsPeerResults *results);

#ifdef __cplusplus
}
#endif
