/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-render-probes.c: the pictures of the batched-copies and NUMA
 * lessons at 1024x768 in presentation text, light and dark: every label
 * inside the canvas, and something drawn where the plot is. */
#include <glib.h>
#include <stdio.h>
#include <string.h>

#include "model/ms-results.h"
#include "ms-lesson-picture-test.h"
#include "ms-sweep-test.h"

#define W 1024
#define H 768

static void
add_cell (MsResults *r, MsMode mode, int exp, const char *variant, double e2e_us,
          MsCellStatus status, const char *message)
{
  double times[6];
  for (int i = 0; i < 6; i++)
    times[i] = e2e_us * (1 + 0.01 * (i - 3));
  MsCell c = { .mode = mode,
               .exponent = exp,
               .elements = 1ull << exp,
               .n_reps = status == MS_CELL_OK ? 6 : 0,
               .e2e_us = times,
               .status = status };
  g_snprintf (c.variant, sizeof c.variant, "%s", variant);
  g_snprintf (c.message, sizeof c.message, "%s", message ? message : "");
  ms_cell_compute_stats (&c);
  g_assert_true (ms_results_add_cell (r, &c));
}

static MsResults *
new_run (const char *experiment)
{
  return ms_test_results_new (experiment);
}

/* A batched run; with same_orders, the three batch orders' times alike. */
static MsResults *
batched_run_with (gboolean same_orders)
{
  MsResults *r = new_run ("batched");
  static const char *subs[]
      = { "call=each", "call=batch/order=stream", "call=batch/order=any", "call=batch/order=api" };
  const MsMode modes[] = { MS_MODE_PINNED, MS_MODE_PAGEABLE };
  for (int m = 0; m < 2; m++)
    for (int e = 8; e <= 14; e++)
      for (int s = 0; s < 4; s++) {
        char v[MS_VARIANT_LEN];
        g_snprintf (v, sizeof v, "n=256/%s", subs[s]);
        double per = (s ? 0.3 + (same_orders ? 0 : s * 0.05) : 2.0) + (4 << e) / 25e3 * (m ? 2 : 1);
        add_cell (r, modes[m], e, v, 256 * per, MS_CELL_OK, NULL);
      }
  return r;
}

static MsResults *
batched_run (void)
{
  return batched_run_with (FALSE);
}

/* Draws topic's picture of run and checks its labels; returns how many
 * pixels differ from the top-left one (the background). */
static int
draw_checked (MsLessonTopic topic, const MsResults *run, gboolean dark)
{
  MsTestPicture p;
  ms_test_picture_draw (&p, topic, run, dark, 1);
  g_assert_cmpuint (p.texts->len, >, 0);
  const guint32 *px = (const guint32 *)cairo_image_surface_get_data (p.surface);
  int stride = cairo_image_surface_get_stride (p.surface) / 4, differ = 0;
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++)
      differ += px[y * stride + x] != px[0];
  ms_test_picture_clear (&p);
  return differ;
}

static void
test_batched (void)
{
  MsResults *r = batched_run ();
  int full = draw_checked (MS_TOPIC_BATCHED, r, FALSE);
  g_assert_cmpint (draw_checked (MS_TOPIC_BATCHED, r, TRUE), >, 0);
  ms_results_free (r);
  /* Lines make a difference: an empty run draws less. */
  MsResults *empty = new_run ("batched");
  int none = draw_checked (MS_TOPIC_BATCHED, empty, FALSE);
  g_assert_cmpint (full, >, none);
  ms_results_free (empty);
}

static MsResults *
numa_run (int nodes)
{
  MsResults *r = new_run ("numa");
  const char *dirs[] = { "h2d", "d2h" };
  for (int d = 0; d < 2; d++)
    for (int b = 0; b < (nodes > 1 ? nodes : 1); b++)
      for (int t = 0; t < (nodes > 1 ? nodes : 1); t++) {
        char v[MS_VARIANT_LEN];
        g_snprintf (v, sizeof v, "dir=%s/buf=%d/thr=%d", dirs[d], b, t);
        double gbps = b == 1 ? 52 : 36 - t;
        if (nodes > 1)
          add_cell (r, MS_MODE_PINNED, 24, v, (4 << 24) / gbps / 1e3, MS_CELL_OK,
                    "gpu-node=1; thread on CPUs 0-7, buffer memory bound to node 0");
        else
          add_cell (r, MS_MODE_PINNED, 24, v, 0, MS_CELL_UNSUPPORTED,
                    "this host has one NUMA node");
      }
  return r;
}

static void
test_numa (void)
{
  MsResults *r = numa_run (2);
  int full = draw_checked (MS_TOPIC_NUMA, r, FALSE);
  g_assert_cmpint (draw_checked (MS_TOPIC_NUMA, r, TRUE), >, 0);
  ms_results_free (r);
  /* One node: a whole card of the two-node host it would show, not a
   * blank (issue 84), and not the measured tables. */
  MsResults *one = numa_run (1);
  int none = draw_checked (MS_TOPIC_NUMA, one, FALSE);
  g_assert_cmpint (none, >, full / 4);
  g_assert_cmpint (none, !=, full);
  ms_results_free (one);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/render-probes/batched", test_batched);
  g_test_add_func ("/render-probes/numa", test_numa);
  return g_test_run ();
}
