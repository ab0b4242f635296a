/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-multi-file.c: the aggregate file of a sweep on several fake GPUs at
 * once: every (mode, size) comes back with the sums and the slowest GPU as
 * ms_multi_aggregate says, one GPU's failed cell counted out; the samples
 * file names; the table plain, its metadata in the sidecar; without the
 * sidecar the GPUs are those whose samples files lie beside it, the sidecar
 * named; the form before the sidecar still reads; malformed files refused
 * with their line. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <unistd.h>
#include <glib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ms-backend-test.h"
#include "ms-multi-file.h"
#include "ms-multi.h"
#include "ms-sidecar-test.h"
#include "ms-tmp-test.h"
#include "ms-sweep-test.h"
#include "run/ms-backend.h"


static void
run_three (MsMultiResults **out)
{
  MsTestBackendConfig cfg;
  ms_test_backend_config_init (&cfg);
  cfg.n_devices = 3;
  cfg.fail_device = 2;
  cfg.fail_mode = MS_MODE_PINNED;
  cfg.fail_exponent = 12;
  cfg.fail_rep = 0;
  cfg.fail_phase = MS_PHASE_H2D;
  cfg.fail_status = MS_CELL_FAILED;
  MsBackend *b = ms_backend_new_test (&cfg);
  MsSweep s;
  ms_test_sweep_init (&s, "pinned,pageable", 10, 14, 3);
  s.step = 2;
  s.warmup = 0;
  int devices[] = { 0, 1, 2 };
  char err[256];
  ms_multi_run (&s, devices, 3, b, NULL, NULL, NULL, out, err, sizeof err);
  ms_backend_free (b);
}

/* The table plain and read back without its sidecar: the GPUs from the
 * samples files beside it, the sidecar named. */
static void
check_plain (const char *path)
{
  char err[512], side[600], alone[600], beside[600];
  g_autofree char *text = NULL;
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  g_assert_true (g_str_has_prefix (text, "mode,exponent,bytes,gpus_ok,"));
  g_assert_null (strchr (text, '#'));
  g_assert_true (ms_meta_sidecar_path (path, side, sizeof side));
  g_assert_true (g_str_has_suffix (side, "h200x2-multi-meta.json"));
  g_assert_true (access (side, R_OK) == 0);
  snprintf (alone, sizeof alone, "%s", ms_test_tmp_path ("alone-multi.csv"));
  g_assert_true (g_file_set_contents (alone, text, -1, NULL));
  MsMultiFile *g = ms_multi_file_read (alone, err, sizeof err);
  g_assert_null (g); /* no samples file beside it */
  g_assert_nonnull (strstr (err, "alone-multi-meta.json: not found"));
  /* Samples files of GPUs 2 and 0: fewer than a row's three GPUs. */
  for (int i = 2; i >= 0; i--) {
    char name[64];
    snprintf (name, sizeof name, "alone-gpu%d-samples.csv", i);
    snprintf (beside, sizeof beside, "%s", ms_test_tmp_path (name));
    g_assert_true (g_file_set_contents (beside, "", 0, NULL));
    g = ms_multi_file_read (alone, err, sizeof err);
    if (i > 0) {
      g_assert_null (g);
      g_assert_nonnull (strstr (err, "3 GPUs in a row"));
    }
  }
  g_assert_nonnull (g);
  if (!g)
    return;
  g_assert_nonnull (strstr (g->meta_unknown, "alone-multi-meta.json: not found"));
  g_assert_cmpint (g->n_devices, ==, 3);
  g_assert_cmpint (g->devices[2], ==, 2);
  g_assert_cmpstr (g->samples[0], ==, "alone-gpu0-samples.csv");
  g_assert_cmpstr (g->name[0], ==, "");
  g_assert_cmpint (g->n_rows, ==, 6);
  free (g);
  /* The samples files beside it gzipped, as the shipped runs are; a plain one before its .gz. */
  char zipped[600];
  snprintf (zipped, sizeof zipped, "%s", ms_test_tmp_path ("zipped-multi.csv"));
  g_assert_true (g_file_set_contents (zipped, text, -1, NULL));
  for (int i = 0; i < 3; i++) {
    char name[64];
    snprintf (name, sizeof name, "zipped-gpu%d-samples.csv.gz", i);
    g_assert_true (g_file_set_contents (ms_test_tmp_path (name), "", 0, NULL));
  }
  g_assert_true (g_file_set_contents (ms_test_tmp_path ("zipped-gpu2-samples.csv"), "", 0, NULL));
  g = ms_multi_file_read (zipped, err, sizeof err);
  g_assert_nonnull (g);
  if (g) {
    g_assert_cmpint (g->n_devices, ==, 3);
    g_assert_cmpstr (g->samples[0], ==, "zipped-gpu0-samples.csv.gz");
    g_assert_cmpstr (g->samples[2], ==, "zipped-gpu2-samples.csv");
  }
  free (g);
}

/* A file of the form before the sidecar. */
static void
test_old_form (void)
{
  char err[512];
  MsMultiFile *g = ms_multi_file_read (MS_OLD_FORMAT_DIR "/x-multi.csv", err, sizeof err);
  g_assert_nonnull (g);
  if (!g)
    return;
  g_assert_cmpstr (g->meta_unknown, ==, "");
  g_assert_cmpint (g->n_devices, ==, 2);
  g_assert_cmpstr (g->name[1], ==, "NVIDIA H200");
  g_assert_cmpstr (g->samples[1], ==, "x-gpu1-samples.csv");
  g_assert_cmpstr (g->host, ==, "node1");
  g_assert_cmpint (g->n_rows, ==, 9);
  g_assert_cmpfloat (fabs (g->rows[2].agg.h2d_gbps - 1010.0), <=, 1e-9);
  free (g);
}

static void
test_round_trip (void)
{
  MsMultiResults *r = NULL;
  run_three (&r);
  g_assert_nonnull (r);
  if (!r)
    return;
  char prefix[512], path[600], err[512];
  snprintf (prefix, sizeof prefix, "%s", ms_test_tmp_path ("h200x2"));
  snprintf (path, sizeof path, "%s-multi.csv", prefix);
  MsMultiFile *f = calloc (1, sizeof *f);
  ms_multi_file_init (f, r, prefix);
  g_assert_cmpint (f->n_rows, ==, 2 * 3);
  g_assert_true (ms_multi_file_write (f, path, err, sizeof err));
  MsMultiFile *g = ms_multi_file_read (path, err, sizeof err);
  g_assert_nonnull (g);
  for (int i = 0; g && i < 3; i++) {
    char want[64];
    snprintf (want, sizeof want, "h200x2-gpu%d-samples.csv", i);
    g_assert_cmpstr (g->samples[i], ==, want);
    g_assert_cmpint (g->devices[i], ==, i);
    g_assert_cmpstr (g->name[i], ==, "Test GPU");
  }
  /* A GPU's samples file beside it only gzipped, as the shipped runs are: named so. */
  char gz[600];
  snprintf (gz, sizeof gz, "%s-gpu1-samples.csv.gz", prefix);
  g_assert_true (g_file_set_contents (gz, "", 0, NULL));
  MsMultiFile *z = ms_multi_file_read (path, err, sizeof err);
  g_assert_nonnull (z);
  if (z) {
    g_assert_cmpstr (z->samples[0], ==, "h200x2-gpu0-samples.csv");
    g_assert_cmpstr (z->samples[1], ==, "h200x2-gpu1-samples.csv.gz");
  }
  free (z);
  unlink (gz);
  for (int k = 0; g && k < g->n_rows; k++) {
    const MsMultiFileRow *row = &g->rows[k];
    MsMultiAggregate agg;
    g_assert_true (ms_multi_aggregate (r, row->mode, row->exponent, &agg));
    g_assert_cmpint (row->agg.n_ok, ==, agg.n_ok);
    g_assert_cmpfloat (fabs ((double)(row->agg.h2d_gbps) - (double)(agg.h2d_gbps)), <=, 0.0005);
    g_assert_cmpfloat (fabs ((double)(row->agg.d2h_gbps) - (double)(agg.d2h_gbps)), <=, 0.0005);
    g_assert_cmpfloat (fabs ((double)(row->agg.e2e_gbps) - (double)(agg.e2e_gbps)), <=, 0.0005);
    g_assert_cmpfloat (fabs ((double)(row->agg.h2d_min_gbps) - (double)(agg.h2d_min_gbps)), <=,
                       0.0005);
    g_assert_cmpfloat (fabs ((double)(row->agg.d2h_min_gbps) - (double)(agg.d2h_min_gbps)), <=,
                       0.0005);
    /* The failed cell of GPU 2 leaves two GPUs in that sum. */
    bool failed = row->mode == MS_MODE_PINNED && row->exponent == 12;
    g_assert_cmpint (row->agg.n_ok, ==, (failed ? 2 : 3));
  }
  free (g);
  check_plain (path);

  /* Malformed: each change refused with the file and line. */
  static const struct {
    const char *from, *to;
  } cases[] = {
    { "# memsweep multi-GPU sweep", "# memsweep peer matrix" },
    { "pinned,10,", "teleport,10," },
    { "pinned,10,4096,", "pinned,10,4097," },
    { "pinned,10,4096,3,", "pinned,10,4096,7," },
    { "pinned,12,", "pinned,10," },
    { "# gpu-1-samples: h200x2", "# gpu-1-samples: ../h200x2" },
    { "# devices: 3", "# devices: 0" },
    { ",3,", ",3,abc," },
  };
  /* The metadata cases need it inline: the form before the sidecar. */
  char text[1 << 16];
  g_autofree char *inline_text = ms_test_inline_form (path, "# memsweep multi-GPU sweep");
  snprintf (text, sizeof text, "%s", inline_text);
  for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
    char *at = strstr (text, cases[c].from), bad[1 << 16];
    g_assert_nonnull (at);
    if (!at)
      continue;
    snprintf (bad, sizeof bad, "%.*s%s%s", (int) (at - text), text, cases[c].to,
              at + strlen (cases[c].from));
    FILE *out = fopen (path, "wb");
    fputs (bad, out);
    fclose (out);
    g = ms_multi_file_read (path, err, sizeof err);
    g_assert_null (g);
    g_assert_true (strstr (err, path) == err);
    g_assert_nonnull (strstr (err, ":"));
    free (g);
  }
  unlink (path);
  free (f);
  ms_multi_results_free (r);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/multi-file/round-trip", test_round_trip);
  g_test_add_func ("/multi-file/old-form", test_old_form);
  return g_test_run ();
}
