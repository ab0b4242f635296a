/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-render-slides.c: every lesson's picture as projected at 1024x768
 * (the slide's share of the window, presentation text), light and dark,
 * from the shipped runs of both GPUs: no label box over plotted data (a
 * ring's label on a marker, a line or an error bar, as
 * ms_chart_data_cover counts them), no "-0%", and no text smaller than
 * 60 % of the takeaway's line over it, taken at the least size the
 * headline gives way to (ui/ms-headline.h: 0.8 of 22 pt, bold). */
#include <pango/pangocairo.h>
#include <string.h>

#include "ms-lesson-picture.h"
#include "model/ms-results.h"
#include "lessons/ms-run-read.h"

/* The takeaway's least size on a slide: 22 pt (style.css, presentation)
 * times MS_HEADLINE_FLOOR (ui/ms-headline.h, which a drawing test does
 * not include). */
#define TAKEAWAY_LEAST_PT (22 * 0.8)

/* The height of a line of the takeaway at its least size, in pixels at
 * 96 dpi, as Pango lays it out (its logical box, as the text recorder's). */
static double
takeaway_line_h (void)
{
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 8, 8);
  cairo_t *cr = cairo_create (s);
  PangoLayout *layout = pango_cairo_create_layout (cr);
  PangoFontDescription *font = pango_font_description_from_string ("DejaVu Sans Bold");
  pango_font_description_set_absolute_size (font, TAKEAWAY_LEAST_PT * 96 / 72 * PANGO_SCALE);
  pango_layout_set_font_description (layout, font);
  pango_layout_set_text (layout, "Ag", -1);
  int h;
  pango_layout_get_pixel_size (layout, NULL, &h);
  pango_font_description_free (font);
  g_object_unref (layout);
  cairo_destroy (cr);
  cairo_surface_destroy (s);
  return h;
}

/* The picture's share of a 1024x768 window in presentation mode, under
 * the header, the takeaway and Details, above the view switcher. */
#define SLIDE_W 1000
#define SLIDE_H 540

typedef struct {
  GString *problems;
  const char *what;
  double least_h; /* the smallest text box drawn */
  char *least;
} Check;

static void
check_label (const char *label, double cover, gpointer data)
{
  Check *c = data;
  if (cover > 0)
    g_string_append_printf (c->problems, "%s: \"%s\" covers data (%.0f)\n", c->what, label, cover);
}

static void
check_text (const char *text, double x, double y, double w, double h, gpointer data)
{
  Check *c = data;
  if (h < c->least_h) {
    c->least_h = h;
    g_free (c->least);
    c->least = g_strdup (text);
  }
  if (strstr (text, "-0%") || strstr (text, "−0%"))
    g_string_append_printf (c->problems, "%s: \"%s\" says -0%%\n", c->what, text);
}

static MsResults *
shipped_run (const char *gpu, MsLessonTopic topic)
{
  const MsLessonTopicInfo *info = ms_lesson_topic (topic);
  g_autofree char *file = info->experiment[0]
                              ? g_strdup_printf ("%s-lesson-%s-samples.csv.gz", gpu, info->name)
                              : g_strdup_printf ("%s-default-samples.csv.gz", gpu);
  g_autofree char *path = g_build_filename (g_getenv ("MEMSWEEP_REFERENCE_DIR"), file, NULL);
  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    return NULL;
  char err[256];
  MsResults *r = ms_run_read_samples (path, err, sizeof err);
  g_assert_nonnull (r);
  return r;
}

static void
draw_slide (MsLessonTopic t, const MsResults *run, gboolean dark, Check *check)
{
  MsChartStyle st;
  if (dark)
    ms_chart_style_init_dark (&st);
  else
    ms_chart_style_init_light (&st);
  st.text_scale = 1.6;
  st.line_scale = 2;
  st.high_contrast = TRUE;
  st.slide = TRUE;
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, SLIDE_W, SLIDE_H);
  cairo_t *cr = cairo_create (surface);
  ms_chart_set_label_check (check_label, check);
  ms_draw_set_text_recorder (check_text, check);
  ms_lesson_picture_draw (cr, t, run, &st, SLIDE_W, SLIDE_H);
  ms_draw_set_text_recorder (NULL, NULL);
  ms_chart_set_label_check (NULL, NULL);
  const char *dir = g_getenv ("MEMSWEEP_RENDER_DIR");
  if (dir) {
    g_autofree char *path = g_strdup_printf ("%s/slide-%s.png", dir, check->what);
    cairo_surface_write_to_png (surface, path);
  }
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
}

static void
test_nothing_covers_data (void)
{
  static const char *const gpus[] = { "h100", "h200" };
  char err[256];
  g_assert_true (
      ms_lesson_portable_use_shipped (g_getenv ("MEMSWEEP_REFERENCE_DIR"), err, sizeof err));
  GString *problems = g_string_new (NULL);
  const double least_h = takeaway_line_h ();
  g_assert_cmpfloat (least_h, >, 20);
  g_test_message ("the takeaway's line at its least size: %.0f px", least_h);
  int drawn = 0;
  for (guint g = 0; g < G_N_ELEMENTS (gpus); g++)
    for (int t = 0; t < MS_TOPIC_COUNT; t++) {
      MsResults *run = ms_lesson_picture_has (t) ? shipped_run (gpus[g], t) : NULL;
      if (!run)
        continue;
      for (int dark = 0; dark < 2; dark++) {
        g_autofree char *what = g_strdup_printf ("%s-%s-%s", gpus[g], ms_lesson_topic (t)->name,
                                                 dark ? "dark" : "light");
        Check check = { problems, what, G_MAXDOUBLE, NULL };
        draw_slide (t, run, dark, &check);
        if (check.least && check.least_h < 0.6 * least_h)
          g_string_append_printf (problems,
                                  "%s: \"%s\" is %.0f px, under 60%% of the "
                                  "takeaway's %.0f px\n",
                                  what, check.least, check.least_h, least_h);
        g_free (check.least);
      }
      drawn++;
      ms_results_free (run);
    }
  ms_lesson_portable_use (NULL, NULL);
  g_assert_cmpint (drawn, >=, 20);
  if (problems->len)
    g_error ("slides:\n%s", problems->str);
  g_string_free (problems, TRUE);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/render/slides/nothing-covers-data", test_nothing_covers_data);
  return g_test_run ();
}
