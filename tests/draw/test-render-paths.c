/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-render-paths.c: the screen, PNG, SVG and PDF get their pictures
 * from the same drawing code. A chart of eight reference runs is drawn as
 * the views draw it (into an image surface, ms-view-cache.c) and as each
 * export does (ms-export.c): the PNG file read back, the drawing on a
 * vector target (as PDF and SVG get it) played back into an image, and the
 * SVG's text. Pixels may differ only at anti-aliased edges, and only a
 * bounded number of them. */
#include <math.h>
#include <string.h>
#include <cairo-pdf.h>

#include "lessons/ms-run-read.h"
#include "model/ms-results.h"
#include "ms-chart.h"
#include "ms-export.h"
#include "ms-plots.h"
#include "ms-svg-text.h"
#include "ms-tmp-test.h"

enum { W = 1200, H = 800 };

/* Eight runs: the bundled sweeps, each opened more than once under a name
 * of its own, as a user comparing runs would. */
static GPtrArray *
eight_runs (void)
{
  static const char *files[] = { "h100-default-samples.csv.gz", "h200-default-samples.csv.gz",
                                 "h100-large-samples.csv.gz" };
  const char *dir = g_getenv ("MEMSWEEP_REFERENCE_DIR");
  g_assert_nonnull (dir);
  GPtrArray *runs = g_ptr_array_new_with_free_func ((GDestroyNotify) ms_results_free);
  for (guint i = 0; i < 8; i++) {
    char err[512];
    g_autofree char *path = g_build_filename (dir, files[i % G_N_ELEMENTS (files)], NULL);
    MsResults *r = ms_run_read_samples (path, err, sizeof err);
    g_assert_nonnull (r);
    g_snprintf (r->label, sizeof r->label, "run %u", i + 1);
    g_ptr_array_add (runs, r);
  }
  return runs;
}

static void
draw_chart (cairo_t *cr, double width, double height, gpointer data)
{
  MsChartStyle st;
  ms_chart_style_init_light (&st);
  ms_chart_draw (cr, data, &st, width, height, -1, NULL);
}

/* The views' path: an image surface the widget's size. */
static cairo_surface_t *
draw_screen (MsChartData *d)
{
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, W, H);
  cairo_t *cr = cairo_create (s);
  draw_chart (cr, W, H, d);
  cairo_destroy (cr);
  cairo_surface_flush (s);
  return s;
}

/* The drawing made on a vector target (a recording surface, which keeps
 * the operations as PDF and SVG surfaces receive them), played back into
 * an image. With svg_text, text goes to the SVG's text sink instead of
 * being drawn, as in an SVG export. */
static cairo_surface_t *
draw_vector_played_back (MsChartData *d, MsSvgText *svg_text)
{
  cairo_rectangle_t extents = { 0, 0, W, H };
  cairo_surface_t *rec = cairo_recording_surface_create (CAIRO_CONTENT_COLOR_ALPHA, &extents);
  cairo_t *cr = cairo_create (rec);
  if (svg_text)
    ms_svg_text_attach (svg_text, cr);
  draw_chart (cr, W, H, d);
  g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
  cairo_destroy (cr);
  cairo_surface_t *img = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, W, H);
  cr = cairo_create (img);
  cairo_set_source_surface (cr, rec, 0, 0);
  cairo_paint (cr);
  cairo_destroy (cr);
  cairo_surface_destroy (rec);
  cairo_surface_flush (img);
  return img;
}

static int
channel (guint32 px, int c)
{
  return (px >> (8 * c)) & 0xff;
}

/* How much the colours around (x, y) in a vary (a 5x5 square): an edge,
 * a line or text has a large range, a flat area none. */
static int
local_range (const guint32 *a, int stride, int x, int y)
{
  int lo[4] = { 255, 255, 255, 255 }, hi[4] = { 0 }, range = 0;
  for (int dy = -2; dy <= 2; dy++)
    for (int dx = -2; dx <= 2; dx++) {
      int u = CLAMP (x + dx, 0, W - 1), v = CLAMP (y + dy, 0, H - 1);
      guint32 p = a[v * stride + u];
      for (int c = 0; c < 4; c++) {
        lo[c] = MIN (lo[c], channel (p, c));
        hi[c] = MAX (hi[c], channel (p, c));
      }
    }
  for (int c = 0; c < 4; c++)
    range = MAX (range, hi[c] - lo[c]);
  return range;
}

typedef struct {
  guint differ; /* pixels with a channel off by more than the tolerance */
  guint flat;   /* of those, pixels away from any edge */
  guint inked;  /* pixels of the reference that are not the background */
} MsPixelDiff;

static MsPixelDiff
compare (cairo_surface_t *ref, cairo_surface_t *other, int tolerance)
{
  MsPixelDiff r = { 0 };
  int stride = cairo_image_surface_get_stride (ref) / 4;
  g_assert_cmpint (stride, ==, cairo_image_surface_get_stride (other) / 4);
  const guint32 *a = (const guint32 *) cairo_image_surface_get_data (ref);
  const guint32 *b = (const guint32 *) cairo_image_surface_get_data (other);
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++) {
      guint32 p = a[y * stride + x], q = b[y * stride + x];
      r.inked += p != a[0];
      int worst = 0;
      for (int c = 0; c < 4; c++)
        worst = MAX (worst, abs (channel (p, c) - channel (q, c)));
      if (worst <= tolerance)
        continue;
      r.differ++;
      r.flat += local_range (a, stride, x, y) < 24;
    }
  return r;
}

static MsChartData *
eight_run_chart (void)
{
  g_autoptr (GPtrArray) runs = eight_runs ();
  MsChartData *d = ms_plot_build (runs, MS_METRIC_E2E_BANDWIDTH, TRUE, NULL);
  guint shown = 0;
  for (guint i = 0; i < d->series->len; i++)
    shown += !((MsChartSeries *) g_ptr_array_index (d->series, i))->hidden;
  g_assert_cmpuint (shown, >=, 8 * 4);
  return d;
}

/* The PNG export is the screen's picture, pixel for pixel. */
static void
test_png_is_screen (void)
{
  g_autoptr (MsChartData) d = eight_run_chart ();
  cairo_surface_t *screen = draw_screen (d);
  const char *png = ms_test_tmp_path ("chart.png");
  g_autoptr (GError) error = NULL;
  g_assert_true (ms_export_drawing (png, W, H, draw_chart, d, &error));
  g_assert_no_error (error);
  cairo_surface_t *file = cairo_image_surface_create_from_png (png);
  g_assert_cmpint (cairo_surface_status (file), ==, CAIRO_STATUS_SUCCESS);
  g_assert_cmpint (cairo_image_surface_get_width (file), ==, W);
  /* PNG keeps ARGB32 of an opaque drawing exactly. */
  cairo_surface_t *argb = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, W, H);
  cairo_t *cr = cairo_create (argb);
  cairo_set_source_surface (cr, file, 0, 0);
  cairo_set_operator (cr, CAIRO_OPERATOR_SOURCE);
  cairo_paint (cr);
  cairo_destroy (cr);
  cairo_surface_flush (argb);
  MsPixelDiff diff = compare (screen, argb, 0);
  g_test_message ("PNG against screen: %u pixels differ of %u inked", diff.differ, diff.inked);
  g_assert_cmpuint (diff.inked, >, W * H / 50);
  g_assert_cmpuint (diff.differ, ==, 0);
  cairo_surface_destroy (argb);
  cairo_surface_destroy (file);
  cairo_surface_destroy (screen);
}

/* What PDF and SVG receive, played back into pixels, is the screen's
 * picture: differences only where an edge is anti-aliased, at most 0.5%
 * of the drawing. A second drawing path (as the rasteriser was) or a
 * series drawn differently for vector targets shows as flat differences
 * or as many more. */
static void
test_vector_is_screen (void)
{
  g_autoptr (MsChartData) d = eight_run_chart ();
  cairo_surface_t *screen = draw_screen (d);
  cairo_surface_t *vector = draw_vector_played_back (d, NULL);
  MsPixelDiff diff = compare (screen, vector, 2);
  g_test_message ("vector target against screen: %u pixels differ, %u of them away from edges, "
                  "of %u inked", diff.differ, diff.flat, diff.inked);
  g_assert_cmpuint (diff.inked, >, W * H / 50);
  g_assert_cmpuint (diff.flat, ==, 0);
  g_assert_cmpuint (diff.differ, <=, W * H / 200);
  cairo_surface_destroy (vector);
  cairo_surface_destroy (screen);
}

/* A drawing with a series whose look is changed for one target only is
 * caught: the comparison above can fail. */
static void
test_comparison_catches_a_change (void)
{
  g_autoptr (MsChartData) d = eight_run_chart ();
  cairo_surface_t *screen = draw_screen (d);
  for (guint i = 0; i < d->series->len; i++) {
    MsChartSeries *s = g_ptr_array_index (d->series, i);
    s->run += 1; /* another marker fill for every run */
  }
  cairo_surface_t *vector = draw_vector_played_back (d, NULL);
  MsPixelDiff diff = compare (screen, vector, 2);
  g_test_message ("marker fills changed: %u pixels differ, %u away from edges", diff.differ,
                  diff.flat);
  g_assert_cmpuint (diff.flat, >, 0);
  cairo_surface_destroy (vector);
  cairo_surface_destroy (screen);
}

typedef struct {
  GPtrArray *texts;
  GArray *boxes; /* x, y per text */
} MsTextLog;

static void
log_text (const char *text, double x, double y, double w, double h, gpointer data)
{
  MsTextLog *log = data;
  g_ptr_array_add (log->texts, g_strdup (text));
  double xy[2] = { x, y };
  g_array_append_vals (log->boxes, xy, 2);
}

static MsTextLog
text_log_new (void)
{
  return (MsTextLog){ g_ptr_array_new_with_free_func (g_free),
                      g_array_new (FALSE, FALSE, sizeof (double)) };
}

static void
text_log_clear (MsTextLog *log)
{
  g_ptr_array_unref (log->texts);
  g_array_unref (log->boxes);
}

/* The SVG's text is the screen's: the same labels at the same places
 * (within a pixel: PDF and SVG surfaces lay text out without hinted
 * metrics), and as many <text> elements in the document; the rest of
 * the SVG's picture is the screen's without its text. */
static void
test_svg_is_screen (void)
{
  g_autoptr (MsChartData) d = eight_run_chart ();
  MsTextLog on_screen = text_log_new (), in_svg = text_log_new ();
  ms_draw_set_text_recorder (log_text, &on_screen);
  cairo_surface_t *screen = draw_screen (d);
  ms_draw_set_text_recorder (log_text, &in_svg);
  g_autoptr (MsSvgText) svg_text = ms_svg_text_new ();
  cairo_surface_t *vector = draw_vector_played_back (d, svg_text);
  ms_draw_set_text_recorder (NULL, NULL);

  g_assert_cmpuint (on_screen.texts->len, >, 20);
  g_assert_cmpuint (in_svg.texts->len, ==, on_screen.texts->len);
  for (guint i = 0; i < on_screen.texts->len; i++) {
    g_assert_cmpstr (g_ptr_array_index (in_svg.texts, i), ==,
                     g_ptr_array_index (on_screen.texts, i));
    for (guint k = 0; k < 2; k++)
      g_assert_cmpfloat (fabs (g_array_index (in_svg.boxes, double, 2 * i + k) -
                               g_array_index (on_screen.boxes, double, 2 * i + k)),
                         <=, 1.0);
  }
  gsize len;
  ms_svg_text_elements (svg_text, &len);
  g_autoptr (GBytes) doc = ms_export_svg_bytes (W, H, draw_chart, d, NULL);
  g_assert_nonnull (doc);
  gsize doc_len;
  const char *p = g_bytes_get_data (doc, &doc_len), *end = p + doc_len;
  guint n_text = 0;
  while ((p = g_strstr_len (p, end - p, "<text")) != NULL) {
    n_text++;
    p += 5;
  }
  /* One <text> element per line: a foot note of several notes is one
   * text on the screen. */
  guint n_lines = 0;
  for (guint i = 0; i < on_screen.texts->len; i++) {
    g_auto (GStrv) lines = g_strsplit (g_ptr_array_index (on_screen.texts, i), "\n", -1);
    n_lines += g_strv_length (lines);
  }
  g_assert_cmpuint (n_text, ==, n_lines);

  /* The picture under the text: the screen's drawn with the text going to
   * a sink that drops it. */
  g_autoptr (MsSvgText) dropped = ms_svg_text_new ();
  cairo_surface_t *bare = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, W, H);
  cairo_t *cr = cairo_create (bare);
  ms_svg_text_attach (dropped, cr);
  draw_chart (cr, W, H, d);
  cairo_destroy (cr);
  cairo_surface_flush (bare);
  MsPixelDiff diff = compare (bare, vector, 2);
  g_test_message ("SVG picture without text against screen without text: %u pixels differ, "
                  "%u away from edges", diff.differ, diff.flat);
  g_assert_cmpuint (diff.flat, ==, 0);
  g_assert_cmpuint (diff.differ, <=, W * H / 200);

  cairo_surface_destroy (bare);
  cairo_surface_destroy (vector);
  cairo_surface_destroy (screen);
  text_log_clear (&on_screen);
  text_log_clear (&in_svg);
}

/* The PDF export lays out and draws the same labels at the same places as
 * the screen does with a PDF surface's font options (unhinted metrics make
 * labels a little narrower, which can move the legend's wrapping). */
static void
test_pdf_text_is_screen (void)
{
  g_autoptr (MsChartData) d = eight_run_chart ();
  MsTextLog on_screen = text_log_new (), in_pdf = text_log_new ();
  cairo_surface_t *probe = cairo_pdf_surface_create (NULL, W, H);
  cairo_font_options_t *pdf_options = cairo_font_options_create ();
  cairo_surface_get_font_options (probe, pdf_options);
  cairo_surface_destroy (probe);
  ms_draw_set_text_recorder (log_text, &on_screen);
  cairo_surface_t *screen = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, W, H);
  cairo_t *cr = cairo_create (screen);
  cairo_set_font_options (cr, pdf_options);
  draw_chart (cr, W, H, d);
  cairo_destroy (cr);
  cairo_font_options_destroy (pdf_options);
  ms_draw_set_text_recorder (log_text, &in_pdf);
  const char *pdf = ms_test_tmp_path ("chart.pdf");
  g_autoptr (GError) error = NULL;
  g_assert_true (ms_export_drawing (pdf, W, H, draw_chart, d, &error));
  g_assert_no_error (error);
  ms_draw_set_text_recorder (NULL, NULL);
  g_assert_cmpuint (in_pdf.texts->len, ==, on_screen.texts->len);
  for (guint i = 0; i < on_screen.texts->len; i++) {
    g_assert_cmpstr (g_ptr_array_index (in_pdf.texts, i), ==,
                     g_ptr_array_index (on_screen.texts, i));
    for (guint k = 0; k < 2; k++)
      g_assert_cmpfloat (fabs (g_array_index (in_pdf.boxes, double, 2 * i + k) -
                               g_array_index (on_screen.boxes, double, 2 * i + k)),
                         <=, 1.0);
  }
  cairo_surface_destroy (screen);
  text_log_clear (&on_screen);
  text_log_clear (&in_pdf);
}

/* A figure and its unit stay on one line where text wraps ("up to 1 MiB"
 * broke between 1 and MiB on a projected slide), and an SVG line holds
 * the plain space again, so that "4 MiB" is found in it. */
static void
test_units_stay_joined (void)
{
  static const struct {
    const char *text, *joined;
  } cases[] = {
    { "up to 1 MiB, waited at 4 MiB", "up to 1\u00a0MiB, waited at 4\u00a0MiB" },
    { "53 µs to 92 µs; 1.17 ms", "53\u00a0µs to 92\u00a0µs; 1.17\u00a0ms" },
    { "50.1 GB/s, 16 B", "50.1\u00a0GB/s, 16\u00a0B" },
    /* Words that only start like a unit, and figures that end a word. */
    { "16 streams, 2 Bytes, K = 16 ms", "16 streams, 2 Bytes, K\u00a0=\u00a016\u00a0ms" },
    /* A name equal to a figure: the register handout broke "from n = 6"
     * after its n. */
    { "more from n = 6; a = b", "more from n\u00a0=\u00a06; a = b" },
    { "H100 80GB HBM3", "H100 80GB HBM3" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
    g_autofree char *joined = ms_text_join_units (cases[i].text);
    g_assert_cmpstr (joined, ==, cases[i].joined);
  }
  const char *text = "waited at 4 MiB";
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 400, 200);
  cairo_t *cr = cairo_create (s);
  double w;
  /* Room for "waited at 4" and not for its unit. */
  ms_draw_text (cr, "waited at 4 M", 0, 0, 20, -1, 0, FALSE, &w, NULL);
  g_autoptr (MsSvgText) svg_text = ms_svg_text_new ();
  ms_svg_text_attach (svg_text, cr);
  ms_draw_text_wrapped (cr, text, 0, 0, 20, w - 1, FALSE, TRUE);
  gsize len;
  const char *elements = ms_svg_text_elements (svg_text, &len);
  g_autofree char *svg = g_strndup (elements, len);
  g_assert_nonnull (strstr (svg, ">4 MiB</text>"));
  g_assert_null (strstr (svg, ">MiB</text>"));
  cairo_destroy (cr);
  cairo_surface_destroy (s);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/render-paths/png-is-screen", test_png_is_screen);
  g_test_add_func ("/render-paths/vector-is-screen", test_vector_is_screen);
  g_test_add_func ("/render-paths/comparison-catches-a-change", test_comparison_catches_a_change);
  g_test_add_func ("/render-paths/svg-is-screen", test_svg_is_screen);
  g_test_add_func ("/render-paths/pdf-text-is-screen", test_pdf_text_is_screen);
  g_test_add_func ("/render-paths/units-stay-joined", test_units_stay_joined);
  return g_test_run ();
}
