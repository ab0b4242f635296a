/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-host-link-file.h: `memsweep host-link` as a file
 * (PREFIX-host-link.csv), so that a run measured on a host with several
 * GPUs can be shown where there are none: the host-link lesson's slide
 * draws from it.
 *
 * The metadata, in PREFIX-host-link-meta.json beside it
 * (ms-meta-sidecar.h), holds the run (version, date, host, samples a
 * cell as reps, a note where the figures were not measured by this
 * writer) and each GPU (slot i of the `devices` list: its CUDA index,
 * name, bus id, PCIe link, compute capability). The file is a plain
 * table, per size and direction one row per GPU, slot order, then the
 * total:
 *
 *   direction,exponent,bytes,gpu,gbps,alone_gbps,ratio,share
 *   h2d,26,268435456,0,38.800,55.400,0.700,0.249
 *   h2d,26,268435456,all,155.900,221.200,0.705,1.000
 *
 * direction: h2d, d2h or both (both ways at once, both counted); a copy
 * of 2^exponent floats, bytes; gpu: the CUDA index, or all for the
 * total; gbps: the GPU's rate while every GPU copies (all: their sum);
 * alone_gbps: its rate copying alone (all: the sum of each alone); ratio:
 * gbps / alone_gbps; share: gbps / the total (all: 1). Rates are empty
 * where a copy failed; ratio and share are derived, and checked when
 * read. Plain C, no GLib. */
#pragma once

#include "model/ms-multi-results.h"
#include "ms-small-file.h"

/* Its table; its writer and reader are ms-small-file.h's for it. */
extern const MsSmallFormat ms_host_link_file_format;

typedef struct {
  MsHostLinkResults link;
  uint64_t bytes; /* 0: each row names its copy's size */
  /* Where the figures come from when this writer did not measure them
   * ("converted from ..."), else empty: the sidecar's note. */
  char note[256];
  MS_SMALL_RUN_FIELDS;
} MsHostLinkFile;

/* Fills file from a finished run: the date and host of now. info holds
 * results->n_devices entries, in slot order; samples: a cell's. */
void ms_host_link_file_init (MsHostLinkFile *file, const MsHostLinkResults *results,
                             const MsDeviceInfo *info, int samples);

bool ms_host_link_file_write (const MsHostLinkFile *file, const char *path, char *err,
                              size_t errlen);
MS_SMALL_FILE_READER (MsHostLinkFile, host_link)
