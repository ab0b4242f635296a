/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-gpu-state.h: the GPU's state around the measurements (NVML clocks,
 * the warm-up to a steady clock, the measuring thread's CPU). Private to
 * the engine and its tests; the rounds that keep the state, and their CSV
 * columns, are model/ms-rounds-private.h's. */
#pragma once

/* Needs _GNU_SOURCE before the first system header (cpu_set_t). */
#include <sched.h>

#include "memsweep.h"

/* ---- NVML (ms-nvml.c) --------------------------------------------------- */

/* NVML loaded at run time, so that memsweep neither links against nor
 * requires it: each of its functions that memsweep calls (NULL where the
 * library lacks one; the NVLink remote's last argument is an
 * nvmlPciInfo_t), and the device asked about. One loader for the state,
 * the device query and the topology (ms-topo-nvml.c). */
typedef struct MsNvml {
  void *lib, *dev;
  int (*shutdown) (void);
  int (*by_bus) (const char *, void **);
  int (*count) (unsigned int *);
  int (*driver_version) (char *, unsigned int);
  int (*clock) (void *, int, unsigned int *);
  int (*temperature) (void *, int, unsigned int *);
  int (*pstate) (void *, int *);
  int (*reasons) (void *, unsigned long long *);
  int (*cpu_affinity) (void *, unsigned int, unsigned long *);
  int (*link_gen) (void *, unsigned int *), (*link_width) (void *, unsigned int *);
  int (*max_gen) (void *, unsigned int *), (*max_width) (void *, unsigned int *);
  int (*replays) (void *, unsigned int *);
  int (*serial) (void *, char *, unsigned int);
  int (*link_state) (void *, unsigned int, int *);
  int (*link_version) (void *, unsigned int, unsigned int *);
  int (*link_far_type) (void *, unsigned int, int *);
  int (*link_remote) (void *, unsigned int, void *);
  int (*ancestor) (void *, void *, int *);
  int (*p2p) (void *, void *, int, int *);
} MsNvml;

/* Loads NVML into n and starts it (no device yet); false, holding
 * nothing, where it is missing or does not start. */
bool ms_nvml_load (MsNvml *n);
/* Shuts NVML down and unloads it; harmless on a load that failed. */
void ms_nvml_unload (MsNvml *n);

/* NULL when NVML or the device is not there: everything below then reports
 * nothing, and state fields stay empty. */
MsNvml *ms_nvml_open (const char *pci_bus_id);
void ms_nvml_close (MsNvml *nvml);
/* false (and out->valid false) when NVML did not answer. */
bool ms_nvml_sample (MsNvml *nvml, MsGpuState *out);
/* The PCIe link as trained now; false (both 0) when NVML does not say. */
bool ms_nvml_link (MsNvml *nvml, int *gen, int *width);
/* The PCIe replay counter; false when NVML does not give it. */
bool ms_nvml_replays (MsNvml *nvml, uint64_t *count);
/* CPUs NVML calls close to the GPU; false when it does not say. */
bool ms_nvml_near_cpus (MsNvml *nvml, cpu_set_t *set);
/* PCIe link (current and maximum) and the driver release through NVML,
 * loaded at run time; unknown fields stay 0 or "". Needs info->pci_bus_id. */
void ms_nvml_query (MsDeviceInfo *info);

/* ---- warm-up and pinning (ms-gpu-state.c) ------------------------------- */

/* Keeps the GPU busy for about ms milliseconds; false on failure. */
typedef bool (*MsSpinFunc) (void *user, double ms);

/* Spins until NVML's SM clock holds still (three readings within 1 %, at
 * most 2 s), or for MS_WARM_BLIND_MS without NVML. Returns the time spent
 * in ms and the clock reached (0 unknown); never changes any clock. */
#define MS_WARM_BLIND_MS 200.0
double ms_gpu_warm (MsNvml *nvml, MsSpinFunc spin, void *user, int *steady_sm_mhz);

/* Samples the state before a cell; when the SM clock has fallen below 60 %
 * of steady_sm_mhz (back towards idle), spins briefly and samples again. */
void ms_gpu_state_before_cell (MsNvml *nvml, MsSpinFunc spin, void *user, int steady_sm_mhz,
                               MsGpuState *out);

/* Pins the calling thread to one CPU: the one it runs on when that is
 * allowed and close to the GPU, else the first such CPU, else the one it
 * runs on; fixed: the first allowed CPU near the GPU whatever CPU the
 * thread runs on, so that every process measures on the same one. Returns
 * the CPU or -1; saved receives the old mask for ms_unpin_thread, near
 * (may be NULL) the CPUs near the GPU as text. */
int ms_pin_thread_at (MsNvml *nvml, bool fixed, cpu_set_t *saved, char *near, size_t nearlen);
/* Pins the calling thread to a CPU drawn at random (rand_r on seed) from
 * those of allowed near the GPU (all of allowed where NVML cannot say):
 * a round of a run that varies its placement. The CPU, or -1. */
int ms_pin_thread_random (MsNvml *nvml, const cpu_set_t *allowed, unsigned *seed);
void ms_unpin_thread (const cpu_set_t *saved);
/* The NUMA node the calling thread runs on, or -1. */
int ms_current_node (void);
/* The calling thread's memory from node (preferred), or back to the
 * default policy with node < 0; false when the kernel refused. */
bool ms_prefer_node (int node);

/* "0-15 32-47": a CPU set in runs. */
void ms_format_cpu_set (const cpu_set_t *set, char *buf, size_t len);
