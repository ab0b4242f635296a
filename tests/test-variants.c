/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-variants.c: the experiments' data model: cells identified by (mode,
 * size, variant) in the results, the statistics, the writer and the
 * reader; the experiment's metadata; files without a variant column. */
#define _GNU_SOURCE
#include <unistd.h>

#include "memsweep.h"
#include "ms-backend-test.h"
#include "ms-test.h"

static char tmpdir[256];

static const char *
tmp_path (const char *name)
{
  static char buf[4][512];
  static int i;
  i = (i + 1) % 4;
  snprintf (buf[i], sizeof buf[i], "%s/%s", tmpdir, name);
  return buf[i];
}

/* The same sweep under two variants, the second at half the bandwidth,
 * merged into one result. */
static MsResults *
make_experiment (void)
{
  MsTestBackendConfig cfg;
  MsSweep s;
  MsResults *all = NULL;
  char err[256];
  ms_sweep_init_default (&s);
  s.min_exp = 10;
  s.max_exp = 12;
  s.reps = 3;
  s.reps_rule = MS_REPS_FIXED;
  ms_sweep_set_modes (&s, "pinned,zero-copy", err, sizeof err);
  for (int v = 0; v < 2; v++) {
    ms_test_backend_config_init (&cfg);
    cfg.latency_us = 0.01;
    for (int m = 0; m < MS_MODE_COUNT; m++)
      cfg.bandwidth_gbps[m] /= v + 1;
    snprintf (s.variant, sizeof s.variant, "R=%d", v ? 4 : 1);
    MsBackend *b = ms_backend_new_test (&cfg);
    MsResults *r = NULL;
    MS_CHECK (ms_sweep_run (&s, b, NULL, NULL, NULL, &r, err, sizeof err) == MS_RUN_OK, "%s",
              err);
    ms_backend_free (b);
    if (!all) {
      all = r;
      continue;
    }
    for (size_t i = 0; i < r->n_cells; i++)
      MS_CHECK (ms_results_put_cell (all, &r->cells[i]), "put");
    ms_results_free (r);
  }
  snprintf (all->experiment, sizeof all->experiment, "reuse");
  snprintf (all->experiment_settings, sizeof all->experiment_settings, "R=1,4");
  return all;
}

static void
test_identity (void)
{
  MsResults *r = make_experiment ();
  MS_CHECK (r->n_cells == 2 * 2 * 3, "cells %zu", r->n_cells);
  const MsCell *one = ms_results_find_variant (r, MS_MODE_PINNED, 11, "R=1");
  const MsCell *four = ms_results_find_variant (r, MS_MODE_PINNED, 11, "R=4");
  MS_CHECK (one && four && one != four, "both variants found");
  MS_CHECK (ms_results_find (r, MS_MODE_PINNED, 11) == NULL, "no plain cell");
  if (one && four)
    MS_CHECK (four->stats.e2e.median > 1.5 * one->stats.e2e.median, "statistics per variant");
  const char *names[4];
  MS_CHECK (ms_results_variants (r, MS_MODE_ZERO_COPY, names, 4) == 2, "two variants");
  MS_CHECK_STR (names[0], "R=1");
  MS_CHECK_STR (names[1], "R=4");
  MS_CHECK (ms_results_variants (r, MS_MODE_ZERO_COPY, names, 1) == 1, "bounded");
  /* Replacing a cell keeps the other variant's. */
  MsCell copy;
  MS_CHECK (ms_cell_copy (&copy, four), "copy");
  copy.status = MS_CELL_FAILED;
  MS_CHECK (ms_results_put_cell (r, &copy) && r->n_cells == 12, "replaced in place");
  MS_CHECK (ms_results_find_variant (r, MS_MODE_PINNED, 11, "R=4")->status == MS_CELL_FAILED &&
              ms_results_find_variant (r, MS_MODE_PINNED, 11, "R=1")->status == MS_CELL_OK,
            "only the same variant replaced");
  ms_cell_clear (&copy);
  /* Fits per variant: R=4 is the slower line. */
  MsFit f1 = ms_results_fit_variant (r, MS_MODE_PINNED, "R=1", MS_PHASE_COUNT);
  MsFit f4 = ms_results_fit_variant (r, MS_MODE_PINNED, "R=4", MS_PHASE_COUNT);
  MS_CHECK (f1.n_points == 3 && f4.n_points == 2, "points %d %d", f1.n_points, f4.n_points);
  MS_CHECK (f4.bandwidth_gbps < f1.bandwidth_gbps, "per-variant fit");
  MS_CHECK (!ms_results_fit (r, MS_MODE_PINNED, MS_PHASE_COUNT).valid, "no plain fit");
  ms_results_free (r);
}

static void
test_round_trip (void)
{
  MsResults *r = make_experiment ();
  char err[512] = "";
  const char *samples = tmp_path ("v-samples.csv"), *summary = tmp_path ("v-summary.csv");
  MS_CHECK (ms_csv_write_samples (r, samples, err, sizeof err), "%s", err);
  MS_CHECK (ms_csv_write_summary (r, summary, err, sizeof err), "%s", err);
  MsResults *back = ms_csv_read_samples (samples, err, sizeof err);
  MS_CHECK (back != NULL, "%s", err);
  if (back) {
    MS_CHECK (back->n_cells == r->n_cells, "cells %zu", back->n_cells);
    MS_CHECK_STR (back->experiment, "reuse");
    MS_CHECK_STR (back->experiment_settings, "R=1,4");
    for (size_t i = 0; i < r->n_cells; i++) {
      const MsCell *x = &r->cells[i];
      const MsCell *y = ms_results_find_variant (back, x->mode, x->exponent, x->variant);
      MS_CHECK (y && y->n_reps == x->n_reps && y->n_events == x->n_events &&
                  fabs (y->stats.e2e.median - x->stats.e2e.median) < 1e-3,
                "%s 2^%d %s", ms_mode_name (x->mode), x->exponent, x->variant);
    }
  }
  FILE *f = fopen (summary, "r");
  char line[8192];
  int rows_r4 = 0;
  bool header = false, meta = false, reason = false;
  while (f && fgets (line, sizeof line, f)) {
    header = header || (strncmp (line, "mode,", 5) == 0 && strstr (line, ",gpu_state,variant,fit_latency_us,"));
    meta = meta || strcmp (line, "# experiment: reuse\n") == 0;
    reason = reason || strncmp (line, "# experiment-reason: The kernel reads", 37) == 0;
    rows_r4 += strstr (line, ",\"R=4\",") != NULL;
  }
  if (f)
    fclose (f);
  MS_CHECK (header && meta && reason, "summary header %d, experiment %d, reason %d", header,
            meta, reason);
  MS_CHECK (rows_r4 == 6, "summary rows of R=4: %d", rows_r4);
  ms_results_free (back);
  ms_results_free (r);
}

static void
write_text (const char *path, const char *text)
{
  FILE *f = fopen (path, "w");
  fputs (text, f);
  fclose (f);
}

static void
test_reader (void)
{
  char err[512] = "";
  const char *head = "mode,elements,rep,phase,host_start_us,host_us,status,variant\n";
  char text[1024];
  /* A file without the column reads with variant "", as a plain sweep. */
  write_text (tmp_path ("old.csv"), "# memsweep samples file\n"
                                    "mode,elements,rep,phase,host_start_us,host_us,status\n"
                                    "pinned,1024,0,e2e,,9.5,ok\n");
  MsResults *r = ms_csv_read_samples (tmp_path ("old.csv"), err, sizeof err);
  MS_CHECK (r && ms_results_find (r, MS_MODE_PINNED, 10) && r->experiment[0] == '\0', "%s",
            err);
  ms_results_free (r);
  /* Two variants of one cell, interleaved. */
  snprintf (text, sizeof text, "%spinned,1024,0,e2e,,1,ok,K=1\npinned,1024,0,e2e,,2,ok,K=2\n"
                               "pinned,1024,1,e2e,,3,ok,K=1\npinned,1024,0,e2e,,4,ok,\n", head);
  write_text (tmp_path ("two.csv"), text);
  r = ms_csv_read_samples (tmp_path ("two.csv"), err, sizeof err);
  MS_CHECK (r && r->n_cells == 3, "%s", err);
  const MsCell *k1 = r ? ms_results_find_variant (r, MS_MODE_PINNED, 10, "K=1") : NULL;
  MS_CHECK (k1 && k1->n_reps == 2 && k1->e2e_us[1] == 3, "K=1 has both repetitions");
  MS_CHECK (r && ms_results_find (r, MS_MODE_PINNED, 10)->e2e_us[0] == 4, "empty variant");
  ms_results_free (r);
  /* A variant that is not one is refused with its line. */
  snprintf (text, sizeof text, "%spinned,1024,0,e2e,,1,ok,=cmd()\n", head);
  write_text (tmp_path ("bad.csv"), text);
  r = ms_csv_read_samples (tmp_path ("bad.csv"), err, sizeof err);
  MS_CHECK (!r && strstr (err, "bad.csv:2: variant '=cmd()'"), "got: %s", err);
  ms_results_free (r);
}

static void
test_variant_text (void)
{
  char v[MS_VARIANT_LEN];
  int k = 0;
  MS_CHECK (ms_variant_valid ("") && ms_variant_valid ("queue=single/order=breadth"), "valid");
  MS_CHECK (!ms_variant_valid ("-R=1") && !ms_variant_valid ("a b") &&
              !ms_variant_valid ("0123456789012345678901234567890123456789012345678"),
            "invalid");
  MS_CHECK (ms_variant_get ("queue=single/order=breadth", "order", v, sizeof v), "order");
  MS_CHECK_STR (v, "breadth");
  MS_CHECK (ms_variant_get ("queue=single/order=breadth", "queue", v, sizeof v), "queue");
  MS_CHECK_STR (v, "single");
  MS_CHECK (!ms_variant_get ("queue=single", "que", v, sizeof v), "no prefix match");
  MS_CHECK (ms_variant_get_int ("K=16/order=depth", "K", &k) && k == 16, "K");
  MS_CHECK (!ms_variant_get_int ("K=x", "K", &k), "not a number");
  MsSweep s;
  char err[256];
  ms_sweep_init_default (&s);
  snprintf (s.variant, sizeof s.variant, "R 4");
  MS_CHECK (!ms_sweep_validate (&s, err, sizeof err) && strstr (err, "variant"), "%s", err);
}

static void
test_lessons_table (void)
{
  MS_CHECK (ms_lesson_count () >= 6, "six lessons");
  for (int i = 0; i < ms_lesson_count (); i++) {
    const MsLessonInfo *l = ms_lesson_nth (i);
    MS_CHECK (l->name[0] && l->title[0] && l->question[0] && l->reason[0], "texts");
    MS_CHECK (ms_lesson_find (l->name) == l, "found by name");
  }
  MS_CHECK (ms_lesson_reason ("sweep") == NULL && ms_lesson_reason ("") == NULL, "plain");
  MS_CHECK (ms_lesson_nth (ms_lesson_count ()) == NULL, "bounds");
}

/* A plain sweep's knobs (run --reuse/--stores, the app's pane) reach only
 * the modes that honour them, and each cell's variant says which. */
static void
test_plain_sweep_knobs (void)
{
  MsSweep s;
  MsResults *r = NULL;
  char err[256] = "";
  ms_sweep_init_default (&s);
  s.min_exp = 10;
  s.max_exp = 11;
  s.reps = 3;
  s.reps_rule = MS_REPS_FIXED;
  MS_CHECK (ms_sweep_set_modes (&s, "pinned,zero-copy,write-combined,host", err, sizeof err),
            "%s", err);
  s.knobs.reuse = 4;
  s.knobs.stores = MS_STORES_ORDINARY;
  MS_CHECK (ms_sweep_validate (&s, err, sizeof err), "%s", err);
  MsBackend *b = ms_backend_new_test (NULL);
  MS_CHECK (ms_sweep_run (&s, b, NULL, NULL, NULL, &r, err, sizeof err) == MS_RUN_OK, "%s", err);
  ms_backend_free (b);
  static const struct { MsMode mode; const char *variant; } want[] = {
    { MS_MODE_PINNED, "R=4/stores=ordinary" },
    { MS_MODE_ZERO_COPY, "R=4" },
    { MS_MODE_WRITE_COMBINED, "stores=ordinary" },
    { MS_MODE_HOST, "" },
  };
  for (size_t i = 0; r && i < sizeof want / sizeof want[0]; i++)
    MS_CHECK (ms_results_find_variant (r, want[i].mode, 10, want[i].variant), "%s '%s'",
              ms_mode_name (want[i].mode), want[i].variant);
  MS_CHECK (r && r->n_cells == 8, "8 cells");
  /* The views and the table find a knob's cell as the size's cell. */
  const MsCell *zc = r ? ms_results_find (r, MS_MODE_ZERO_COPY, 10) : NULL;
  MS_CHECK (zc && strcmp (zc->variant, "R=4") == 0, "find falls back to the knob's cell");
  MS_CHECK (r && !ms_results_find (r, MS_MODE_ZERO_COPY, 12), "no cell at another size");
  /* And the fit of the table and show's fit line is over those cells. */
  for (size_t i = 0; r && i < sizeof want / sizeof want[0]; i++)
    MS_CHECK (ms_results_fit (r, want[i].mode, MS_PHASE_COUNT).n_points == 2, "%s fit",
              ms_mode_name (want[i].mode));
  ms_results_free (r);
  /* The knob's modes all left out: refused before anything runs. */
  MS_CHECK (ms_sweep_set_modes (&s, "host,streams", err, sizeof err), "%s", err);
  MS_CHECK (!ms_sweep_validate (&s, err, sizeof err) && strstr (err, "select one of them"),
            "%s", err);
  /* A lesson part keeps its own variant and knobs. */
  MsKnobs k;
  char v[MS_VARIANT_LEN];
  snprintf (s.variant, sizeof s.variant, "R=2/access=read");
  s.knobs.reuse = 2;
  ms_sweep_cell_knobs (&s, MS_MODE_HOST, &k, v, sizeof v);
  MS_CHECK (strcmp (v, "R=2/access=read") == 0 && k.reuse == 2, "%s", v);
}

int
main (void)
{
  snprintf (tmpdir, sizeof tmpdir, "/tmp/ms-test-variants-XXXXXX");
  if (!mkdtemp (tmpdir))
    return 1;
  MS_RUN (test_identity);
  MS_RUN (test_round_trip);
  MS_RUN (test_reader);
  MS_RUN (test_variant_text);
  MS_RUN (test_lessons_table);
  MS_RUN (test_plain_sweep_knobs);
  char cmd[300];
  snprintf (cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
  if (getenv ("MS_KEEP_TMP"))
    return ms_test_finish ();
  if (system (cmd) != 0)
    return 1;
  return ms_test_finish ();
}
