/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-run-to-run.c: the run-to-run spread (ms-run-to-run.c): its measure
 * from known medians, the interval it gives, and its way through the
 * profile, the samples metadata and the summary columns. */
#include <unistd.h>
#include <glib.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "files/ms-run-to-run-file.h"
#include "lessons/ms-run-read.h"
#include "memsweep.h"
#include "model/ms-results.h"
#include "model/ms-run-to-run.h"
#include "ms-csv-keep.h"
#include "ms-tmp-test.h"

/* One OK cell per exponent 10..13 of pinned and host, e2e medians
 * base * exp(shift) with a within-run interval of +-1%. */
static MsResults *
run_with_shift (double shift)
{
  MsResults *r = ms_results_new (NULL, NULL);
  static const MsMode modes[] = { MS_MODE_PINNED, MS_MODE_HOST };
  for (int m = 0; m < 2; m++)
    for (int e = 10; e <= 13; e++) {
      MsCell c = { .mode = modes[m], .exponent = e, .status = MS_CELL_OK };
      c.elements = 1ull << e;
      double t = 10.0 * (e - 9) * exp (m == 0 ? shift : shift * (e == 13 ? 3 : 1));
      c.stats.e2e = (MsStat) { .n = 20, .median = t, .min = t * 0.9, .max = t * 1.1,
                               .ci_low = t * 0.99, .ci_high = t * 1.01, .ci_valid = true };
      ms_results_add_cell (r, &c);
    }
  return r;
}

static void
test_measure (void)
{
  /* ln shifts 0, +-0.1, +-0.2: sample sd sqrt(0.1 / 4). */
  static const double shifts[] = { 0, 0.1, -0.1, 0.2, -0.2 };
  MsResults *runs[5];
  for (int i = 0; i < 5; i++)
    runs[i] = run_with_shift (shifts[i]);
  MsRunToRun rr;
  char err[256];
  g_assert_true (ms_run_to_run_measure (&rr, runs, 5, err, sizeof err));
  double sd = sqrt (0.1 / 4);
  g_assert_cmpfloat (fabs ((double)(rr.sd[MS_MODE_PINNED][11]) - (double)(sd)), <=, 1e-12);
  g_assert_cmpfloat (fabs ((double)(rr.sd[MS_MODE_HOST][13]) - (double)(3 * sd)), <=, 1e-12);
  g_assert_true (rr.sd[MS_MODE_ZERO_COPY][11] < 0);
  g_assert_true (rr.sd[MS_MODE_PINNED][14] < 0);
  /* t(0.975, 4) = 2.7764451052; the mode's pooled sd is the floor, a noisier
   * cell keeps its own. */
  g_assert_cmpfloat (fabs ((double)(ms_run_to_run_half_width (&rr, MS_MODE_PINNED, 11))
                           - (double)(2.7764451052 * sqrt (2) * sd)),
                     <=, 1e-9);
  double host_pool = sd * sqrt ((1 + 1 + 1 + 9) / 4.0);
  g_assert_cmpfloat (fabs ((double)(ms_run_to_run_half_width (&rr, MS_MODE_HOST, 10))
                           - (double)(2.7764451052 * sqrt (2) * host_pool)),
                     <=, 1e-9);
  g_assert_cmpfloat (fabs ((double)(ms_run_to_run_half_width (&rr, MS_MODE_HOST, 13))
                           - (double)(2.7764451052 * sqrt (2) * 3 * sd)),
                     <=, 1e-9);
  g_assert_true (ms_run_to_run_half_width (&rr, MS_MODE_HOST, 20) > 0);
  g_assert_true (ms_run_to_run_half_width (&rr, MS_MODE_ZERO_COPY, 11) == 0);

  /* The interval contains the run's own and reaches exp(+-h). */
  const MsCell *c = ms_results_find (runs[0], MS_MODE_PINNED, 12);
  double lo, hi, h = ms_run_to_run_half_width (&rr, MS_MODE_PINNED, 12);
  g_assert_true (ms_run_to_run_interval (&rr, c, &lo, &hi));
  g_assert_cmpfloat (fabs ((double)(lo) - (double)(c->stats.e2e.median * exp (-h))), <=, 1e-9);
  g_assert_cmpfloat (fabs ((double)(hi) - (double)(c->stats.e2e.median * exp (h))), <=, 1e-9);
  g_assert_true (lo <= c->stats.e2e.ci_low);
  g_assert_true (hi >= c->stats.e2e.ci_high);

  g_assert_false (ms_run_to_run_measure (&rr, runs, 2, err, sizeof err));
  g_assert_nonnull (strstr (err, "3 to"));
  for (int i = 0; i < 5; i++)
    ms_results_free (runs[i]);
}

/* Whether a summary row's e2e_rr_low_us and e2e_rr_high_us (the 12th and
 * 13th fields; the ones before hold no comma) are empty. */
static bool
rr_columns_empty (const char *line)
{
  const char *p = line;
  for (int i = 0; i < 11 && p; i++)
    p = strchr (p, ',') ? strchr (p, ',') + 1 : NULL;
  g_assert_nonnull (p);
  return strncmp (p, ",,", 2) == 0;
}

static void
test_profile_and_metadata (void)
{
  static const double shifts[] = { 0.05, -0.02, 0.01 };
  MsResults *runs[3];
  for (int i = 0; i < 3; i++)
    runs[i] = run_with_shift (shifts[i]);
  MsRunToRun rr, back;
  char err[512], device[256], samples[1100], summary[1100];
  g_assert_true (ms_run_to_run_measure (&rr, runs, 3, err, sizeof err));
  const char *path = ms_test_tmp_path ("rr.csv");
  g_assert_true (ms_run_to_run_write_profile (&rr, runs[0], path, err, sizeof err));
  g_assert_true (ms_run_to_run_read_profile (&back, path, device, sizeof device, err, sizeof err));
  g_assert_cmpstr (device, ==, "none");
  g_assert_cmpint (back.runs, ==, 3);
  g_assert_true (fabs (back.sd[MS_MODE_HOST][13] - rr.sd[MS_MODE_HOST][13]) < 1e-4);

  /* Through the samples file of a real run: show recomputes the same
   * interval. */
  MsResults *real = ms_run_read_samples (MS_REFERENCE_DIR "/h100-default-samples.csv.gz", err,
                                         sizeof err);
  g_assert_nonnull (real);
  if (!real)
    return;
  real->run_to_run = rr;
  snprintf (samples, sizeof samples, "%s.samples", path);
  snprintf (summary, sizeof summary, "%s.summary", path);
  g_assert_true (ms_csv_write_pair (real, samples, summary, err, sizeof err));
  ms_results_free (real);
  MsResults *read = ms_run_read_samples (samples, err, sizeof err);
  g_assert_true (read);
  g_assert_true (read->run_to_run.valid);
  g_assert_true (read->run_to_run.runs == 3);
  if (read)
    g_assert_cmpfloat (
        fabs ((double)(ms_run_to_run_half_width (&read->run_to_run, MS_MODE_PINNED, 12))
              - (double)(ms_run_to_run_half_width (&rr, MS_MODE_PINNED, 12))),
        <=, 1e-3);
  ms_results_free (read);
  FILE *f = fopen (summary, "r");
  char line[8192];
  bool header = false, filled = false;
  while (f && fgets (line, sizeof line, f)) {
    header = header || strstr (line, "e2e_rr_low_us,e2e_rr_high_us") != NULL;
    /* pinned rows carry numbers there, zero-copy rows (no profile) none:
     * the two columns after e2e_ci_95 ("1"). */
    if (strncmp (line, "\"pinned\",", 9) == 0)
      filled = !rr_columns_empty (line);
    if (strncmp (line, "\"zero-copy\",", 12) == 0)
      g_assert_true (rr_columns_empty (line));
  }
  g_assert_true (header);
  g_assert_true (filled);
  if (f)
    fclose (f);

  /* A damaged line is dropped whole, not half read. */
  MsRunToRun d;
  ms_run_to_run_clear (&d);
  g_assert_true (ms_run_to_run_read_metadata (&d, "run-to-run-sd-pinned", "10=0.1 11=x"));
  g_assert_true (d.sd[MS_MODE_PINNED][10] < 0);
  g_assert_false (ms_run_to_run_read_metadata (&d, "fit", "whatever"));
  g_assert_false (ms_run_to_run_read_profile (&d, samples, device, sizeof device, err, sizeof err));
  for (int i = 0; i < 3; i++)
    ms_results_free (runs[i]);
}

/* The default profile is keyed by host and bus id (nodes of a cluster
 * share a home and often their GPUs' bus ids); one under the older name,
 * by bus id alone, is still read until one is written under the new. */
static void
test_default_path (void)
{
  char host[256] = "", path[4096], want[4096], err[512];
  g_assert_cmpint (gethostname (host, sizeof host - 1), ==, 0);
  const char *data = ms_test_tmp_folder ("xdg");
  g_setenv ("XDG_DATA_HOME", data, TRUE);
  MsDeviceInfo gpu = { 0 };
  snprintf (gpu.pci_bus_id, sizeof gpu.pci_bus_id, "00000000:19:00.0");
  g_assert_true (ms_run_to_run_default_path (&gpu, path, sizeof path));
  snprintf (want, sizeof want, "%s/memsweep/run-to-run-%s-00000000-19-00.0.csv", data, host);
  g_assert_cmpstr (path, ==, want);

  MsResults *runs[3];
  for (int i = 0; i < 3; i++)
    runs[i] = run_with_shift (0.01 * i);
  MsRunToRun rr, back;
  g_assert_true (ms_run_to_run_measure (&rr, runs, 3, err, sizeof err));
  MsDeviceInfo none = { 0 };
  char legacy[4096];
  snprintf (legacy, sizeof legacy, "%s/memsweep", data);
  g_assert_cmpint (g_mkdir_with_parents (legacy, 0700), ==, 0);
  snprintf (legacy, sizeof legacy, "%s/memsweep/run-to-run-host.csv", data);
  g_assert_false (ms_run_to_run_load_default (&back, &none, path, sizeof path));
  g_assert_true (ms_run_to_run_write_profile (&rr, runs[0], legacy, err, sizeof err));
  g_assert_true (ms_run_to_run_load_default (&back, &none, path, sizeof path));
  g_assert_cmpstr (path, ==, legacy);
  g_assert_true (ms_run_to_run_default_path (&none, want, sizeof want));
  g_assert_true (g_str_has_suffix (want, "-host.csv") && strstr (want, host));
  g_assert_true (ms_run_to_run_write_profile (&rr, runs[0], want, err, sizeof err));
  g_assert_true (ms_run_to_run_load_default (&back, &none, path, sizeof path));
  g_assert_cmpstr (path, ==, want);
  g_unsetenv ("XDG_DATA_HOME");
  for (int i = 0; i < 3; i++)
    ms_results_free (runs[i]);
}

/* A profile is a plain table (mode, exponent, sd) with its device and
 * number of runs in its sidecar; without the sidecar it is no profile, the
 * sidecar named; one of the form before the sidecar still reads. */
static void
test_profile_forms (void)
{
  MsResults *runs[3];
  for (int i = 0; i < 3; i++)
    runs[i] = run_with_shift (0.01 * i);
  MsRunToRun rr, back;
  char err[512], device[256];
  g_assert_true (ms_run_to_run_measure (&rr, runs, 3, err, sizeof err));
  const char *path = ms_test_tmp_path ("plain-profile.csv");
  g_assert_true (ms_run_to_run_write_profile (&rr, runs[0], path, err, sizeof err));
  g_autofree char *text = NULL;
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  g_assert_true (g_str_has_prefix (text, "mode,exponent,sd_ln_median\n"));
  g_assert_null (strchr (text, '#'));
  g_assert_true (g_file_test (ms_test_tmp_path ("plain-profile-meta.json"), G_FILE_TEST_EXISTS));
  const char *alone = ms_test_tmp_path ("alone-profile.csv");
  g_assert_true (g_file_set_contents (alone, text, -1, NULL));
  g_assert_false (ms_run_to_run_read_profile (&back, alone, device, sizeof device, err,
                                              sizeof err));
  g_assert_nonnull (strstr (err, "alone-profile-meta.json: not found"));
  g_assert_false (back.valid);

  g_assert_true (ms_run_to_run_read_profile (&back, MS_OLD_FORMAT_DIR "/run-to-run-h100.csv",
                                             device, sizeof device, err, sizeof err));
  g_assert_cmpstr (device, ==, "NVIDIA H100 80GB HBM3");
  g_assert_cmpint (back.runs, ==, 10);
  g_assert_cmpfloat (fabs (back.sd[MS_MODE_PINNED][10] - 0.0938), <=, 1e-9);
  for (int i = 0; i < 3; i++)
    ms_results_free (runs[i]);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/run-to-run/measure", test_measure);
  g_test_add_func ("/run-to-run/profile-and-metadata", test_profile_and_metadata);
  g_test_add_func ("/run-to-run/default-path", test_default_path);
  g_test_add_func ("/run-to-run/profile-forms", test_profile_forms);
  int rc = g_test_run ();
  return rc;
}
