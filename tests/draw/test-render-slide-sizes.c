/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-render-slide-sizes.c: what a back row reads on every lesson's slide
 * at 1024x768 in presentation mode, from the shipped runs of both GPUs,
 * light and dark (and in zh_CN: the render-slide-sizes-zh_CN test): the
 * headline (the takeaway, fitted to one line as ms-headline.c fits it),
 * and every figure the picture draws (an axis's ticks, a value's label)
 * with capitals at least 20 px tall, measured as Pango lays out "H" in
 * the font and at the size each is drawn (is_figure says which texts are
 * figures), and the names of the rows of figures that is_row_name lists.
 * At 6412decd
 * the figures had capitals of 14 px, the headline 17 px at its floor. */
#include <libintl.h>
#include <locale.h>
#include <pango/pangocairo.h>
#include <string.h>

#include "ms-i18n.h"
#include "ms-lesson-answer.h"
#include "ms-lesson-picture.h"
#include "model/ms-results.h"
#include "lessons/ms-run-read.h"
#include "ms-host-link-test.h"
#include "ms-shipped-run-test.h"

/* The least height of a capital (px) a back row reads. */
#define LEAST_CAP 20
/* The takeaway's size on a slide: 22 pt bold (ui/style.css,
 * presentation), in pixels at 96 dpi; the headline shrinks to one line
 * down to 0.8 of it (ui/ms-headline.h). */
#define HEADLINE_PX (22 * 96.0 / 72)
#define HEADLINE_FLOOR 0.8
/* The headline's width in a 1024-pixel window: the slide's margins of 17
 * pixels a side (docs/screenshots/lessons). */
#define HEADLINE_W (1024 - 2 * 17)
/* Longer texts are sentences (titles, keys, notes), whatever figures
 * they hold: one that starts with a figure, over FIGURE_COLUMNS columns
 * (a wide character, Chinese, two), one with a figure inside, over
 * LABEL_COLUMNS. */
#define FIGURE_COLUMNS 40
#define LABEL_COLUMNS 32

/* The height of a capital's ink ("H") in Sans at size_px, bold or not. */
static double
cap_height (double size_px, gboolean bold, double scale)
{
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 8, 8);
  cairo_t *cr = cairo_create (s);
  PangoLayout *layout = pango_cairo_create_layout (cr);
  PangoFontDescription *font = pango_font_description_from_string ("Sans");
  pango_font_description_set_weight (font, bold ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL);
  pango_font_description_set_absolute_size (font, size_px * scale * PANGO_SCALE);
  pango_layout_set_font_description (layout, font);
  pango_layout_set_text (layout, "H", -1);
  PangoRectangle ink;
  pango_layout_get_extents (layout, &ink, NULL);
  pango_font_description_free (font);
  g_object_unref (layout);
  cairo_destroy (cr);
  cairo_surface_destroy (s);
  return ink.height / (double) PANGO_SCALE;
}

/* The share of its size at which the headline is one line (ms-headline.c:
 * the largest hundredth down to the floor). */
static double
headline_scale (const char *text)
{
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 8, 8);
  cairo_t *cr = cairo_create (s);
  PangoLayout *layout = pango_cairo_create_layout (cr);
  PangoFontDescription *font = pango_font_description_from_string ("Sans Bold");
  pango_layout_set_wrap (layout, PANGO_WRAP_WORD_CHAR);
  pango_layout_set_width (layout, HEADLINE_W * PANGO_SCALE);
  pango_layout_set_text (layout, text, -1);
  double scale = HEADLINE_FLOOR;
  for (int percent = 100; percent > 100 * HEADLINE_FLOOR; percent--) {
    pango_font_description_set_absolute_size (font, HEADLINE_PX * percent / 100 * PANGO_SCALE);
    pango_layout_set_font_description (layout, font);
    if (pango_layout_get_line_count (layout) <= 1) {
      scale = percent / 100.0;
      break;
    }
  }
  pango_font_description_free (font);
  g_object_unref (layout);
  cairo_destroy (cr);
  cairo_surface_destroy (s);
  return scale;
}

typedef struct {
  GString *problems;
  const char *what;
  GHashTable *said; /* each text under the floor, said once */
  double least;     /* the least capital among the figures */
  int figures;
  int names;          /* rows' names among them (is_row_name) */
  MsLessonTopic topic; /* the slide's */
} Check;

/* Whether text reads as a figure: short, and it starts with one ("1.07
 * ms", "+4 µs", "0.5×", an axis's "16") or holds a number with its unit
 * ("d2h 4 MiB · 427 µs", a bar's label). Names that carry a digit ("stream 0",
 * "GPU 0") and sentences are not figures. */
static gboolean
is_figure (const char *text)
{
  static const char *const units[] = { "µs", "ms", "s", "GB/s", "B", "KiB", "MiB", "GiB", "×",
                                       "%" };
  glong columns = 0;
  for (const char *p = text; *p; p = g_utf8_next_char (p))
    columns += g_unichar_iswide (g_utf8_get_char (p)) ? 2 : 1;
  if (columns > FIGURE_COLUMNS)
    return FALSE;
  if (g_ascii_isdigit (text[0]) || text[0] == '+' || g_str_has_prefix (text, "−")
      || (text[0] == '-' && g_ascii_isdigit (text[1])))
    return TRUE;
  if (columns > LABEL_COLUMNS)
    return FALSE;
  for (const char *p = text; *p; p++) {
    if (!g_ascii_isdigit (*p) || (p > text && (g_ascii_isalpha (p[-1]) || p[-1] == '_')))
      continue;
    const char *q = p;
    while (g_ascii_isdigit (*q) || *q == '.' || *q == ',')
      q++;
    if (*q == ' ')
      q++;
    else if (g_str_has_prefix (q, "\u00a0"))
      q += strlen ("\u00a0");
    for (guint u = 0; u < G_N_ELEMENTS (units); u++)
      if (g_str_has_prefix (q, units[u])
          && !g_ascii_isalpha (q[strlen (units[u])]))
        return TRUE;
    p = q - 1;
  }
  return FALSE;
}

/* Whether text names a row a class reads across to its figure: the
 * costs slide's calls, whose names were drawn with capitals of 13 px
 * beside figures of 20 (other slides name calls in sentences). */
static gboolean
is_row_name (MsLessonTopic topic, const char *text)
{
  static const char *const names[]
      = { "context, first (one call)", "context, after cudaDeviceReset", "cudaMalloc, first in a context",
          "cudaMalloc", "cudaHostRegister (no malloc)", "malloc + memset, unpinned", "cudaMallocHost",
          "cudaMallocAsync, empty pool", "cudaMallocAsync, default pool",
          "cudaMallocAsync, pool kept" };
  for (guint i = 0; topic == MS_TOPIC_COSTS && i < G_N_ELEMENTS (names); i++)
    if (strcmp (text, g_dgettext (GETTEXT_PACKAGE, names[i])) == 0)
      return TRUE;
  return FALSE;
}

static void
check_size (const char *text, double size_px, gboolean bold, gpointer data)
{
  Check *c = data;
  gboolean name = is_row_name (c->topic, text);
  c->names += name;
  if (!is_figure (text) && !name)
    return;
  double cap = cap_height (size_px, bold, 1);
  c->figures++;
  c->least = MIN (c->least, cap);
  g_autofree char *key = g_strdup_printf ("%s: %s", c->what, text);
  if (cap < LEAST_CAP && !g_hash_table_contains (c->said, key)) {
    g_string_append_printf (c->problems, "%s: \"%s\" has capitals of %.1f px (%.1f px font)\n",
                            c->what, text, cap, size_px);
    g_hash_table_add (c->said, g_steal_pointer (&key));
  }
}

/* The slide's picture as the Lessons page draws it at 1024x768 in
 * presentation mode (1014x579 to 1014x636: tests/draw/test-render-slides.c),
 * its figures measured. */
static void
draw_slide (MsLessonTopic t, const MsResults *run, gboolean dark, int h, Check *check)
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
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1014, h);
  cairo_t *cr = cairo_create (surface);
  ms_draw_set_size_recorder (check_size, check);
  ms_lesson_answer_draw (cr, t, run, &st, 1014, h);
  ms_draw_set_size_recorder (NULL, NULL);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
}

static void
check_headline (MsLessonTopic t, const MsResults *run, const char *what, GString *problems)
{
  char line[512];
  if (ms_lesson_takeaway (t, run, line, sizeof line) == MS_TAKEAWAY_MISSING)
    return;
  g_autofree char *joined = ms_text_join_units (line);
  double scale = headline_scale (joined);
  double cap = cap_height (HEADLINE_PX, TRUE, scale);
  if (g_test_verbose ())
    g_printerr ("%s: headline at %.2f, capitals %.1f px: %s\n", what, scale, cap, line);
  if (cap < LEAST_CAP)
    g_string_append_printf (problems,
                            "%s: the headline, at %.2f of its size, has capitals of %.1f px: %s\n",
                            what, scale, cap, line);
}

static void
test_back_row (void)
{
  static const char *const gpus[] = { "h100", "h200" };
  static const int heights[] = { 579, 636 };
  char err[256];
  g_assert_true (
      ms_lesson_portable_use_shipped (g_getenv ("MEMSWEEP_REFERENCE_DIR"), err, sizeof err));
  g_assert_cmpfloat (cap_height (HEADLINE_PX, TRUE, 1), >=, LEAST_CAP);
  GString *problems = g_string_new (NULL);
  int drawn = 0, figures = 0, names = 0;
  for (guint g = 0; g < G_N_ELEMENTS (gpus); g++)
    for (int t = 0; t < MS_TOPIC_COUNT; t++) {
      MsResults *run = ms_test_shipped_run (gpus[g], t);
      if (!run)
        continue;
      g_autofree char *name = g_strdup_printf ("%s-%s", gpus[g], ms_lesson_topic (t)->name);
      check_headline (t, run, name, problems);
      for (int k = 0; k < 2 * (int) G_N_ELEMENTS (heights); k++) {
        g_autofree char *what = g_strdup_printf ("%s-%s-%d", name, k % 2 ? "dark" : "light",
                                                 heights[k / 2]);
        Check check = { problems, what, g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                               NULL),
                        G_MAXDOUBLE, 0, 0, t };
        draw_slide (t, run, k % 2, heights[k / 2], &check);
        if (g_test_verbose ())
          g_printerr ("%s: %d figures, the least capital %.1f px\n", what, check.figures,
                      check.least);
        figures += check.figures;
        names += check.names;
        g_hash_table_unref (check.said);
      }
      drawn++;
      ms_results_free (run);
    }
  ms_lesson_portable_use (NULL, NULL);
  /* Every lesson of both GPUs, and figures among them to measure. */
  g_assert_cmpint (drawn, >=, 38);
  g_assert_cmpint (figures, >, 500);
  /* The costs slide's ten rows, on both GPUs, light and dark, both heights. */
  g_assert_cmpint (names, >=, 10 * 2 * 4);
  if (problems->len)
    g_error ("smaller than a back row reads:\n%s", problems->str);
  g_string_free (problems, TRUE);
}

int
main (int argc, char **argv)
{
  setlocale (LC_ALL, "");
  ms_i18n_bind ();
  textdomain (GETTEXT_PACKAGE);
  g_test_init (&argc, &argv, NULL);
  ms_test_host_link_run ();
  g_test_add_func ("/render/slide-sizes/back-row", test_back_row);
  return g_test_run ();
}
