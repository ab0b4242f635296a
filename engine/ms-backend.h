/* ms-backend.h: the small interface every backend implements (CUDA, host,
 * test). Private to the engine and its tests. */
#pragma once

#include "memsweep.h"

typedef struct {
  MsMode mode;
  int device;
  uint64_t n;
  int streams;
  MsIssueOrder order;
  int rep;           /* -1 for warm-up */
  atomic_int *cancel;
} MsRunArgs;

typedef struct {
  MsEvent *events; /* room for max_events, filled by the backend */
  int max_events;
  int n_events;
  double e2e_us;
  uint64_t mismatches;
  uint64_t first_mismatch;
  char error[256];
} MsRunOutput;

struct MsBackend {
  const char *name;
  bool (*query_device) (MsBackend *self, int index, MsDeviceInfo *info);
  bool (*supports) (MsBackend *self, const MsDeviceInfo *info, MsMode mode, char *why,
                    size_t whylen);
  /* Whether the buffers of one run fit the machine now. */
  bool (*check_fit) (MsBackend *self, const MsDeviceInfo *info, MsMode mode, uint64_t n,
                     char *why, size_t whylen);
  MsCellStatus (*run_once) (MsBackend *self, const MsRunArgs *args, MsRunOutput *out);
  void (*free) (MsBackend *self);
};

/* The CPU baseline, used by the system backend and by tests. */
MsCellStatus ms_host_run_once (const MsRunArgs *args, MsRunOutput *out);

/* Host memory the kernel would give us now (MemAvailable), or 0 if unknown. */
uint64_t ms_host_available_memory (void);
void ms_host_cpu_affinity (char *buf, size_t len);

/* PCIe link facts through NVML loaded at run time; false when unknown. */
bool ms_nvml_pcie_link (const char *pci_bus_id, int *gen, int *width, int *gen_max,
                        int *width_max);

double ms_now_us (void);
