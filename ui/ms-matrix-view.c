/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-matrix-view.c: the heat map widget (ms-matrix-view.h). */
#include <glib/gi18n.h>

#include "ms-matrix-view.h"
#include "ms-props.h"
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

/* The matrix from what is set, made again whenever any of it changes. */
static void
update (gpointer view)
{
  MsMatrixView *self = view;
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

enum { PROP_0, PROP_PEER, PROP_RUNS, PROP_METHOD, PROP_DIRECTION, PROP_MODE, N_PROPS };
static GParamSpec *props[N_PROPS];
static const MsProp prop_table[N_PROPS] = {
  [PROP_PEER] = { "peer", G_TYPE_BOXED, MS_PROP_FIELD (MsMatrixView, peer),
                  .get_type = ms_peer_file_box_get_type, .changed = update },
  /* Always made again: the same array may have changed in place. */
  [PROP_RUNS] = { "runs", G_TYPE_BOXED, MS_PROP_FIELD (MsMatrixView, runs),
                  .get_type = g_ptr_array_get_type, .changed = update, .always_changed = TRUE },
  [PROP_METHOD] = { "method", G_TYPE_INT, MS_PROP_FIELD (MsMatrixView, method), MS_MATRIX_SHOW_RUNS,
                    MS_MATRIX_SHOW_REFERENCE, MS_PEER_COPY_ENABLED, .changed = update },
  [PROP_DIRECTION] = { "direction", G_TYPE_INT, MS_PROP_FIELD (MsMatrixView, direction), 0, 2, 0,
                       .changed = update },
  [PROP_MODE] = { "mode", G_TYPE_INT, MS_PROP_FIELD (MsMatrixView, mode), 0, MS_MODE_COUNT - 1,
                  MS_MODE_PINNED, .changed = update },
};

static void
ms_matrix_view_class_init (MsMatrixViewClass *klass)
{
  MS_CHART_VIEW_CLASS (klass)->draw = ms_matrix_view_draw;
  ms_props_install (G_OBJECT_CLASS (klass), prop_table, props, N_PROPS);

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

const MsMatrixData *
ms_matrix_view_get_data (MsMatrixView *self)
{
  return &self->data;
}
