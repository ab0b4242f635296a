/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-lesson-probe-test.h: what the probe lessons' tests share: a lesson
 * run through the engine on the test backend with a model of the GPU, the
 * cells' variants through the samples file and back, and the picture
 * drawn at 1024x768 in presentation mode, light and dark, with every label
 * inside the canvas. Header-only, for the test programs. */
#pragma once

#include <glib/gstdio.h>
#include <string.h>

#include "ms-backend-test.h"
#include "ms-lesson-picture.h"
#include "ms-lesson-private.h"

/* The cells of lesson name's first probe part with options. */
static inline int
ms_test_lesson_cells (const char *name, const char *options, MsProbeCell *cells, int max)
{
  const MsProbeLesson *l = ms_probe_lesson_find (name);
  g_assert_nonnull (l);
  MsSweep s;
  ms_sweep_init_default (&s);
  g_strlcpy (s.options, options, sizeof s.options);
  return l->cells (&s, 0, cells, max);
}

/* Every (mode, exponent, variant) once, each variant fitting its field. */
static inline void
ms_test_cells_unique (const MsProbeCell *cells, int n)
{
  for (int i = 0; i < n; i++) {
    g_assert_cmpuint (strlen (cells[i].variant), <, 48);
    for (int j = 0; j < i; j++)
      g_assert_false (cells[i].mode == cells[j].mode && cells[i].exponent == cells[j].exponent
                      && strcmp (cells[i].variant, cells[j].variant) == 0);
  }
}

/* Lesson name run on the test backend with model (options as given). */
static inline MsResults *
ms_test_lesson_run (const char *name, const char *options,
                    MsCellStatus (*model) (const MsProbeArgs *, MsProbeSample *, void *))
{
  MsTestBackendConfig cfg;
  ms_test_backend_config_init (&cfg);
  cfg.probe = model;
  MsBackend *b = ms_backend_new_test (&cfg);
  MsSweep s;
  ms_sweep_init_default (&s);
  s.reps_rule = MS_REPS_FIXED;
  s.reps = 3;
  s.warmup = 1;
  g_strlcpy (s.options, options, sizeof s.options);
  MsResults *r = NULL;
  char err[256] = "";
  MsRunStatus st = ms_lesson_run (name, &s, b, NULL, NULL, NULL, NULL, NULL, &r, err, sizeof err);
  g_assert_cmpint (st, ==, MS_RUN_OK);
  g_assert_nonnull (r);
  ms_backend_free (b);
  return r;
}

/* The variants, modes and sizes of r through the samples file and back. */
static inline void
ms_test_variants_round_trip (const MsResults *r)
{
  g_autofree char *dir = g_dir_make_tmp ("ms-lesson-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "samples.csv", NULL);
  char err[256] = "";
  g_assert_true (ms_csv_write_samples (r, path, err, sizeof err));
  MsResults *back = ms_csv_read_samples (path, err, sizeof err);
  g_assert_nonnull (back);
  g_assert_cmpuint (back->n_cells, ==, r->n_cells);
  for (size_t i = 0; i < r->n_cells; i++) {
    bool found = false;
    for (size_t j = 0; j < back->n_cells && !found; j++)
      found = strcmp (back->cells[j].variant, r->cells[i].variant) == 0
              && back->cells[j].mode == r->cells[i].mode
              && back->cells[j].exponent == r->cells[i].exponent
              && back->cells[j].status == r->cells[i].status;
    g_assert_true (found);
  }
  ms_results_free (back);
  g_unlink (path);
  g_rmdir (dir);
}

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

/* The message of a rejected option list for lesson name. */
static inline void
ms_test_option_refused (const char *name, const char *options, const char *expect)
{
  char err[256] = "";
  g_assert_false (ms_lesson_check_options (name, options, err, sizeof err));
  g_assert_nonnull (strstr (err, expect));
}
