/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-host-mem.c: malloc'd host buffers, with transparent huge pages on
 * request (an experiment on the run-to-run spread: whether 4 KiB pages,
 * placed differently in every process, make copies from pageable memory
 * vary between runs). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "ms-host-mem.h"

#define MS_HUGE_PAGE (2u << 20)

void *
ms_host_alloc (size_t bytes, int hugepages)
{
  if (!hugepages || bytes < MS_HUGE_PAGE)
    return malloc (bytes);
  size_t rounded = (bytes + MS_HUGE_PAGE - 1) / MS_HUGE_PAGE * MS_HUGE_PAGE;
  void *p = NULL;
  if (posix_memalign (&p, MS_HUGE_PAGE, rounded) != 0)
    return NULL;
#ifdef MADV_HUGEPAGE
  /* Advice only: where THP is off the buffer is an ordinary one. */
  madvise (p, rounded, MADV_HUGEPAGE);
#endif
  return p;
}

unsigned long long
ms_host_meminfo (const char *key)
{
  FILE *f = fopen ("/proc/meminfo", "r");
  char line[256];
  unsigned long long kib = 0;
  size_t len = strlen (key);
  while (f && fgets (line, sizeof line, f))
    if (strncmp (line, key, len) == 0 && sscanf (line + len, " %llu kB", &kib) == 1)
      break;
  if (f)
    fclose (f);
  return kib * 1024;
}
