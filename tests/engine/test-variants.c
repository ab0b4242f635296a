/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-variants.c: the experiments' data model: cells identified by (mode,
 * size, variant) in the results, the statistics, the writer and the
 * reader; the experiment's metadata; files without a variant column. */
#define _GNU_SOURCE
#include <unistd.h>
#include <glib.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "memsweep.h"
#include "ms-lesson-caption.h"
#include "ms-backend-test.h"
#include "ms-tmp-test.h"
#include "ms-sweep-test.h"
#include "files/ms-csv-io.h"
#include "lessons/ms-lesson-table.h"
#include "model/ms-fit.h"
#include "model/ms-results.h"
#include "model/ms-rounds.h"
#include "ms-sweep.h"
#include "ms-variant.h"
#include "run/ms-backend.h"
#include "run/ms-runner.h"
#include "lessons/ms-run-read.h"

/* The same sweep under two variants, the second at half the bandwidth,
 * merged into one result. */
static MsResults *
make_experiment (void)
{
  MsTestBackendConfig cfg;
  MsSweep s;
  MsResults *all = NULL;
  char err[256];
  ms_test_sweep_init (&s, "pinned,zero-copy", 10, 12, 3);
  for (int v = 0; v < 2; v++) {
    ms_test_backend_config_init (&cfg);
    cfg.latency_us = 0.01;
    for (int m = 0; m < MS_MODE_COUNT; m++)
      cfg.bandwidth_gbps[m] /= v + 1;
    snprintf (s.variant, sizeof s.variant, "R=%d", v ? 4 : 1);
    MsBackend *b = ms_backend_new_test (&cfg);
    MsResults *r = NULL;
    g_assert_cmpint (ms_sweep_run (&s, b, NULL, NULL, NULL, &r, err, sizeof err), ==, MS_RUN_OK);
    ms_backend_free (b);
    if (!all) {
      all = r;
      continue;
    }
    for (size_t i = 0; i < r->n_cells; i++)
      g_assert_true (ms_results_put_cell (all, &r->cells[i]));
    ms_results_free (r);
  }
  snprintf (all->experiment, sizeof all->experiment, "reuse");
  all->experiment_reason = ms_lesson_reason ("reuse");
  snprintf (all->experiment_settings, sizeof all->experiment_settings, "R=1,4");
  return all;
}

static void
test_identity (void)
{
  MsResults *r = make_experiment ();
  g_assert_cmpuint (r->n_cells, ==, 2 * 2 * 3);
  const MsCell *one = ms_results_find_variant (r, MS_MODE_PINNED, 11, "R=1");
  const MsCell *four = ms_results_find_variant (r, MS_MODE_PINNED, 11, "R=4");
  g_assert_true (one);
  g_assert_true (four);
  g_assert_true (one != four);
  g_assert_null (ms_results_find (r, MS_MODE_PINNED, 11));
  if (one && four)
    g_assert_true (four->stats.e2e.median > 1.5 * one->stats.e2e.median);
  const char *names[4];
  g_assert_true (ms_results_variants (r, MS_MODE_ZERO_COPY, names, 4) == 2);
  g_assert_cmpstr (names[0], ==, "R=1");
  g_assert_cmpstr (names[1], ==, "R=4");
  g_assert_true (ms_results_variants (r, MS_MODE_ZERO_COPY, names, 1) == 1);
  /* Replacing a cell keeps the other variant's. */
  MsCell copy;
  g_assert_true (ms_cell_copy (&copy, four));
  copy.status = MS_CELL_FAILED;
  g_assert_true (ms_results_put_cell (r, &copy));
  g_assert_true (r->n_cells == 12);
  g_assert_cmpint (ms_results_find_variant (r, MS_MODE_PINNED, 11, "R=4")->status, ==,
                   MS_CELL_FAILED);
  g_assert_cmpint (ms_results_find_variant (r, MS_MODE_PINNED, 11, "R=1")->status, ==, MS_CELL_OK);
  ms_cell_clear (&copy);
  /* Fits per variant: R=4 is the slower line. */
  MsFit f1 = ms_results_fit_variant (r, MS_MODE_PINNED, "R=1", MS_PHASE_COUNT);
  MsFit f4 = ms_results_fit_variant (r, MS_MODE_PINNED, "R=4", MS_PHASE_COUNT);
  g_assert_cmpint (f1.n_points, ==, 3);
  g_assert_cmpint (f4.n_points, ==, 2);
  g_assert_true (f4.bandwidth_gbps < f1.bandwidth_gbps);
  g_assert_true (!ms_results_fit (r, MS_MODE_PINNED, MS_PHASE_COUNT).valid);
  ms_results_free (r);
}

static void
test_round_trip (void)
{
  MsResults *r = make_experiment ();
  char err[512] = "";
  const char *samples = ms_test_tmp_path ("v-samples.csv");
  const char *summary = ms_test_tmp_path ("v-summary.csv");
  g_assert_true (ms_csv_write_samples (r, samples, err, sizeof err));
  g_assert_true (ms_csv_write_summary (r, summary, err, sizeof err));
  MsResults *back = ms_run_read_samples (samples, err, sizeof err);
  g_assert_nonnull (back);
  if (back) {
    g_assert_cmpuint (back->n_cells, ==, r->n_cells);
    g_assert_cmpstr (back->experiment, ==, "reuse");
    g_assert_cmpstr (back->experiment_settings, ==, "R=1,4");
    for (size_t i = 0; i < r->n_cells; i++) {
      const MsCell *x = &r->cells[i];
      const MsCell *y = ms_results_find_variant (back, x->mode, x->exponent, x->variant);
      g_assert_true (y);
      g_assert_true (y->n_reps == x->n_reps);
      g_assert_true (y->n_events == x->n_events);
      g_assert_true (fabs (y->stats.e2e.median - x->stats.e2e.median) < 1e-3);
    }
  }
  FILE *f = fopen (summary, "r");
  char line[8192];
  int rows_r4 = 0;
  bool header = false, meta = false, reason = false;
  while (f && fgets (line, sizeof line, f)) {
    header = header || (strncmp (line, "mode,", 5) == 0 && strstr (line, ",variant,fit_latency_us,"));
    rows_r4 += strstr (line, ",\"R=4\",") != NULL;
  }
  if (f)
    fclose (f);
  /* The experiment and why, in the run's sidecar. */
  f = fopen (ms_test_tmp_path ("v-meta.json"), "r");
  while (f && fgets (line, sizeof line, f)) {
    meta = meta || strcmp (line, "    \"experiment\": \"reuse\",\n") == 0;
    reason = reason || strncmp (line, "    \"experiment-reason\": \"The kernel reads", 42) == 0;
  }
  if (f)
    fclose (f);
  g_assert_true (header);
  g_assert_true (meta);
  g_assert_true (reason);
  g_assert_cmpint (rows_r4, ==, 6);
  ms_results_free (back);
  ms_results_free (r);
}

static void
test_reader (void)
{
  char err[512] = "";
  const char *head = "mode,elements,rep,phase,host_start_us,host_us,status,variant\n";
  char text[1024];
  /* A file without the column reads with variant "", as a plain sweep. */
  ms_test_tmp_file ("old.csv", "# memsweep samples file\n"
                                    "mode,elements,rep,phase,host_start_us,host_us,status\n"
                                    "pinned,1024,0,e2e,,9.5,ok\n");
  MsResults *r = ms_run_read_samples (ms_test_tmp_path ("old.csv"), err, sizeof err);
  g_assert_true (r);
  g_assert_true (ms_results_find (r, MS_MODE_PINNED, 10));
  g_assert_true (r->experiment[0] == '\0');
  ms_results_free (r);
  /* Two variants of one cell, interleaved. */
  snprintf (text, sizeof text, "%spinned,1024,0,e2e,,1,ok,K=1\npinned,1024,0,e2e,,2,ok,K=2\n"
                               "pinned,1024,1,e2e,,3,ok,K=1\npinned,1024,0,e2e,,4,ok,\n", head);
  ms_test_tmp_file ("two.csv", text);
  r = ms_run_read_samples (ms_test_tmp_path ("two.csv"), err, sizeof err);
  g_assert_true (r);
  g_assert_true (r->n_cells == 3);
  const MsCell *k1 = r ? ms_results_find_variant (r, MS_MODE_PINNED, 10, "K=1") : NULL;
  g_assert_true (k1);
  g_assert_true (k1->n_reps == 2);
  g_assert_true (k1->e2e_us[1] == 3);
  g_assert_true (r);
  g_assert_true (ms_results_find (r, MS_MODE_PINNED, 10)->e2e_us[0] == 4);
  ms_results_free (r);
  /* A variant that is not one is refused with its line. */
  snprintf (text, sizeof text, "%spinned,1024,0,e2e,,1,ok,=cmd()\n", head);
  ms_test_tmp_file ("bad.csv", text);
  r = ms_run_read_samples (ms_test_tmp_path ("bad.csv"), err, sizeof err);
  g_assert_false (r);
  g_assert_nonnull (strstr (err, "bad.csv:2: variant '=cmd()'"));
  ms_results_free (r);
}

static void
test_variant_text (void)
{
  char v[MS_VARIANT_LEN];
  int k = 0;
  g_assert_true (ms_variant_valid (""));
  g_assert_true (ms_variant_valid ("queue=single/order=breadth"));
  g_assert_false (ms_variant_valid ("-R=1"));
  g_assert_false (ms_variant_valid ("a b"));
  g_assert_false (ms_variant_valid ("0123456789012345678901234567890123456789012345678"));
  g_assert_true (ms_variant_get ("queue=single/order=breadth", "order", v, sizeof v));
  g_assert_cmpstr (v, ==, "breadth");
  g_assert_true (ms_variant_get ("queue=single/order=breadth", "queue", v, sizeof v));
  g_assert_cmpstr (v, ==, "single");
  g_assert_false (ms_variant_get ("queue=single", "que", v, sizeof v));
  g_assert_true (ms_variant_get_int ("K=16/order=depth", "K", &k));
  g_assert_true (k == 16);
  g_assert_false (ms_variant_get_int ("K=x", "K", &k));
  MsSweep s;
  char err[256];
  ms_sweep_init_default (&s);
  snprintf (s.variant, sizeof s.variant, "R 4");
  g_assert_false (ms_sweep_validate (&s, err, sizeof err));
  g_assert_nonnull (strstr (err, "variant"));
}

static void
test_lessons_table (void)
{
  g_assert_true (ms_lesson_count () >= 6);
  for (int i = 0; i < ms_lesson_count (); i++) {
    const MsLessonTopicInfo *l = ms_lesson_nth (i);
    g_assert_true (l->name[0]);
    g_assert_true (l->reason[0]);
    /* Every experiment is a lesson topic's: its title is the app card's. */
    g_assert_cmpint (ms_lesson_topic_for_experiment (l->name), <, MS_TOPIC_COUNT);
    g_assert_true (ms_lesson_find (l->name) == l);
  }
  g_assert_null (ms_lesson_reason ("sweep"));
  g_assert_null (ms_lesson_reason (""));
  g_assert_null (ms_lesson_nth (ms_lesson_count ()));
}

/* A plain sweep's knobs (run --reuse/--stores, the app's pane) reach only
 * the modes that honour them, and each cell's variant says which. */
static void
test_plain_sweep_knobs (void)
{
  MsSweep s;
  MsResults *r = NULL;
  char err[256] = "";
  ms_test_sweep_init (&s, "pinned,zero-copy,write-combined,host", 10, 11, 3);
  s.knobs.reuse = 4;
  s.knobs.stores = MS_STORES_ORDINARY;
  g_assert_true (ms_sweep_validate (&s, err, sizeof err));
  r = ms_test_sweep_run (&s, NULL);
  static const struct { MsMode mode; const char *variant; } want[] = {
    { MS_MODE_PINNED, "R=4/stores=ordinary" },
    { MS_MODE_ZERO_COPY, "R=4" },
    { MS_MODE_WRITE_COMBINED, "stores=ordinary" },
    { MS_MODE_HOST, "" },
  };
  for (size_t i = 0; r && i < sizeof want / sizeof want[0]; i++)
    g_assert_true (ms_results_find_variant (r, want[i].mode, 10, want[i].variant));
  g_assert_true (r);
  g_assert_true (r->n_cells == 8);
  /* The views and the table find a knob's cell as the size's cell. */
  const MsCell *zc = r ? ms_results_find (r, MS_MODE_ZERO_COPY, 10) : NULL;
  g_assert_true (zc);
  g_assert_cmpstr (zc->variant, ==, "R=4");
  g_assert_true (r);
  g_assert_false (ms_results_find (r, MS_MODE_ZERO_COPY, 12));
  /* And the fit of the table and show's fit line is over those cells. */
  for (size_t i = 0; r && i < sizeof want / sizeof want[0]; i++)
    g_assert_true (ms_results_fit (r, want[i].mode, MS_PHASE_COUNT).n_points == 2);
  ms_results_free (r);
  /* The knob's modes all left out: refused before anything runs. */
  g_assert_true (ms_sweep_set_modes (&s, "host,streams", err, sizeof err));
  g_assert_false (ms_sweep_validate (&s, err, sizeof err));
  g_assert_nonnull (strstr (err, "select one of them"));
  /* A lesson part keeps its own variant and knobs. */
  MsKnobs k;
  char v[MS_VARIANT_LEN];
  snprintf (s.variant, sizeof s.variant, "R=2/access=read");
  s.knobs.reuse = 2;
  ms_sweep_cell_knobs (&s, MS_MODE_HOST, &k, v, sizeof v);
  g_assert_cmpstr (v, ==, "R=2/access=read");
  g_assert_true (k.reuse == 2);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/variants/identity", test_identity);
  g_test_add_func ("/variants/round-trip", test_round_trip);
  g_test_add_func ("/variants/reader", test_reader);
  g_test_add_func ("/variants/variant-text", test_variant_text);
  g_test_add_func ("/variants/lessons-table", test_lessons_table);
  g_test_add_func ("/variants/plain-sweep-knobs", test_plain_sweep_knobs);
  return g_test_run ();
}
