/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-matrix-view.h: the heat map widget: a peer matrix (one method, one way
 * or both) or a sweep on several GPUs (devices x sizes), with the value
 * under the pointer as a tooltip. */
#pragma once

#include <gtk/gtk.h>

#include "ms-chart-view.h"

#include "ms-drawing.h"
#include "ms-engine.h"

G_BEGIN_DECLS

/* A peer file shared between the views and a worker: reference counted,
 * never changed once made. */
#define MS_TYPE_PEER_FILE (ms_peer_file_box_get_type ())
GType ms_peer_file_box_get_type (void) G_GNUC_CONST;
/* A boxed copy of file, with one reference. */
MsPeerFile *ms_peer_file_box_new (const MsPeerFile *file);
MsPeerFile *ms_peer_file_box_ref (MsPeerFile *file);
void ms_peer_file_box_unref (MsPeerFile *file);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (MsPeerFile, ms_peer_file_box_unref)

/* What the view shows: a peer method's matrix, the reference loop's, or
 * the runs of a sweep on several GPUs. */
typedef enum {
  MS_MATRIX_SHOW_RUNS = -1,
  MS_MATRIX_SHOW_REFERENCE = MS_PEER_METHOD_COUNT,
} MsMatrixShow;

#define MS_TYPE_MATRIX_VIEW (ms_matrix_view_get_type ())
G_DECLARE_FINAL_TYPE (MsMatrixView, ms_matrix_view, MS, MATRIX_VIEW, MsChartView)

/* Properties: "peer" (MS_TYPE_PEER_FILE), "runs" (GPtrArray of MsRun*,
 * one per device), "method" (an MsPeerMethod, MS_MATRIX_SHOW_REFERENCE, or
 * MS_MATRIX_SHOW_RUNS), "direction" (peer: 0 one way, 1 both ways at once;
 * runs: 0 host to device, 1 device to host, 2 end to end), "mode" (the
 * runs' memory mode), and the text-scale / line-scale / high-contrast of
 * MsChartView. */
/* The matrix as drawn last (or as it would be): for tests and tooltips. */
const MsMatrixData *ms_matrix_view_get_data (MsMatrixView *self);

G_END_DECLS
