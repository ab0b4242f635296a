/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-gpu-start.c: start only the GPU a command uses (ms-gpu-start.h). The
 * narrowing is written to the environment too (MEMSWEEP_NARROWED), so
 * that the processes a command starts, which inherit the narrowed
 * CUDA_VISIBLE_DEVICES, still find the device they are given. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ms-gpu-start.h"

#define NARROWED_ENV "MEMSWEEP_NARROWED" /* "INDEX COUNT" */

static int narrowed_index = -1, count_before = -1;

/* A process started by a narrowed one: the same narrowing. */
static bool
inherited (void)
{
  const char *v = getenv (NARROWED_ENV);
  int index, count;
  if (!v || sscanf (v, "%d %d", &index, &count) != 2 || index < 0 || count < 1)
    return false;
  narrowed_index = index;
  count_before = count;
  return true;
}

static bool
narrow (int index, int count, const char *visible)
{
  char mark[32];
  snprintf (mark, sizeof mark, "%d %d", index, count);
  if (setenv ("CUDA_VISIBLE_DEVICES", visible, 1) != 0 || setenv (NARROWED_ENV, mark, 1) != 0)
    return false;
  narrowed_index = index;
  count_before = count;
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

typedef struct {
  void *lib;
  int (*init) (void);
  int (*shutdown) (void);
  int (*count) (unsigned int *);
  int (*by_index) (unsigned int, void **);
  int (*name) (void *, char *, unsigned int);
  int (*uuid) (void *, char *, unsigned int);
  int (*mig) (void *, unsigned int *, unsigned int *);
} Nvml;

static bool
nvml_open (Nvml *n)
{
  memset (n, 0, sizeof *n);
  n->lib = dlopen ("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!n->lib)
    return false;
  *(void **) &n->init = dlsym (n->lib, "nvmlInit_v2");
  *(void **) &n->shutdown = dlsym (n->lib, "nvmlShutdown");
  *(void **) &n->count = dlsym (n->lib, "nvmlDeviceGetCount_v2");
  *(void **) &n->by_index = dlsym (n->lib, "nvmlDeviceGetHandleByIndex_v2");
  *(void **) &n->name = dlsym (n->lib, "nvmlDeviceGetName");
  *(void **) &n->uuid = dlsym (n->lib, "nvmlDeviceGetUUID");
  *(void **) &n->mig = dlsym (n->lib, "nvmlDeviceGetMigMode");
  if (n->init && n->shutdown && n->count && n->by_index && n->name && n->uuid && n->init () == 0)
    return true;
  dlclose (n->lib);
  return false;
}

/* The UUID of NVML's GPU index, when every GPU is of one model and none
 * is in MIG mode: then CUDA's order (fastest first, ties by PCI address)
 * and NVML's (PCI address) are one. */
static bool
uuid_of (Nvml *n, int index, char *uuid, size_t len, int *count, char *why, size_t whylen)
{
  unsigned int c = 0;
  char first[96] = "", name[96];
  if (n->count (&c) != 0 || index >= (int) c) {
    snprintf (why, whylen, "NVML counts %u GPUs", c);
    return false;
  }
  *count = (int) c;
  for (unsigned int i = 0; i < c; i++) {
    void *dev = NULL;
    unsigned int cur = 0, pending = 0;
    if (n->by_index (i, &dev) != 0 || n->name (dev, name, sizeof name) != 0)
      return snprintf (why, whylen, "NVML cannot name GPU %u", i), false;
    if (i == 0)
      snprintf (first, sizeof first, "%s", name);
    if (strcmp (name, first) != 0)
      return snprintf (why, whylen, "the GPUs are of different models"), false;
    if (n->mig && n->mig (dev, &cur, &pending) == 0 && cur)
      return snprintf (why, whylen, "GPU %u is in MIG mode", i), false;
    if ((int) i == index && n->uuid (dev, uuid, (unsigned int) len) != 0)
      return snprintf (why, whylen, "NVML has no UUID for GPU %u", i), false;
  }
  return true;
}

static bool
narrow_by_uuid (int index, char *why, size_t len)
{
  Nvml n;
  if (!nvml_open (&n)) {
    snprintf (why, len, "NVML is not available");
    return false;
  }
  char uuid[96] = "";
  int count = 0;
  bool ok = uuid_of (&n, index, uuid, sizeof uuid, &count, why, len);
  n.shutdown ();
  dlclose (n.lib);
  if (ok && count < 2) {
    snprintf (why, len, "one GPU: nothing to narrow");
    return false;
  }
  return ok && narrow (index, count, uuid);
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
  return narrow_by_uuid (index, why, len);
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
