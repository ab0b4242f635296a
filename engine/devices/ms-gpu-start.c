/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-gpu-start.c: start only the GPU a command uses (ms-gpu-start.h).
 * CUDA_VISIBLE_DEVICES takes CUDA's own indices, in the order CUDA would
 * number the GPUs without it (CUDA_DEVICE_ORDER included), so the index
 * given with --device names the same GPU narrowed as not; nothing else is
 * asked before CUDA starts (an NVML start of its own cost 0.06 s on a 4x
 * H200 host). The narrowing is written to the environment too
 * (MEMSWEEP_NARROWED), so that the processes a command starts, which
 * inherit the narrowed CUDA_VISIBLE_DEVICES, still find the device they
 * are given. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ms-gpu-start.h"

#define NARROWED_ENV "MEMSWEEP_NARROWED" /* "INDEX COUNT", COUNT 0: unknown */

static int narrowed_index = -1, count_before = -1;

/* A process started by a narrowed one: the same narrowing. */
static bool
inherited (void)
{
  const char *v = getenv (NARROWED_ENV);
  int index, count;
  if (!v || sscanf (v, "%d %d", &index, &count) != 2 || index < 0 || count < 0)
    return false;
  narrowed_index = index;
  count_before = count > 0 ? count : -1;
  return true;
}

static bool
narrow (int index, int count, const char *visible)
{
  char mark[32];
  snprintf (mark, sizeof mark, "%d %d", index, count > 0 ? count : 0);
  if (setenv ("CUDA_VISIBLE_DEVICES", visible, 1) != 0 || setenv (NARROWED_ENV, mark, 1) != 0)
    return false;
  narrowed_index = index;
  count_before = count > 0 ? count : -1;
  return true;
}

/* The index-th entry of a list the user set, as CUDA reads it. */
static bool
narrow_list (int index, const char *list, char *why, size_t len)
{
  char copy[1024], *save = NULL;
  snprintf (copy, sizeof copy, "%s", list);
  int n = 0;
  char *chosen = NULL;
  for (char *tok = strtok_r (copy, ",", &save); tok; tok = strtok_r (NULL, ",", &save), n++)
    if (n == index)
      chosen = tok;
  if (!chosen) {
    snprintf (why, len, "CUDA_VISIBLE_DEVICES has no entry %d", index);
    return false;
  }
  char keep[256];
  snprintf (keep, sizeof keep, "%s", chosen);
  return narrow (index, n, keep);
}

bool
ms_gpu_start_only (int index, char *why, size_t len)
{
  const char *all = getenv ("MEMSWEEP_ALL_GPUS");
  snprintf (why, len, "%s", "");
  if (inherited ())
    return true;
  if (index < 0) {
    snprintf (why, len, "no device index");
    return false;
  }
  if (all && strcmp (all, "1") == 0) {
    snprintf (why, len, "MEMSWEEP_ALL_GPUS=1");
    return false;
  }
  const char *list = getenv ("CUDA_VISIBLE_DEVICES");
  if (list)
    return narrow_list (index, list, why, len);
  char visible[16];
  snprintf (visible, sizeof visible, "%d", index);
  return narrow (index, 0, visible);
}

bool
ms_gpu_narrowed (void)
{
  return narrowed_index >= 0;
}

int
ms_gpu_cuda_index (int index)
{
  if (narrowed_index < 0)
    return index;
  return index == narrowed_index ? 0 : -1;
}

int
ms_gpu_count_before (void)
{
  return count_before;
}
