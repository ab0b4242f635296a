/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-summary-json.c: summary files read back (against the samples they
 * came from, and malformed ones refused with file:line), and JSON that
 * stays valid whatever the strings and numbers hold. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "memsweep.h"
#include "ms-cli-json.h"
#include "ms-test.h"

static char tmpdir[] = "/tmp/ms-summary-XXXXXX";

static char *
tmp_path (const char *name)
{
  static char path[4][256];
  static int slot;
  slot = (slot + 1) % 4;
  snprintf (path[slot], sizeof path[slot], "%s/%s", tmpdir, name);
  return path[slot];
}

static void
write_text (const char *path, const char *text)
{
  FILE *f = fopen (path, "w");
  fputs (text, f);
  fclose (f);
}

static void
check_stat (const MsStat *got, const MsStat *want, const char *what)
{
  MS_CHECK (got->n == want->n, "%s: n %d, want %d", what, got->n, want->n);
  MS_CHECK_NEAR (got->median, want->median, 0.0006);
  MS_CHECK_NEAR (got->min, want->min, 0.0006);
  MS_CHECK_NEAR (got->max, want->max, 0.0006);
  MS_CHECK (got->ci_valid == want->ci_valid, "%s: ci_valid", what);
  if (want->ci_valid) {
    MS_CHECK_NEAR (got->ci_low, want->ci_low, 0.0006);
    MS_CHECK_NEAR (got->ci_high, want->ci_high, 0.0006);
  }
}

static void
test_summary_round_trip (void)
{
  char err[1024];
  MsResults *samples = ms_csv_read_samples (MS_REFERENCE_DIR "/h100-default-samples.csv", err,
                                            sizeof err);
  MS_CHECK (samples != NULL, "%s", err);
  if (!samples)
    return;
  const char *path = tmp_path ("r-summary.csv");
  MS_CHECK (ms_csv_write_summary (samples, path, err, sizeof err), "%s", err);
  MS_CHECK (ms_csv_is_summary (path), "not recognised as a summary");
  /* The samples reader hands a summary file on. */
  MsResults *back = ms_csv_read_samples (path, err, sizeof err);
  MS_CHECK (back != NULL, "%s", err);
  if (!back) {
    ms_results_free (samples);
    return;
  }
  MS_CHECK (back->from_summary && !samples->from_summary, "from_summary");
  MS_CHECK (back->n_cells == samples->n_cells, "%zu cells, want %zu", back->n_cells,
            samples->n_cells);
  MS_CHECK_STR (back->device.name, samples->device.name);
  MS_CHECK (back->sweep.min_reps == samples->sweep.min_reps, "settings");
  for (size_t i = 0; i < back->n_cells && i < samples->n_cells; i++) {
    const MsCell *g = &back->cells[i], *w = &samples->cells[i];
    MS_CHECK (g->mode == w->mode && g->exponent == w->exponent && g->status == w->status,
              "cell %zu identity", i);
    MS_CHECK (g->n_events == 0 && g->n_reps == 0 && !g->e2e_us, "cell %zu holds samples", i);
    check_stat (&g->stats.e2e, &w->stats.e2e, "e2e");
    MS_CHECK_NEAR (g->stats.e2e_gbps, w->stats.e2e_gbps, 0.0006);
    MS_CHECK_NEAR (g->stats.h2d_gbps, w->stats.h2d_gbps, 0.0006);
    for (int p = 0; p < MS_PHASE_COUNT; p++)
      check_stat (&g->stats.phase[p], &w->stats.phase[p], ms_phase_name (p));
  }
  MsFit a = ms_results_fit (samples, MS_MODE_PINNED, MS_PHASE_COUNT);
  MsFit b = ms_results_fit (back, MS_MODE_PINNED, MS_PHASE_COUNT);
  MS_CHECK (a.valid && b.valid, "fits");
  MS_CHECK_NEAR (b.bandwidth_gbps / a.bandwidth_gbps, 1, 0.001);
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
  const char *path = tmp_path (name);
  write_text (path, text);
  MsResults *r = ms_csv_read_samples (path, err, sizeof err);
  MS_CHECK (r == NULL, "%s was read", name);
  ms_results_free (r);
  MS_CHECK (r != NULL || strstr (err, want), "%s: '%s' lacks '%s'", name, err, want);
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
  const char *path = tmp_path ("header.csv");
  write_text (path, "# memsweep summary file\nfoo,bar\n1,2\n");
  MsResults *r = ms_csv_read_samples (path, err, sizeof err);
  MS_CHECK (!r && strstr (err, ":2: not a memsweep summary header"), "%s", err);
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
  const char *path = tmp_path ("r.json");
  char err[512];
  MS_CHECK (ms_json_write_file (path, r, err, sizeof err), "%s", err);
  char text[8192] = "";
  FILE *f = fopen (path, "r");
  size_t n = fread (text, 1, sizeof text - 1, f);
  fclose (f);
  text[n] = '\0';
  MS_CHECK (strstr (text, "a \\\"label\\\"\\u000awith\\u0009tabs \\\\ and \\ufffd bytes"),
            "label escaped: %s", text);
  MS_CHECK (strstr (text, "bad\\u0001byte"), "control character escaped");
  MS_CHECK (strstr (text, "\"variant\":\"R=4\""), "the cell's variant: %s", text);
  MS_CHECK (!strstr (text, "nan") && !strstr (text, "inf"), "non-finite number: %s", text);
  MS_CHECK (strstr (text, "\"median_us\":null"), "NaN as null");
  char cmd[512];
  snprintf (cmd, sizeof cmd, "python3 -m json.tool '%s' >/dev/null 2>&1", path);
  if (system ("command -v python3 >/dev/null 2>&1") == 0)
    MS_CHECK (system (cmd) == 0, "python3 -m json.tool refuses %s", path);
  MS_CHECK (!ms_json_write_file ("/nonexistent-folder/r.json", r, err, sizeof err), "written");
  MS_CHECK (strstr (err, "/nonexistent-folder/r.json"), "message: %s", err);
  ms_results_free (r);
}

int
main (void)
{
  if (!mkdtemp (tmpdir))
    return 1;
  MS_RUN (test_summary_round_trip);
  MS_RUN (test_summary_refused);
  MS_RUN (test_json_valid);
  char cmd[300];
  snprintf (cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
  if (system (cmd) != 0)
    fprintf (stderr, "could not remove %s\n", tmpdir);
  return ms_test_finish ();
}
