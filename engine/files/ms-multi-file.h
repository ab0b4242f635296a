/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-multi-file.h: what a sweep on several GPUs at once adds to each GPU's
 * samples file (PREFIX-gpuN-samples.csv): PREFIX-multi.csv with the
 * devices, the name of each one's samples file, and the aggregate of every
 * (mode, size): how many GPUs had an OK cell, the sums of their h2d, d2h
 * and end-to-end GB/s, and the slowest one's h2d and d2h. The devices, the
 * date and host are in PREFIX-multi-meta.json beside it (ms-meta-sidecar.h;
 * '# key: value' lines at the top in files written before); the file is a
 * plain table:
 *
 *   mode,exponent,bytes,gpus_ok,h2d_sum_gbps,d2h_sum_gbps,e2e_sum_gbps,
 *   h2d_slowest_gbps,d2h_slowest_gbps
 *
 * Plain C, no GLib. */
#pragma once

#include "model/ms-multi-results.h"
#include "ms-small-file.h"

/* Its table; its writer and reader are ms-small-file.h's for it. */
extern const MsSmallFormat ms_multi_file_format;

#define MS_MULTI_FILE_MAX_ROWS (MS_MODE_COUNT * (MS_MAX_EXPONENT + 1))

typedef struct {
  MsMode mode;
  int exponent;
  MsMultiAggregate agg;
} MsMultiFileRow;

typedef struct {
  int n_devices;
  int devices[MS_MULTI_MAX_DEVICES];
  char name[MS_MULTI_MAX_DEVICES][256];
  char samples[MS_MULTI_MAX_DEVICES][256]; /* file names beside this file */
  char date[40];
  char host[64];
  char version[32];
  /* Empty, or why the metadata is unknown (the sidecar missing, damaged or
   * another file's): then the GPUs are those whose samples files lie
   * beside this one, without names. */
  char meta_unknown[512];
  int n_rows;
  MsMultiFileRow rows[MS_MULTI_FILE_MAX_ROWS];
} MsMultiFile;

/* Fills file from results (the sweep's modes and sizes) with prefix's base
 * name for the samples files. */
void ms_multi_file_init (MsMultiFile *file, const MsMultiResults *results, const char *prefix);
MS_SMALL_FILE_WRITER (MsMultiFile, multi)
MS_SMALL_FILE_READER (MsMultiFile, multi)
