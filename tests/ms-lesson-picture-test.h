/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-lesson-picture-test.h: a probe lesson's picture drawn at 1024x768 in
 * presentation mode, light and dark, with every label inside the canvas;
 * for the tests that link the drawing library. Header-only. */
#pragma once

#include "ms-lesson-picture.h"
#include "ms-lesson-probe-test.h"

typedef struct {
  double w, h;
  int n, outside;
} MsTestBoxes;

static inline void
ms_test_record_box (const char *text, double x, double y, double w, double h, gpointer data)
{
  MsTestBoxes *b = data;
  b->n++;
  if (x < -0.5 || y < -0.5 || x + w > b->w + 0.5 || y + h > b->h + 0.5) {
    g_test_message ("label '%s' at %.0f,%.0f %.0fx%.0f leaves the canvas", text, x, y, w, h);
    b->outside++;
  }
}

/* Draws topic's picture of r at 1024x768, text scale 1.5, light and dark:
 * labels were drawn and none left the canvas. */
static inline void
ms_test_picture_renders (MsLessonTopic topic, const MsResults *r)
{
  for (int dark = 0; dark < 2; dark++) {
    MsTestBoxes boxes = { 1024, 768, 0, 0 };
    cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1024, 768);
    cairo_t *cr = cairo_create (s);
    MsChartStyle st;
    if (dark)
      ms_chart_style_init_dark (&st);
    else
      ms_chart_style_init_light (&st);
    st.text_scale = 1.5;
    ms_draw_set_text_recorder (ms_test_record_box, &boxes);
    g_assert_true (ms_lesson_picture_draw (cr, topic, r, &st, 1024, 768));
    ms_draw_set_text_recorder (NULL, NULL);
    g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
    const char *keep = g_getenv ("MEMSWEEP_RENDER_DIR");
    if (keep) {
      g_autofree char *png = g_strdup_printf ("%s/%s-%s.png", keep, ms_lesson_topic (topic)->name,
                                              dark ? "dark" : "light");
      cairo_surface_write_to_png (s, png);
    }
    cairo_destroy (cr);
    cairo_surface_destroy (s);
    g_assert_cmpint (boxes.n, >, 0);
    g_assert_cmpint (boxes.outside, ==, 0);
  }
}
