/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-render-slides.c: every lesson's picture as projected at 1024x768
 * (the slide's share of the window at each height it takes, presentation
 * text), light and dark, from the shipped runs of both GPUs (and in
 * zh_CN: the render-slides-zh_CN test): no label box and no word over a
 * pixel of plotted data (the picture's data layer drawn alone, its lines,
 * markers, error bars and reference lines, looked at under each box, as
 * well as ms_chart_data_cover's model of them), no "-0%", and no text
 * whose x-height, as Pango renders its glyphs, is under 60 % of the
 * takeaway's at its nominal 22 pt (bold): every caption, footnote, axis
 * label and key in the picture, whatever its line height. A lesson without
 * a picture of its own is drawn as its slide shows it: the reuse chart, or
 * its timelines (their bars' labels, legend and note). The labels around
 * the picture are the widget test's (tests/ui/test-widget-lesson-slides.c). */
#include <libintl.h>
#include <locale.h>
#include <math.h>
#include <pango/pangocairo.h>
#include <string.h>

#include "ms-i18n.h"
#include "ms-lesson-picture.h"
#include "ms-lesson-rows.h"
#include "ms-reuse-chart.h"
#include "ms-timeline-rows.h"
#include "model/ms-results.h"
#include "lessons/ms-run-read.h"
#include "ms-host-link-test.h"
#include "ms-shipped-run-test.h"

/* The takeaway's nominal size on a slide: 22 pt (style.css,
 * presentation), in pixels at 96 dpi. */
#define TAKEAWAY_PX (22 * 96.0 / 72)
/* The least x-height a slide's text may have, as a share of the
 * takeaway's: what a back row still reads beside the headline. */
#define LEAST_SHARE 0.6

/* The x-height of the drawing's font (Sans) at size_px, as Pango renders
 * the glyph: its ink box, in whole device pixels as drawn. */
static double
x_height (double size_px, gboolean bold)
{
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 8, 8);
  cairo_t *cr = cairo_create (s);
  PangoLayout *layout = pango_cairo_create_layout (cr);
  PangoFontDescription *font = pango_font_description_from_string ("Sans");
  pango_font_description_set_weight (font, bold ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL);
  pango_font_description_set_absolute_size (font, size_px * PANGO_SCALE);
  pango_layout_set_font_description (layout, font);
  pango_layout_set_text (layout, "x", -1);
  PangoRectangle ink;
  pango_layout_get_pixel_extents (layout, &ink, NULL);
  pango_font_description_free (font);
  g_object_unref (layout);
  cairo_destroy (cr);
  cairo_surface_destroy (s);
  return ink.height;
}

/* The picture's share of a 1024x768 window in presentation mode, under
 * the header, the takeaway and Details, above the view switcher: its
 * height as the header takes two lines (a run's name that wraps) or one.
 * A label placed well at one height landed on a reference line at the
 * other (sync-async on the H200). */
#define SLIDE_W 1000
static const int slide_heights[] = { 540, 575 };
/* Every size a slide's picture takes at 1024x768 in presentation mode:
 * the two above; 1014x579, the app's with the view switcher shown (where
 * "1 MiB: returned after 84 µs" hid the H100's pageable line); and since
 * the switcher hides with the header (issue 84) 1014x636 under a header
 * of one line, 612 under a title of two. */
static const struct {
  int w, h;
} slide_sizes[] = { { SLIDE_W, 540 }, { SLIDE_W, 575 }, { 1014, 579 }, { 1014, 612 }, { 1014, 636 } };

typedef struct {
  GString *problems;
  const char *what;
  double least_x; /* the least x-height drawn, pixels */
  char *least;
  double floor_x;    /* the least allowed */
  GHashTable *small; /* the texts under it, said once each */
  /* A lesson compared by copy rate: the takeaway, whose rates are the
   * only ones its slide may quote (the same rounding of the same median);
   * NULL: any. */
  const char *rates_of;
  GArray *boxes; /* LabelBox: every label box the drawing checked, every word drawn */
} Check;

/* A label box as drawn, in device pixels. */
typedef struct {
  char *label;
  MsChartRect box;
} LabelBox;

static void
check_label (const char *label, double cover, const MsChartRect *box, gpointer data)
{
  Check *c = data;
  if (cover > 0)
    g_string_append_printf (c->problems, "%s: \"%s\" covers data (%.0f)\n", c->what, label, cover);
  LabelBox b = { g_strdup (label), *box };
  g_array_append_val (c->boxes, b);
}

static void
clear_box (gpointer data)
{
  g_free (((LabelBox *) data)->label);
}

/* The pixels of drawn data under box: those of the data layer alone
 * (ms_draw_data_only_begin) whose centres lie inside it, at a quarter of
 * full strength or more (a line's antialiased edge a fraction of a pixel
 * off the box is not under it). */
static int
data_pixels (cairo_surface_t *layer, const MsChartRect *box)
{
  const unsigned char *px = cairo_image_surface_get_data (layer);
  int stride = cairo_image_surface_get_stride (layer);
  int w = cairo_image_surface_get_width (layer), h = cairo_image_surface_get_height (layer);
  int x0 = MAX (0, (int) ceil (box->x - 0.5)), x1 = MIN (w, (int) floor (box->x + box->w - 0.5) + 1);
  int y0 = MAX (0, (int) ceil (box->y - 0.5)), y1 = MIN (h, (int) floor (box->y + box->h - 0.5) + 1);
  int n = 0;
  for (int y = y0; y < y1; y++)
    for (int x = x0; x < x1; x++)
      n += (*(const guint32 *) (px + y * stride + x * 4) >> 24) >= 64;
  return n;
}

static void
check_size (const char *text, double size_px, gboolean bold, gpointer data)
{
  Check *c = data;
  double x = x_height (size_px, bold);
  if (x < c->least_x) {
    c->least_x = x;
    g_free (c->least);
    c->least = g_strdup (text);
  }
  if (x < c->floor_x && !g_hash_table_contains (c->small, text)) {
    g_hash_table_add (c->small, g_strdup (text));
    g_string_append_printf (c->problems, "%s: \"%s\" has an x-height of %.0f px (%.1f px font)\n",
                            c->what, text, x, size_px);
  }
}

static void
check_text (const char *text, double x, double y, double w, double h, gpointer data)
{
  Check *c = data;
  /* Every word's box too, not only the labels a chart places: a word
   * over a line hides it as a label's background does. */
  LabelBox b = { g_strdup (text), { x, y, w, h } };
  g_array_append_val (c->boxes, b);
  if (strstr (text, "-0%") || strstr (text, "−0%"))
    g_string_append_printf (c->problems, "%s: \"%s\" says -0%%\n", c->what, text);
  /* "8.4 GB/s" on a bar under a headline's 8.3 GB/s read as two answers. */
  for (const char *at = c->rates_of ? strstr (text, " GB/s") : NULL; at;
       at = strstr (at + 1, " GB/s")) {
    const char *start = at;
    while (start > text && (g_ascii_isdigit (start[-1]) || start[-1] == '.'))
      start--;
    g_autofree char *rate = g_strndup (start, at - start);
    /* The way back's rates, where the headline quotes a ratio ("5.1×
     * back"): another direction, not a second answer. */
    gboolean back = start - text >= 4 && g_str_has_prefix (start - 4, "d2h ")
                    && strstr (c->rates_of, "×");
    if (rate[0] && !back && !strstr (c->rates_of, rate))
      g_string_append_printf (c->problems, "%s: \"%s\" quotes %s GB/s, which \"%s\" does not\n",
                              c->what, text, rate, c->rates_of);
  }
}

/* The timelines and the reuse chart have the slide's height less the
 * check button over them. */
#define CHECK_H 40

/* What the Lessons page shows of topic: its picture, else its reuse
 * chart, else its timelines. FALSE: none of them. */
static gboolean
draw_answer (cairo_t *cr, MsLessonTopic t, const MsResults *run, const MsChartStyle *st,
             double slide_w, double slide_h)
{
  const MsLessonLook *look = ms_lesson_look (t);
  if (ms_lesson_picture_has (t))
    return ms_lesson_picture_draw (cr, t, run, st, slide_w, slide_h);
  if (look->view.reuse_chart) {
    MsChartData *d
        = ms_reuse_chart_build (run, ms_reuse_default_exponent (run),
                                look->view.reuse_time ? MS_REUSE_TIME : MS_REUSE_BANDWIDTH);
    ms_reuse_chart_draw (cr, d, st, slide_w, slide_h - CHECK_H, NULL);
    ms_chart_data_free (d);
    return TRUE;
  }
  MsTimelineRows rows;
  ms_timeline_rows_init (&rows);
  gboolean drawn = ms_lesson_rows_fill_slide (&rows, t, run) > 0;
  if (drawn) {
    MsTimeWindow win;
    ms_timeline_rows_window (&rows, look->view.show_setup, &win);
    ms_timeline_rows_draw (cr, &rows, &win, st, slide_w, slide_h - CHECK_H, NULL);
  }
  ms_timeline_rows_clear (&rows);
  return drawn;
}

/* A slide's style as projected: text 1.6 times, thick lines, high
 * contrast, light or dark. */
static void
slide_style (MsChartStyle *st, gboolean dark)
{
  if (dark)
    ms_chart_style_init_dark (st);
  else
    ms_chart_style_init_light (st);
  st->text_scale = 1.6;
  st->line_scale = 2;
  st->high_contrast = TRUE;
  st->slide = TRUE;
}

/* The slide drawn, every label box recorded; then its data layer alone,
 * and each box looked at for the data's pixels under it: a box placed by
 * a model of the lines (ms_chart_data_cover) hid 55 px of the H100
 * sync-async slide's pageable line at the app's height (issue 84). */
static void
draw_slide (MsLessonTopic t, const MsResults *run, gboolean dark, int slide_w, int slide_h,
            Check *check)
{
  MsChartStyle st;
  slide_style (&st, dark);
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, slide_w, slide_h);
  cairo_t *cr = cairo_create (surface);
  ms_chart_set_label_check (check_label, check);
  ms_draw_set_text_recorder (check_text, check);
  ms_draw_set_size_recorder (check_size, check);
  draw_answer (cr, t, run, &st, slide_w, slide_h);
  ms_draw_set_size_recorder (NULL, NULL);
  ms_draw_set_text_recorder (NULL, NULL);
  ms_chart_set_label_check (NULL, NULL);
  cairo_surface_t *layer = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, slide_w, slide_h);
  cairo_t *lcr = cairo_create (layer);
  ms_draw_data_only_begin (lcr);
  draw_answer (lcr, t, run, &st, slide_w, slide_h);
  ms_draw_data_only_end (lcr);
  cairo_surface_flush (layer);
  for (guint i = 0; i < check->boxes->len; i++) {
    const LabelBox *b = &g_array_index (check->boxes, LabelBox, i);
    /* Inside the slide, in every language: zh_CN's shorter words once
     * left the cache-state slide's "1× = 1.35 ms" running off its edge. */
    if (b->box.x < -1 || b->box.x + b->box.w > slide_w + 1)
      g_string_append_printf (check->problems, "%s: \"%s\" (%.0f,%.0f %.0fx%.0f) leaves the slide\n",
                              check->what, b->label, b->box.x, b->box.y, b->box.w, b->box.h);
    int n = data_pixels (layer, &b->box);
    if (n > 0)
      g_string_append_printf (check->problems,
                              "%s: \"%s\" (%.0f,%.0f %.0fx%.0f) covers %d pixels of data\n",
                              check->what, b->label, b->box.x, b->box.y, b->box.w, b->box.h, n);
  }
  const char *dir = g_getenv ("MEMSWEEP_RENDER_DIR");
  if (dir) {
    g_autofree char *path = g_strdup_printf ("%s/slide-%s.png", dir, check->what);
    cairo_surface_write_to_png (surface, path);
    g_autofree char *data_path = g_strdup_printf ("%s/data-%s.png", dir, check->what);
    cairo_surface_write_to_png (layer, data_path);
  }
  cairo_destroy (lcr);
  cairo_surface_destroy (layer);
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
  const double takeaway_x = x_height (TAKEAWAY_PX, TRUE);
  g_assert_cmpfloat (takeaway_x, >, 10);
  g_test_message ("the takeaway's x-height at 22 pt: %.0f px; the least allowed %.1f px",
                  takeaway_x, LEAST_SHARE * takeaway_x);
  int drawn = 0;
  guint boxes = 0;
  for (guint g = 0; g < G_N_ELEMENTS (gpus); g++)
    for (int t = 0; t < MS_TOPIC_COUNT; t++) {
      MsResults *run = ms_test_shipped_run (gpus[g], t);
      if (!run)
        continue;
      for (int k = 0; k < 2 * (int) G_N_ELEMENTS (slide_sizes); k++) {
        int dark = k % 2, w = slide_sizes[k / 2].w, h = slide_sizes[k / 2].h;
        g_autofree char *what = g_strdup_printf ("%s-%s-%s-%d", gpus[g], ms_lesson_topic (t)->name,
                                                 dark ? "dark" : "light", h);
        char takeaway[512] = "";
        const MsLessonLook *look = ms_lesson_look (t);
        gboolean by_rate = look && look->view.rows_rate
                           && ms_lesson_takeaway (t, run, takeaway, sizeof takeaway)
                                  == MS_TAKEAWAY_DECIDED;
        Check check = { problems, what, G_MAXDOUBLE, NULL, LEAST_SHARE * takeaway_x,
                         g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL),
                         by_rate ? takeaway : NULL, g_array_new (FALSE, FALSE, sizeof (LabelBox)) };
        g_array_set_clear_func (check.boxes, clear_box);
        draw_slide (t, run, dark, w, h, &check);
        if (!check.least)
          g_string_append_printf (problems, "%s: no text recorded\n", what);
        boxes += check.boxes->len;
        g_array_unref (check.boxes);
        g_hash_table_unref (check.small);
        g_free (check.least);
      }
      drawn++;
      ms_results_free (run);
    }
  ms_lesson_portable_use (NULL, NULL);
  /* Every lesson of both GPUs (numa's card too), and label boxes among
   * them to look under. */
  g_assert_cmpint (drawn, >=, 38);
  g_test_message ("%u label and text boxes looked under", boxes);
  g_assert_cmpuint (boxes, >, 1000);
  if (problems->len)
    g_error ("slides:\n%s", problems->str);
  g_string_free (problems, TRUE);
}

typedef struct {
  double x, y, w, h;
} NoisyLabel;

static void
find_noisy_label (const char *text, double x, double y, double w, double h, gpointer data)
{
  NoisyLabel *n = data;
  if (n->w == 0 && g_str_has_prefix (text, "too noisy: "))
    *n = (NoisyLabel) { x, y, w, h };
}

static double
luminance (guint32 pixel)
{
  double c[3] = { ((pixel >> 16) & 0xff) / 255.0, ((pixel >> 8) & 0xff) / 255.0,
                  (pixel & 0xff) / 255.0 };
  for (int i = 0; i < 3; i++)
    c[i] = c[i] <= 0.03928 ? c[i] / 12.92 : pow ((c[i] + 0.055) / 1.055, 2.4);
  return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
}

/* The best contrast with bg along row y, from x0 to x1. */
static double
row_contrast (cairo_surface_t *s, int y, int x0, int x1, double bg)
{
  const unsigned char *data = cairo_image_surface_get_data (s);
  int stride = cairo_image_surface_get_stride (s);
  double best = 1;
  for (int x = MAX (x0, 0); x < x1; x++) {
    double l = luminance (*(const guint32 *) (data + y * stride + x * 4));
    best = MAX (best, (MAX (l, bg) + 0.05) / (MIN (l, bg) + 0.05));
  }
  return best;
}

/* The host-function slide's bars too noisy to trust, dark as light, on
 * both GPUs: no bar (a 92 µs bar drew the eye from the line's "about
 * 53 µs"), "too noisy: A to B" at the row's start, and the interval under
 * it seen, 3:1 from the background. */
static void
test_noisy_bars_seen (void)
{
  static const char *const gpus[] = { "h100", "h200" };
  for (guint g = 0; g < G_N_ELEMENTS (gpus); g++)
    for (int dark = 0; dark < 2; dark++) {
      MsResults *run = ms_test_shipped_run (gpus[g], MS_TOPIC_HOST_FUNC);
      g_assert_nonnull (run);
      MsChartStyle st;
      slide_style (&st, dark);
      cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_RGB24, SLIDE_W, 540);
      cairo_t *cr = cairo_create (s);
      NoisyLabel label = { 0 };
      ms_draw_set_text_recorder (find_noisy_label, &label);
      g_assert_true (draw_answer (cr, MS_TOPIC_HOST_FUNC, run, &st, SLIDE_W, 540));
      ms_draw_set_text_recorder (NULL, NULL);
      cairo_surface_flush (s);
      g_assert_cmpfloat (label.w, >, 0);
      const unsigned char *data = cairo_image_surface_get_data (s);
      int stride = cairo_image_surface_get_stride (s), y = (int) (label.y + label.h / 2);
      double bg = luminance (*(const guint32 *) (data + y * stride + (SLIDE_W - 2) * 4));
      /* Right of the words, at their height: background, no bar. */
      double bar = row_contrast (s, y, (int) (label.x + label.w) + 4, SLIDE_W - 2, bg);
      double line = 1;
      for (int yy = (int) (label.y + label.h); yy < (int) (label.y + 2.5 * label.h); yy++)
        line = MAX (line, row_contrast (s, yy, 0, SLIDE_W - 2, bg));
      g_test_message ("%s %s: beside the words %.1f:1, the interval %.1f:1", gpus[g],
                      dark ? "dark" : "light", bar, line);
      g_assert_cmpfloat (bar, <, 1.5);
      g_assert_cmpfloat (line, >=, 3);
      cairo_destroy (cr);
      cairo_surface_destroy (s);
      ms_results_free (run);
    }
}

static void
collect_text (const char *text, double x, double y, double w, double h, gpointer data)
{
  g_ptr_array_add (data, g_strdup (text));
}

/* How many of texts start with prefix, the bare word (the legend's key)
 * not counted. */
static guint
count_named (const GPtrArray *texts, const char *prefix)
{
  guint n = 0;
  for (guint i = 0; i < texts->len; i++) {
    const char *t = g_ptr_array_index (texts, i);
    n += g_str_has_prefix (t, prefix) && strcmp (t, prefix) != 0;
  }
  return n;
}

/* The managed-touch slide names the kernel that runs after the prefetch
 * (a sliver between the prefetch and the copy back) and the prefetch
 * (in the key at least), on both GPUs, at both heights, light and dark: on the H100 both were
 * unnamed, the prefetch too narrow for its name. */
static void
test_managed_touch_named (void)
{
  static const char *const gpus[] = { "h100", "h200" };
  for (guint g = 0; g < G_N_ELEMENTS (gpus); g++) {
    MsResults *run = ms_test_shipped_run (gpus[g], MS_TOPIC_MANAGED);
    g_assert_nonnull (run);
    for (int k = 0; k < 2 * (int) G_N_ELEMENTS (slide_heights); k++) {
      int dark = k % 2, h = slide_heights[k / 2];
      MsChartStyle st;
      slide_style (&st, dark);
      cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_RGB24, SLIDE_W, h);
      cairo_t *cr = cairo_create (s);
      g_autoptr (GPtrArray) texts = g_ptr_array_new_with_free_func (g_free);
      ms_draw_set_text_recorder (collect_text, texts);
      g_assert_true (draw_answer (cr, MS_TOPIC_MANAGED, run, &st, SLIDE_W, h));
      ms_draw_set_text_recorder (NULL, NULL);
      /* The first touch's kernel and the one after the prefetch; the
       * prefetch by the key's swatch at least. Its own name over its bar
       * ("prefetch 801 µs") has no room left at a back row's size (issue
       * 92): the row's lanes hold one call-out over them, the kernel's. */
      guint prefetch = 0;
      for (guint i = 0; i < texts->len; i++)
        prefetch += g_str_has_prefix (g_ptr_array_index (texts, i), "prefetch");
      if (count_named (texts, "kernel") < 2 || prefetch < 1)
        g_error ("%s managed-touch %s %d: %u kernels, %u prefetches named", gpus[g],
                 dark ? "dark" : "light", h, count_named (texts, "kernel"), prefetch);
      cairo_destroy (cr);
      cairo_surface_destroy (s);
    }
    ms_results_free (run);
  }
}

static gboolean
near_color (guint32 p, const MsColor *c)
{
  return fabs (((p >> 16) & 0xff) / 255.0 - c->red) < 0.03
         && fabs (((p >> 8) & 0xff) / 255.0 - c->green) < 0.03
         && fabs ((p & 0xff) / 255.0 - c->blue) < 0.03;
}

static void
find_tick (const char *text, double x, double y, double w, double h, gpointer data)
{
  double *at = data;
  if (strcmp (text, "4 MiB") == 0)
    *at = x + w / 2;
}

/* sync-async's slide, both GPUs, light and dark, both heights: at 4 MiB
 * cudaMemcpy's marker (a square in its colour) ends left of the size's
 * tick, off the ringed marker of the pageable call on it, 0.1 to 0.15
 * decades above it: there the square lay under the ring. */
static void
test_sync_async_markers_apart (void)
{
  static const char *const gpus[] = { "h100", "h200" };
  for (guint g = 0; g < G_N_ELEMENTS (gpus); g++) {
    MsResults *run = ms_test_shipped_run (gpus[g], MS_TOPIC_SYNC_ASYNC);
    g_assert_nonnull (run);
    for (int k = 0; k < 2 * (int) G_N_ELEMENTS (slide_heights); k++) {
      int dark = k % 2, h = slide_heights[k / 2];
      MsChartStyle st;
      slide_style (&st, dark);
      cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_RGB24, SLIDE_W, h);
      cairo_t *cr = cairo_create (s);
      double tick = -1;
      ms_draw_set_text_recorder (find_tick, &tick);
      g_assert_true (draw_answer (cr, MS_TOPIC_SYNC_ASYNC, run, &st, SLIDE_W, h));
      ms_draw_set_text_recorder (NULL, NULL);
      g_assert_cmpfloat (tick, >, 0);
      cairo_surface_flush (s);
      MsColor sync;
      ms_chart_palette_color (1 /* cudaMemcpy, pinned */, dark, &sync);
      const unsigned char *data = cairo_image_surface_get_data (s);
      int stride = cairo_image_surface_get_stride (s), right = -1;
      /* Above the key (the lower fifth): the rightmost pixel in the
       * square's colour. */
      for (int y = 0; y < h * 4 / 5; y++)
        for (int x = 0; x < SLIDE_W; x++)
          if (near_color (*(const guint32 *) (data + y * stride + x * 4), &sync))
            right = MAX (right, x);
      g_assert_cmpint (right, >, 0);
      if (right >= tick - 4)
        g_error ("%s sync-async %s %d: cudaMemcpy's 4 MiB marker reaches %d, the tick is at %.0f",
                 gpus[g], dark ? "dark" : "light", h, right, tick);
      cairo_destroy (cr);
      cairo_surface_destroy (s);
    }
    ms_results_free (run);
  }
}

/* A reference line drawn over the series (refs_over), as sync-async's
 * kernel ahead is over cudaMemcpy's line that runs along it: on the line's
 * row, where the series covers it, its dots are seen; under the series
 * they were not. */
static void
test_ref_line_over_series (void)
{
  for (int over = 0; over < 2; over++) {
    MsChartData *d = ms_chart_data_new ();
    d->y_kind = MS_SCALE_LOG10;
    d->y_unit = MS_SCALE_TIME_US;
    d->refs_over = over;
    MsChartSeries *s = ms_chart_data_add_series (d, "along", 1, 1, 0);
    for (int e = 10; e <= 22; e += 2)
      ms_chart_series_add (s, (double) (1 << e), 200, 1, 0, FALSE);
    MsChartSeries *low = ms_chart_data_add_series (d, "low", 2, 2, 0);
    ms_chart_series_add (low, 1024, 2, 1, 0, FALSE);
    ms_chart_data_add_ref (d, 200, NULL);
    MsChartStyle st;
    ms_chart_style_init_light (&st);
    cairo_surface_t *surf = cairo_image_surface_create (CAIRO_FORMAT_RGB24, 800, 500);
    cairo_t *cr = cairo_create (surf);
    MsChartLayout l;
    ms_chart_layout_init (&l);
    ms_chart_draw (cr, d, &st, 800, 500, -1, &l);
    cairo_surface_flush (surf);
    int y = (int) (ms_scale_to_pixel (&l.ys, 200) + 0.5);
    const unsigned char *data = cairo_image_surface_get_data (surf);
    int stride = cairo_image_surface_get_stride (surf), dark_px = 0;
    for (int x = (int) l.plot_x + 40; x < (int) (l.plot_x + l.plot_w) - 40; x++) {
      guint32 p = *(const guint32 *) (data + y * stride + x * 4);
      dark_px += ((p >> 16) & 0xff) + ((p >> 8) & 0xff) + (p & 0xff) < 3 * 110;
    }
    g_test_message ("refs_over %d: %d dark pixels on the line's row", over, dark_px);
    if (over)
      g_assert_cmpint (dark_px, >, 20);
    else
      g_assert_cmpint (dark_px, <, 20);
    ms_chart_layout_clear (&l);
    cairo_destroy (cr);
    cairo_surface_destroy (surf);
    ms_chart_data_free (d);
  }
}

int
main (int argc, char **argv)
{
  /* The locale meson sets (render-slides-zh_CN), and its catalogue. */
  setlocale (LC_ALL, "");
  ms_i18n_bind ();
  textdomain (GETTEXT_PACKAGE);
  g_test_init (&argc, &argv, NULL);
  ms_test_host_link_run ();
  g_test_add_func ("/render/slides/nothing-covers-data", test_nothing_covers_data);
  g_test_add_func ("/render/slides/noisy-bars-seen", test_noisy_bars_seen);
  g_test_add_func ("/render/slides/managed-touch-named", test_managed_touch_named);
  g_test_add_func ("/render/slides/sync-async-markers-apart", test_sync_async_markers_apart);
  g_test_add_func ("/render/slides/ref-line-over-series", test_ref_line_over_series);
  return g_test_run ();
}
