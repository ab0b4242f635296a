/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-multi.h: beyond one GPU.
 *
 * - A sweep on several devices at once: one host thread per device, every
 *   cell starts on all of them together (a barrier), per-device results and
 *   aggregate figures (ms-multi.c).
 * - Portable pinned memory and peer-to-peer copies as experiments with their
 *   own small result types (ms-peer.c, kernels/ms-multi.cu).
 * Their result types are the model's (ms-multi-results.h); the topology
 * is the devices' (ms-topo.h).
 *
 * Plain C like the rest of the engine.
 */
#pragma once

#include "memsweep.h"
#include "model/ms-multi-results.h"

/* ---- every GPU at once ------------------------------------------------ */

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
/* Parses "0,1,3" or "all" (count devices visible) into devices; false with
 * a message. */
bool ms_multi_parse_devices (const char *list, int count, int *devices, int *n_devices,
                             char *err, size_t errlen);

/* ---- portable pinned memory and peer copies --------------------------- */

/* Runs the three cases on devices with copies of bytes. false with
 * results->error when the experiment could not run at all. */
bool ms_portable_run (const int *devices, int n_devices, uint64_t bytes, int reps,
                      MsPortableResults *results);

/* Fills the peer matrix for devices with copies of bytes. The results are
 * large: allocate them on the heap. false with results->error when the
 * experiment could not run (fewer than 2 devices, no CUDA). */
bool ms_peer_run (const int *devices, int n_devices, uint64_t bytes, int reps,
                  MsPeerResults *results);
