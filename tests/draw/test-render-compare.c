/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-render-compare.c: the difference chart (draw/ms-compare-chart.c) at
 * 1024x768, checked by pixel: a ring in the verdict's colour round a faster
 * and a slower point, none round a point that is the same, the threshold's
 * band shaded around 1, a log ratio axis, in the light and the dark style,
 * plain and at presentation size. MEMSWEEP_RENDER_DIR=dir keeps the
 * images. */
#include <math.h>
#include <string.h>

#include "ms-canvas-test.h"
#include "ms-compare-chart.h"

#define W 1024
#define H 768

static void
pixel (MsTestCanvas *c, int x, int y, double rgb[3])
{
  cairo_surface_flush (c->surface);
  const unsigned char *data = cairo_image_surface_get_data (c->surface);
  guint32 p = *(const guint32 *)(data + y * cairo_image_surface_get_stride (c->surface) + x * 4);
  rgb[0] = ((p >> 16) & 0xff) / 255.0;
  rgb[1] = ((p >> 8) & 0xff) / 255.0;
  rgb[2] = (p & 0xff) / 255.0;
}

/* Whether col is found on the circle of radius r round (cx, cy), a pixel
 * either side: where a ring is drawn, not the text or frame beside it. */
static gboolean
on_circle (MsTestCanvas *c, double cx, double cy, double r, const MsColor *col)
{
  double rgb[3];
  for (int k = 0; k < 96; k++)
    for (int dr = -1; dr <= 1; dr++) {
      int x = (int)round (cx + (r + dr) * cos (k * G_PI / 48));
      int y = (int)round (cy + (r + dr) * sin (k * G_PI / 48));
      if (x < 0 || y < 0 || x >= W || y >= H)
        continue;
      pixel (c, x, y, rgb);
      if (fabs (rgb[0] - col->red) < 0.06 && fabs (rgb[1] - col->green) < 0.06
          && fabs (rgb[2] - col->blue) < 0.06)
        return TRUE;
    }
  return FALSE;
}

static MsComparison *
comparison (void)
{
  MsComparison *cmp = g_new0 (MsComparison, 1);
  cmp->threshold = 0.10;
  cmp->cells = g_new0 (MsCompareCell, 11);
  for (int e = 10; e <= 20; e++) {
    MsCompareCell *c = &cmp->cells[cmp->n_cells++];
    c->mode = MS_MODE_PINNED;
    c->exponent = e;
    c->in_a = c->in_b = TRUE;
    c->ratio = e == 12 ? 0.7 : e == 16 ? 1.3 : e == 18 ? 1.2 : 1.0;
    c->a = (MsInterval){ 100, 99, 101, TRUE };
    c->b = (MsInterval){ 100 * c->ratio, 99 * c->ratio, 101 * c->ratio, TRUE };
    c->verdict = e == 12   ? MS_VERDICT_FASTER
                 : e == 16 ? MS_VERDICT_SLOWER
                 : e == 18 ? MS_VERDICT_AMBIGUOUS
                           : MS_VERDICT_SAME;
  }
  return cmp;
}

static void
check_style (gboolean dark, double text_scale)
{
  MsComparison *cmp = comparison ();
  MsChartData *d = ms_compare_chart_data (cmp, "B against A");
  MsChartStyle st;
  if (dark)
    ms_chart_style_init_dark (&st);
  else
    ms_chart_style_init_light (&st);
  st.text_scale = text_scale;
  st.high_contrast = text_scale > 1;
  MsTestCanvas c = ms_test_canvas_new (W, H);
  ms_draw_background (c.cr, &st);
  MsChartLayout l;
  ms_chart_layout_init (&l);
  ms_compare_chart_draw (c.cr, cmp, d, &st, W, H, &l);
  g_assert_cmpfloat (l.plot_w, >, W / 2);

  double ring_r = ms_style_marker_radius (&st) * 1.7;
  /* A decided verdict's ring in the foreground: faster below 1, slower
   * above; none where B is the same. */
  MsColor ring_color, decided;
  ms_verdict_color (MS_VERDICT_FASTER, &st, &ring_color);
  /* As drawn over the background. */
  double a = ring_color.alpha;
  decided = (MsColor){ a * ring_color.red + (1 - a) * st.bg.red,
                       a * ring_color.green + (1 - a) * st.bg.green,
                       a * ring_color.blue + (1 - a) * st.bg.blue, 1 };
  for (int e = 10; e <= 20; e++) {
    double x = ms_scale_to_pixel (&l.xs, 4.0 * exp2 (e));
    double y = ms_scale_to_pixel (&l.ys, cmp->cells[e - 10].ratio);
    /* None where B is the same; the ends (the frame, the band's label)
     * and the ambiguous ring's neighbours left out. */
    if (e == 12 || e == 16)
      g_assert_true (on_circle (&c, x, y, ring_r, &decided));
    else if (e >= 13 && e <= 15)
      g_assert_false (on_circle (&c, x, y, ring_r, &decided));
    /* Nor round an ambiguous point, in either ring colour: rings round
     * every such point piled over the lines. */
    if (e == 18) {
      MsColor pale;
      ms_verdict_color (MS_VERDICT_AMBIGUOUS, &st, &pale);
      double pa = pale.alpha;
      pale = (MsColor){ pa * pale.red + (1 - pa) * st.bg.red,
                        pa * pale.green + (1 - pa) * st.bg.green,
                        pa * pale.blue + (1 - pa) * st.bg.blue, 1 };
      g_assert_false (on_circle (&c, x, y, ring_r, &decided));
      g_assert_false (on_circle (&c, x, y, ring_r, &pale));
    }
  }
  g_assert_cmpfloat (ms_scale_to_pixel (&l.ys, cmp->cells[2].ratio), >,
                     ms_scale_to_pixel (&l.ys, 1));
  g_assert_cmpfloat (ms_scale_to_pixel (&l.ys, cmp->cells[6].ratio), <,
                     ms_scale_to_pixel (&l.ys, 1));

  /* The band: inside it, between two sizes and away from the line, the
   * background is tinted with the foreground; outside it, it is not. */
  double x
      = (ms_scale_to_pixel (&l.xs, 4.0 * exp2 (13)) + ms_scale_to_pixel (&l.xs, 4.0 * exp2 (14)))
        / 2;
  double in[3], out[3], bg[3] = { st.bg.red, st.bg.green, st.bg.blue };
  pixel (&c, (int)x, (int)ms_scale_to_pixel (&l.ys, 1.07), in);
  pixel (&c, (int)x, (int)ms_scale_to_pixel (&l.ys, 1.16), out);
  double tint = fabs (in[1] - bg[1]), none = fabs (out[1] - bg[1]);
  g_assert_cmpfloat (tint, >, 0.02);
  g_assert_cmpfloat (none, <, 0.02);

  /* A log ratio axis: B twice as fast lies as far below 1 as twice as slow
   * above it. */
  double one = ms_scale_to_pixel (&l.ys, 1);
  g_assert_cmpfloat (
      fabs ((ms_scale_to_pixel (&l.ys, 0.5) - one) + (ms_scale_to_pixel (&l.ys, 2) - one)), <, 0.5);

  const char *dir = g_getenv ("MEMSWEEP_RENDER_DIR");
  if (dir) {
    g_autofree char *name
        = g_strdup_printf ("compare-ratio-%s-%s.png", text_scale > 1 ? "presentation" : "plain",
                           dark ? "dark" : "light");
    g_autofree char *path = g_build_filename (dir, name, NULL);
    cairo_surface_write_to_png (c.surface, path);
  }

  ms_chart_layout_clear (&l);
  ms_test_canvas_free (&c);
  ms_chart_data_free (d);
  g_free (cmp->cells);
  g_free (cmp);
}

static void
test_light (void)
{
  check_style (FALSE, 1);
  check_style (FALSE, 1.6);
}

static void
test_dark (void)
{
  check_style (TRUE, 1);
  check_style (TRUE, 1.6);
}

static void
count_title (const char *text, double x, double y, double w, double h, gpointer data)
{
  *(int *)data += strcmp (text, "Bytes per vector") == 0;
}

/* The chart as low as the page gives it under its pickers and summary at
 * 1024x768 (some 330 px, text 1.3 times): the size axis's title goes, its
 * line given to the plot; a tall chart keeps it. */
static void
test_low_chart (void)
{
  MsComparison *cmp = comparison ();
  MsChartData *d = ms_compare_chart_data (cmp, "B against A");
  MsChartStyle st;
  ms_chart_style_init_light (&st);
  st.text_scale = 1.3;
  const int heights[] = { 330, H };
  for (guint i = 0; i < G_N_ELEMENTS (heights); i++) {
    MsTestCanvas c = ms_test_canvas_new (W, heights[i]);
    int titles = 0;
    ms_draw_set_text_recorder (count_title, &titles);
    ms_compare_chart_draw (c.cr, cmp, d, &st, W, heights[i], NULL);
    ms_draw_set_text_recorder (NULL, NULL);
    g_assert_cmpint (titles, ==, heights[i] == H);
    ms_test_canvas_free (&c);
  }
  ms_chart_data_free (d);
  g_free (cmp->cells);
  g_free (cmp);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/render-compare/light", test_light);
  g_test_add_func ("/render-compare/dark", test_dark);
  g_test_add_func ("/render-compare/low-chart", test_low_chart);
  return g_test_run ();
}
