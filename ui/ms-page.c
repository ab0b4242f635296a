/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-page.c: a page that follows a session. */
#include "ms-page.h"

#include <glib/gi18n.h>

#include "ms-drawing.h"
#include "ms-props.h"
#include "ms-run.h"
#include "ms-views.h"

typedef struct {
  MsSession *session;
  GSignalGroup *store_signals;   /* on the session's runs */
  GSignalGroup *session_signals; /* on the session, for the subclass */
  GPtrArray *runs;               /* MsRun, each watched for its cells and name */
} MsPagePrivate;

G_DEFINE_TYPE_WITH_PRIVATE (MsPage, ms_page, GTK_TYPE_WIDGET)

enum { PROP_0, PROP_SESSION, N_PROPS };
static GParamSpec *props[N_PROPS];

static void runs_changed (MsPage *self);

static void
unwatch_runs (MsPage *self, GPtrArray *runs)
{
  for (guint i = 0; i < runs->len; i++)
    g_signal_handlers_disconnect_by_func (g_ptr_array_index (runs, i), runs_changed, self);
}

/* Every change reaches the page at once: a view never draws a run the
 * session has let go of (the page's array holds it until then). */
static void
runs_changed (MsPage *self)
{
  MsPagePrivate *priv = ms_page_get_instance_private (self);
  g_autoptr (GPtrArray) runs = priv->session ? ms_session_dup_runs (priv->session)
                                             : g_ptr_array_new_with_free_func (g_object_unref);
  /* Watched once shown: showing lets go of the old runs' watches. */
  ms_page_show_runs (self, runs);
  for (guint i = 0; i < runs->len; i++) {
    GObject *run = g_ptr_array_index (runs, i);
    g_signal_connect_swapped (run, "cells-changed", G_CALLBACK (runs_changed), self);
    g_signal_connect_swapped (run, "notify::name", G_CALLBACK (runs_changed), self);
  }
}

static const MsProp prop_table[N_PROPS] = {
  [PROP_SESSION] = { "session", G_TYPE_OBJECT, MS_PROP_NO_FIELD, .get_type = ms_session_get_type,
                     .setter = G_CALLBACK (ms_page_set_session),
                     .getter = G_CALLBACK (ms_page_get_session) },
};

static void
ms_page_dispose (GObject *object)
{
  MsPage *self = MS_PAGE (object);
  MsPagePrivate *priv = ms_page_get_instance_private (self);
  /* Every page is a template; one whose own dispose has not let its
   * children go lets them go here. */
  if (gtk_widget_get_first_child (GTK_WIDGET (self)))
    ms_widget_dispose_children (GTK_WIDGET (self), G_OBJECT_TYPE (self));
  /* The subclass has let its children go: nothing is told of runs now. */
  g_signal_group_set_target (priv->store_signals, NULL);
  g_signal_group_set_target (priv->session_signals, NULL);
  unwatch_runs (self, priv->runs);
  g_ptr_array_set_size (priv->runs, 0);
  g_clear_object (&priv->session);
  ms_props_clear (object);
  G_OBJECT_CLASS (ms_page_parent_class)->dispose (object);
}

static void
ms_page_finalize (GObject *object)
{
  MsPagePrivate *priv = ms_page_get_instance_private (MS_PAGE (object));
  g_clear_object (&priv->store_signals);
  g_clear_object (&priv->session_signals);
  g_ptr_array_unref (priv->runs);
  G_OBJECT_CLASS (ms_page_parent_class)->finalize (object);
}

static void
ms_page_class_init (MsPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  object_class->dispose = ms_page_dispose;
  object_class->finalize = ms_page_finalize;
  ms_props_install (object_class, prop_table, props, N_PROPS);
}

static void
ms_page_init (MsPage *self)
{
  MsPagePrivate *priv = ms_page_get_instance_private (self);
  priv->runs = g_ptr_array_new_with_free_func (g_object_unref);
  priv->store_signals = g_signal_group_new (G_TYPE_LIST_MODEL);
  g_signal_group_connect_swapped (priv->store_signals, "items-changed", G_CALLBACK (runs_changed),
                                  self);
  priv->session_signals = g_signal_group_new (MS_TYPE_SESSION);
}

MsSession *
ms_page_get_session (MsPage *self)
{
  g_return_val_if_fail (MS_IS_PAGE (self), NULL);
  MsPagePrivate *priv = ms_page_get_instance_private (self);
  return priv->session;
}

void
ms_page_set_session (MsPage *self, MsSession *session)
{
  g_return_if_fail (MS_IS_PAGE (self));
  g_return_if_fail (!session || MS_IS_SESSION (session));
  MsPagePrivate *priv = ms_page_get_instance_private (self);
  if (!g_set_object (&priv->session, session))
    return;
  g_signal_group_set_target (priv->store_signals, session ? ms_session_get_runs (session) : NULL);
  g_signal_group_set_target (priv->session_signals, session);
  runs_changed (self);
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_SESSION]);
}

void
ms_page_connect_session (MsPage *self, const char *signal, GCallback handler)
{
  g_return_if_fail (MS_IS_PAGE (self));
  MsPagePrivate *priv = ms_page_get_instance_private (self);
  g_signal_group_connect_swapped (priv->session_signals, signal, handler, self);
}

void
ms_page_follow_scale (MsPage *self, GObject *scale)
{
  g_return_if_fail (MS_IS_PAGE (self));
  const char *names[] = { "text-scale", "line-scale", "high-contrast" };
  const char *views = MS_PAGE_GET_CLASS (self)->scaled_views;
  g_auto (GStrv) children = g_strsplit (views ? views : "", " ", -1);
  /* A page that draws a chart itself has the scale too. */
  gboolean own = g_object_class_find_property (G_OBJECT_GET_CLASS (self), names[0]) != NULL;
  for (int v = own ? -1 : 0; v < 0 || children[v]; v++) {
    GObject *view = v < 0 ? G_OBJECT (self)
                          : gtk_widget_get_template_child (GTK_WIDGET (self), G_OBJECT_TYPE (self),
                                                           children[v]);
    for (guint n = 0; n < G_N_ELEMENTS (names); n++)
      g_object_bind_property (scale, names[n], view, names[n], G_BINDING_SYNC_CREATE);
  }
}

GPtrArray *
ms_page_get_runs (MsPage *self)
{
  g_return_val_if_fail (MS_IS_PAGE (self), NULL);
  MsPagePrivate *priv = ms_page_get_instance_private (self);
  return priv->runs;
}

void
ms_page_show_runs (MsPage *self, GPtrArray *runs)
{
  g_return_if_fail (MS_IS_PAGE (self));
  MsPagePrivate *priv = ms_page_get_instance_private (self);
  /* The old runs stay alive until the subclass has handed on the new; a
   * test's runs too are what ms_page_get_runs gives from now on. */
  g_autoptr (GPtrArray) old = NULL;
  if (runs != priv->runs) {
    unwatch_runs (self, priv->runs);
    old = g_steal_pointer (&priv->runs);
    priv->runs = runs ? g_ptr_array_ref (runs) : g_ptr_array_new_with_free_func (g_object_unref);
  }
  MsPageClass *klass = MS_PAGE_GET_CLASS (self);
  if (klass->runs_changed)
    klass->runs_changed (self, runs);
}

gboolean
ms_page_get_drawing (MsPage *self, MsPageDrawing *drawing, char **why_not)
{
  g_return_val_if_fail (MS_IS_PAGE (self), FALSE);
  MsPageClass *klass = MS_PAGE_GET_CLASS (self);
  *drawing = (MsPageDrawing){ NULL };
  char *why = klass->get_drawing ? klass->get_drawing (self, drawing)
                                 : g_strdup (_("This page has no chart to export"));
  if (why || !drawing->draw) {
    ms_page_drawing_clear (drawing);
    *why_not = why ? why : g_strdup (_("This page has no chart to export"));
    return FALSE;
  }
  *why_not = NULL;
  return TRUE;
}

void
ms_page_drawing_clear (MsPageDrawing *drawing)
{
  g_clear_pointer (&drawing->title, g_free);
  g_clear_pointer (&drawing->caption, g_free);
  g_clear_pointer (&drawing->headline, g_free);
  *drawing = (MsPageDrawing){ NULL };
}

char *
ms_page_runs_caption (GPtrArray *runs)
{
  if (!runs || !runs->len)
    return NULL;
  g_autoptr (GPtrArray) results = ms_run_array_results (runs);
  return ms_report_caption (results);
}
