/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-peer-file.h: the peer copy matrix as a file (PREFIX-peer.csv), so that
 * a matrix measured on a GPU server can be looked at later in the app.
 *
 * The metadata, in PREFIX-peer-meta.json beside it (ms-meta-sidecar.h;
 * '# key: value' lines at the top in files written before), holds the run
 * (version, date, host, copy size, repetitions) and the facts the diagram
 * needs: each GPU (slot i of the `devices` list: its CUDA index, name, bus
 * id, serial, PCIe link, compute capability) and each ordered pair
 * (NVLinks, PCIe path, peer access). The file is a plain table of the
 * matrices, one row per method, direction and pair:
 *
 *   method,direction,src,dst,gbps,note
 *   copy-access-on,uni,0,1,380.500,
 *   staged,bi,1,0,,out of memory
 *
 * src and dst are CUDA device indices; gbps is empty where the pair could
 * not be measured, with the reason in note. "reference" (the plain loop) is
 * a method of its own, unidirectional only. Plain C, no GLib. */
#pragma once

#include "model/ms-multi-results.h"
#include "ms-small-file.h"

/* Its table; its writer and reader are ms-small-file.h's for it. */
extern const MsSmallFormat ms_peer_file_format;

typedef struct {
  MsPeerResults peer;
  MS_SMALL_RUN_FIELDS;
} MsPeerFile;

/* Fills file from a finished run: the date and host of now. info holds
 * results->n_devices entries, in slot order. */
void ms_peer_file_init (MsPeerFile *file, const MsPeerResults *results,
                        const MsDeviceInfo *info, int reps);

MS_SMALL_FILE_WRITER (MsPeerFile, peer)
MS_SMALL_FILE_READER (MsPeerFile, peer)

/* The value a matrix shows for (slot i, slot j); method
 * MS_PEER_METHOD_COUNT means the reference loop. -1 where there is none
 * (the diagonal, a failed pair, the reference's bidirectional). */
double ms_peer_file_value (const MsPeerResults *results, int method, bool bidirectional, int i,
                           int j);

/* The link's nominal rate per direction between slots i and j: NVLinks x
 * the per-link rate (25 GB/s up to Hopper, 50 from Blackwell), else the
 * slower of the two PCIe links; what says which (translated). */
double ms_peer_nominal_gbps (const MsPeerResults *results, const MsDeviceInfo *info, int i,
                             int j, char *what, size_t len);
