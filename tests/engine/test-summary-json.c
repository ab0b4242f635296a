/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-summary-json.c: summary files read back (against the samples they
 * came from, and malformed ones refused with file:line), and JSON that
 * stays valid whatever the strings and numbers hold. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <glib.h>
#include <math.h>
#include <string.h>

#include "files/ms-csv-io.h"
#include "files/ms-file-kinds.h"
#include "lessons/ms-run-read.h"
#include "memsweep.h"
#include "model/ms-fit.h"
#include "model/ms-results.h"
#include "ms-cli-json.h"
#include "ms-modes.h"
#include "ms-tmp-test.h"

static void
check_stat (const MsStat *got, const MsStat *want, const char *what)
{
  g_assert_cmpint (got->n, ==, want->n);
  g_assert_cmpfloat (fabs ((double)(got->median) - (double)(want->median)), <=, 0.0006);
  g_assert_cmpfloat (fabs ((double)(got->min) - (double)(want->min)), <=, 0.0006);
  g_assert_cmpfloat (fabs ((double)(got->max) - (double)(want->max)), <=, 0.0006);
  g_assert_true (got->ci_valid == want->ci_valid);
  if (want->ci_valid) {
    g_assert_cmpfloat (fabs ((double)(got->ci_low) - (double)(want->ci_low)), <=, 0.0006);
    g_assert_cmpfloat (fabs ((double)(got->ci_high) - (double)(want->ci_high)), <=, 0.0006);
  }
}

static void
test_summary_round_trip (void)
{
  char err[1024];
  MsResults *samples = ms_run_read_samples (MS_REFERENCE_DIR "/h100-default-samples.csv.gz", err,
                                            sizeof err);
  g_assert_nonnull (samples);
  if (!samples)
    return;
  const char *path = ms_test_tmp_path ("r-summary.csv");
  g_assert_true (ms_csv_write_summary (samples, path, err, sizeof err));
  g_assert_true (ms_file_kind (path) == MS_FILE_KIND_SUMMARY);
  /* The samples reader hands a summary file on. */
  MsResults *back = ms_run_read_samples (path, err, sizeof err);
  g_assert_nonnull (back);
  if (!back) {
    ms_results_free (samples);
    return;
  }
  g_assert_true (back->from_summary);
  g_assert_false (samples->from_summary);
  g_assert_cmpuint (back->n_cells, ==, samples->n_cells);
  g_assert_cmpstr (back->device.name, ==, samples->device.name);
  g_assert_true (back->sweep.min_reps == samples->sweep.min_reps);
  for (size_t i = 0; i < back->n_cells && i < samples->n_cells; i++) {
    const MsCell *g = &back->cells[i], *w = &samples->cells[i];
    g_assert_true (g->mode == w->mode);
    g_assert_true (g->exponent == w->exponent);
    g_assert_true (g->status == w->status);
    g_assert_true (g->n_events == 0);
    g_assert_true (g->n_reps == 0);
    g_assert_false (g->e2e_us);
    check_stat (&g->stats.e2e, &w->stats.e2e, "e2e");
    g_assert_cmpfloat (fabs ((double)(g->stats.e2e_gbps) - (double)(w->stats.e2e_gbps)), <=,
                       0.0006);
    g_assert_cmpfloat (fabs ((double)(g->stats.h2d_gbps) - (double)(w->stats.h2d_gbps)), <=,
                       0.0006);
    for (int p = 0; p < MS_PHASE_COUNT; p++)
      check_stat (&g->stats.phase[p], &w->stats.phase[p], ms_phase_name (p));
  }
  MsFit a = ms_results_fit (samples, MS_MODE_PINNED, MS_PHASE_COUNT);
  MsFit b = ms_results_fit (back, MS_MODE_PINNED, MS_PHASE_COUNT);
  g_assert_true (a.valid);
  g_assert_true (b.valid);
  g_assert_cmpfloat (fabs ((double)(b.bandwidth_gbps / a.bandwidth_gbps) - (double)(1)), <=, 0.001);
  ms_results_free (back);
  ms_results_free (samples);
}

static void
expect_refused (const char *name, const char *rows, const char *want)
{
  char err[1024], text[4096];
  snprintf (text, sizeof text,
            "# memsweep summary file\n# device: X\n"
            "mode,elements,status,reps,e2e_median_us,e2e_gbps,message\n%s", rows);
  const char *path = ms_test_tmp_file (name, text);
  MsResults *r = ms_run_read_samples (path, err, sizeof err);
  g_assert_null (r);
  ms_results_free (r);
  g_assert_true (r != NULL || strstr (err, want));
}

static void
test_summary_refused (void)
{
  expect_refused ("mode.csv", "\"warp\",1024,\"ok\",10,1.5,2,\n", ":4: unknown mode 'warp'");
  expect_refused ("size.csv", "\"pinned\",1000,\"ok\",10,1.5,2,\n", ":4: elements '1000'");
  expect_refused ("status.csv", "\"pinned\",1024,\"fine\",10,1.5,2,\n", ":4: unknown status");
  expect_refused ("number.csv", "\"pinned\",1024,\"ok\",10,fast,2,\n",
                  ":4: column 'e2e_median_us'");
  expect_refused ("fields.csv", "\"pinned\",1024,\"ok\",10\n", ":4: 4 fields where the header");
  expect_refused ("twice.csv",
                  "\"pinned\",1024,\"ok\",10,1.5,2,\n\"pinned\",1024,\"ok\",10,1.5,2,\n",
                  ":5: a second row for pinned");
  char err[512];
  const char *path = ms_test_tmp_file ("header.csv", "# memsweep summary file\nfoo,bar\n1,2\n");
  MsResults *r = ms_run_read_samples (path, err, sizeof err);
  g_assert_false (r);
  g_assert_nonnull (strstr (err, ":2: not a memsweep summary header"));
  ms_results_free (r);
}

static void
test_json_valid (void)
{
  MsResults *r = ms_results_new (NULL, NULL);
  snprintf (r->label, sizeof r->label, "a \"label\"\nwith\ttabs \\ and \xff bytes");
  MsCell c = { .mode = MS_MODE_PINNED, .exponent = 10, .elements = 1024, .status = MS_CELL_OK };
  c.stats.e2e = (MsStat){ .n = 3, .median = NAN, .min = 1, .max = INFINITY };
  snprintf (c.message, sizeof c.message, "bad\x01" "byte");
  snprintf (c.variant, sizeof c.variant, "R=4");
  ms_results_add_cell (r, &c);
  const char *path = ms_test_tmp_path ("r.json");
  FILE *f = fopen (path, "w");
  g_assert_true (ms_json_write_judged (f, r, NULL));
  fclose (f);
  char text[8192] = "";
  f = fopen (path, "r");
  size_t n = fread (text, 1, sizeof text - 1, f);
  fclose (f);
  text[n] = '\0';
  /* json-c's escapes: the short ones where JSON has them; U+FFFD as UTF-8. */
  g_assert_nonnull (strstr (text, "a \\\"label\\\"\\nwith\\ttabs \\\\ and \xef\xbf\xbd bytes"));
  g_assert_nonnull (strstr (text, "bad\\u0001byte"));
  g_assert_nonnull (strstr (text, "\"variant\":\"R=4\""));
  g_assert_false (strstr (text, "nan"));
  g_assert_false (strstr (text, "inf"));
  g_assert_nonnull (strstr (text, "\"median_us\":null"));
  char cmd[512];
  snprintf (cmd, sizeof cmd, "python3 -m json.tool '%s' >/dev/null 2>&1", path);
  if (system ("command -v python3 >/dev/null 2>&1") == 0)
    g_assert_true (system (cmd) == 0);
  ms_results_free (r);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/summary-json/summary-round-trip", test_summary_round_trip);
  g_test_add_func ("/summary-json/summary-refused", test_summary_refused);
  g_test_add_func ("/summary-json/json-valid", test_json_valid);
  return g_test_run ();
}
