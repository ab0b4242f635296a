/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-topology.c: the topology read from fake NVML facts as `nvidia-smi
 * topo -m` reads it, on the hosts the lent machines rarely are: 4, 8 and
 * 16 GPUs behind NVSwitch (NV18 for every pair, bare metal and in a
 * virtual machine whose links' far ends match no GPU), a 4-GPU mesh seen
 * through host addresses, a 2-GPU bridge, PCIe switches and two NUMA nodes
 * without NVLink, a partitioned fabric, a driver without the P2P query;
 * and the doubt a copy faster than the link named raises. */
#include <glib.h>
#include <stdio.h>
#include <string.h>

#include "ms-peer-doubt.h"
#include "ms-topo.h"

/* GPU g at bus 0x18 + 0x10 g; NVSwitch s at bus 0xa0 + s. */
static void
gpu_buses (MsTopoFacts *f, int n)
{
  ms_topo_facts_init (f, n);
  for (int g = 0; g < n; g++) {
    g_snprintf (f->bus_id[g], sizeof f->bus_id[g], "0000:%02x:00.0", 0x18 + 0x10 * g);
    f->found[g] = TRUE;
  }
}

static void
set_link (MsTopoFacts *f, int g, int l, MsNvlinkFar far, const char *far_bus)
{
  MsNvlinkFact *k = &f->link[g][l];
  k->active = TRUE;
  k->version = 4;
  k->far = far;
  g_snprintf (k->far_bus, sizeof k->far_bus, "%s", far_bus);
}

/* n GPUs, 18 links each spread over four switches; in a VM the far end's
 * type is unknown and its address the host's. GPUs of one half share a
 * NUMA node; across halves SYS. */
static void
nvswitch_host (MsTopoFacts *f, int n, gboolean vm, int p2p)
{
  gpu_buses (f, n);
  for (int g = 0; g < n; g++)
    for (int l = 0; l < MS_NVLINK_MAX_LINKS; l++) {
      char sw[32];
      g_snprintf (sw, sizeof sw, "%s:%02x:00.0", vm ? "0001" : "0000", 0xa0 + l % 4);
      set_link (f, g, l, vm ? MS_NVLINK_FAR_UNKNOWN : MS_NVLINK_FAR_SWITCH, sw);
    }
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      if (i != j) {
        f->ancestor[i][j] = (i < n / 2) == (j < n / 2) ? 40 : 50;
        f->p2p_nvlink[i][j] = p2p;
      }
}

static void
check_every_pair (const MsTopology *t, const char *want)
{
  char code[16];
  for (int i = 0; i < t->n_devices; i++)
    for (int j = 0; j < t->n_devices; j++)
      g_assert_cmpstr (ms_topology_pair_code (t, i, j, code, sizeof code), ==,
                       i == j ? "X" : want);
}

static void
test_nvswitch (void)
{
  static const int counts[] = { 2, 4, 8, 16 };
  for (guint k = 0; k < G_N_ELEMENTS (counts); k++)
    for (int vm = 0; vm < 2; vm++) {
      MsTopoFacts f;
      MsTopology t;
      nvswitch_host (&f, counts[k], vm, 1);
      ms_topology_from_facts (&t, &f);
      check_every_pair (&t, "NV18");
      g_assert_cmpint (t.active_nvlinks[counts[k] - 1], ==, 18);
      g_assert_cmpint (t.nvswitch[0], ==, !vm);
      g_assert_cmpint (t.nvlink_version[0], ==, 4);
    }
}

/* A driver without nvmlDeviceGetP2PStatus: switches still say it. */
static void
test_no_p2p_query (void)
{
  MsTopoFacts f;
  MsTopology t;
  nvswitch_host (&f, 4, FALSE, -1);
  ms_topology_from_facts (&t, &f);
  check_every_pair (&t, "NV18");
}

/* Links up, but NVML says the pair cannot use them (a partitioned fabric):
 * no NVLink between them, the PCIe path instead. */
static void
test_partitioned (void)
{
  MsTopoFacts f;
  MsTopology t;
  nvswitch_host (&f, 4, FALSE, 0);
  ms_topology_from_facts (&t, &f);
  char code[16];
  g_assert_cmpstr (ms_topology_pair_code (&t, 0, 1, code, sizeof code), ==, "NODE");
  g_assert_cmpstr (ms_topology_pair_code (&t, 0, 3, code, sizeof code), ==, "SYS");
}

/* Four GPUs joined point to point, 4 links per pair, seen in a VM: every
 * far end is a host address (one per peer) that matches no GPU here. */
static void
test_mesh_in_vm (void)
{
  MsTopoFacts f;
  MsTopology t;
  gpu_buses (&f, 4);
  for (int g = 0; g < 4; g++) {
    int l = 0;
    for (int p = 0; p < 4; p++)
      for (int k = 0; p != g && k < 4; k++) {
        char host[32];
        g_snprintf (host, sizeof host, "0002:%02x:00.0", 0x40 + p);
        set_link (&f, g, l++, MS_NVLINK_FAR_GPU, host);
      }
    for (int p = 0; p < 4; p++)
      f.p2p_nvlink[g][p] = p != g;
  }
  ms_topology_from_facts (&t, &f);
  check_every_pair (&t, "NV4");
  g_assert_cmpint (t.active_nvlinks[0], ==, 12);
}

/* Two GPUs on a bridge whose far ends are the GPUs themselves, and a third
 * on PCIe only, behind another switch. */
static void
test_bridge (void)
{
  MsTopoFacts f;
  MsTopology t;
  gpu_buses (&f, 3);
  for (int l = 0; l < 4; l++) {
    set_link (&f, 0, l, MS_NVLINK_FAR_GPU, "00000000:28:00.0");
    set_link (&f, 1, l, MS_NVLINK_FAR_GPU, "00000000:18:00.0");
  }
  f.p2p_nvlink[0][1] = f.p2p_nvlink[1][0] = 1;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      if (i != j) {
        f.ancestor[i][j] = i < 2 && j < 2 ? 10 : 20;
        f.p2p_nvlink[i][j] = i < 2 && j < 2;
      }
  ms_topology_from_facts (&t, &f);
  char code[16];
  g_assert_cmpstr (ms_topology_pair_code (&t, 0, 1, code, sizeof code), ==, "NV4");
  g_assert_cmpstr (ms_topology_pair_code (&t, 1, 0, code, sizeof code), ==, "NV4");
  g_assert_cmpstr (ms_topology_pair_code (&t, 0, 2, code, sizeof code), ==, "PXB");
  g_assert_cmpstr (ms_topology_pair_code (&t, 2, 1, code, sizeof code), ==, "PXB");
}

/* PCIe only: two switches of two GPUs each, on two NUMA nodes. */
static void
test_pcie_numa (void)
{
  MsTopoFacts f;
  MsTopology t;
  gpu_buses (&f, 4);
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 4; j++)
      if (i != j) {
        f.ancestor[i][j] = i / 2 == j / 2 ? 10 : 50;
        f.p2p_nvlink[i][j] = 0;
      }
  ms_topology_from_facts (&t, &f);
  char code[16];
  g_assert_cmpstr (ms_topology_pair_code (&t, 0, 1, code, sizeof code), ==, "PIX");
  g_assert_cmpstr (ms_topology_pair_code (&t, 2, 3, code, sizeof code), ==, "PIX");
  g_assert_cmpstr (ms_topology_pair_code (&t, 1, 2, code, sizeof code), ==, "SYS");
  g_assert_cmpint (t.pcie_path[0][3], ==, MS_LINK_SYSTEM);
  g_assert_cmpint (t.active_nvlinks[0], ==, 0);
}

/* Two H200s: the copy measured against the link named. */
static void
two_h200 (MsPeerResults *r, MsDeviceInfo *info, int links, double measured)
{
  memset (r, 0, sizeof *r);
  memset (info, 0, 2 * sizeof *info);
  r->n_devices = 2;
  r->devices[1] = 1;
  r->topo.nvlinks[0][1] = r->topo.nvlinks[1][0] = links;
  r->topo.pcie_path[0][1] = r->topo.pcie_path[1][0] = MS_LINK_PCIE_HOST_BRIDGE;
  for (int i = 0; i < 2; i++) {
    info[i].cc_major = 9;
    info[i].pcie_gen = 5;
    info[i].pcie_width = 16;
  }
  r->cell[MS_PEER_COPY_ENABLED][1][0].uni_gbps = measured;
  r->cell[MS_PEER_STAGED][0][1].uni_gbps = 40;
}

static void
test_doubt (void)
{
  MsPeerResults *r = g_new0 (MsPeerResults, 1);
  MsDeviceInfo info[2];
  /* The 4x H200 host as memsweep read it before: no NVLink, 393 GB/s. */
  two_h200 (r, info, 0, 393);
  g_assert_cmpfloat (ms_peer_best_gbps (r, 0, 1), ==, 393);
  g_assert_true (ms_peer_link_in_doubt (r, info, 0, 1));
  g_assert_true (ms_peer_link_in_doubt (r, info, 1, 0));
  g_assert_cmpint (ms_peer_pairs_in_doubt (r, info), ==, 1);
  /* Read right: 18 links x 25 GB/s = 450 > 393. */
  two_h200 (r, info, 18, 393);
  g_assert_false (ms_peer_link_in_doubt (r, info, 0, 1));
  g_assert_cmpint (ms_peer_pairs_in_doubt (r, info), ==, 0);
  /* PCIe gen5 x16 and a PCIe-sized copy: believed. */
  two_h200 (r, info, 0, 52);
  g_assert_false (ms_peer_link_in_doubt (r, info, 0, 1));
  /* Nothing measured: nothing to doubt. */
  two_h200 (r, info, 0, 0);
  r->cell[MS_PEER_STAGED][0][1].uni_gbps = 0;
  g_assert_false (ms_peer_link_in_doubt (r, info, 0, 1));
  g_free (r);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/topology/nvswitch", test_nvswitch);
  g_test_add_func ("/topology/no-p2p-query", test_no_p2p_query);
  g_test_add_func ("/topology/partitioned", test_partitioned);
  g_test_add_func ("/topology/mesh-in-vm", test_mesh_in_vm);
  g_test_add_func ("/topology/bridge", test_bridge);
  g_test_add_func ("/topology/pcie-numa", test_pcie_numa);
  g_test_add_func ("/topology/doubt", test_doubt);
  return g_test_run ();
}
