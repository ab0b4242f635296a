/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-matrix-view.c: the heat map widget (ms-matrix-view.h). */
#include <glib/gi18n.h>

#include "ms-matrix-view.h"
#include "ms-run.h"
#include "ms-views.h"

MsPeerFile *
ms_peer_file_box_new (const MsPeerFile *file)
{
  return (g_rc_box_dup) (sizeof *file, file); /* the function: the macro keeps const */
}

MsPeerFile *
ms_peer_file_box_ref (MsPeerFile *file)
{
  return g_rc_box_acquire (file);
}

void
ms_peer_file_box_unref (MsPeerFile *file)
{
  g_rc_box_release (file);
}

G_DEFINE_BOXED_TYPE (MsPeerFile, ms_peer_file_box, ms_peer_file_box_ref, ms_peer_file_box_unref)

struct _MsMatrixView {
  MsChartView parent_instance;
  MsPeerFile *peer;
  GPtrArray *runs;
  int method;
  int direction;
  MsMode mode;
  MsMatrixData data;
  MsMatrixLayout layout; /* of the last frame, for the tooltip */
};

G_DEFINE_FINAL_TYPE (MsMatrixView, ms_matrix_view, MS_TYPE_CHART_VIEW)

enum { PROP_0, PROP_PEER, PROP_RUNS, PROP_METHOD, PROP_DIRECTION, PROP_MODE, N_PROPS };
static GParamSpec *props[N_PROPS];

/* The matrix from what is set, made again whenever any of it changes. */
static void
update (MsMatrixView *self)
{
  if (self->method == MS_MATRIX_SHOW_RUNS) {
    g_autoptr (GPtrArray) results = ms_run_array_results (self->runs);
    ms_matrix_data_from_runs (&self->data, results, self->mode, self->direction);
  } else if (self->peer)
    ms_matrix_data_from_peer (&self->data, &self->peer->peer, self->method, self->direction == 1);
  else
    memset (&self->data, 0, sizeof self->data);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
ms_matrix_view_draw (MsChartView *view, cairo_t *cr, const MsChartStyle *style, int w, int h)
{
  MsMatrixView *self = MS_MATRIX_VIEW (view);
  ms_matrix_draw (cr, &self->data, style, w, h, &self->layout);
}

/* The cell's full story: the pair, the value, and why not. */
static gboolean
on_query_tooltip (MsMatrixView *self, int x, int y, gboolean keyboard, GtkTooltip *tooltip)
{
  int i, j;
  if (keyboard || !ms_matrix_hit (&self->layout, &self->data, x, y, &i, &j))
    return FALSE;
  const MsMatrixData *d = &self->data;
  double v = d->value[i][j];
  g_autofree char *text = NULL;
  if (d->square && i == j)
    return FALSE;
  if (v > 0)
    text = g_strdup_printf (_("%s → %s: %.1f GB/s"), d->row_label[i], d->col_label[j], v);
  else if (self->method >= 0 && self->method < MS_PEER_METHOD_COUNT && self->peer &&
           self->peer->peer.cell[self->method][i][j].note[0])
    text = g_strdup_printf (_("%s → %s: n/a (%s)"), d->row_label[i], d->col_label[j],
                            self->peer->peer.cell[self->method][i][j].note);
  else
    text = g_strdup_printf (_("%s → %s: n/a"), d->row_label[i], d->col_label[j]);
  g_autofree char *valid = g_utf8_make_valid (text, -1);
  gtk_tooltip_set_text (tooltip, valid);
  return TRUE;
}

static void
ms_matrix_view_set_property (GObject *object, guint prop_id, const GValue *value,
                             GParamSpec *pspec)
{
  MsMatrixView *self = MS_MATRIX_VIEW (object);
  int *field = prop_id == PROP_METHOD      ? &self->method
               : prop_id == PROP_DIRECTION ? &self->direction
               : prop_id == PROP_MODE      ? (int *) &self->mode
                                           : NULL;
  switch (prop_id) {
  case PROP_PEER: ms_matrix_view_set_peer (self, g_value_get_boxed (value)); break;
  case PROP_RUNS: ms_matrix_view_set_runs (self, g_value_get_boxed (value)); break;
  case PROP_METHOD:
  case PROP_DIRECTION:
  case PROP_MODE:
    if (*field != g_value_get_int (value)) {
      *field = g_value_get_int (value);
      update (self);
      g_object_notify_by_pspec (object, pspec);
    }
    break;
  default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
  }
}

static void
ms_matrix_view_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  MsMatrixView *self = MS_MATRIX_VIEW (object);
  switch (prop_id) {
  case PROP_PEER: g_value_set_boxed (value, self->peer); break;
  case PROP_RUNS: g_value_set_boxed (value, self->runs); break;
  case PROP_METHOD: g_value_set_int (value, self->method); break;
  case PROP_DIRECTION: g_value_set_int (value, self->direction); break;
  case PROP_MODE: g_value_set_int (value, self->mode); break;
  default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
  }
}

static void
ms_matrix_view_dispose (GObject *object)
{
  MsMatrixView *self = MS_MATRIX_VIEW (object);
  g_clear_pointer (&self->peer, ms_peer_file_box_unref);
  g_clear_pointer (&self->runs, g_ptr_array_unref);
  G_OBJECT_CLASS (ms_matrix_view_parent_class)->dispose (object);
}

static void
ms_matrix_view_class_init (MsMatrixViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  object_class->dispose = ms_matrix_view_dispose;
  object_class->set_property = ms_matrix_view_set_property;
  object_class->get_property = ms_matrix_view_get_property;
  MS_CHART_VIEW_CLASS (klass)->draw = ms_matrix_view_draw;

  const GParamFlags flags = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;
  props[PROP_PEER] = g_param_spec_boxed ("peer", NULL, NULL, MS_TYPE_PEER_FILE, flags);
  props[PROP_RUNS] = g_param_spec_boxed ("runs", NULL, NULL, G_TYPE_PTR_ARRAY, flags);
  props[PROP_METHOD] = g_param_spec_int ("method", NULL, NULL, MS_MATRIX_SHOW_RUNS,
                                         MS_MATRIX_SHOW_REFERENCE, MS_PEER_COPY_ENABLED, flags);
  props[PROP_DIRECTION] = g_param_spec_int ("direction", NULL, NULL, 0, 2, 0, flags);
  props[PROP_MODE] =
    g_param_spec_int ("mode", NULL, NULL, 0, MS_MODE_COUNT - 1, MS_MODE_PINNED, flags);
  g_object_class_install_properties (object_class, N_PROPS, props);

  gtk_widget_class_set_css_name (GTK_WIDGET_CLASS (klass), "msmatrixview");
}

static void
ms_matrix_view_init (MsMatrixView *self)
{
  self->method = MS_PEER_COPY_ENABLED;
  self->mode = MS_MODE_PINNED;
  gtk_widget_set_size_request (GTK_WIDGET (self), 320, 200);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  g_signal_connect (self, "query-tooltip", G_CALLBACK (on_query_tooltip), NULL);
}

GtkWidget *
ms_matrix_view_new (void)
{
  return g_object_new (MS_TYPE_MATRIX_VIEW, NULL);
}

void
ms_matrix_view_set_peer (MsMatrixView *self, MsPeerFile *peer)
{
  if (peer == self->peer)
    return;
  g_clear_pointer (&self->peer, ms_peer_file_box_unref);
  self->peer = peer ? ms_peer_file_box_ref (peer) : NULL;
  update (self);
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_PEER]);
}

MsPeerFile *
ms_matrix_view_get_peer (MsMatrixView *self)
{
  return self->peer;
}

void
ms_matrix_view_set_runs (MsMatrixView *self, GPtrArray *runs)
{
  /* Always made again: the same array may have changed in place. */
  if (runs != self->runs) {
    g_clear_pointer (&self->runs, g_ptr_array_unref);
    self->runs = runs ? g_ptr_array_ref (runs) : NULL;
    g_object_notify_by_pspec (G_OBJECT (self), props[PROP_RUNS]);
  }
  update (self);
}

const MsMatrixData *
ms_matrix_view_get_data (MsMatrixView *self)
{
  return &self->data;
}
