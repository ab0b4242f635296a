/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-portable-file.h: the portable pinned memory experiment as a file
 * (PREFIX-portable.csv), so that a run measured on a host with two or more
 * GPUs can be shown later, where there are none: the portable lesson's
 * slide draws from it.
 *
 * The metadata, in PREFIX-portable-meta.json beside it
 * (ms-meta-sidecar.h), holds the run (version, date, host, copy size,
 * repetitions) and each GPU (slot i of the `devices` list: its CUDA index,
 * name, bus id, PCIe link, compute capability). The file is a plain table,
 * one row per buffer and GPU, slot order within each buffer:
 *
 *   buffer,gpu,h2d_gbps,d2h_gbps,pinned,note
 *   per-gpu,0,53.104,52.870,1,seen from device 0 as pinned host memory
 *   portable,1,53.011,52.911,1,seen from device 1 as pinned host memory
 *   foreign,1,,,0,out of memory
 *
 * buffer: per-gpu (one cudaMallocHost buffer made on each GPU), portable
 * (one cudaHostAllocPortable buffer for all), foreign (cudaMallocHost on
 * the first GPU, used from the others); gpu is the CUDA index copying;
 * the rates are empty where the copy failed, note then saying why; pinned
 * is 1 where the runtime saw the buffer as pinned for that GPU. Plain C,
 * no GLib. */
#pragma once

#include "model/ms-multi-results.h"
#include "ms-small-file.h"

/* Its table; its writer and reader are ms-small-file.h's for it. */
extern const MsSmallFormat ms_portable_file_format;

typedef struct {
  MsPortableResults portable;
  MS_SMALL_RUN_FIELDS;
} MsPortableFile;

/* Fills file from a finished run: the date and host of now. info holds
 * results->n_devices entries, in slot order. */
void ms_portable_file_init (MsPortableFile *file, const MsPortableResults *results,
                            const MsDeviceInfo *info, int reps);

MS_SMALL_FILE_WRITER (MsPortableFile, portable)
MS_SMALL_FILE_READER (MsPortableFile, portable)

/* The GPU of slot i in a few words ("H100 80GB HBM3", "GPU 1" where the
 * name is unknown), without the vendor's prefix. */
void ms_portable_file_gpu_name (const MsPortableFile *file, int i, char *out, size_t len);
