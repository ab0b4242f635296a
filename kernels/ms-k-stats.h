/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-k-stats.h: what the probes and the measurements outside a cell
 * (multi-GPU, reference copies) share: the median they report of their
 * samples (ms-k-stats.cu) and failing on a CUDA error. Internal to
 * kernels/. */
#pragma once

#include <stdio.h>

/* Median of n values; sorts them in place. */
double k_median (double *values, int n);

/* call's error into err (errlen bytes), then to the function's out: label,
 * which frees what was made. */
#define K_TRY(call)                                                           \
  do {                                                                        \
    cudaError_t e_ = (call);                                                  \
    if (e_ != cudaSuccess) {                                                  \
      snprintf (err, errlen, "%s: %s (%s)", #call, cudaGetErrorString (e_),   \
                cudaGetErrorName (e_));                                       \
      goto out;                                                               \
    }                                                                         \
  } while (0)
