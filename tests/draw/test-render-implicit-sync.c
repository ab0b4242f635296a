/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-render-implicit-sync.c: the implicit-sync lesson's picture at
 * 1024x768 in presentation mode, light and dark: every label inside the
 * drawing, each cell's verdict written in it, the key under the grid; on a
 * desk's 1600x1000 the timeline drawn below the matrix too (at 1024x768 in
 * presentation the fourteen rows in the text's own size take its room). */
#include <glib.h>
#include <string.h>

#include "ms-implicit-sync-model.h"
#include "ms-lesson-picture-test.h"

#define H 768


static void
render (gboolean dark)
{
  MsSyncModel m;
  ms_sync_model_material (&m);
  MsResults *run = ms_sync_model_run (&m, NULL);
  MsTestPicture p;
  ms_test_picture_draw (&p, MS_TOPIC_IMPLICIT_SYNC, run, dark, 2);
  /* Verdicts in the cells, the rows' calls, the timeline's title. */
  g_assert_true (ms_test_picture_has_text (&p, "serial 1.98"));
  g_assert_true (ms_test_picture_has_text (&p, "overlap 1.0"));
  g_assert_true (ms_test_picture_has_text (&p, "cudaMalloc"));
  g_assert_true (ms_test_picture_has_text (&p, "cudaFreeAsync"));
  /* The key's line that says what the columns mean, in the lower part. */
  g_assert_true (
      ms_test_picture_has_text (&p, "blocking streams wait for the legacy default stream"));
  g_assert_cmpfloat (p.max_y, >, H * 0.6);
  ms_test_picture_clear (&p);
  ms_results_free (run);
}

/* At a desk's size and text the timeline has room under the key. */
static void
test_desk (void)
{
  MsSyncModel m;
  ms_sync_model_material (&m);
  MsResults *run = ms_sync_model_run (&m, NULL);
  MsTestPicture p = { cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1600, 1000),
                      g_ptr_array_new_with_free_func (g_free), 0, 0 };
  cairo_t *cr = cairo_create (p.surface);
  MsChartStyle st;
  ms_chart_style_init_light (&st);
  ms_draw_set_text_recorder (ms_test_picture_record, &p);
  g_assert_true (ms_lesson_picture_draw (cr, MS_TOPIC_IMPLICIT_SYNC, run, &st, 1600, 1000));
  ms_draw_set_text_recorder (NULL, NULL);
  cairo_destroy (cr);
  g_assert_true (ms_test_picture_has_text (&p, "Timeline of one instrumented sample: cudaMalloc"));
  g_assert_cmpint (p.outside, ==, 0);
  ms_test_picture_clear (&p);
  ms_results_free (run);
}

static void
test_light (void)
{
  render (FALSE);
}

static void
test_dark (void)
{
  render (TRUE);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/render-implicit-sync/light", test_light);
  g_test_add_func ("/render-implicit-sync/dark", test_dark);
  g_test_add_func ("/render-implicit-sync/desk", test_desk);
  return g_test_run ();
}
