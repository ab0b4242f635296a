/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-render-implicit-sync.c: the implicit-sync lesson's picture at
 * 1024x768 in presentation mode, light and dark: every label inside the
 * drawing, each cell's verdict written in it, the key under the grid; on a
 * desk's 1600x1000 the timeline drawn below the matrix too (at 1024x768 in
 * presentation the fourteen rows in the text's own size take its room); on
 * a slide the textbooks' list alone, under its subheading, and the colour
 * key alone. */
#include <glib.h>
#include <string.h>

#include "model/ms-results.h"
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
  g_assert_true (ms_test_picture_has_text (
      &p, "legacy stream: the default stream, which blocking streams wait for"));
  g_assert_cmpfloat (p.max_y, >, H * 0.6);
  ms_test_picture_clear (&p);
  ms_results_free (run);
}

/* On a slide (the picture under the takeaway at 1024x768 presented): the
 * textbooks' list under a subheading, not a star and its footnote, and
 * nothing else: the calls off it, even one that serialised somewhere,
 * are the larger view's (the takeaway counts the listed calls alone);
 * under the grid the colour key alone, the prose left to a larger view. */
static void
test_slide (void)
{
  MsSyncModel m;
  ms_sync_model_material (&m);
  /* As on Hopper: cudaMalloc overlapped, cudaEventRecord (off the list)
   * serialised on one hardware queue. */
  for (int col = 0; col < MS_SYNC_N_COLUMNS; col++) {
    m.serial[MS_SYNC_OP_MALLOC][col] = FALSE;
    m.serial[MS_SYNC_OP_EVENT_RECORD][col] = col % 2 == 0;
  }
  MsResults *run = ms_sync_model_run (&m, NULL);
  MsChartStyle st;
  ms_chart_style_init_dark (&st);
  st.text_scale = 1.6;
  MsTestPicture p;
  ms_test_picture_draw_at (&p, MS_TOPIC_IMPLICIT_SYNC, run, &st, 1024, 440);
  g_assert_true (ms_test_picture_has_text (&p, "On the CUDA C Programming Guide's list")
                 || ms_test_picture_has_text (&p, "On the textbooks' list"));
  g_assert_true (ms_test_picture_has_text (&p, "cudaMemset"));
  g_assert_false (ms_test_picture_has_text (&p, "Not on the Guide's list"));
  g_assert_false (ms_test_picture_has_text (&p, "cudaEventRecord"));
  g_assert_false (ms_test_picture_has_text (&p, "more overlapped everywhere"));
  g_assert_false (ms_test_picture_has_text (&p, "cudaMallocAsync"));
  /* The corner note (CUDA_DEVICE_MAX_CONNECTIONS=1) fits here only below
   * a slide's least text: left to the details. */
  /* The key names only the verdicts a cell shows (none is unclear here); the rule that sorts
   * the cells is over them. */
  g_assert_true (ms_test_picture_has_text (&p, "serial: "));
  g_assert_false (ms_test_picture_has_text (&p, "unclear:"));
  g_assert_true (ms_test_picture_has_text (&p, "each cell: the pair's time ÷ one kernel's")
                 || ms_test_picture_has_text (&p, "nearer 2× than 1×: no overlap"));
  g_assert_false (ms_test_picture_has_text (&p, "cudaMemset *"));
  g_assert_false (ms_test_picture_has_text (&p, "*: "));
  g_assert_false (ms_test_picture_has_text (&p, "Not on the list, "));
  g_assert_false (ms_test_picture_has_text (&p, "blocking streams wait"));
  g_assert_cmpint (p.outside, ==, 0);
  ms_test_picture_clear (&p);
  ms_results_free (run);
}

/* A call off the list that held the host past the first kernel's end where a listed call
 * serialised (cudaFree on Hopper) is a row of its own on a slide, "held", outlined as the
 * takeaway counts it; one that did not (cudaFreeHost here) is left out. */
static void
test_slide_apart (void)
{
  MsSyncModel m;
  ms_sync_model_material (&m);
  memset (m.serial, 0, sizeof m.serial);
  for (int col = 0; col < MS_SYNC_N_COLUMNS; col++)
    m.serial[MS_SYNC_OP_MEMSET][col] = m.serial[MS_SYNC_OP_FREE][col] = TRUE;
  m.call_share[MS_SYNC_OP_FREE] = 1.05;
  m.call_share[MS_SYNC_OP_FREE_HOST] = 0.9;
  MsResults *run = ms_sync_model_run (&m, "kernel-us=1000");
  MsChartStyle st;
  ms_chart_style_init_light (&st);
  st.text_scale = 1.6;
  MsTestPicture p;
  ms_test_picture_draw_at (&p, MS_TOPIC_IMPLICIT_SYNC, run, &st, 1024, 600);
  g_assert_true (ms_test_picture_has_text (&p, "Not on the Guide's list"));
  g_assert_true (ms_test_picture_has_text (&p, "cudaFree"));
  g_assert_false (ms_test_picture_has_text (&p, "cudaFreeHost"));
  g_assert_true (ms_test_picture_has_text (
      &p, "held: the call held the host until the first kernel ended (waiting for it, or slow "
          "itself)"));
  g_assert_cmpint (p.outside, ==, 0);
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
  MsChartStyle st;
  ms_chart_style_init_light (&st);
  MsTestPicture p;
  ms_test_picture_draw_at (&p, MS_TOPIC_IMPLICIT_SYNC, run, &st, 1600, 1000);
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
  g_test_add_func ("/render-implicit-sync/slide", test_slide);
  g_test_add_func ("/render-implicit-sync/slide-apart", test_slide_apart);
  return g_test_run ();
}
