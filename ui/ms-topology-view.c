/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-topology-view.c: the topology diagram widget (ms-topology-view.h). */
#include "ms-topology-view.h"

#include "ms-drawing.h"
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

static void
ms_topology_view_set_property (GObject *object, guint prop_id, const GValue *value,
                               GParamSpec *pspec)
{
  if (prop_id == PROP_PEER)
    ms_topology_view_set_peer (MS_TOPOLOGY_VIEW (object), g_value_get_boxed (value));
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
ms_topology_view_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  if (prop_id == PROP_PEER)
    g_value_set_boxed (value, MS_TOPOLOGY_VIEW (object)->peer);
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
ms_topology_view_dispose (GObject *object)
{
  g_clear_pointer (&MS_TOPOLOGY_VIEW (object)->peer, ms_peer_file_box_unref);
  G_OBJECT_CLASS (ms_topology_view_parent_class)->dispose (object);
}

static void
ms_topology_view_class_init (MsTopologyViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  object_class->dispose = ms_topology_view_dispose;
  object_class->set_property = ms_topology_view_set_property;
  object_class->get_property = ms_topology_view_get_property;
  MS_CHART_VIEW_CLASS (klass)->draw = ms_topology_view_draw;
  props[PROP_PEER] = g_param_spec_boxed ("peer", NULL, NULL, MS_TYPE_PEER_FILE,
                                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY |
                                           G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, props);
  gtk_widget_class_set_css_name (GTK_WIDGET_CLASS (klass), "mstopologyview");
}

static void
ms_topology_view_init (MsTopologyView *self)
{
  /* Expanding, it shares the page's height with the matrix: at presentation sizes the
   * boxes and NVLink arcs need more than the 220 pixels asked for. */
  gtk_widget_set_size_request (GTK_WIDGET (self), 320, 220);
}

GtkWidget *
ms_topology_view_new (void)
{
  return g_object_new (MS_TYPE_TOPOLOGY_VIEW, NULL);
}

void
ms_topology_view_set_peer (MsTopologyView *self, MsPeerFile *peer)
{
  if (peer == self->peer)
    return;
  g_clear_pointer (&self->peer, ms_peer_file_box_unref);
  self->peer = peer ? ms_peer_file_box_ref (peer) : NULL;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_PEER]);
}

MsPeerFile *
ms_topology_view_get_peer (MsTopologyView *self)
{
  return self->peer;
}

const MsTopologyLayout *
ms_topology_view_get_layout (MsTopologyView *self)
{
  return &self->layout;
}
