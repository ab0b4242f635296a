/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-gpu-start.h: start only the GPU a command uses (ms-gpu-start.c).
 *
 * CUDA's first call opens every GPU the process can see; on a 4-GPU host
 * that made `memsweep info` take 0.92 s against 0.31-0.37 s on one-GPU
 * hosts (PITFALLS 40). A command that uses one GPU narrows what the
 * process sees to that GPU, through CUDA_VISIBLE_DEVICES, before CUDA
 * starts; the user's device index stays what every file and view shows,
 * and ms_gpu_cuda_index gives the process's own. MEMSWEEP_ALL_GPUS=1
 * turns it off. Plain C, no GLib. */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Call before anything starts CUDA. Narrows the process to device index
 * (CUDA's numbering, as --device gives it) where that is certain to be the
 * same GPU: the index-th entry of a CUDA_VISIBLE_DEVICES already set, or
 * NVML's index-th GPU by UUID when every GPU is the same model (CUDA then
 * numbers them in PCI order, as NVML does) and none is in MIG mode. False,
 * with why filled, where it leaves the process as it was. */
bool ms_gpu_start_only (int index, char *why, size_t len);

/* The CUDA index in this process of the user's device index. */
int ms_gpu_cuda_index (int index);

/* How many GPUs the process saw before it was narrowed; -1 when it was
 * not. */
int ms_gpu_count_before (void);

#ifdef __cplusplus
}
#endif
