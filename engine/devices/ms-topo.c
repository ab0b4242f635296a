/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-topo.c: how the GPUs of a host are joined, read from NVML's facts
 * (ms-topo-nvml.c) as `nvidia-smi topo -m` reads them. A link is not
 * counted by matching its far end's PCI address to a GPU's: behind
 * NVSwitch the far end is a switch, and in a virtual machine it is the
 * host's address, which matches none of the guest's (PITFALLS 36). NVML's
 * own P2P query says whether a pair talks over NVLink; the links each GPU
 * has active say how many. */
#include <stdio.h>
#include <string.h>

#include "ms-i18n.h"
#include "ms-topo.h"

/* CUDA writes "0000:18:00.0", NVML "00000000:18:00.0": compare numbers. */
static bool
same_bus (const char *a, const char *b)
{
  unsigned da, ba, xa, db, bb, xb;
  return sscanf (a, "%x:%x:%x", &da, &ba, &xa) == 3 && sscanf (b, "%x:%x:%x", &db, &bb, &xb) == 3
         && da == db && ba == bb && xa == xb;
}

const char *
ms_link_path_name (MsLinkPath path)
{
  switch (path) {
  case MS_LINK_SAME_BOARD: return ms_gettext ("same board");
  case MS_LINK_PCIE_SWITCH: return ms_gettext ("one PCIe switch");
  case MS_LINK_PCIE_SWITCHES: return ms_gettext ("several PCIe switches");
  case MS_LINK_PCIE_HOST_BRIDGE: return ms_gettext ("PCIe host bridge");
  case MS_LINK_NUMA_NODE: return ms_gettext ("host bridges of one NUMA node");
  case MS_LINK_SYSTEM: return ms_gettext ("across NUMA nodes (SMP interconnect)");
  case MS_LINK_UNKNOWN:
  default: return ms_gettext ("unknown");
  }
}

static MsLinkPath
path_from_level (int level)
{
  switch (level) {
  case 0: return MS_LINK_SAME_BOARD;
  case 10: return MS_LINK_PCIE_SWITCH;
  case 20: return MS_LINK_PCIE_SWITCHES;
  case 30: return MS_LINK_PCIE_HOST_BRIDGE;
  case 40: return MS_LINK_NUMA_NODE;
  case 50: return MS_LINK_SYSTEM;
  default: return MS_LINK_UNKNOWN;
  }
}

void
ms_topo_facts_init (MsTopoFacts *facts, int n_devices)
{
  memset (facts, 0, sizeof *facts);
  facts->n_devices = n_devices < 0 ? 0 : n_devices > MS_MULTI_MAX_DEVICES ? MS_MULTI_MAX_DEVICES
                                                                          : n_devices;
  for (int i = 0; i < MS_MULTI_MAX_DEVICES; i++)
    for (int j = 0; j < MS_MULTI_MAX_DEVICES; j++)
      facts->ancestor[i][j] = facts->p2p_nvlink[i][j] = -1;
}

/* The listed GPU at the far end of a link, or -1. */
static int
far_gpu (const MsTopoFacts *f, const MsNvlinkFact *l)
{
  for (int j = 0; j < f->n_devices; j++)
    if (l->far_bus[0] && same_bus (l->far_bus, f->bus_id[j]))
      return j;
  return -1;
}

/* What GPU i's active links lead to: direct[j] links to listed GPU j,
 * *unmatched to anything else (a switch, a host's address), of which
 * *to_switch are known switches and *far_ends distinct addresses. */
typedef struct {
  int direct[MS_MULTI_MAX_DEVICES];
  int active, unmatched, to_switch, far_ends, smallest_end, version;
} LinkTally;

static void
tally_links (const MsTopoFacts *f, int i, LinkTally *t)
{
  memset (t, 0, sizeof *t);
  int end_size[MS_NVLINK_MAX_LINKS] = { 0 };
  const char *ends[MS_NVLINK_MAX_LINKS] = { 0 };
  for (int l = 0; l < MS_NVLINK_MAX_LINKS; l++) {
    const MsNvlinkFact *k = &f->link[i][l];
    if (!k->active)
      continue;
    t->active++;
    t->version = k->version > t->version ? k->version : t->version;
    int j = far_gpu (f, k);
    if (j >= 0 && j != i) {
      t->direct[j]++;
      continue;
    }
    t->unmatched++;
    t->to_switch += k->far == MS_NVLINK_FAR_SWITCH;
    int e = 0;
    while (e < t->far_ends && !(k->far_bus[0] && same_bus (ends[e], k->far_bus)))
      e++;
    if (e == t->far_ends && t->far_ends < MS_NVLINK_MAX_LINKS)
      ends[t->far_ends++] = k->far_bus[0] ? k->far_bus : "?";
    end_size[e]++;
  }
  t->smallest_end = t->far_ends ? MS_NVLINK_MAX_LINKS : 0;
  for (int e = 0; e < t->far_ends; e++)
    t->smallest_end = end_size[e] < t->smallest_end ? end_size[e] : t->smallest_end;
}

/* GPUs that NVML says i reaches over NVLink without a direct link. */
static int
indirect_peers (const MsTopoFacts *f, const LinkTally *t, int i)
{
  int n = 0;
  for (int j = 0; j < f->n_devices; j++)
    n += j != i && t->direct[j] == 0 && f->p2p_nvlink[i][j] != 0;
  return n;
}

/* Links between i and j whose far ends are not GPUs of the list. Known
 * switches, or more far ends than peers: a fabric, where every link of
 * the lesser GPU carries the pair's traffic (nvidia-smi's NV18). One far
 * end per peer: a mesh seen through host addresses, one group per peer. */
static int
indirect_links (const MsTopoFacts *f, const LinkTally *ti, const LinkTally *tj, int i, int j)
{
  if (ti->unmatched == 0 || tj->unmatched == 0 || f->p2p_nvlink[i][j] == 0)
    return 0;
  int lesser = ti->unmatched < tj->unmatched ? ti->unmatched : tj->unmatched;
  if (ti->to_switch || tj->to_switch)
    return lesser;
  if (ti->far_ends == indirect_peers (f, ti, i) && tj->far_ends == indirect_peers (f, tj, j))
    return ti->smallest_end < tj->smallest_end ? ti->smallest_end : tj->smallest_end;
  return lesser;
}

void
ms_topology_from_facts (MsTopology *topo, const MsTopoFacts *f)
{
  memset (topo, 0, sizeof *topo);
  topo->n_devices = f->n_devices;
  topo->nvml = true;
  LinkTally tally[MS_MULTI_MAX_DEVICES];
  for (int i = 0; i < f->n_devices; i++) {
    snprintf (topo->bus_id[i], sizeof topo->bus_id[i], "%s", f->bus_id[i]);
    snprintf (topo->serial[i], sizeof topo->serial[i], "%s", f->serial[i]);
    tally_links (f, i, &tally[i]);
    topo->active_nvlinks[i] = tally[i].active;
    topo->nvlink_version[i] = tally[i].version;
    topo->nvswitch[i] = tally[i].to_switch > 0;
  }
  for (int i = 0; i < f->n_devices; i++)
    for (int j = 0; j < f->n_devices; j++) {
      if (i == j)
        continue;
      topo->pcie_path[i][j] = path_from_level (f->ancestor[i][j]);
      /* Count each pair from both ends: a link seen from one side only
       * (the other's query failed) still counts. */
      int direct = tally[i].direct[j] > tally[j].direct[i] ? tally[i].direct[j]
                                                            : tally[j].direct[i];
      topo->nvlinks[i][j] = f->p2p_nvlink[i][j] == 0 ? 0
                            : direct > 0 ? direct
                                         : indirect_links (f, &tally[i], &tally[j], i, j);
    }
}

const char *
ms_topology_pair_code (const MsTopology *topo, int i, int j, char *buf, size_t len)
{
  static const char *const codes[] = { "?", "BRD", "PIX", "PXB", "PHB", "NODE", "SYS" };
  if (i == j)
    snprintf (buf, len, "X");
  else if (topo->nvlinks[i][j] > 0)
    snprintf (buf, len, "NV%d", topo->nvlinks[i][j]);
  else
    snprintf (buf, len, "%s",
              topo->pcie_path[i][j] <= MS_LINK_SYSTEM ? codes[topo->pcie_path[i][j]] : "?");
  return buf;
}
