/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench-fixture.h: what the GPU benchmarks set up alike: the device to
 * measure on, and a sweep of one cell. */
#pragma once

#include <stdio.h>
#include <string.h>

#include "memsweep.h"
#include "ms-sweep.h"
#include "run/ms-backend.h"

/* The default sweep narrowed to mode at 2^exp, with reps repetitions
 * under MS_REPS_FIXED where reps > 0 (else the default rule). */
static inline void
bench_one_cell_sweep (MsSweep *sweep, MsMode mode, int exp, int reps)
{
  ms_sweep_init_default (sweep);
  memset (sweep->modes, 0, sizeof sweep->modes);
  sweep->modes[mode] = true;
  sweep->min_exp = sweep->max_exp = exp;
  if (reps > 0) {
    sweep->reps = reps;
    sweep->reps_rule = MS_REPS_FIXED;
  }
}

/* The system backend with GPU 0 read into info; NULL, with the SKIP line
 * on out, where there is none to measure. */
static inline MsBackend *
bench_open_device (MsDeviceInfo *info, FILE *out)
{
  MsBackend *backend = ms_backend_new_system ();
  if (ms_backend_query_device (backend, 0, info))
    return backend;
  fprintf (out, "SKIP: no usable CUDA device: %s\n", info->error);
  ms_backend_free (backend);
  return NULL;
}
