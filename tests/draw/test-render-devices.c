/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-render-devices.c: the peer heat map and the topology diagram drawn
 * into image surfaces: each value's colour in its cell, distinct colours
 * for low, middle, high and n/a, the diagonal left empty, every number and
 * every line of text inside its box at several sizes, boxes apart, NVLink
 * edges and PCIe paths where the topology has them. */
#include <math.h>
#include <string.h>

#include "lessons/ms-run-read.h"
#include "model/ms-results.h"
#include "ms-canvas-test.h"
#include "ms-matrix.h"
#include "ms-peer-test.h"
#include "ms-topology.h"

static guint32
pixel (MsTestCanvas *c, double x, double y)
{
  cairo_surface_flush (c->surface);
  const unsigned char *data = cairo_image_surface_get_data (c->surface);
  int stride = cairo_image_surface_get_stride (c->surface);
  return *(const guint32 *) (data + (int) y * stride + (int) x * 4) & 0xffffff;
}

static double
distance (guint32 a, guint32 b)
{
  double d = 0;
  for (int s = 0; s < 24; s += 8) {
    double x = ((a >> s) & 0xff) / 255.0 - ((b >> s) & 0xff) / 255.0;
    d += x * x;
  }
  return sqrt (d);
}

static guint32
rgb_of (const MsColor *c)
{
  return ((guint32) lround (c->red * 255) << 16) | ((guint32) lround (c->green * 255) << 8) |
         (guint32) lround (c->blue * 255);
}

/* The most common colour in a rectangle: a box's fill, whatever text it
 * holds. */
static guint32
mode_color (MsTestCanvas *c, double x, double y, double w, double h)
{
  g_autoptr (GHashTable) counts = g_hash_table_new (NULL, NULL);
  guint32 best = 0;
  guint best_n = 0;
  for (int py = (int) y; py < (int) (y + h); py++) {
    for (int px = (int) x; px < (int) (x + w); px++) {
      guint32 p = pixel (c, px, py);
      guint n = GPOINTER_TO_UINT (g_hash_table_lookup (counts, GUINT_TO_POINTER (p))) + 1;
      g_hash_table_insert (counts, GUINT_TO_POINTER (p), GUINT_TO_POINTER (n));
      if (n > best_n) {
        best_n = n;
        best = p;
      }
    }
  }
  return best;
}

static void
test_matrix_colours (void)
{
  MsMatrixData d = { .n_rows = 3, .n_cols = 3, .square = TRUE };
  double values[3][3] = { { 0, 10, 200 }, { 400, 0, -1 }, { 300, 50, 0 } };
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++)
      d.value[i][j] = values[i][j];
    g_snprintf (d.row_label[i], sizeof d.row_label[i], "GPU %d", i);
    g_snprintf (d.col_label[i], sizeof d.col_label[i], "GPU %d", i);
  }
  MsChartStyle style;
  ms_chart_style_init_light (&style);
  MsTestCanvas c = ms_test_canvas_new (900, 560);
  MsMatrixLayout lay;
  ms_matrix_draw (c.cr, &d, &style, c.w, c.h, &lay);
  g_assert_cmpfloat (lay.vmax, ==, 400);
  /* Near a cell's corner: its fill, clear of the number. */
#define AT(i, j) pixel (&c, lay.x0 + (j) * lay.cell_w + 4, lay.y0 + (i) * lay.cell_h + 4)
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++) {
      if (i == j || values[i][j] <= 0)
        continue;
      MsColor want;
      ms_matrix_color (values[i][j], 0, 400, FALSE, &want);
      g_assert_cmpfloat (distance (AT (i, j), rgb_of (&want)), <, 0.02);
    }
  }
  guint32 low = AT (0, 1), mid = AT (0, 2), high = AT (1, 0);
  guint32 diag = pixel (&c, lay.x0 + lay.cell_w / 2, lay.y0 + lay.cell_h / 2);
  guint32 bg = rgb_of (&style.bg);
  g_assert_cmpfloat (distance (low, mid), >, 0.25);
  g_assert_cmpfloat (distance (mid, high), >, 0.25);
  g_assert_cmpfloat (distance (low, high), >, 0.5);
  guint32 seen[] = { low, mid, high };
  /* The diagonal stays the background, dashed only at its border. */
  g_assert_cmpfloat (distance (diag, bg), <, 0.01);
  /* The n/a cell is neither a value's colour nor plain background. */
  guint32 na_fill =
    mode_color (&c, lay.x0 + 2 * lay.cell_w + 2, lay.y0 + lay.cell_h + 2, lay.cell_w - 4,
                lay.cell_h - 4);
  g_assert_cmpfloat (distance (na_fill, bg), >, 0.01);
  for (guint k = 0; k < 3; k++)
    g_assert_cmpfloat (distance (na_fill, seen[k]), >, 0.1);
  /* The legend's ends are the scale's ends. */
  MsColor top;
  ms_matrix_color (400, 0, 400, FALSE, &top);
  g_assert_cmpfloat (distance (pixel (&c, lay.legend_x + 5, lay.legend_y), rgb_of (&top)), <,
                     0.03);
#undef AT
  ms_test_canvas_free (&c);
}

/* Every off-diagonal cell has its text, and it fits the cell. */
static void
check_matrix_text (int n, int width, int height, int method)
{
  MsPeerFile *f = calloc (1, sizeof *f);
  ms_test_peer_file (n, f);
  MsMatrixData d;
  ms_matrix_data_from_peer (&d, &f->peer, method, FALSE);
  MsChartStyle style;
  ms_chart_style_init_dark (&style);
  MsTestCanvas c = ms_test_canvas_new (width, height);
  MsMatrixLayout lay;
  ms_matrix_draw (c.cr, &d, &style, width, height, &lay);
  g_assert_cmpint (d.n_rows, ==, n);
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < n; j++) {
      if (i == j) {
        g_assert_cmpfloat (lay.text_w[i][j], ==, 0);
        continue;
      }
      g_assert_cmpfloat (lay.text_w[i][j], >, 0);
      g_assert_cmpfloat (lay.text_w[i][j], <=, lay.cell_w - 6 + 0.5);
    }
  }
  g_assert_cmpfloat (lay.x0 + n * lay.cell_w, <=, lay.legend_x);
  g_assert_cmpfloat (lay.legend_x + lay.legend_w, <, width);
  g_assert_cmpfloat (lay.y0 + n * lay.cell_h, <=, height);
  ms_test_canvas_free (&c);
  free (f);
}

static void
test_matrix_text_fits (void)
{
  check_matrix_text (2, 900, 560, MS_PEER_COPY_ENABLED);
  check_matrix_text (4, 600, 400, MS_PEER_STAGED);
  check_matrix_text (8, 520, 360, MS_PEER_KERNEL_READ);
  check_matrix_text (16, 700, 500, MS_PEER_COPY_DISABLED);
}

/* The colour bar's labels: no "-0" from a step's rounding, and nothing
 * drawn between the bar and its labels (a tick there read as a minus). */
static void
test_matrix_legend_labels (void)
{
  MsMatrixLayout lay = { .vmin = 0, .vmax = 393 };
  char label[32];
  ms_matrix_legend_label (&lay, 393 - 393.0 * 3 / 3 - 1e-13, label, sizeof label);
  g_assert_cmpstr (label, ==, "0");
  ms_matrix_legend_label (&lay, 196.5, label, sizeof label);
  g_assert_cmpstr (label, ==, "196");
  lay.vmax = 2;
  ms_matrix_legend_label (&lay, -0.01, label, sizeof label);
  g_assert_cmpstr (label, ==, "0.0");
  MsMatrixData d = { .n_rows = 2, .n_cols = 2, .square = TRUE };
  d.value[0][1] = d.value[1][0] = 393;
  for (int i = 0; i < 2; i++) {
    g_snprintf (d.row_label[i], sizeof d.row_label[i], "GPU %d", i);
    g_snprintf (d.col_label[i], sizeof d.col_label[i], "GPU %d", i);
  }
  MsChartStyle style;
  ms_chart_style_init_light (&style);
  style.text_scale = 1.6;
  MsTestCanvas c = ms_test_canvas_new (630, 340);
  ms_matrix_draw (c.cr, &d, &style, c.w, c.h, &lay);
  guint32 bg = rgb_of (&style.bg);
  for (double y = lay.legend_y; y <= lay.legend_y + lay.legend_h; y++)
    for (double x = lay.legend_x + lay.legend_w + 1; x < lay.legend_x + lay.legend_w + 4; x++)
      g_assert_cmpfloat (distance (pixel (&c, x, y), bg), <, 0.01);
  ms_test_canvas_free (&c);
}

static void
test_matrix_from_peer (void)
{
  MsPeerFile *f = calloc (1, sizeof *f);
  ms_test_peer_file (4, f);
  MsMatrixData d;
  ms_matrix_data_from_peer (&d, &f->peer, MS_PEER_COPY_ENABLED, TRUE);
  g_assert_cmpfloat (d.value[0][1], ==, ms_test_peer_gbps (MS_PEER_COPY_ENABLED, 0, 1, 1));
  g_assert_cmpfloat (d.value[1][0], ==, ms_test_peer_gbps (MS_PEER_COPY_ENABLED, 1, 0, 1));
  g_assert_cmpfloat (d.value[0][2], <, 0); /* no peer access across the sockets */
  ms_matrix_data_from_peer (&d, &f->peer, MS_PEER_METHOD_COUNT, FALSE);
  g_assert_cmpfloat (d.value[2][3], >, 0);
  ms_matrix_data_from_peer (&d, &f->peer, MS_PEER_METHOD_COUNT, TRUE);
  g_assert_cmpfloat (d.value[2][3], <, 0); /* the reference runs one way only */
  free (f);
}

static void
test_matrix_from_runs (void)
{
  char err[512];
  g_autofree char *path =
    g_build_filename (g_getenv ("MEMSWEEP_REFERENCE_DIR"), "h100-default-samples.csv.gz", NULL);
  g_autoptr (GPtrArray) runs = g_ptr_array_new_with_free_func ((GDestroyNotify) ms_results_free);
  for (int k = 0; k < 2; k++) {
    MsResults *r = ms_run_read_samples (path, err, sizeof err);
    g_assert_nonnull (r);
    r->device.index = k;
    g_ptr_array_add (runs, r);
  }
  MsMatrixData d;
  ms_matrix_data_from_runs (&d, runs, MS_MODE_PINNED, 1);
  g_assert_cmpint (d.n_rows, ==, 3); /* and their sum */
  g_assert_cmpstr (d.row_label[2], ==, "sum");
  g_assert_cmpint (d.n_cols, >, 3);
  g_assert_false (d.square);
  g_assert_cmpstr (d.row_label[1], ==, "GPU 1");
  const MsResults *r = g_ptr_array_index (runs, 0);
  const MsCell *last = NULL;
  for (size_t c = 0; c < r->n_cells; c++)
    if (r->cells[c].mode == MS_MODE_PINNED && (!last || r->cells[c].exponent > last->exponent))
      last = &r->cells[c];
  g_assert_nonnull (last);
  g_assert_cmpfloat (d.value[1][d.n_cols - 1], ==, last->stats.d2h_gbps);
  g_assert_cmpfloat (d.value[2][d.n_cols - 1], ==, 2 * last->stats.d2h_gbps);
  MsTestCanvas c = ms_test_canvas_new (900, 400);
  MsMatrixLayout lay;
  MsChartStyle style;
  ms_chart_style_init_light (&style);
  ms_matrix_draw (c.cr, &d, &style, c.w, c.h, &lay);
  for (int j = 0; j < d.n_cols; j++)
    g_assert_cmpfloat (lay.text_w[0][j], <=, lay.cell_w - 6 + 0.5);
  ms_test_canvas_free (&c);
}

static gboolean
overlap (double ax, double ay, double aw, double ah, double bx, double by, double bw, double bh)
{
  return ax < bx + bw && bx < ax + aw && ay < by + bh && by < ay + ah;
}

static void
check_topology (MsPeerFile *f, int width, int height, int want_edges)
{
  MsChartStyle style;
  ms_chart_style_init_light (&style);
  MsTestCanvas c = ms_test_canvas_new (width, height);
  MsTopologyLayout lay;
  ms_topology_draw (c.cr, f, &style, width, height, &lay);
  int n = f->peer.n_devices;
  g_assert_cmpint (lay.n_gpus, ==, n);
  g_assert_cmpint (lay.n_nvlink_edges, ==, want_edges);
  g_assert_cmpfloat (lay.host_text_w, >, 0);
  g_assert_cmpfloat (lay.host_text_w, <=, lay.host_w - 6 + 0.5);
  guint32 fills[MS_MULTI_MAX_DEVICES];
  for (int i = 0; i < n; i++) {
    g_assert_cmpfloat (lay.gpu_text_w[i], >, 0);
    g_assert_cmpfloat (lay.gpu_text_w[i], <=, lay.gpu_w - 6 + 0.5);
    g_assert_cmpfloat (lay.gpu_x[i], >=, 0);
    g_assert_cmpfloat (lay.gpu_x[i] + lay.gpu_w, <=, width);
    g_assert_cmpfloat (lay.gpu_y[i] + lay.gpu_h, <=, height);
    g_assert_false (overlap (lay.gpu_x[i], lay.gpu_y[i], lay.gpu_w, lay.gpu_h, lay.host_x,
                             lay.host_y, lay.host_w, lay.host_h));
    for (int j = 0; j < i; j++)
      g_assert_false (overlap (lay.gpu_x[i], lay.gpu_y[i], lay.gpu_w, lay.gpu_h, lay.gpu_x[j],
                               lay.gpu_y[j], lay.gpu_w, lay.gpu_h));
    fills[i] = mode_color (&c, lay.gpu_x[i] + 4, lay.gpu_y[i] + 4, lay.gpu_w - 8,
                           lay.gpu_h - 8);
    g_assert_cmpfloat (distance (fills[i], rgb_of (&style.bg)), >, 0.05);
  }
  /* One neutral fill for every GPU: the palette's colours mean modes
   * (Pageable, Pinned) everywhere else. */
  for (int i = 1; i < n; i++)
    g_assert_cmpfloat (distance (fills[i], fills[0]), <, 0.01);
  ms_test_canvas_free (&c);
}

static void
test_topology (void)
{
  MsPeerFile *f = calloc (1, sizeof *f);
  ms_test_peer_file (4, f);
  snprintf (f->device[1].name, sizeof f->device[1].name,
            "NVIDIA H200 NVL with a name far longer than any box");
  check_topology (f, 1200, 600, 2); /* 0-1 and 2-3 */
  check_topology (f, 520, 420, 2);
  /* A switch: every pair the same, one bar. */
  ms_test_peer_file (8, f);
  for (int i = 0; i < 8; i++)
    for (int j = 0; j < 8; j++)
      f->peer.topo.nvlinks[i][j] = i == j ? 0 : 18;
  check_topology (f, 1400, 700, 1);
  check_topology (f, 800, 500, 1);
  /* Nine GPUs go on two rows. */
  ms_test_peer_file (9, f);
  check_topology (f, 1000, 700, 4);
  free (f);
}

static void
test_topology_paths (void)
{
  MsPeerFile *f = calloc (1, sizeof *f);
  ms_test_peer_file (4, f);
  MsChartStyle style;
  ms_chart_style_init_light (&style);
  MsTestCanvas c = ms_test_canvas_new (900, 560);
  MsTopologyLayout lay;
  ms_topology_draw (c.cr, f, &style, c.w, c.h, &lay);
  g_assert_cmpint (lay.n_path_lines, ==, 1); /* every pair without NVLink crosses sockets */
  /* The links misread (PITFALLS 36): a pair named PCIe that copied at
   * NVLink's rate is in doubt, on a line of its own, and left out of its
   * path's line; the pair read as 18 NVLinks that copied faster than 450
   * GB/s likewise, on its arc. */
  f->peer.topo.nvlinks[0][2] = f->peer.topo.nvlinks[2][0] = 0;
  f->peer.cell[MS_PEER_STAGED][0][2].uni_gbps = 393;
  f->peer.cell[MS_PEER_STAGED][0][1].uni_gbps = 600;
  g_assert_true (ms_peer_link_in_doubt (&f->peer, f->device, 0, 2));
  g_assert_true (ms_peer_link_in_doubt (&f->peer, f->device, 1, 0));
  g_assert_false (ms_peer_link_in_doubt (&f->peer, f->device, 2, 3));
  ms_topology_draw (c.cr, f, &style, c.w, c.h, &lay);
  g_assert_cmpint (lay.n_path_lines, ==, 2);
  f->peer.topo.nvml = FALSE;
  ms_topology_draw (c.cr, f, &style, c.w, c.h, &lay);
  g_assert_cmpint (lay.n_path_lines, ==, 0);
  memset (f, 0, sizeof *f);
  ms_topology_draw (c.cr, f, &style, c.w, c.h, &lay);
  g_assert_cmpint (lay.n_gpus, ==, 0);
  ms_test_canvas_free (&c);
  free (f);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/render-devices/matrix-colours", test_matrix_colours);
  g_test_add_func ("/render-devices/matrix-text-fits", test_matrix_text_fits);
  g_test_add_func ("/render-devices/matrix-legend-labels", test_matrix_legend_labels);
  g_test_add_func ("/render-devices/matrix-from-peer", test_matrix_from_peer);
  g_test_add_func ("/render-devices/matrix-from-runs", test_matrix_from_runs);
  g_test_add_func ("/render-devices/topology", test_topology);
  g_test_add_func ("/render-devices/topology-paths", test_topology_paths);
  return g_test_run ();
}
