/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-csv-gzip.c: compressed result files read as their plain content.
 * A run written with its sidecar and then gzipped reads back with the same
 * cells and its metadata known (the sidecar names the plain file, its size
 * and hash those of the plain content); the summary beside it is found
 * compressed or not, is told from samples, and pairs by run id; a cut-off
 * or damaged .gz is refused in words; every shipped reference run opens
 * compressed with its metadata known. */
#define _GNU_SOURCE
#include <dirent.h>
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "files/ms-csv-io.h"
#include "memsweep.h"
#include "model/ms-results.h"
#include "ms-backend-test.h"
#include "ms-csv-keep.h"
#include "ms-csv-pair.h"
#include "ms-meta-sidecar.h"
#include "ms-peer-file.h"
#include "ms-file-kinds.h"
#include "ms-host-link-file.h"
#include "ms-input.h"
#include "ms-multi-file.h"
#include "ms-portable-file.h"
#include "ms-sweep-test.h"
#include "ms-tmp-test.h"
#include "run/ms-backend.h"
#include "run/ms-runner.h"

static MsResults *
make_results (void)
{
  MsSweep s;
  MsTestBackendConfig cfg;
  ms_test_sweep_init (&s, NULL, 10, 14, 4);
  ms_test_backend_config_init (&cfg);
  MsBackend *b = ms_backend_new_test (&cfg);
  MsResults *r = NULL;
  char err[256];
  ms_sweep_run (&s, b, NULL, NULL, NULL, &r, err, sizeof err);
  ms_backend_free (b);
  g_assert_nonnull (r);
  snprintf (r->device.name, sizeof r->device.name, "Test GPU");
  return r;
}

/* Writes path's bytes gzipped to path.gz (keep: the plain file stays). */
static char *
gzip_file (const char *path, gboolean keep, size_t cut)
{
  char *text;
  gsize len;
  g_assert_true (g_file_get_contents (path, &text, &len, NULL));
  char *gz_path = g_strconcat (path, ".gz", NULL);
  gzFile gz = gzopen (gz_path, "wb9");
  g_assert_nonnull (gz);
  g_assert_cmpint (gzwrite (gz, text, (unsigned) len), ==, (int) len);
  g_assert_cmpint (gzclose (gz), ==, Z_OK);
  g_free (text);
  if (cut) {
    g_assert_true (g_file_get_contents (gz_path, &text, &len, NULL));
    g_assert_true (g_file_set_contents (gz_path, text, (gssize) (len - cut), NULL));
    g_free (text);
  }
  if (!keep)
    g_assert_cmpint (unlink (path), ==, 0);
  return gz_path;
}

static void
test_compressed_pair (void)
{
  MsResults *r = make_results ();
  char err[1024] = "";
  const char *samples = ms_test_tmp_path ("run-samples.csv");
  const char *summary = ms_test_tmp_path ("run-summary.csv");
  g_assert_true (ms_csv_write_pair (r, samples, summary, err, sizeof err));
  MsResults *plain = ms_csv_read_samples (samples, err, sizeof err);
  g_assert_nonnull (plain);
  g_autofree char *samples_gz = gzip_file (samples, FALSE, 0);
  /* Only the samples compressed: the plain summary beside them is theirs. */
  char other[4096];
  g_assert_true (ms_csv_pair_summary_path (samples_gz, other, sizeof other));
  g_assert_cmpstr (other, ==, summary);
  g_autofree char *summary_gz = gzip_file (summary, FALSE, 0);
  g_assert_true (ms_csv_pair_summary_path (samples_gz, other, sizeof other));
  g_assert_cmpstr (other, ==, summary_gz);
  g_assert_true (ms_csv_pair_samples_path (summary_gz, other, sizeof other));
  g_assert_cmpstr (other, ==, samples_gz);
  g_assert_true (ms_meta_sidecar_path (samples_gz, other, sizeof other));
  g_assert_cmpstr (other, ==, ms_test_tmp_path ("run-meta.json"));

  MsResults *back = ms_csv_read_samples (samples_gz, err, sizeof err);
  g_assert_nonnull (back);
  g_assert_cmpuint (back->n_cells, ==, plain->n_cells);
  /* The sidecar, which names run-samples.csv, describes its .gz form. */
  g_assert_cmpstr (back->metadata_unknown, ==, "");
  g_assert_cmpstr (back->device.name, ==, "Test GPU");
  g_assert_cmpstr (back->label, ==, "run-samples.csv");
  for (size_t i = 0; i < plain->n_cells; i++)
    g_assert_cmpfloat (back->cells[i].stats.e2e.median, ==, plain->cells[i].stats.e2e.median);
  MsResults *figures = ms_csv_read_figures (samples_gz, err, sizeof err);
  g_assert_nonnull (figures);
  g_assert_cmpuint (figures->n_cells, ==, plain->n_cells);

  g_assert_true (ms_file_kind (summary_gz) == MS_FILE_KIND_SUMMARY);
  g_assert_true (ms_file_kind (samples_gz) == MS_FILE_KIND_SAMPLES);
  MsResults *sum = ms_csv_read_samples (summary_gz, err, sizeof err);
  g_assert_nonnull (sum);
  g_assert_true (sum->from_summary);
  g_assert_cmpuint (sum->n_cells, ==, plain->n_cells);
  g_assert_cmpstr (sum->metadata_unknown, ==, "");
  g_assert_false (ms_results_device_unknown (sum));
  /* The summary copied alone, without its metadata: its device unknown, not none. */
  g_autofree char *bytes = NULL;
  gsize len = 0;
  g_assert_true (g_file_get_contents (summary_gz, &bytes, &len, NULL));
  const char *alone = ms_test_tmp_path ("alone-summary.csv.gz");
  g_assert_true (g_file_set_contents (alone, bytes, (gssize) len, NULL));
  MsResults *lone = ms_csv_read_samples (alone, err, sizeof err);
  g_assert_nonnull (lone);
  g_assert_cmpstr (lone->metadata_unknown, !=, "");
  g_assert_true (ms_results_device_unknown (lone));
  ms_results_free (lone);
  g_assert_true (ms_csv_pair_check (samples_gz, err, sizeof err));
  ms_results_free (sum);
  ms_results_free (figures);
  ms_results_free (back);
  ms_results_free (plain);
  ms_results_free (r);
}

static void
test_damaged (void)
{
  MsResults *r = make_results ();
  char err[1024] = "";
  const char *samples = ms_test_tmp_path ("cut-samples.csv");
  g_assert_true (ms_csv_write_samples (r, samples, err, sizeof err));
  g_autofree char *cut = gzip_file (samples, TRUE, 20);
  g_assert_null (ms_csv_read_samples (cut, err, sizeof err));
  g_assert_nonnull (strstr (err, "cut-samples.csv.gz"));
  g_assert_nonnull (strstr (err, "ends early"));

  /* Right magic, then nonsense. */
  const char *bad = ms_test_tmp_path ("bad-samples.csv.gz");
  g_assert_true (g_file_set_contents (bad, "\x1f\x8b\x08\x00 not deflate at all", -1, NULL));
  err[0] = '\0';
  g_assert_null (ms_csv_read_samples (bad, err, sizeof err));
  g_assert_nonnull (strstr (err, "bad-samples.csv.gz: "));
  ms_results_free (r);
}

/* The shipped runs are compressed; each opens with its sidecar's metadata,
 * the sidecar unchanged since it named the plain file. */
/* A peer matrix, portable table, multi-GPU or host-link file read with its
 * metadata; false for another kind. */
static bool
read_small_kind (const char *path, MsFileKind kind)
{
  char err[1024] = "", unknown[512] = "";
  void *file = NULL;
  if (kind == MS_FILE_KIND_PEER) {
    MsPeerFile *peer = file = ms_peer_file_read (path, err, sizeof err);
    if (peer)
      g_strlcpy (unknown, peer->meta_unknown, sizeof unknown);
  } else if (kind == MS_FILE_KIND_PORTABLE) {
    MsPortableFile *portable = file = ms_portable_file_read (path, err, sizeof err);
    if (portable)
      g_strlcpy (unknown, portable->meta_unknown, sizeof unknown);
  } else if (kind == MS_FILE_KIND_MULTI) {
    MsMultiFile *multi = file = ms_multi_file_read (path, err, sizeof err);
    if (multi)
      g_strlcpy (unknown, multi->meta_unknown, sizeof unknown);
  } else if (kind == MS_FILE_KIND_HOST_LINK) {
    MsHostLinkFile *link = file = ms_host_link_file_read (path, err, sizeof err);
    if (link)
      g_strlcpy (unknown, link->meta_unknown, sizeof unknown);
  } else {
    return false;
  }
  if (!file)
    g_error ("%s", err);
  if (unknown[0])
    g_error ("%s: %s", path, unknown);
  free (file);
  return true;
}

static void
test_reference_runs (void)
{
  DIR *d = opendir (MS_REFERENCE_DIR);
  g_assert_nonnull (d);
  int n = 0;
  for (struct dirent *e; (e = readdir (d));) {
    if (!g_str_has_suffix (e->d_name, ".csv.gz"))
      continue;
    g_autofree char *path = g_build_filename (MS_REFERENCE_DIR, e->d_name, NULL);
    char err[1024] = "";
    /* Each by its kind, from its content (ms-file-kinds.h). */
    MsFileKind kind = ms_file_kind (path);
    if (read_small_kind (path, kind)) {
      n++;
      continue;
    }
    g_assert_true (kind == MS_FILE_KIND_SAMPLES || kind == MS_FILE_KIND_SUMMARY);
    MsResults *r = kind == MS_FILE_KIND_SUMMARY ? ms_csv_read_summary (path, err, sizeof err)
                                            : ms_csv_read_figures (path, err, sizeof err);
    if (!r)
      g_error ("%s", err);
    if (r->metadata_unknown[0])
      g_error ("%s: %s", path, r->metadata_unknown);
    g_assert_cmpuint (r->n_cells, >, 0);
    ms_results_free (r);
    n++;
  }
  closedir (d);
  if (n == 0)
    g_test_skip ("no compressed reference runs");
}

/* A file written and offered for keeping within 30 ms, so that the file's
 * times (from a clock up to a 10 ms tick behind) are surely younger than
 * the 50 ms in which nothing is kept. A test paused longer between the two
 * (descheduled on a loaded machine; a 100 ms stop there failed it every
 * time) offered a settled file, rightly kept: that try says nothing, and
 * the file is written again. */
static void
write_and_offer_fresh (const char *path, struct stat *st)
{
  for (int i = 0; i < 100; i++) {
    gint64 t0 = g_get_real_time ();
    g_assert_true (g_file_set_contents (path, "aaaa", -1, NULL));
    g_assert_null (ms_file_recall (path, 7, st));
    ms_file_remember (7, st, "aaaa", 4);
    if (g_get_real_time () - t0 < 30000) {
      g_assert_null (ms_file_recall (path, 7, st));
      return;
    }
  }
  g_error ("no write and keep within 30 ms in 100 tries");
}

/* What the reader keeps of a file is not served for a file that replaced
 * it in the same clock tick (same inode, size and times): nothing is kept
 * of a file changed in the last 50 ms, and a settled file's copy is served
 * until it is replaced. */
static void
test_kept_heads (void)
{
  const char *path = ms_test_tmp_path ("kept.csv");
  struct stat st;
  write_and_offer_fresh (path, &st);

  g_usleep (100000);
  g_assert_null (ms_file_recall (path, 7, &st));
  ms_file_remember (7, &st, "aaaa", 4);
  char *kept = ms_file_recall (path, 7, &st);
  g_assert_nonnull (kept);
  g_assert_cmpmem (kept, 4, "aaaa", 4);
  free (kept);

  unlink (path);
  g_assert_true (g_file_set_contents (path, "bbbb", -1, NULL));
  g_assert_null (ms_file_recall (path, 7, &st));
  unlink (path);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/csv-gzip/compressed-pair", test_compressed_pair);
  g_test_add_func ("/csv-gzip/damaged", test_damaged);
  g_test_add_func ("/csv-gzip/reference-runs", test_reference_runs);
  g_test_add_func ("/csv-gzip/kept-heads", test_kept_heads);
  return g_test_run ();
}
