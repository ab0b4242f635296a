/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-widget-matrix-view.c: MsMatrixView's properties (peer, runs,
 * method, direction, mode) make the matrix it draws. */
#include "ms-matrix-view.h"
#include "ms-peer-test.h"
#include "ms-widget-test.h"

static void
test_properties (void)
{
  MsMatrixView *view = MS_MATRIX_VIEW (g_object_new (MS_TYPE_MATRIX_VIEW, NULL));
  const MsMatrixData *d = ms_matrix_view_get_data (view);
  g_assert_cmpint (d->n_rows, ==, 0);
  MsPeerFile *file = g_new0 (MsPeerFile, 1);
  ms_test_peer_file (3, file);
  g_autoptr (MsPeerFile) peer = ms_peer_file_box_new (file);
  g_free (file);
  guint peer_n, method_n;
  ms_test_watch (view, "peer", &peer_n);
  ms_test_watch (view, "method", &method_n);
  g_object_set (view, "peer", peer, NULL);
  g_object_set (view, "peer", peer, NULL);
  g_assert_cmpuint (peer_n, ==, 1);
  g_assert_cmpint (d->n_rows, ==, 3);
  g_assert_true (d->square);
  g_assert_cmpfloat (d->value[1][0], ==, ms_test_peer_gbps (MS_PEER_COPY_ENABLED, 1, 0, 0));
  g_object_set (view, "method", MS_PEER_COPY_DISABLED, "direction", 1, NULL);
  g_assert_cmpuint (method_n, ==, 1);
  g_assert_cmpfloat (d->value[2][1], ==, ms_test_peer_gbps (MS_PEER_COPY_DISABLED, 2, 1, 1));

  /* The runs: devices x sizes. */
  g_autoptr (GPtrArray) runs = ms_test_reference_runs ();
  g_object_set (view, "runs", runs, "method", MS_MATRIX_SHOW_RUNS, "direction", 0, "mode",
                MS_MODE_PAGEABLE, NULL);
  g_assert_cmpint (d->n_rows, ==, 1);
  g_assert_false (d->square);
  g_assert_cmpint (d->n_cols, >, 3);

  GtkWindow *window = ms_test_show (GTK_WIDGET (view), 900, 500);
  g_assert_cmpuint (ms_test_ink (GTK_WIDGET (view)), >, 50);
  ms_test_destroy (window, GTK_WIDGET (view));
}

int
main (int argc, char **argv)
{
  ms_widget_test_init (&argc, &argv);
  g_test_add_func ("/matrix-view/properties", test_properties);
  return g_test_run ();
}
