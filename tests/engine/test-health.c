/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-health.c: the link under load and the PCIe counters on the test
 * backend: read per cell, judged against the device's maximum, said in
 * words, through the samples file and back, and unknown in older files. */
#define _GNU_SOURCE
#include <glib.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "memsweep.h"
#include "ms-backend-test.h"
#include "ms-tmp-test.h"
#include "ms-health.h"
#include "ms-sweep-test.h"
#include "files/ms-csv-io.h"
#include "model/ms-results.h"
#include "ms-modes.h"
#include "lessons/ms-run-read.h"

static const char *old_format_dir;

static MsResults *
run_with_link (int gen, int width)
{
  MsSweep s;
  MsTestBackendConfig cfg;
  ms_test_sweep_init (&s, NULL, 10, 12, 3);
  s.rounds = 2;
  ms_test_backend_config_init (&cfg);
  cfg.link_gen = gen;
  cfg.link_width = width;
  return ms_test_sweep_run (&s, &cfg);
}

static void
test_link_at_maximum (void)
{
  MsResults *r = run_with_link (0, 0);
  MsHealth h;
  ms_health_compute (r, &h);
  g_assert_cmpint (h.n_gpu_cells, >, 0);
  g_assert_cmpint (h.n_link_known, ==, h.n_gpu_cells);
  g_assert_cmpint (h.gen, ==, 4);
  g_assert_cmpint (h.width, ==, 16);
  g_assert_cmpint (h.n_below, ==, 0);
  g_assert_false (ms_health_warns (&h));
  for (size_t i = 0; i < r->n_cells; i++) {
    const MsCell *c = &r->cells[i];
    int gen, width;
    /* The CPU baseline has no link to read. */
    g_assert_cmpint (ms_cell_link_under_load (c, &gen, &width), ==, ms_mode_uses_gpu (c->mode));
  }
  char text[512];
  ms_health_describe (r, text, sizeof text);
  g_assert_nonnull (strstr (text, "PCIe link under load: gen4 x16 (its maximum)"));
  /* The test backend's bus id has no sysfs entry and it has no NVML. */
  g_assert_nonnull (strstr (text, "correctable errors: not readable"));
  g_assert_nonnull (strstr (text, "replays: not readable"));
  g_assert_cmpint (r->aer_correctable.state, ==, MS_COUNTER_NOT_READABLE);
  ms_results_free (r);
}

static void
test_link_down_trained (void)
{
  MsResults *r = run_with_link (4, 8);
  MsHealth h;
  ms_health_compute (r, &h);
  g_assert_cmpint (h.gen, ==, 4);
  g_assert_cmpint (h.width, ==, 8);
  g_assert_cmpint (h.n_below, ==, h.n_gpu_cells);
  g_assert_true (ms_health_warns (&h));
  char text[512];
  ms_health_describe (r, text, sizeof text);
  g_assert_nonnull (strstr (text, "below its maximum gen4 x16"));
  MsHealthPoint pts[MS_MAX_EXPONENT + 1];
  int n = ms_health_points (r, pts, G_N_ELEMENTS (pts));
  g_assert_cmpint (n, ==, 3);
  g_assert_cmpint (pts[0].exponent, ==, 10);
  g_assert_true (pts[2].below);
  ms_results_free (r);
}

static void
test_link_unreadable (void)
{
  MsResults *r = run_with_link (-1, 0);
  MsHealth h;
  ms_health_compute (r, &h);
  g_assert_cmpint (h.n_link_known, ==, 0);
  g_assert_false (ms_health_warns (&h));
  char text[512];
  ms_health_describe (r, text, sizeof text);
  g_assert_nonnull (strstr (text, "PCIe link under load: not recorded"));
  ms_results_free (r);
}

/* The CPU baseline alone moves nothing over the link, and says so. */
static void
test_host_only (void)
{
  MsSweep s;
  ms_test_sweep_init (&s, "host", 10, 10, 3);
  MsResults *r = ms_test_sweep_run (&s, NULL);
  char text[512];
  ms_health_describe (r, text, sizeof text);
  g_assert_nonnull (strstr (text, "PCIe link under load: no GPU cells"));
  /* No GPU, no counters read: unknown, not unreadable and never zero. */
  g_assert_cmpint (r->aer_correctable.state, ==, MS_COUNTER_UNKNOWN);
  ms_results_free (r);
}

static MsResults *
round_trip (const MsResults *r, const char *name)
{
  char err[256] = "";
  const char *path = ms_test_tmp_path (name);
  g_assert_true (ms_csv_write_samples (r, path, err, sizeof err));
  MsResults *back = ms_run_read_samples (path, err, sizeof err);
  g_assert_nonnull (back);
  return back;
}

static void
test_metadata_round_trip (void)
{
  MsResults *r = run_with_link (0, 0);
  /* One round of one cell trained down, one not read: both are exceptions
   * to the run's line. */
  MsCell *pinned = (MsCell *)ms_results_find_variant (r, MS_MODE_PINNED, 11, "");
  g_assert_nonnull (pinned);
  g_assert_cmpint (pinned->n_rounds, ==, 2);
  pinned->rounds[1].link_gen = 3;
  pinned->rounds[1].link_width = 4;
  MsCell *zc = (MsCell *)ms_results_find_variant (r, MS_MODE_ZERO_COPY, 12, "");
  zc->rounds[0].link_gen = zc->rounds[0].link_width = 0;
  r->aer_correctable = (MsLinkCounter){ MS_COUNTER_READ, 2, 5 };
  r->replays = (MsLinkCounter){ MS_COUNTER_NOT_READABLE, 0, 0 };

  MsResults *back = round_trip (r, "health-samples.csv");
  g_assert_cmpuint (back->n_cells, ==, r->n_cells);
  for (size_t i = 0; i < r->n_cells; i++) {
    const MsCell *a = &r->cells[i];
    const MsCell *b = ms_results_find_variant (back, a->mode, a->exponent, a->variant);
    g_assert_nonnull (b);
    g_assert_cmpint (b->n_rounds, ==, a->n_rounds);
    for (int k = 0; k < a->n_rounds; k++) {
      g_assert_cmpint (b->rounds[k].link_gen, ==, a->rounds[k].link_gen);
      g_assert_cmpint (b->rounds[k].link_width, ==, a->rounds[k].link_width);
    }
  }
  g_assert_cmpint (back->aer_correctable.state, ==, MS_COUNTER_READ);
  g_assert_cmpuint (back->aer_correctable.before, ==, 2);
  g_assert_cmpuint (back->aer_correctable.after, ==, 5);
  g_assert_cmpint (back->replays.state, ==, MS_COUNTER_NOT_READABLE);
  g_assert_cmpint (back->metadata_refused, ==, 0);
  char text[512];
  ms_health_describe (back, text, sizeof text);
  g_assert_nonnull (strstr (text, "correctable errors: 3 during the run (2 before)"));
  g_assert_nonnull (strstr (text, "slowest gen3 x4"));
  ms_results_free (back);
  ms_results_free (r);
}

/* A file from before the keys: unknown, never a healthy link or zero. */
static void
test_old_file_unknown (void)
{
  char path[512], err[256] = "";
  snprintf (path, sizeof path, "%s/h100-default-samples.csv", old_format_dir);
  MsResults *r = ms_run_read_samples (path, err, sizeof err);
  g_assert_nonnull (r);
  MsHealth h;
  ms_health_compute (r, &h);
  g_assert_cmpint (h.n_link_known, ==, 0);
  g_assert_cmpint (r->aer_correctable.state, ==, MS_COUNTER_UNKNOWN);
  g_assert_cmpint (r->replays.state, ==, MS_COUNTER_UNKNOWN);
  char text[512];
  ms_health_describe (r, text, sizeof text);
  g_assert_nonnull (strstr (text, "PCIe link under load: not recorded"));
  g_assert_nonnull (strstr (text, "correctable errors: not recorded"));
  ms_results_free (r);
}

/* Hostile values are dropped or counted as refused, never taken. */
static void
test_metadata_hostile (void)
{
  MsResults *r = run_with_link (0, 0);
  char err[256] = "";
  const char *path = ms_test_tmp_path ("hostile-samples.csv");
  g_assert_true (ms_csv_write_samples (r, path, err, sizeof err));
  /* The metadata is in the run's sidecar, where a hostile file has it. */
  const char *meta = ms_test_tmp_path ("hostile-meta.json");
  gchar *text = NULL;
  g_assert_true (g_file_get_contents (meta, &text, NULL, NULL));
  GString *s = g_string_new (text);
  g_assert_cmpint (g_string_replace (s, "\"pcie-link-under-load\": \"gen4 x16 of gen4 x16\"",
                                     "\"pcie-link-under-load\": \"gen99 x16 of gen4 x16\",\n"
                                     "\"pcie-link-under-load-cell\": [\"pinned 1025 - 0 gen2 x1\", "
                                     "\"nosuchmode 1024 - 0 gen2 x1\", \"pinned 1024 - 99 gen2 x1\"]",
                                     1), ==, 1);
  g_assert_cmpint (g_string_replace (s, "\"pcie-correctable-errors\": \"not readable\"",
                                     "\"pcie-correctable-errors\": \"-1 before, 3 after\"", 1), ==, 1);
  g_assert_true (g_file_set_contents (meta, s->str, -1, NULL));
  g_string_free (s, TRUE);
  g_free (text);
  MsResults *back = ms_run_read_samples (path, err, sizeof err);
  g_assert_nonnull (back);
  MsHealth h;
  ms_health_compute (back, &h);
  g_assert_cmpint (h.n_link_known, ==, 0);
  g_assert_cmpint (back->aer_correctable.state, ==, MS_COUNTER_UNKNOWN);
  g_assert_cmpint (back->metadata_refused, ==, 1);
  ms_results_free (back);
  ms_results_free (r);
}

static void
write_aer (const char *bus, const char *text)
{
  char sys_bus[512], path[600];
  snprintf (sys_bus, sizeof sys_bus, "sys/%s", bus);
  const char *dir = ms_test_tmp_folder (sys_bus);
  snprintf (path, sizeof path, "%s/aer_dev_correctable", dir);
  g_assert_true (g_file_set_contents (path, text, -1, NULL));
}

static void
test_aer_counter (void)
{
  const char *root = ms_test_tmp_path ("sys");
  uint64_t v = 99;
  write_aer ("0000:19:00.0", "RxErr 1\nBadTLP 0\nTOTAL_ERR_COR 7\n");
  g_assert_true (ms_aer_read_correctable (root, "00000000:19:00.0", &v));
  g_assert_cmpuint (v, ==, 7);
  /* Not there, no total line, a malformed total, a path in the bus id. */
  g_assert_false (ms_aer_read_correctable (root, "00000000:1A:00.0", &v));
  write_aer ("0000:1b:00.0", "RxErr 1\n");
  g_assert_false (ms_aer_read_correctable (root, "0000:1B:00.0", &v));
  write_aer ("0000:1c:00.0", "TOTAL_ERR_COR -4\n");
  g_assert_false (ms_aer_read_correctable (root, "0000:1C:00.0", &v));
  g_assert_false (ms_aer_read_correctable (root, "../../x:19:00.0", &v));
  g_assert_false (ms_aer_read_correctable (root, "", &v));
  g_assert_cmpuint (v, ==, 7);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  old_format_dir = argc > 1 ? argv[1] : "tests/data/old-format";
  g_test_add_func ("/health/link-at-maximum", test_link_at_maximum);
  g_test_add_func ("/health/link-down-trained", test_link_down_trained);
  g_test_add_func ("/health/link-unreadable", test_link_unreadable);
  g_test_add_func ("/health/host-only", test_host_only);
  g_test_add_func ("/health/metadata-round-trip", test_metadata_round_trip);
  g_test_add_func ("/health/old-file-unknown", test_old_file_unknown);
  g_test_add_func ("/health/metadata-hostile", test_metadata_hostile);
  g_test_add_func ("/health/aer-counter", test_aer_counter);
  return g_test_run ();
}
