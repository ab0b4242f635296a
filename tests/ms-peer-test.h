/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-peer-test.h: a peer matrix without GPUs, with the signature of
 * ms_peer_run, for the file, drawing and page tests. Devices pair up
 * (0-1, 2-3, ...) over 18 NVLinks with peer access; other pairs meet
 * across the sockets without it, so their access-on and kernel cells fail
 * with a note, as on a real host. The numbers depend on the pair so that a
 * transposed or shifted matrix shows. */
#pragma once

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ms-multi.h"
#include "ms-peer-file.h"

static inline double
ms_test_peer_gbps (MsPeerMethod m, int src, int dst, int bi)
{
  static const double base[MS_PEER_METHOD_COUNT] = { 380, 38, 350, 27 };
  return (base[m] + src * 2 + dst * 0.5) * (bi ? 1.8 : 1.0);
}

static inline void
ms_test_peer_device (int index, MsDeviceInfo *info)
{
  memset (info, 0, sizeof *info);
  info->present = true;
  info->index = index;
  snprintf (info->name, sizeof info->name, "Fake GPU %d", index);
  snprintf (info->pci_bus_id, sizeof info->pci_bus_id, "0000:%02x:00.0", 0x10 + index);
  info->pcie_gen = 5;
  info->pcie_width = index == 3 ? 8 : 16; /* one degraded link to show */
  info->cc_major = 9;
}

static inline bool
ms_test_peer_run (const int *devices, int n, uint64_t bytes, int reps, MsPeerResults *r)
{
  (void) reps;
  memset (r, 0, sizeof *r);
  r->n_devices = r->topo.n_devices = n;
  r->bytes = bytes;
  r->topo.nvml = true;
  if (n < 2 || n > MS_MULTI_MAX_DEVICES) {
    snprintf (r->error, sizeof r->error, "needs 2 to %d devices, got %d", MS_MULTI_MAX_DEVICES,
              n);
    return false;
  }
  for (int i = 0; i < n; i++) {
    r->devices[i] = devices[i];
    snprintf (r->topo.bus_id[i], sizeof r->topo.bus_id[i], "0000:%02x:00.0", 0x10 + devices[i]);
    snprintf (r->topo.serial[i], sizeof r->topo.serial[i], "16528%d", devices[i]);
  }
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < n; j++) {
      if (i == j)
        continue;
      int a = devices[i], b = devices[j];
      bool near = a / 2 == b / 2;
      r->topo.nvlinks[i][j] = near ? 18 : 0;
      r->topo.pcie_path[i][j] = near ? MS_LINK_PCIE_HOST_BRIDGE : MS_LINK_SYSTEM;
      r->can_access[i][j] = near;
      for (int m = 0; m < MS_PEER_METHOD_COUNT; m++) {
        MsPeerCell *c = &r->cell[m][i][j];
        if (!near && (m == MS_PEER_COPY_ENABLED || m == MS_PEER_KERNEL_READ)) {
          snprintf (c->note, sizeof c->note, "peer access not possible between %d and %d, \"no\"",
                    a, b);
          continue;
        }
        c->uni_gbps = ms_test_peer_gbps (m, a, b, 0);
        c->bi_gbps = ms_test_peer_gbps (m, a, b, 1);
        c->ok = true;
      }
      if (near)
        r->reference_gbps[i][j] = ms_test_peer_gbps (MS_PEER_COPY_ENABLED, a, b, 0) + 5;
    }
  }
  return true;
}

/* A file as `memsweep peer --out` would write it for devices 0..n-1. */
static inline void
ms_test_peer_file (int n, MsPeerFile *file)
{
  int devices[MS_MULTI_MAX_DEVICES];
  MsDeviceInfo info[MS_MULTI_MAX_DEVICES];
  MsPeerResults *r = calloc (1, sizeof *r);
  for (int i = 0; i < n; i++) {
    devices[i] = i;
    ms_test_peer_device (i, &info[i]);
  }
  ms_test_peer_run (devices, n, 64u << 20, 11, r);
  ms_peer_file_init (file, r, info, 11);
  free (r);
}
