/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-render-implicit-sync.c: the implicit-sync lesson's picture at
 * 1024x768 in presentation mode, light and dark: every label inside the
 * drawing, each cell's verdict written in it, the timeline drawn below the
 * matrix. */
#include <glib.h>
#include <string.h>

#include "ms-implicit-sync-model.h"
#include "ms-lesson-picture.h"

#define W 1024
#define H 768
#define SLACK 1.0

typedef struct {
  GPtrArray *texts;
  double max_y;
  gboolean outside;
} Recorded;

static void
record (const char *text, double x, double y, double w, double h, gpointer data)
{
  Recorded *r = data;
  g_ptr_array_add (r->texts, g_strdup (text));
  r->max_y = MAX (r->max_y, y + h);
  if (x < -SLACK || y < -SLACK || x + w > W + SLACK || y + h > H + SLACK) {
    g_test_message ("\"%s\" (%.0f,%.0f %.0fx%.0f) leaves the drawing", text, x, y, w, h);
    r->outside = TRUE;
  }
}

static gboolean
has_text (GPtrArray *texts, const char *prefix)
{
  for (guint i = 0; i < texts->len; i++)
    if (g_str_has_prefix (g_ptr_array_index (texts, i), prefix))
      return TRUE;
  return FALSE;
}

static void
render (gboolean dark)
{
  MsSyncModel m;
  ms_sync_model_material (&m);
  MsResults *run = ms_sync_model_run (&m, NULL);
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, W, H);
  cairo_t *cr = cairo_create (s);
  MsChartStyle st;
  if (dark)
    ms_chart_style_init_dark (&st);
  else
    ms_chart_style_init_light (&st);
  st.text_scale = 1.5;
  st.line_scale = 2;
  Recorded rec = { g_ptr_array_new_with_free_func (g_free), 0, FALSE };
  ms_draw_set_text_recorder (record, &rec);
  g_assert_true (ms_lesson_picture_draw (cr, MS_TOPIC_IMPLICIT_SYNC, run, &st, W, H));
  ms_draw_set_text_recorder (NULL, NULL);
  if (g_getenv ("MS_TEST_PNG_DIR")) {
    g_autofree char *png = g_strdup_printf ("%s/implicit-sync-%s.png",
                                            g_getenv ("MS_TEST_PNG_DIR"), dark ? "dark" : "light");
    cairo_surface_write_to_png (s, png);
  }
  g_assert_false (rec.outside);
  g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
  /* Verdicts in the cells, the rows' calls, the timeline's title. */
  g_assert_true (has_text (rec.texts, "serial 1.98"));
  g_assert_true (has_text (rec.texts, "overlap 1.0"));
  g_assert_true (has_text (rec.texts, "cudaMalloc"));
  g_assert_true (has_text (rec.texts, "Timeline of one instrumented sample: cudaMalloc"));
  /* The timeline lies in the lower part. */
  g_assert_cmpfloat (rec.max_y, >, H * 0.6);
  g_ptr_array_unref (rec.texts);
  cairo_destroy (cr);
  cairo_surface_destroy (s);
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
