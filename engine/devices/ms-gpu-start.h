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

/* Call before anything starts CUDA. Narrows the process to device index
 * (CUDA's numbering, as --device gives it): the index-th entry of a
 * CUDA_VISIBLE_DEVICES already set, else CUDA's index itself. False, with
 * why filled, where it leaves the process as it was (MEMSWEEP_ALL_GPUS=1,
 * an index past the list). */
bool ms_gpu_start_only (int index, char *why, size_t len);

/* Whether this process was narrowed (here or by its parent). */
bool ms_gpu_narrowed (void);

/* The CUDA index in this process of the user's device index. */
int ms_gpu_cuda_index (int index);

/* How many GPUs the process saw before it was narrowed, where a list set
 * by the user says; -1 when it was not narrowed or the count is unknown
 * (then NVML's count is the host's: ms_nvml_query). */
int ms_gpu_count_before (void);
