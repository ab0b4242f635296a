/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-sidecar-set.c: a sidecar belongs to its file set. No writer replaces
 * a PREFIX-meta.json that names files it does not write (an export as
 * X.csv beside run X, another run's summary beside X-samples.csv), nor one
 * that is no file; a sidecar is trusted only where the file's hash is the
 * one it records (another file of the same size opens with its metadata
 * unknown, "from another file"), SHA-256 or a version-1 sidecar's FNV-1a; a name that is not UTF-8 still gives a
 * sidecar that reads back; a write past a file-size limit fails with a
 * message and leaves no temporary. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <glib.h>
#include <stdio.h>

#include "files/ms-csv-io.h"
#include "lessons/ms-run-read.h"
#include "memsweep.h"
#include "model/ms-results.h"
#include "ms-atomic-file.h"
#include "ms-backend-test.h"
#include "ms-csv-keep.h"
#include "ms-meta-sidecar.h"
#include "ms-sweep-test.h"
#include "ms-tmp-test.h"
#include "ms-utf8.h"
#include "run/ms-backend.h"
#include "run/ms-runner.h"

static MsResults *
make_results (int max_exp, const char *date)
{
  MsSweep s;
  MsTestBackendConfig cfg;
  ms_test_sweep_init (&s, NULL, 10, max_exp, 4);
  ms_test_backend_config_init (&cfg);
  MsBackend *b = ms_backend_new_test (&cfg);
  MsResults *r = NULL;
  char err[256];
  ms_sweep_run (&s, b, NULL, NULL, NULL, &r, err, sizeof err);
  ms_backend_free (b);
  g_assert_nonnull (r);
  snprintf (r->date, sizeof r->date, "%s", date);
  snprintf (r->device.name, sizeof r->device.name, "Test GPU");
  return r;
}

static char *
contents (const char *path)
{
  char *text = NULL;
  if (!g_file_get_contents (path, &text, NULL, NULL))
    return NULL;
  return text;
}

/* Whether the folder holds a temporary of the atomic writer. */
static bool
temporaries_in (const char *dir)
{
  DIR *d = opendir (dir);
  bool found = false;
  for (struct dirent *e; d && (e = readdir (d));)
    found = found || strstr (e->d_name, ".memsweep-") != NULL;
  if (d)
    closedir (d);
  return found;
}

/* Exporting another run's summary or samples as X.csv, beside run X,
 * would take X-meta.json: refused, X-meta.json byte for byte as it was. */
static void
test_export_keeps_run (void)
{
  char err[1024];
  const char *dir = ms_test_tmp_folder ("export");
  g_autofree char *samples = g_build_filename (dir, "X-samples.csv", NULL);
  g_autofree char *summary = g_build_filename (dir, "X-summary.csv", NULL);
  g_autofree char *meta = g_build_filename (dir, "X-meta.json", NULL);
  g_autofree char *single = g_build_filename (dir, "X.csv", NULL);
  MsResults *a = make_results (12, "2026-01-01T00:00:00Z");
  MsResults *b = make_results (13, "2026-02-02T00:00:00Z");
  g_assert_true (ms_csv_write_pair (a, samples, summary, err, sizeof err));
  g_autofree char *before = contents (meta);
  g_assert_nonnull (before);

  g_assert_false (ms_csv_write_summary (b, single, err, sizeof err));
  g_assert_nonnull (strstr (err, "X-meta.json"));
  g_assert_nonnull (strstr (err, "not replaced"));
  g_assert_false (ms_csv_write_samples (b, single, err, sizeof err));
  g_assert_nonnull (strstr (err, "X-meta.json"));
  /* Another run's summary over X's: X-samples.csv would lose its metadata. */
  g_assert_false (ms_csv_write_summary (b, summary, err, sizeof err));
  g_assert_false (g_file_test (single, G_FILE_TEST_EXISTS));
  g_autofree char *after = contents (meta);
  g_assert_cmpstr (after, ==, before);
  g_assert_false (temporaries_in (dir));
  MsResults *back = ms_run_read_samples (samples, err, sizeof err);
  g_assert_nonnull (back);
  g_assert_cmpstr (back->metadata_unknown, ==, "");
  g_assert_cmpstr (back->date, ==, "2026-01-01T00:00:00Z");
  ms_results_free (back);

  /* The run's own files, and a whole new pair under its names, may. */
  g_assert_true (ms_csv_write_summary (a, summary, err, sizeof err));
  g_assert_true (ms_csv_write_pair (b, samples, summary, err, sizeof err));
  ms_results_free (a);
  ms_results_free (b);
}

/* A sidecar that is a folder, a read-only file or a FIFO is refused by
 * the check the commands make before any work. */
static void
test_targets_checked (void)
{
  char err[1024];
  const char *dir = ms_test_tmp_folder ("targets");
  static const char *const kinds[] = { "folder", "read-only", "fifo" };
  for (size_t i = 0; i < G_N_ELEMENTS (kinds); i++) {
    g_autofree char *samples = g_strdup_printf ("%s/%s-samples.csv", dir, kinds[i]);
    g_autofree char *summary = g_strdup_printf ("%s/%s-summary.csv", dir, kinds[i]);
    g_autofree char *meta = g_strdup_printf ("%s/%s-meta.json", dir, kinds[i]);
    const char *paths[] = { samples, summary };
    if (i == 0)
      g_assert_cmpint (mkdir (meta, 0755), ==, 0);
    else if (i == 1)
      g_assert_true (g_file_set_contents (meta, "{}", -1, NULL) && chmod (meta, 0444) == 0);
    else
      g_assert_cmpint (mkfifo (meta, 0644), ==, 0);
    g_assert_false (ms_meta_sidecar_check_targets (paths, 2, err, sizeof err));
    g_assert_nonnull (strstr (err, meta));
  }
}

/* Another file of the same size (another run's samples) beside a sidecar
 * does not take its metadata: the hash must match. */
static void
test_hash_checked (void)
{
  char err[1024];
  const char *dir = ms_test_tmp_folder ("hash");
  g_autofree char *samples = g_build_filename (dir, "A-samples.csv", NULL);
  g_autofree char *summary = g_build_filename (dir, "A-summary.csv", NULL);
  MsResults *a = make_results (12, "2026-03-03T00:00:00Z");
  g_assert_true (ms_csv_write_pair (a, samples, summary, err, sizeof err));
  ms_results_free (a);

  /* One digit of the first row's host_us changed: the same size. */
  g_autofree char *text = contents (samples);
  char *p = strchr (text, '\n') + 1;
  for (int commas = 0; commas < 9; p++)
    commas += *p == ',';
  p -= 2;
  g_assert_true (*p >= '0' && *p <= '9');
  *p = (char) ('0' + (*p - '0' + 1) % 10);
  g_assert_true (g_file_set_contents (samples, text, -1, NULL));

  MsResults *r = ms_run_read_samples (samples, err, sizeof err);
  g_assert_nonnull (r);
  g_assert_nonnull (strstr (r->metadata_unknown, "from another file"));
  g_assert_cmpstr (r->date, !=, "2026-03-03T00:00:00Z");
  g_assert_false (r->device.present && strcmp (r->device.name, "Test GPU") == 0);
  ms_results_free (r);
  /* The summary, untouched, keeps it. */
  r = ms_run_read_samples (summary, err, sizeof err);
  g_assert_nonnull (r);
  g_assert_cmpstr (r->metadata_unknown, ==, "");
  g_assert_cmpstr (r->date, ==, "2026-03-03T00:00:00Z");
  ms_results_free (r);
}

/* FNV-1a 64 of a file's text, as a version-1 sidecar records it. */
static char *
fnv1a_of (const char *text)
{
  guint64 h = 0xcbf29ce484222325ull;
  for (const char *p = text; *p; p++)
    h = (h ^ (unsigned char) *p) * 0x100000001b3ull;
  return g_strdup_printf ("%016" G_GINT64_MODIFIER "x", h);
}

/* A version-1 sidecar (FNV-1a, before SHA-256) is still read, and a
 * fleet node's stamp of it writes version 2 that keeps each file's FNV-1a,
 * which describes the files as before. */
static void
test_version_1_read (void)
{
  char err[1024];
  const char *dir = ms_test_tmp_folder ("version-1");
  g_autofree char *samples = g_build_filename (dir, "V-samples.csv", NULL);
  g_autofree char *summary = g_build_filename (dir, "V-summary.csv", NULL);
  g_autofree char *meta = g_build_filename (dir, "V-meta.json", NULL);
  MsResults *a = make_results (12, "2026-04-04T00:00:00Z");
  g_assert_true (ms_csv_write_pair (a, samples, summary, err, sizeof err));
  ms_results_free (a);
  g_autofree char *text = contents (meta);
  g_assert_nonnull (strstr (text, "\"format-version\": 3"));
  /* The same sidecar as version 1 wrote it. */
  const char *paths[] = { samples, summary };
  GString *v1 = g_string_new (text);
  g_string_replace (v1, "\"format-version\": 3", "\"format-version\": 1", 1);
  for (int i = 0; i < 2; i++) {
    g_autofree char *file = contents (paths[i]);
    g_autofree char *sha = g_compute_checksum_for_string (G_CHECKSUM_SHA256, file, -1);
    g_autofree char *from = g_strdup_printf ("\"sha256\": \"%s\"", sha);
    g_autofree char *fnv = fnv1a_of (file);
    g_autofree char *to = g_strdup_printf ("\"fnv1a-64\": \"%s\"", fnv);
    g_assert_cmpuint (g_string_replace (v1, from, to, 1), ==, 1);
  }
  g_assert_true (g_file_set_contents (meta, v1->str, -1, NULL));
  g_string_free (v1, TRUE);

  MsResults *r = ms_run_read_samples (samples, err, sizeof err);
  g_assert_nonnull (r);
  g_assert_cmpstr (r->metadata_unknown, ==, "");
  g_assert_cmpstr (r->date, ==, "2026-04-04T00:00:00Z");
  ms_results_free (r);

  g_assert_true (ms_meta_sidecar_restamp (samples, NULL, 0, "# node: n1\n", err, sizeof err));
  g_autofree char *stamped = contents (meta);
  g_assert_nonnull (strstr (stamped, "\"format-version\": 3"));
  g_assert_nonnull (strstr (stamped, "\"fnv1a-64\""));
  g_assert_null (strstr (stamped, "\"sha256\""));
  g_assert_nonnull (strstr (stamped, "\"node\": \"n1\""));
  r = ms_run_read_samples (samples, err, sizeof err);
  g_assert_nonnull (r);
  g_assert_cmpstr (r->metadata_unknown, ==, "");
  ms_results_free (r);
}

/* A prefix that is not UTF-8: the sidecar is JSON that reads back, and the
 * files keep their metadata. */
static void
test_name_not_utf8 (void)
{
  char err[1024], meta_path[4096];
  const char *dir = ms_test_tmp_folder ("names");
  g_autofree char *samples = g_strdup_printf ("%s/n\xff\x01-samples.csv", dir);
  g_autofree char *summary = g_strdup_printf ("%s/n\xff\x01-summary.csv", dir);
  MsResults *a = make_results (11, "2026-04-04T00:00:00Z");
  g_assert_true (ms_csv_write_pair (a, samples, summary, err, sizeof err));
  ms_results_free (a);
  g_assert_true (ms_meta_sidecar_path (samples, meta_path, sizeof meta_path));
  g_autofree char *json = contents (meta_path);
  g_assert_nonnull (json);
  g_assert_true (ms_utf8_valid (json, strlen (json), NULL));
  MsResults *r = ms_run_read_samples (samples, err, sizeof err);
  g_assert_nonnull (r);
  g_assert_cmpstr (r->metadata_unknown, ==, "");
  g_assert_cmpstr (r->date, ==, "2026-04-04T00:00:00Z");
  ms_results_free (r);
  /* Written again under the same names: its own set. */
  a = make_results (11, "2026-04-05T00:00:00Z");
  g_assert_true (ms_csv_write_pair (a, samples, summary, err, sizeof err));
  ms_results_free (a);
}

/* Under a file-size limit the write fails with EFBIG, said, and nothing
 * is left: in a child, with SIGXFSZ as a fresh process has it. */
static void
test_size_limit (void)
{
  const char *dir = ms_test_tmp_folder ("limit");
  g_autofree char *samples = g_build_filename (dir, "L-samples.csv", NULL);
  g_autofree char *summary = g_build_filename (dir, "L-summary.csv", NULL);
  MsResults *a = make_results (13, "2026-05-05T00:00:00Z");
  pid_t pid = fork ();
  g_assert_cmpint (pid, >=, 0);
  if (pid == 0) {
    char err[1024];
    struct rlimit limit = { 2048, 2048 };
    signal (SIGXFSZ, SIG_DFL);
    ms_atomic_file_clean_up_on_signals ();
    setrlimit (RLIMIT_FSIZE, &limit);
    bool ok = ms_csv_write_pair (a, samples, summary, err, sizeof err);
    _exit (!ok && strstr (err, strerror (EFBIG)) ? 0 : 10);
  }
  int status = 0;
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  g_assert_false (WIFSIGNALED (status));
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 0);
  g_assert_false (g_file_test (samples, G_FILE_TEST_EXISTS));
  g_assert_false (temporaries_in (dir));
  ms_results_free (a);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/sidecar-set/export-keeps-run", test_export_keeps_run);
  g_test_add_func ("/sidecar-set/targets-checked", test_targets_checked);
  g_test_add_func ("/sidecar-set/hash-checked", test_hash_checked);
  g_test_add_func ("/sidecar-set/version-1-read", test_version_1_read);
  g_test_add_func ("/sidecar-set/name-not-utf8", test_name_not_utf8);
  g_test_add_func ("/sidecar-set/size-limit", test_size_limit);
  return g_test_run ();
}
