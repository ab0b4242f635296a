/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-topology.h: a small diagram of a host's GPUs: the host (CPU and
 * memory), each GPU as a box with its name and PCIe link, the NVLinks
 * between GPUs labelled with their count and nominal GB/s, and the PCIe
 * path between the pairs without. Cairo, Pango and GLib only. */
#pragma once

#include "ms-draw.h"
#include "ms-engine.h"

G_BEGIN_DECLS

/* Where things went, for the render tests. */
typedef struct {
  double host_x, host_y, host_w, host_h;
  double host_text_w; /* the widest line in the host box */
  int n_gpus;
  double gpu_x[MS_MULTI_MAX_DEVICES], gpu_y[MS_MULTI_MAX_DEVICES];
  double gpu_w, gpu_h;
  double gpu_text_w[MS_MULTI_MAX_DEVICES]; /* the widest line in each box */
  int n_nvlink_edges;                      /* edges drawn between GPUs */
  int n_path_lines;                        /* lines naming PCIe paths */
} MsTopologyLayout;

/* Draws the devices of file (its topology may be empty: NVML missing, or
 * only the devices known) into width x height. */
void ms_topology_draw (cairo_t *cr, const MsPeerFile *file, const MsChartStyle *style,
                       double width, double height, MsTopologyLayout *layout);

G_END_DECLS
