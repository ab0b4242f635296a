/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-k-stats.h: the median the probes and the multi-GPU measurements
 * report of their samples (ms-k-stats.cu). Internal to kernels/. */
#pragma once

/* Median of n values; sorts them in place. */
double k_median (double *values, int n);
