/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-render-implicit-sync.c: the implicit-sync lesson's picture at
 * 1024x768 in presentation mode, light and dark: every label inside the
 * drawing, each cell's verdict written in it, the timeline drawn below the
 * matrix. */
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
  g_assert_true (ms_test_picture_has_text (&p, "Timeline of one instrumented sample: cudaMalloc"));
  /* The timeline lies in the lower part. */
  g_assert_cmpfloat (p.max_y, >, H * 0.6);
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
  return g_test_run ();
}
