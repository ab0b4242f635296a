/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-lesson-picture-test.h: a probe lesson's picture drawn at 1024x768 in
 * presentation mode, light and dark, with every label inside the canvas;
 * for the tests that link the drawing library. Header-only. */
#pragma once

#include "ms-lesson-picture.h"
#include "ms-lesson-probe-test.h"

/* One probe picture drawn for a test: its surface, every label drawn and
 * the lowest label's bottom. */
typedef struct {
  cairo_surface_t *surface;
  GPtrArray *texts;
  double max_y;
  int outside;
} MsTestPicture;

static inline void
ms_test_picture_record (const char *text, double x, double y, double w, double h, gpointer data)
{
  MsTestPicture *p = data;
  double cw = cairo_image_surface_get_width (p->surface);
  double ch = cairo_image_surface_get_height (p->surface);
  g_ptr_array_add (p->texts, g_strdup (text));
  p->max_y = MAX (p->max_y, y + h);
  if (x < -0.5 || y < -0.5 || x + w > cw + 0.5 || y + h > ch + 0.5) {
    g_test_message ("label '%s' at %.0f,%.0f %.0fx%.0f leaves the canvas", text, x, y, w, h);
    p->outside++;
  }
}

/* Draws topic's picture of run (NULL: none) into p at 1024x768 in
 * presentation mode (text 1.6 times, lines line_scale times), light or
 * dark: it draws, cairo is content and no label leaves the canvas. With
 * MEMSWEEP_RENDER_DIR set the PNG is kept there. Free with
 * ms_test_picture_clear. */
static inline void
ms_test_picture_draw (MsTestPicture *p, MsLessonTopic topic, const MsResults *run, gboolean dark,
                      double line_scale)
{
  *p = (MsTestPicture){ cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1024, 768),
                        g_ptr_array_new_with_free_func (g_free), 0, 0 };
  cairo_t *cr = cairo_create (p->surface);
  MsChartStyle st;
  if (dark)
    ms_chart_style_init_dark (&st);
  else
    ms_chart_style_init_light (&st);
  st.text_scale = 1.6; /* as the window's presentation mode */
  st.line_scale = line_scale;
  ms_draw_set_text_recorder (ms_test_picture_record, p);
  g_assert_true (ms_lesson_picture_draw (cr, topic, run, &st, 1024, 768));
  ms_draw_set_text_recorder (NULL, NULL);
  g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
  cairo_destroy (cr);
  cairo_surface_flush (p->surface);
  const char *keep = g_getenv ("MEMSWEEP_RENDER_DIR");
  if (keep) {
    g_autofree char *png = g_strdup_printf ("%s/%s-%u-%s.png", keep, ms_lesson_topic (topic)->name,
                                            run ? (unsigned) run->n_cells : 0,
                                            dark ? "dark" : "light");
    cairo_surface_write_to_png (p->surface, png);
  }
  g_assert_cmpint (p->outside, ==, 0);
}

static inline void
ms_test_picture_clear (MsTestPicture *p)
{
  g_clear_pointer (&p->surface, cairo_surface_destroy);
  g_clear_pointer (&p->texts, g_ptr_array_unref);
}

/* Whether a label drawn starts with prefix. */
static inline gboolean
ms_test_picture_has_text (const MsTestPicture *p, const char *prefix)
{
  for (guint i = 0; i < p->texts->len; i++)
    if (g_str_has_prefix (g_ptr_array_index (p->texts, i), prefix))
      return TRUE;
  return FALSE;
}

/* Draws topic's picture of r at 1024x768 in presentation mode, light and dark:
 * labels were drawn and none left the canvas. */
static inline void
ms_test_picture_renders (MsLessonTopic topic, const MsResults *r)
{
  for (int dark = 0; dark < 2; dark++) {
    MsTestPicture p;
    ms_test_picture_draw (&p, topic, r, dark, 1);
    g_assert_cmpuint (p.texts->len, >, 0);
    ms_test_picture_clear (&p);
  }
}
