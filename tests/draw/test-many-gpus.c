/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-many-gpus.c: the multi-GPU paths with 4, 8 and 16 fake GPUs, the
 * hosts behind NVSwitch that the lent machines rarely are: every GPU at
 * once (all threads in step, aggregates that add up), the aggregate and
 * peer files round-tripping at 16 devices, and the heat map and topology
 * diagram at 1024x768 with presentation mode's text, every label inside
 * its box and no box over another. */
#include <math.h>
#include <stdlib.h>
#include <unistd.h>

#include "memsweep.h"
#include "ms-backend-test.h"
#include "ms-canvas-test.h"
#include "ms-matrix.h"
#include "ms-multi-file.h"
#include "ms-multi.h"
#include "ms-peer-test.h"
#include "ms-topology.h"
#include "ms-tmp-test.h"
#include "ms-sweep-test.h"
#include "model/ms-results.h"
#include "run/ms-backend.h"

/* The text scale set_presentation gives every view (ui/ms-window.c). */
#define PRESENTATION_TEXT_SCALE 1.6

static const int gpu_counts[] = { 4, 8, 16 };

static void
pinned_sweep (MsSweep *s)
{
  ms_test_sweep_init (s, "pinned", 10, 14, 3);
  s->step = 2;
  s->warmup = 0;
}

static MsMultiResults *
run_all_at_once (int n, MsBackend **backend_out)
{
  MsTestBackendConfig cfg;
  ms_test_backend_config_init (&cfg);
  cfg.n_devices = n;
  cfg.hold_us = 1000;
  MsBackend *b = ms_backend_new_test (&cfg);
  MsSweep s;
  pinned_sweep (&s);
  int devices[MS_MULTI_MAX_DEVICES];
  for (int i = 0; i < n; i++)
    devices[i] = i;
  MsMultiResults *r = NULL;
  char err[256] = "";
  MsRunStatus st = ms_multi_run (&s, devices, n, b, NULL, NULL, NULL, &r, err, sizeof err);
  g_assert_cmpint (st, ==, MS_RUN_OK);
  g_assert_nonnull (r);
  *backend_out = b;
  return r;
}

static void
test_all_at_once (void)
{
  for (guint k = 0; k < G_N_ELEMENTS (gpu_counts); k++) {
    int n = gpu_counts[k];
    MsBackend *b = NULL;
    MsMultiResults *r = run_all_at_once (n, &b);
    /* Every thread held each cell 1 ms: all n must have overlapped, and the
     * barrier must have started every cell on all of them together. */
    g_assert_cmpint (ms_test_backend_max_concurrent (b), ==, n);
    g_assert_cmpint (ms_test_backend_barrier_violations (b), ==, 0);
    g_assert_cmpint (ms_test_backend_live_buffers (b), ==, 0);
    for (int i = 0; i < n; i++)
      g_assert_cmpint (r->per_device[i]->device.index, ==, i);

    MsMultiAggregate agg;
    g_assert_true (ms_multi_aggregate (r, MS_MODE_PINNED, 14, &agg));
    const MsCell *one = ms_results_find (r->per_device[0], MS_MODE_PINNED, 14);
    g_assert_nonnull (one);
    g_assert_cmpint (agg.n_ok, ==, n);
    g_assert_cmpfloat_with_epsilon (agg.h2d_gbps, n * one->stats.h2d_gbps, 1e-6);
    g_assert_cmpfloat_with_epsilon (agg.d2h_min_gbps, one->stats.d2h_gbps, 1e-9);
    ms_multi_results_free (r);
    ms_backend_free (b);
  }
}

static void
test_multi_file_16 (void)
{
  MsBackend *b = NULL;
  MsMultiResults *r = run_all_at_once (16, &b);
  const char *prefix = ms_test_tmp_path ("h200x16");
  g_autofree char *path = g_strconcat (prefix, "-multi.csv", NULL);
  char err[512] = "";
  MsMultiFile *f = calloc (1, sizeof *f);
  ms_multi_file_init (f, r, prefix);
  g_assert_true (ms_multi_file_write (f, path, err, sizeof err));
  MsMultiFile *g = ms_multi_file_read (path, err, sizeof err);
  g_assert_nonnull (g);
  g_assert_cmpint (g->n_rows, ==, f->n_rows);
  g_assert_cmpint (g->n_devices, ==, 16);
  for (int i = 0; i < f->n_rows; i++) {
    g_assert_cmpint (g->rows[i].agg.n_ok, ==, 16);
    g_assert_cmpfloat_with_epsilon (g->rows[i].agg.h2d_gbps, f->rows[i].agg.h2d_gbps,
                                    1e-3 * f->rows[i].agg.h2d_gbps);
  }
  free (f);
  free (g);
  ms_multi_results_free (r);
  ms_backend_free (b);
}

static void
test_peer_file_16 (void)
{
  const char *path = ms_test_tmp_path ("h200x16-peer.csv");
  MsPeerFile *f = calloc (1, sizeof *f);
  ms_test_peer_file (16, f);
  char err[512] = "";
  g_assert_true (ms_peer_file_write (f, path, err, sizeof err));
  MsPeerFile *g = ms_peer_file_read (path, err, sizeof err);
  g_assert_nonnull (g);
  g_assert_cmpint (g->peer.n_devices, ==, 16);
  for (int i = 0; i < 16; i++) {
    for (int j = 0; j < 16; j++) {
      const MsPeerCell *x = &f->peer.cell[MS_PEER_STAGED][i][j];
      const MsPeerCell *y = &g->peer.cell[MS_PEER_STAGED][i][j];
      g_assert_cmpint (x->ok, ==, y->ok);
      if (x->ok)
        g_assert_cmpfloat_with_epsilon (x->uni_gbps, y->uni_gbps, 0.01);
      g_assert_cmpint (f->peer.topo.nvlinks[i][j], ==, g->peer.topo.nvlinks[i][j]);
    }
  }
  free (f);
  free (g);
}

static gboolean
overlap (double ax, double ay, double aw, double ah, double bx, double by, double bw, double bh)
{
  return ax < bx + bw && bx < ax + aw && ay < by + bh && by < ay + ah;
}

/* The heat map of n GPUs at 1024x768 in presentation mode: each number
 * inside its cell, the legend inside the picture. */
static void
check_matrix_presentation (int n, gboolean dark)
{
  const int w = 1024, h = 768 - 120; /* the page loses its header and toolbar */
  MsPeerFile *f = calloc (1, sizeof *f);
  ms_test_peer_file (n, f);
  MsMatrixData d;
  ms_matrix_data_from_peer (&d, &f->peer, MS_PEER_STAGED, FALSE);
  MsChartStyle style;
  if (dark)
    ms_chart_style_init_dark (&style);
  else
    ms_chart_style_init_light (&style);
  style.text_scale = PRESENTATION_TEXT_SCALE;
  MsTestCanvas c = ms_test_canvas_new (w, h);
  MsMatrixLayout lay;
  ms_matrix_draw (c.cr, &d, &style, w, h, &lay);
  g_assert_cmpint (d.n_rows, ==, n);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      if (i != j && lay.text_w[i][j] > 0)
        g_assert_cmpfloat (lay.text_w[i][j], <=, lay.cell_w - 6 + 0.5);
  g_assert_cmpfloat (lay.x0 + n * lay.cell_w, <=, lay.legend_x);
  g_assert_cmpfloat (lay.legend_x + lay.legend_w, <, w);
  g_assert_cmpfloat (lay.y0 + n * lay.cell_h, <=, h);
  ms_test_canvas_free (&c);
  free (f);
}

/* The diagram of n GPUs behind one NVSwitch (every pair linked) at
 * 1024x768 in presentation mode. */
static void
check_topology_presentation (int n)
{
  const int w = 1024, h = 768 - 120;
  MsPeerFile *f = calloc (1, sizeof *f);
  ms_test_peer_file (n, f);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      f->peer.topo.nvlinks[i][j] = i == j ? 0 : 18;
  MsChartStyle style;
  ms_chart_style_init_light (&style);
  style.text_scale = PRESENTATION_TEXT_SCALE;
  MsTestCanvas c = ms_test_canvas_new (w, h);
  MsTopologyLayout lay;
  ms_topology_draw (c.cr, f, &style, w, h, &lay);
  g_assert_cmpint (lay.n_gpus, ==, n);
  g_assert_cmpfloat (lay.host_text_w, <=, lay.host_w - 6 + 0.5);
  for (int i = 0; i < n; i++) {
    g_assert_cmpfloat (lay.gpu_text_w[i], >, 0);
    g_assert_cmpfloat (lay.gpu_text_w[i], <=, lay.gpu_w - 6 + 0.5);
    g_assert_cmpfloat (lay.gpu_x[i], >=, 0);
    g_assert_cmpfloat (lay.gpu_x[i] + lay.gpu_w, <=, w);
    g_assert_cmpfloat (lay.gpu_y[i] + lay.gpu_h, <=, h);
    g_assert_false (overlap (lay.gpu_x[i], lay.gpu_y[i], lay.gpu_w, lay.gpu_h, lay.host_x,
                             lay.host_y, lay.host_w, lay.host_h));
    for (int j = 0; j < i; j++)
      g_assert_false (overlap (lay.gpu_x[i], lay.gpu_y[i], lay.gpu_w, lay.gpu_h, lay.gpu_x[j],
                               lay.gpu_y[j], lay.gpu_w, lay.gpu_h));
  }
  ms_test_canvas_free (&c);
  free (f);
}

static void
test_drawings_presentation (void)
{
  for (guint k = 0; k < G_N_ELEMENTS (gpu_counts); k++) {
    check_matrix_presentation (gpu_counts[k], FALSE);
    check_matrix_presentation (gpu_counts[k], TRUE);
    check_topology_presentation (gpu_counts[k]);
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/many-gpus/all-at-once", test_all_at_once);
  g_test_add_func ("/many-gpus/multi-file-16", test_multi_file_16);
  g_test_add_func ("/many-gpus/peer-file-16", test_peer_file_16);
  g_test_add_func ("/many-gpus/drawings-presentation", test_drawings_presentation);
  return g_test_run ();
}
