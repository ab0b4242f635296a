/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-widget-topology-view.c: MsTopologyView draws the GPUs of its peer
 * file with their links, and text inside the boxes at the size shown. */
#include "ms-peer-test.h"
#include "ms-topology-view.h"
#include "ms-widget-test.h"

static void
test_peer (void)
{
  MsTopologyView *view = MS_TOPOLOGY_VIEW (g_object_new (MS_TYPE_TOPOLOGY_VIEW, NULL));
  MsPeerFile *file = g_new0 (MsPeerFile, 1);
  ms_test_peer_file (4, file);
  g_autoptr (MsPeerFile) peer = ms_peer_file_box_new (file);
  g_free (file);
  guint peer_n;
  ms_test_watch (view, "peer", &peer_n);
  g_object_set (view, "peer", peer, NULL);
  g_assert_cmpuint (peer_n, ==, 1);
  g_assert_true (ms_test_get_pointer (view, "peer") == peer);
  g_object_set (view, "text-scale", 1.6, NULL);
  GtkWindow *window = ms_test_show (GTK_WIDGET (view), 800, 300);
  g_assert_cmpuint (ms_test_ink (GTK_WIDGET (view)), >, 20);
  const MsTopologyLayout *lay = ms_topology_view_get_layout (view);
  g_assert_cmpint (lay->n_gpus, ==, 4);
  g_assert_cmpint (lay->n_nvlink_edges, ==, 2);
  for (int i = 0; i < 4; i++)
    g_assert_cmpfloat (lay->gpu_text_w[i], <=, lay->gpu_w - 6 + 0.5);
  g_object_set (view, "peer", NULL, NULL);
  g_assert_null (ms_test_get_pointer (view, "peer"));
  ms_test_destroy (window, GTK_WIDGET (view));
}

int
main (int argc, char **argv)
{
  ms_widget_test_init (&argc, &argv);
  g_test_add_func ("/topology-view/peer", test_peer);
  return g_test_run ();
}
