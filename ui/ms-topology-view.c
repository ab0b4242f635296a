/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-topology-view.c: the topology diagram widget (ms-topology-view.h). */
#include "ms-topology-view.h"

#include "ms-drawing.h"
#include "ms-views.h"

struct _MsTopologyView {
  GtkWidget parent_instance;
  MsPeerFile *peer;
  MsViewScale scale;
  MsTopologyLayout layout;
};

G_DEFINE_FINAL_TYPE (MsTopologyView, ms_topology_view, GTK_TYPE_WIDGET)

enum { PROP_0, PROP_PEER, PROP_SCALE_FIRST };
static GParamSpec *props[PROP_SCALE_FIRST];

static void
ms_topology_view_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  MsTopologyView *self = MS_TOPOLOGY_VIEW (widget);
  int w = gtk_widget_get_width (widget), h = gtk_widget_get_height (widget);
  MsChartStyle style;
  ms_view_style_from_widget (widget, &self->scale, &style);
  cairo_t *cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, w, h));
  ms_topology_draw (cr, self->peer, &style, w, h, &self->layout);
  cairo_destroy (cr);
}

static void
ms_topology_view_set_property (GObject *object, guint prop_id, const GValue *value,
                               GParamSpec *pspec)
{
  MsTopologyView *self = MS_TOPOLOGY_VIEW (object);
  if (prop_id == PROP_PEER)
    ms_topology_view_set_peer (self, g_value_get_boxed (value));
  else if (!ms_view_scale_set (object, &self->scale, prop_id - PROP_SCALE_FIRST, value))
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
ms_topology_view_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  MsTopologyView *self = MS_TOPOLOGY_VIEW (object);
  if (prop_id == PROP_PEER)
    g_value_set_boxed (value, self->peer);
  else if (!ms_view_scale_get (&self->scale, prop_id - PROP_SCALE_FIRST, value))
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
  GTK_WIDGET_CLASS (klass)->snapshot = ms_topology_view_snapshot;
  props[PROP_PEER] = g_param_spec_boxed ("peer", NULL, NULL, MS_TYPE_PEER_FILE,
                                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY |
                                           G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, PROP_SCALE_FIRST, props);
  ms_view_scale_install (object_class, PROP_SCALE_FIRST);
  gtk_widget_class_set_css_name (GTK_WIDGET_CLASS (klass), "mstopologyview");
  gtk_widget_class_set_accessible_role (GTK_WIDGET_CLASS (klass), GTK_ACCESSIBLE_ROLE_IMG);
}

static void
ms_topology_view_init (MsTopologyView *self)
{
  self->scale = (MsViewScale){ 1, 1 };
  gtk_widget_set_hexpand (GTK_WIDGET (self), TRUE);
  /* Shares the page's height with the matrix: at presentation sizes the
   * boxes and NVLink arcs need more than the 220 pixels asked for. */
  gtk_widget_set_vexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_size_request (GTK_WIDGET (self), 320, 220);
  ms_view_follow_style (GTK_WIDGET (self), G_CALLBACK (gtk_widget_queue_draw));
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
