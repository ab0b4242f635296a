/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-topology-view.h: the diagram of a host's GPUs and their links. */
#pragma once

#include <gtk/gtk.h>

#include "ms-chart-view.h"

#include "ms-matrix-view.h"
#include "ms-drawing.h"

G_BEGIN_DECLS

#define MS_TYPE_TOPOLOGY_VIEW (ms_topology_view_get_type ())
G_DECLARE_FINAL_TYPE (MsTopologyView, ms_topology_view, MS, TOPOLOGY_VIEW, MsChartView)

/* Properties: "peer" (MS_TYPE_PEER_FILE: the devices and, after a peer
 * run, their links), and the text-scale / line-scale / high-contrast of
 * MsChartView. */
/* Where the last frame put things, for tests. */
const MsTopologyLayout *ms_topology_view_get_layout (MsTopologyView *self);

G_END_DECLS
