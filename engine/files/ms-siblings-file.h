/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-siblings-file.h: `memsweep siblings --format json` read back
 * (schema memsweep-siblings, versions 1 and 2), so that the app can say a
 * host's sibling check without the command line. Only what a reader shows:
 * the result, how it was run and, per GPU, whether it differs and each
 * mode's verdict and ratio. Plain C, no GLib. */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "ms-verdict.h"

#define MS_SIBLINGS_MAX_GPUS 16
#define MS_SIBLINGS_MAX_MODES 16

typedef struct {
  char mode[32];
  MsVerdict verdict; /* MS_VERDICT_COUNT: version 1 wrote none, differs is all it said */
  bool differs;
  double ratio; /* NAN where not measured */
} MsSiblingMode;

typedef struct {
  int index;
  char bus_id[32];
  bool differs;
  int n_modes;
  MsSiblingMode modes[MS_SIBLINGS_MAX_MODES];
} MsSiblingGpu;

typedef struct {
  int version;
  MsSiblingsResult result;
  double threshold_pct;
  int processes_per_gpu;
  double seconds;
  int modes_undecided; /* v2's gpu_modes_undecided; v1: the ambiguous pairs */
  int n_gpus;
  MsSiblingGpu gpus[MS_SIBLINGS_MAX_GPUS];
  int gpus_dropped;  /* the file's GPUs past MS_SIBLINGS_MAX_GPUS */
  int modes_dropped; /* its modes past MS_SIBLINGS_MAX_MODES, all GPUs together */
} MsSiblingsFile;

/* Parses a siblings document (text, NUL-terminated); false with why in
 * err, translated, where a number lies outside what a check can hold. */
bool ms_siblings_file_parse (const char *text, MsSiblingsFile *file, char *err, size_t errlen);

/* Reads path (ms_small_file_read); false with "path: why". */
bool ms_siblings_file_read (const char *path, MsSiblingsFile *file, char *err, size_t errlen);
