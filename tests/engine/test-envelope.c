/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-envelope.c: the envelope reader (the shipped file, hostile rows
 * refused with file:line while the rest is kept, foreign files refused
 * whole) and a run judged against an envelope: normal, low, high, no
 * envelope for the GPU, not in the run. The ranges are built around what
 * the test backend measured, so the verdicts follow from the data. */
#define _GNU_SOURCE
#include <glib.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "memsweep.h"
#include "ms-backend-test.h"
#include "ms-envelope.h"
#include "ms-tmp-test.h"
#include "ms-sweep-test.h"
#include "model/ms-results.h"
#include "ms-modes.h"
#include "lessons/ms-run-read.h"

static const char *shipped;

static void
test_shipped_file (void)
{
  char err[512] = "";
  MsEnvelopes *env = ms_envelopes_read (shipped, err, sizeof err);
  g_assert_nonnull (env);
  g_assert_cmpint (env->n_refused, ==, 0);
  g_assert_cmpint (env->n_rows, >=, 8);
  bool h100 = false, h200 = false;
  for (int i = 0; i < env->n_rows; i++) {
    h100 = h100 || strcmp (env->rows[i].gpu, "H100") == 0;
    h200 = h200 || strcmp (env->rows[i].gpu, "H200") == 0;
    g_assert_cmpfloat (env->rows[i].low, <=, env->rows[i].high);
    g_assert_cmpuint (strlen (env->rows[i].source), >, 0);
  }
  g_assert_true (h100 && h200);
  ms_envelopes_free (env);
}

static void
test_hostile_rows (void)
{
  const char *path
    = ms_test_tmp_file ("hostile.csv",
                        "# a comment\n"
                        "gpu,link,figure,low,high,unit,source\n"
                        "H100,gen5 x16,pinned-h2d-4MiB,50.0,56.0,GB/s,\"measured, here\"\n"
                        "H100,gen5 x16,pinned-h2d-4MiB,50.0,56.0,GB/s,again\n"
                        "H100,gen9 x64,pinned-d2h-4MiB,50.0,56.0,GB/s,bad link\n"
                        "H100,gen5 x16,pinned-d2h-4MiB,56.0,50.0,GB/s,reversed\n"
                        "H100,gen5 x16,nonsense,1,2,GB/s,unknown figure\n"
                        "H100,gen5 x16,pinned-latency-4KiB,1,2,GB/s,wrong unit\n"
                        "H100,gen5 x16,pageable-h2d-4MiB,-1,2,GB/s,negative\n"
                        "H100,gen5 x16,pageable-h2d-4MiB,1,2,GB/s\n"
                        "H1/../00,gen5 x16,pageable-h2d-4MiB,1,2,GB/s,path\n"
                        "\n"
                        "H200,gen5 x16,pinned-d2h-4MiB,51,57,GB/s,kept after the bad ones\n"
                        "\"unterminated,gen5 x16\n");
  char err[512] = "";
  MsEnvelopes *env = ms_envelopes_read (path, err, sizeof err);
  g_assert_nonnull (env);
  g_assert_cmpint (env->n_rows, ==, 2);
  g_assert_cmpstr (env->rows[0].source, ==, "measured, here");
  g_assert_cmpint (env->rows[1].line, ==, 13);
  g_assert_cmpint (env->n_refused, ==, 9);
  /* Every refusal names the file and its line. */
  for (int line = 4; line <= 14; line += line == 11 ? 3 : 1) {
    char *where = g_strdup_printf ("%s:%d: ", path, line);
    g_assert_nonnull (strstr (env->problems, where));
    g_free (where);
  }
  g_assert_nonnull (strstr (env->problems, "second row"));
  ms_envelopes_free (env);
}

static void
test_foreign_files (void)
{
  char err[512] = "";
  const char *path
    = ms_test_tmp_file ("samples.csv", "# memsweep samples file\nmode,elements\n\"pinned\",1\n");
  g_assert_null (ms_envelopes_read (path, err, sizeof err));
  char *where = g_strdup_printf ("%s:2: not an envelope file", path);
  g_assert_true (g_str_has_prefix (err, where));
  g_free (where);
  path = ms_test_tmp_file ("empty.csv", "# nothing\n");
  g_assert_null (ms_envelopes_read (path, err, sizeof err));
  g_assert_nonnull (strstr (err, "no header row"));
  path = ms_test_tmp_path ("absent.csv");
  g_assert_null (ms_envelopes_read (path, err, sizeof err));
  g_assert_true (g_str_has_prefix (err, path));
}

static MsResults *
test_run (void)
{
  MsSweep s;
  MsTestBackendConfig cfg;
  ms_test_sweep_init (&s, "pinned", 10, 20, 3);
  s.step = 10;
  ms_test_backend_config_init (&cfg);
  cfg.copy_bursts = true;
  return ms_test_sweep_run (&s, &cfg);
}

/* An envelope file for the test GPU ("Test GPU", gen4 x16) with the pinned
 * h2d range scaled from the measured value by lo..hi. */
static MsEnvelopes *
envelope_around (const char *gpu, double value, double lo, double hi)
{
  char *text = g_strdup_printf ("gpu,link,figure,low,high,unit,source\n"
                                "%s,gen4 x16,pinned-h2d-4MiB,%.6f,%.6f,GB/s,made by the test\n",
                                gpu, value * lo, value * hi);
  const char *path = ms_test_tmp_file ("around.csv", text);
  char err[512] = "";
  MsEnvelopes *env = ms_envelopes_read (path, err, sizeof err);
  g_assert_nonnull (env);
  g_assert_cmpint (env->n_rows, ==, 1);
  g_free (text);
  return env;
}

static void
test_judgement (void)
{
  MsResults *r = test_run ();
  double v;
  g_assert_true (ms_env_figure_value (r, MS_ENV_PINNED_H2D_4M, &v));
  g_assert_cmpfloat (v, >, 0);
  MsEnvJudgement j;

  MsEnvelopes *env = envelope_around ("Test GPU", v, 0.9, 1.1);
  ms_envelope_judge (env, r, &j);
  g_assert_cmpstr (j.gpu, ==, "Test GPU");
  g_assert_true (j.link_under_load);
  g_assert_cmpfloat (j.theory_gbps, ==, ms_pcie_theoretical_gbps (4, 16));
  g_assert_cmpint (j.v[MS_ENV_PINNED_H2D_4M].kind, ==, MS_ENV_NORMAL);
  g_assert_nonnull (
      strstr (j.v[MS_ENV_PINNED_H2D_4M].text, "normal for Test GPU on PCIe gen4 x16"));
  /* The latency is measured, but the file has no row for it. */
  g_assert_cmpint (j.v[MS_ENV_PINNED_LATENCY_4K].kind, ==, MS_ENV_NO_ENVELOPE);
  g_assert_cmpint (j.v[MS_ENV_PINNED_H2D_256M].kind, ==, MS_ENV_NOT_MEASURED);
  g_assert_cmpint (j.n_normal, ==, 1);
  ms_envelopes_free (env);

  /* Expected 2x..3x what was measured: half below the low end. */
  env = envelope_around ("Test GPU", v, 2.0, 3.0);
  ms_envelope_judge (env, r, &j);
  g_assert_cmpint (j.v[MS_ENV_PINNED_H2D_4M].kind, ==, MS_ENV_LOW);
  g_assert_cmpfloat_with_epsilon (j.v[MS_ENV_PINNED_H2D_4M].off_pct, 50.0, 1e-3);
  g_assert_nonnull (strstr (j.v[MS_ENV_PINNED_H2D_4M].text, "low, 50 % below"));
  ms_envelopes_free (env);

  env = envelope_around ("Test GPU", v, 0.25, 0.5);
  ms_envelope_judge (env, r, &j);
  g_assert_cmpint (j.v[MS_ENV_PINNED_H2D_4M].kind, ==, MS_ENV_HIGH);
  g_assert_cmpfloat_with_epsilon (j.v[MS_ENV_PINNED_H2D_4M].off_pct, 100.0, 1e-3);
  ms_envelopes_free (env);

  /* "Test" is a word of the name but "Tes" is not; no file at all. */
  env = envelope_around ("Tes", v, 0.9, 1.1);
  ms_envelope_judge (env, r, &j);
  g_assert_cmpstr (j.gpu, ==, "");
  g_assert_cmpint (j.v[MS_ENV_PINNED_H2D_4M].kind, ==, MS_ENV_NO_ENVELOPE);
  g_assert_nonnull (strstr (j.summary, "No envelope for this GPU (Test GPU)"));
  ms_envelopes_free (env);
  ms_envelope_judge (NULL, r, &j);
  g_assert_cmpint (j.v[MS_ENV_PINNED_H2D_4M].kind, ==, MS_ENV_NO_ENVELOPE);
  ms_results_free (r);
}

/* A link trained down (gen4 x8 where the device reaches gen4 x16) has no
 * envelope of its own: the figures are held against the device's maximum
 * link, and the summary says which link the run ran at. */
static void
test_judged_at_maximum (void)
{
  MsSweep s;
  MsTestBackendConfig cfg;
  ms_test_sweep_init (&s, "pinned", 20, 20, 3);
  ms_test_backend_config_init (&cfg);
  cfg.copy_bursts = true;
  cfg.link_gen = 4;
  cfg.link_width = 8;
  MsResults *r = ms_test_sweep_run (&s, &cfg);
  double v;
  g_assert_true (ms_env_figure_value (r, MS_ENV_PINNED_H2D_4M, &v));
  MsEnvelopes *env = envelope_around ("Test GPU", v, 2.0, 3.0);
  MsEnvJudgement j;
  ms_envelope_judge (env, r, &j);
  g_assert_true (j.at_maximum);
  g_assert_cmpint (j.gen, ==, 4);
  g_assert_cmpint (j.width, ==, 16);
  g_assert_cmpint (j.ran_width, ==, 8);
  g_assert_cmpfloat (j.theory_gbps, ==, ms_pcie_theoretical_gbps (4, 8));
  g_assert_cmpint (j.v[MS_ENV_PINNED_H2D_4M].kind, ==, MS_ENV_LOW);
  g_assert_nonnull (strstr (j.summary, "PCIe gen4 x16, the link's maximum (it ran at gen4 x8)"));
  ms_envelopes_free (env);
  ms_results_free (r);
}

/* The shipped envelopes hold every reference run as normal. */
static void
test_reference_runs_normal (void)
{
  char err[512] = "";
  MsEnvelopes *env = ms_envelopes_read (shipped, err, sizeof err);
  g_assert_nonnull (env);
  const char *names[] = { "h100-default-samples.csv.gz", "h200-default-samples.csv.gz" };
  for (size_t i = 0; i < G_N_ELEMENTS (names); i++) {
    char *dir = g_path_get_dirname (shipped);
    char *path = g_build_filename (dir, "reference", names[i], NULL);
    MsResults *r = ms_run_read_samples (path, err, sizeof err);
    g_assert_nonnull (r);
    MsEnvJudgement j;
    ms_envelope_judge (env, r, &j);
    g_assert_cmpint (j.n_judged, >=, 4);
    g_assert_cmpint (j.n_normal, ==, j.n_judged);
    ms_results_free (r);
    g_free (path);
    g_free (dir);
  }
  ms_envelopes_free (env);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  shipped = argc > 1 ? argv[1] : "data/envelopes.csv";
  g_test_add_func ("/envelope/shipped-file", test_shipped_file);
  g_test_add_func ("/envelope/hostile-rows", test_hostile_rows);
  g_test_add_func ("/envelope/foreign-files", test_foreign_files);
  g_test_add_func ("/envelope/judgement", test_judgement);
  g_test_add_func ("/envelope/judged-at-maximum", test_judged_at_maximum);
  g_test_add_func ("/envelope/reference-runs-normal", test_reference_runs_normal);
  return g_test_run ();
}
