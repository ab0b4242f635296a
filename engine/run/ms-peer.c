/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-peer.c: the peer copy matrix and the portable pinned memory
 * experiment, over kernels/ms-multi.cu, with the topology from NVML. */
#include <stdio.h>
#include <string.h>

#include "ms-backend-private.h"
#include "ms-backend.h"
#include "ms-i18n.h"
#include "ms-multi.h"
#ifdef MS_HAVE_CUDA
#include "ms-k-multi.h"

_Static_assert ((int) MS_PEER_COPY_ENABLED == MS_K_PEER_COPY_ENABLED &&
                  (int) MS_PEER_COPY_DISABLED == MS_K_PEER_COPY_DISABLED &&
                  (int) MS_PEER_KERNEL_READ == MS_K_PEER_KERNEL_READ &&
                  (int) MS_PEER_STAGED == MS_K_PEER_STAGED,
                "MsPeerMethod mirrors kernels/ms-k-multi.h");
_Static_assert ((int) MS_PORTABLE_PER_DEVICE == MS_K_PORTABLE_PER_DEVICE &&
                  (int) MS_PORTABLE_SHARED == MS_K_PORTABLE_SHARED &&
                  (int) MS_PORTABLE_FOREIGN == MS_K_PORTABLE_FOREIGN,
                "MsPortableCase mirrors kernels/ms-k-multi.h");
#endif

static bool
check_devices (const int *devices, int n_devices, int at_least, char *err, size_t errlen)
{
  if (n_devices < at_least || n_devices > MS_MULTI_MAX_DEVICES) {
    snprintf (err, errlen, ms_gettext ("needs %d to %d devices, got %d"), at_least,
              MS_MULTI_MAX_DEVICES, n_devices);
    return false;
  }
#ifndef MS_HAVE_CUDA
  (void) devices;
  snprintf (err, errlen, ms_gettext ("built without CUDA"));
  return false;
#else
  MsDeviceInfo info;
  MsBackend *backend = ms_backend_new_system ();
  bool ok = ms_backend_query_device (backend, devices[0], &info);
  ms_backend_free (backend);
  if (!ok)
    snprintf (err, errlen, ms_gettext ("no usable CUDA device: %.200s"), info.error);
  return ok;
#endif
}

#ifdef MS_HAVE_CUDA
/* Every method for one ordered pair; the access-off copy first, so that the
 * others find peer access enabled. */
static void
peer_pair (MsPeerResults *r, int i, int j, int reps)
{
  int src = r->devices[i], dst = r->devices[j];
  static const MsPeerMethod order[] = { MS_PEER_COPY_DISABLED, MS_PEER_STAGED,
                                        MS_PEER_COPY_ENABLED, MS_PEER_KERNEL_READ };
  for (size_t k = 0; k < sizeof order / sizeof *order; k++) {
    MsPeerMethod m = order[k];
    MsPeerCell *c = &r->cell[m][i][j];
    bool needs_access = m == MS_PEER_COPY_ENABLED || m == MS_PEER_KERNEL_READ;
    if (needs_access && !(r->can_access[i][j] && r->can_access[j][i])) {
      snprintf (c->note, sizeof c->note,
                ms_gettext ("peer access not possible between %d and %d"), src, dst);
      continue;
    }
    c->uni_gbps = ms_k_peer_gbps (m, src, dst, r->bytes, 0, reps, c->note, sizeof c->note);
    if (c->uni_gbps > 0)
      c->bi_gbps = ms_k_peer_gbps (m, src, dst, r->bytes, 1, reps, c->note, sizeof c->note);
    c->ok = c->uni_gbps > 0 && c->bi_gbps > 0;
  }
  if (r->can_access[i][j] && r->can_access[j][i])
    r->reference_gbps[i][j] = ms_k_peer_reference_gbps (src, dst, r->bytes, reps, r->error,
                                                        sizeof r->error);
}
#endif

bool
ms_peer_run (const int *devices, int n_devices, uint64_t bytes, int reps,
             MsPeerResults *results)
{
  memset (results, 0, sizeof *results);
  results->n_devices = n_devices;
  results->bytes = bytes;
  if (!check_devices (devices, n_devices, 2, results->error, sizeof results->error))
    return false;
#ifdef MS_HAVE_CUDA
  memcpy (results->devices, devices, n_devices * sizeof *devices);
  char bus[MS_MULTI_MAX_DEVICES][32];
  MsBackend *backend = ms_backend_new_system ();
  for (int i = 0; i < n_devices; i++) {
    MsDeviceInfo info = { 0 };
    ms_backend_query_device (backend, devices[i], &info);
    snprintf (bus[i], sizeof bus[i], "%s", info.pci_bus_id);
  }
  ms_backend_free (backend);
  ms_topology_query (&results->topo, bus, n_devices);
  for (int i = 0; i < n_devices; i++)
    for (int j = 0; j < n_devices; j++)
      results->can_access[i][j] =
        i != j && ms_k_peer_can_access (devices[i], devices[j], results->error,
                                        sizeof results->error) == 1;
  for (int i = 0; i < n_devices; i++)
    for (int j = 0; j < n_devices; j++)
      if (i != j)
        peer_pair (results, i, j, reps);
  return true;
#else
  return false;
#endif
}

bool
ms_portable_run (const int *devices, int n_devices, uint64_t bytes, int reps,
                 MsPortableResults *results)
{
  memset (results, 0, sizeof *results);
  results->n_devices = n_devices;
  results->bytes = bytes;
  if (!check_devices (devices, n_devices, 1, results->error, sizeof results->error))
    return false;
#ifdef MS_HAVE_CUDA
  memcpy (results->devices, devices, n_devices * sizeof *devices);
  for (int k = 0; k < MS_PORTABLE_COUNT; k++) {
    for (int i = 0; i < n_devices; i++) {
      MsPortableCell *c = &results->cell[k][i];
      int pinned = 0;
      c->ok = ms_k_portable_gbps (k, devices[0], devices[i], bytes, reps, &c->h2d_gbps,
                                  &c->d2h_gbps, &pinned, c->note, sizeof c->note) != 0;
      c->pinned_path = pinned != 0;
    }
  }
  return true;
#else
  return false;
#endif
}
