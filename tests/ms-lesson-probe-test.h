/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-lesson-probe-test.h: what the probe lessons' tests share: a lesson
 * run through the engine on the test backend with a model of the GPU, the
 * cells' variants and the caption through the samples file and back, a
 * refused option. GLib and the engine only (the picture's check is in
 * ms-lesson-picture-test.h). Header-only, for the test programs. */
#pragma once

#include <glib/gstdio.h>
#include <string.h>

#include "ms-backend-test.h"
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

typedef MsCellStatus (*MsTestProbeModel) (const MsProbeArgs *args, MsProbeSample *out,
                                          void *user);

/* Lesson name run on the test backend with model (given user), options
 * as given (checked first), reps fixed repetitions after warmup ones. */
static inline MsResults *
ms_test_lesson_run_model (const char *name, const char *options, MsTestProbeModel model,
                          void *user, int reps, int warmup)
{
  MsTestBackendConfig cfg;
  ms_test_backend_config_init (&cfg);
  cfg.probe = model;
  cfg.probe_user = user;
  MsBackend *b = ms_backend_new_test (&cfg);
  MsSweep s;
  ms_sweep_init_default (&s);
  s.reps_rule = MS_REPS_FIXED;
  s.reps = reps;
  s.warmup = warmup;
  g_strlcpy (s.options, options, sizeof s.options);
  char err[256] = "";
  g_assert_true (ms_lesson_check_options (name, s.options, err, sizeof err));
  MsResults *r = NULL;
  MsRunStatus st = ms_lesson_run (name, &s, b, NULL, NULL, NULL, NULL, NULL, &r, err, sizeof err);
  g_assert_cmpint (st, ==, MS_RUN_OK);
  g_assert_nonnull (r);
  g_assert_cmpstr (r->experiment, ==, name);
  ms_backend_free (b);
  return r;
}

/* Lesson name run on the test backend with model: 3 repetitions, 1 warm-up. */
static inline MsResults *
ms_test_lesson_run (const char *name, const char *options, MsTestProbeModel model)
{
  return ms_test_lesson_run_model (name, options, model, NULL, 3, 1);
}

/* r written to a samples file and read back: the same cells in the same
 * order and the same caption of topic. Returns what was read (free it)
 * for checks of the caller's own. */
static inline MsResults *
ms_test_lesson_reread (MsLessonTopic topic, const MsResults *r)
{
  g_autofree char *dir = g_dir_make_tmp ("ms-lesson-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "samples.csv", NULL);
  char err[256] = "";
  g_assert_true (ms_csv_write_samples (r, path, err, sizeof err));
  MsResults *back = ms_csv_read_samples (path, err, sizeof err);
  if (!back)
    g_error ("%s", err);
  g_assert_cmpuint (back->n_cells, ==, r->n_cells);
  g_assert_cmpstr (back->experiment, ==, r->experiment);
  for (size_t i = 0; i < r->n_cells; i++)
    g_assert_cmpstr (back->cells[i].variant, ==, r->cells[i].variant);
  char a[4096], b[4096];
  ms_lesson_caption (topic, r, -1, a, sizeof a);
  ms_lesson_caption (topic, back, -1, b, sizeof b);
  g_assert_cmpstr (a, ==, b);
  g_unlink (path);
  g_rmdir (dir);
  return back;
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

/* The message of a rejected option list for lesson name. */
static inline void
ms_test_option_refused (const char *name, const char *options, const char *expect)
{
  char err[256] = "";
  g_assert_false (ms_lesson_check_options (name, options, err, sizeof err));
  g_assert_nonnull (strstr (err, expect));
}
