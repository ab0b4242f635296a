/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-csv-overhead.c: the instrumentation overhead in samples and summary
 * files (round trip), and files without it (older ones) opening with the
 * overhead unknown. */
#define _GNU_SOURCE
#include <unistd.h>

#include "memsweep.h"
#include "ms-backend-test.h"
#include "ms-tmp-test.h"
#include "ms-sweep-test.h"
#include "files/ms-csv-io.h"
#include "model/ms-results.h"
#include "run/ms-backend.h"
#include "run/ms-runner.h"
#include "lessons/ms-run-read.h"
#include <glib.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *
read_file (const char *path)
{
  static char buf[1 << 20];
  FILE *f = fopen (path, "rb");
  size_t n = f ? fread (buf, 1, sizeof buf - 1, f) : 0;
  buf[n] = '\0';
  if (f)
    fclose (f);
  return buf;
}

/* A summary file as one written before the overhead columns: those three
 * columns cut from every row (the test's rows hold no quoted commas). */
static void
strip_overhead_columns (const char *from, const char *to)
{
  static const char *const cut[] = { "e2e_instr_median_us", "instr_overhead_ratio",
                                     "instr_overhead_us" };
  FILE *in = fopen (from, "r"), *out = fopen (to, "w");
  char line[1 << 14];
  bool skip[4096] = { false };
  bool in_header = true;
  g_assert_true (in && out);
  while (in && out && fgets (line, sizeof line, in)) {
    if (line[0] == '#') {
      fputs (line, out);
      continue;
    }
    line[strcspn (line, "\n")] = '\0';
    int col = 0;
    bool first = true;
    char *rest = line;
    for (char *f = strsep (&rest, ","); f; f = strsep (&rest, ","), col++) {
      if (in_header)
        for (size_t i = 0; i < 3; i++)
          skip[col] = skip[col] || strcmp (f, cut[i]) == 0;
      if (!skip[col]) {
        fprintf (out, "%s%s", first ? "" : ",", f);
        first = false;
      }
    }
    fputc ('\n', out);
    in_header = false;
  }
  if (in)
    fclose (in);
  if (out)
    fclose (out);
}

/* The instrumentation overhead survives the samples and the summary file;
 * files without it (older ones) open with the overhead unknown. */
static void
test_instr_overhead_files (void)
{
  MsSweep s;
  MsTestBackendConfig cfg;
  ms_test_sweep_init (&s, "pinned,device", 10, 11, 6);
  ms_test_backend_config_init (&cfg);
  cfg.instr_cost_us = 8.25;
  MsBackend *b = ms_backend_new_test (&cfg);
  MsResults *r = NULL;
  char err[512] = "";
  ms_sweep_run (&s, b, NULL, NULL, NULL, &r, err, sizeof err);
  ms_backend_free (b);
  const char *samples = ms_test_tmp_path ("instr-samples.csv");
  const char *summary = ms_test_tmp_path ("instr-summary.csv");
  g_assert_true (r && ms_csv_write_samples (r, samples, err, sizeof err));
  g_assert_true (ms_csv_write_summary (r, summary, err, sizeof err));
  g_assert_true (strstr (read_file (summary), "instr_overhead_ratio,instr_overhead_us") != NULL);

  const char *paths[] = { samples, summary };
  for (int i = 0; i < 2; i++) {
    MsResults *back = ms_run_read_samples (paths[i], err, sizeof err);
    g_assert_true (back && back->n_cells == r->n_cells);
    for (size_t c = 0; back && c < back->n_cells; c++) {
      double ratio = 0, diff = 0, want = 0;
      ms_cell_instr_overhead (&r->cells[c], NULL, &want);
      g_assert_true (ms_cell_instr_overhead (&back->cells[c], &ratio, &diff));
      g_assert_cmpfloat_with_epsilon (diff, 8.25, 2e-3);
      g_assert_cmpfloat_with_epsilon (diff, want, 2e-3);
      g_assert_true (ratio > 1);
      if (i == 0)
        g_assert_true (back->cells[c].e2e_instr_us &&
                    fabs (back->cells[c].e2e_instr_us[5] - r->cells[c].e2e_instr_us[5]) < 1e-3);
    }
    ms_results_free (back);
  }

  const char *old = ms_test_tmp_path ("old-summary.csv");
  strip_overhead_columns (summary, old);
  MsResults *back = ms_csv_read_summary (old, err, sizeof err);
  g_assert_true (back && back->n_cells == r->n_cells);
  for (size_t c = 0; back && c < back->n_cells; c++)
    g_assert_true (!ms_cell_instr_overhead (&back->cells[c], NULL, NULL) &&
                fabs (back->cells[c].stats.e2e.median - r->cells[c].stats.e2e.median) < 2e-3);
  ms_results_free (back);
  ms_results_free (r);

  /* The large run of before plain repetitions (kept as an old format): no
   * overhead. */
  back = ms_run_read_samples (MS_OLD_FORMAT_DIR "/h100-large-samples.csv", err, sizeof err);
  g_assert_true (back != NULL);
  for (size_t c = 0; back && c < back->n_cells; c++)
    g_assert_true (!back->cells[c].e2e_instr_us && !ms_cell_instr_overhead (&back->cells[c], NULL,
                                                                        NULL));
  ms_results_free (back);
  /* The default one was recorded with them: every cell has its overhead. */
  back = ms_run_read_samples (MS_REFERENCE_DIR "/h100-default-samples.csv.gz", err, sizeof err);
  g_assert_true (back != NULL);
  for (size_t c = 0; back && c < back->n_cells; c++)
    if (back->cells[c].status == MS_CELL_OK)
      g_assert_true (ms_cell_instr_overhead (&back->cells[c], NULL, NULL));
  ms_results_free (back);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/csv-overhead/instr-overhead-files", test_instr_overhead_files);
  return g_test_run ();
}
