/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-topology-view.c: the topology diagram widget (ms-topology-view.h). */
#include "ms-topology-view.h"

#include "ms-drawing.h"
#include "ms-props.h"
#include "ms-views.h"

struct _MsTopologyView {
  MsChartView parent_instance;
  MsPeerFile *peer;
  MsTopologyLayout layout;
};

G_DEFINE_FINAL_TYPE (MsTopologyView, ms_topology_view, MS_TYPE_CHART_VIEW)

enum { PROP_0, PROP_PEER, N_PROPS };
static GParamSpec *props[N_PROPS];

static void
ms_topology_view_draw (MsChartView *view, cairo_t *cr, const MsChartStyle *style, int w, int h)
{
  MsTopologyView *self = MS_TOPOLOGY_VIEW (view);
  ms_topology_draw (cr, self->peer, style, w, h, &self->layout);
}

static const MsProp prop_table[N_PROPS] = {
  [PROP_PEER] = { "peer", G_TYPE_BOXED, MS_PROP_FIELD (MsTopologyView, peer),
                  .get_type = ms_peer_file_box_get_type, .changed = ms_chart_view_property_changed },
};

static void
ms_topology_view_class_init (MsTopologyViewClass *klass)
{
  MS_CHART_VIEW_CLASS (klass)->draw = ms_topology_view_draw;
  ms_props_install (G_OBJECT_CLASS (klass), prop_table, props, N_PROPS);
  gtk_widget_class_set_css_name (GTK_WIDGET_CLASS (klass), "mstopologyview");
}

static void
ms_topology_view_init (MsTopologyView *self)
{
  /* Expanding, it shares the page's height with the matrix: at presentation sizes the
   * boxes and NVLink arcs need more than the 220 pixels asked for. */
  gtk_widget_set_size_request (GTK_WIDGET (self), 320, 220);
}

const MsTopologyLayout *
ms_topology_view_get_layout (MsTopologyView *self)
{
  return &self->layout;
}
