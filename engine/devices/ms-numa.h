/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-numa.h: the host's NUMA nodes as sysfs describes them (no libnuma):
 * each node's CPUs, the node of a PCI device, and binding the calling
 * thread and its memory to nodes with sched_setaffinity and set_mempolicy.
 * The sysfs root is a parameter, so that tests read a fake tree. Private
 * to the engine and its tests. */
#pragma once

/* Needs _GNU_SOURCE before the first system header (cpu_set_t). */
#include <sched.h>
#include <stdbool.h>
#include <stddef.h>

#define MS_NUMA_MAX_NODES 64

typedef struct {
  int id;         /* N of nodeN */
  cpu_set_t cpus; /* its cpulist */
} MsNumaNode;

typedef struct {
  int n; /* nodes found, in increasing id */
  MsNumaNode nodes[MS_NUMA_MAX_NODES];
} MsNumaTopology;

/* "0-3,8,10-11" into set; false on anything else. */
bool ms_numa_parse_cpulist (const char *text, cpu_set_t *set);
/* The nodes under root (a sysfs root: "/sys"), from
 * root/devices/system/node/node*\/cpulist; n = 0 when there is no such
 * directory (a kernel without NUMA: one node in effect). */
void ms_numa_read (const char *root, MsNumaTopology *topo);
/* The node of PCI device bus_id ("0000:1B:00.0", any case and domain
 * width) from root/bus/pci/devices/ID/numa_node, or -1 when unknown. */
int ms_numa_device_node (const char *root, const char *bus_id);
/* The node with this id, or NULL. */
const MsNumaNode *ms_numa_find (const MsNumaTopology *topo, int id);

/* The sysfs root the lessons read: "/sys" unless a test set another
 * (NULL: back to "/sys"). With another root the topology is not this
 * host's, and ms_numa_bind binds nothing. */
const char *ms_numa_root (void);
void ms_numa_set_root (const char *root);
bool ms_numa_root_is_host (void);

/* Runs the calling thread on the CPUs of node thread_node (those this
 * process may use) and takes its new memory from node buffer_node only;
 * saved receives the old CPU mask. False with the reason. */
bool ms_numa_bind (const MsNumaTopology *topo, int thread_node, int buffer_node, cpu_set_t *saved,
                   char *why, size_t len);
/* Back to the saved CPUs and the default memory policy. */
void ms_numa_unbind (const cpu_set_t *saved);
