/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-numa.c: NUMA nodes from sysfs, and binding the calling thread and its
 * memory to them with the raw system calls (ms-numa.h). */
#define _GNU_SOURCE
#include "ms-numa.h"

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ms-i18n.h"

/* The kernel's policy numbers (numaif.h is libnuma's). */
#define MPOL_DEFAULT_ 0
#define MPOL_BIND_ 2

static char root_override[512];

const char *
ms_numa_root (void)
{
  return root_override[0] ? root_override : "/sys";
}

void
ms_numa_set_root (const char *root)
{
  snprintf (root_override, sizeof root_override, "%s", root ? root : "");
}

bool
ms_numa_root_is_host (void)
{
  return strcmp (ms_numa_root (), "/sys") == 0;
}

bool
ms_numa_parse_cpulist (const char *text, cpu_set_t *set)
{
  CPU_ZERO (set);
  const char *p = text;
  while (*p && *p != '\n') {
    char *end;
    if (!isdigit ((unsigned char)*p))
      return false;
    long lo = strtol (p, &end, 10), hi = lo;
    p = end;
    if (*p == '-') {
      if (!isdigit ((unsigned char)p[1]))
        return false;
      hi = strtol (p + 1, &end, 10);
      p = end;
    }
    if (lo < 0 || hi < lo || hi >= CPU_SETSIZE)
      return false;
    for (long c = lo; c <= hi; c++)
      CPU_SET ((int)c, set);
    if (*p == ',')
      p++;
    else if (*p && *p != '\n')
      return false;
  }
  return true;
}

/* The first line of a small file, or false. */
static bool
read_line (const char *path, char *buf, size_t len)
{
  FILE *f = fopen (path, "re");
  if (!f)
    return false;
  bool ok = fgets (buf, (int)len, f) != NULL;
  fclose (f);
  return ok;
}

static int
by_id (const void *a, const void *b)
{
  return ((const MsNumaNode *)a)->id - ((const MsNumaNode *)b)->id;
}

void
ms_numa_read (const char *root, MsNumaTopology *topo)
{
  char path[1024], line[4096];
  topo->n = 0;
  snprintf (path, sizeof path, "%s/devices/system/node", root);
  DIR *d = opendir (path);
  if (!d)
    return;
  struct dirent *e;
  while ((e = readdir (d)) && topo->n < MS_NUMA_MAX_NODES) {
    int id;
    char tail;
    if (sscanf (e->d_name, "node%d%c", &id, &tail) != 1 || id < 0)
      continue;
    MsNumaNode *n = &topo->nodes[topo->n];
    n->id = id;
    snprintf (path, sizeof path, "%s/devices/system/node/%s/cpulist", root, e->d_name);
    /* A node without CPUs (memory only) has an empty list. */
    if (!read_line (path, line, sizeof line))
      line[0] = '\0';
    if (!ms_numa_parse_cpulist (line, &n->cpus))
      CPU_ZERO (&n->cpus);
    topo->n++;
  }
  closedir (d);
  qsort (topo->nodes, (size_t)topo->n, sizeof topo->nodes[0], by_id);
}

int
ms_numa_device_node (const char *root, const char *bus_id)
{
  unsigned dom, bus, dev, fn;
  char path[1024], line[64];
  if (!bus_id || sscanf (bus_id, "%x:%x:%x.%x", &dom, &bus, &dev, &fn) != 4)
    return -1;
  snprintf (path, sizeof path, "%s/bus/pci/devices/%04x:%02x:%02x.%x/numa_node", root, dom & 0xffff,
            bus, dev, fn);
  int node = -1;
  if (!read_line (path, line, sizeof line) || sscanf (line, "%d", &node) != 1)
    return -1;
  return node >= 0 ? node : -1;
}

const MsNumaNode *
ms_numa_find (const MsNumaTopology *topo, int id)
{
  for (int i = 0; i < topo->n; i++)
    if (topo->nodes[i].id == id)
      return &topo->nodes[i];
  return NULL;
}

bool
ms_numa_bind (const MsNumaTopology *topo, int thread_node, int buffer_node, cpu_set_t *saved,
              char *why, size_t len)
{
  const MsNumaNode *t = ms_numa_find (topo, thread_node);
  /* The memory mask below holds nodes 0..MS_NUMA_MAX_NODES - 1. */
  if (!t || !ms_numa_find (topo, buffer_node) || buffer_node >= MS_NUMA_MAX_NODES) {
    snprintf (why, len, ms_gettext ("this host has no NUMA node %d"),
              t ? buffer_node : thread_node);
    return false;
  }
  if (sched_getaffinity (0, sizeof *saved, saved) != 0) {
    snprintf (why, len, ms_gettext ("the thread's CPUs cannot be read"));
    return false;
  }
  cpu_set_t cpus;
  CPU_AND (&cpus, &t->cpus, saved);
  if (CPU_COUNT (&cpus) == 0) {
    snprintf (why, len, ms_gettext ("this process may use no CPU of NUMA node %d"), thread_node);
    return false;
  }
  unsigned long mask[MS_NUMA_MAX_NODES / (8 * sizeof (unsigned long))] = { 0 };
  const unsigned long bits = 8 * sizeof mask[0];
  mask[buffer_node / bits] = 1ul << (buffer_node % bits);
  if (sched_setaffinity (0, sizeof cpus, &cpus) != 0) {
    snprintf (why, len, ms_gettext ("the thread cannot be moved to NUMA node %d"), thread_node);
    return false;
  }
  if (syscall (SYS_set_mempolicy, MPOL_BIND_, mask, MS_NUMA_MAX_NODES + 1) != 0) {
    sched_setaffinity (0, sizeof *saved, saved);
    snprintf (why, len, ms_gettext ("memory cannot be bound to NUMA node %d"), buffer_node);
    return false;
  }
  return true;
}

void
ms_numa_unbind (const cpu_set_t *saved)
{
  syscall (SYS_set_mempolicy, MPOL_DEFAULT_, NULL, 0);
  sched_setaffinity (0, sizeof *saved, saved);
}
