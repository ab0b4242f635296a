/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-csv-run-id.c: the run id. A regular file is plain CSV and its
 * sidecar (PREFIX-meta.json) carries the id, a fingerprint of the metadata
 * and the samples' bytes: the same for the samples alone, the pair and a
 * summary alone, with each file's size and hash. A pipe, written in place,
 * keeps its metadata inline, the id a fingerprint (FNV-1a) of the file as
 * written with an empty id, made by a pass that only hashes first. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <glib.h>
#include <math.h>
#include <stdio.h>

#include "files/ms-csv-io.h"
#include "lessons/ms-run-read.h"
#include "memsweep.h"
#include "model/ms-results.h"
#include "ms-csv-keep.h"
#include "ms-json.h"
#include "ms-small-file.h"
#include "ms-tmp-test.h"

/* The id on the file's "# run-id:" line, and the fingerprint of the file
 * with that line's id left out. */
static void
id_and_fingerprint (const char *text, size_t len, char id[17], char fingerprint[17])
{
  const char *line = strstr (text, "# run-id: ");
  id[0] = fingerprint[0] = '\0';
  if (!line)
    return;
  const char *digits = line + strlen ("# run-id: "), *end = strchr (digits, '\n');
  if (!end || end - digits != 16)
    return;
  memcpy (id, digits, 16);
  id[16] = '\0';
  uint64_t h = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < len; i++) {
    if (text + i >= digits && text + i < end)
      continue;
    h = (h ^ (unsigned char)text[i]) * 0x100000001b3ull;
  }
  snprintf (fingerprint, 17, "%016llx", (unsigned long long)h);
}

/* The run id of the sidecar at path, after checking that it describes
 * text as its role's file (its size, and its SHA-256 as GLib computes
 * it); NULL when it does not. */
static char *
sidecar_run_id (const char *path, const char *role, const char *text)
{
  char err[512];
  char *json = ms_small_file_read (path, err, sizeof err);
  MsJson *root = json ? ms_json_parse (json, strlen (json), err, sizeof err) : NULL;
  free (json);
  const MsJson *file = ms_json_member (ms_json_member (root, "files"), role);
  const char *id = ms_json_string (ms_json_member (root, "run-id"));
  const char *bytes = ms_json_number_text (ms_json_member (file, "bytes"));
  const char *sha = ms_json_string (ms_json_member (file, "sha256"));
  char *hash = g_compute_checksum_for_string (G_CHECKSUM_SHA256, text, -1);
  char *result = NULL;
  g_assert_null (ms_json_member (file, "fnv1a-64"));
  if (id && bytes && sha && strtoll (bytes, NULL, 10) == (long long)strlen (text)
      && strcmp (sha, hash) == 0)
    result = strdup (id);
  g_free (hash);
  ms_json_free (root);
  return result;
}

static void
test_run_id (void)
{
  char err[512];
  MsResults *r = ms_run_read_samples (MS_REFERENCE_DIR "/h100-large-samples.csv.gz", err, sizeof err);
  g_assert_nonnull (r);
  if (!r)
    return;
  const char *file = ms_test_tmp_path ("file.csv"), *fifo = ms_test_tmp_path ("fifo.csv");
  const char *piped = ms_test_tmp_path ("piped.csv");
  const char *pair_s = ms_test_tmp_path ("p-samples.csv");
  const char *pair_m = ms_test_tmp_path ("p-summary.csv");

  g_assert_true (ms_csv_write_samples (r, file, err, sizeof err));
  g_assert_true (mkfifo (fifo, 0600) == 0);
  int ready[2];
  g_assert_true (pipe (ready) == 0);
  pid_t child = fork ();
  if (child == 0) {
    /* The pipe's other end: copies what comes through into a file. It is
     * open before the writer starts (a pipe nobody reads is refused). */
    int early = open (fifo, O_RDONLY | O_NONBLOCK);
    if (early < 0 || write (ready[1], "r", 1) != 1)
      _exit (1);
    /* Blocks until the writer opens its end. */
    int in = open (fifo, O_RDONLY), out = open (piped, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    char buf[65536];
    ssize_t n;
    while (in >= 0 && out >= 0 && (n = read (in, buf, sizeof buf)) > 0)
      if (write (out, buf, (size_t)n) != n)
        _exit (1);
    _exit (in >= 0 && out >= 0 ? 0 : 1);
  }
  char c1;
  g_assert_true (read (ready[0], &c1, 1) == 1);
  g_assert_true (ms_csv_write_samples (r, fifo, err, sizeof err));
  int status = 1;
  waitpid (child, &status, 0);
  g_assert_true (WIFEXITED (status));
  g_assert_true (WEXITSTATUS (status) == 0);
  close (ready[0]), close (ready[1]);
  g_assert_true (ms_csv_write_pair (r, pair_s, pair_m, err, sizeof err));

  char *a = ms_small_file_read (file, err, sizeof err),
       *b = ms_small_file_read (piped, err, sizeof err);
  char *c = ms_small_file_read (pair_s, err, sizeof err),
       *m = ms_small_file_read (pair_m, err, sizeof err);
  g_assert_true (a);
  g_assert_true (b);
  g_assert_true (c);
  g_assert_true (m);
  if (a && b && c && m) {
    size_t n_file = strlen (a), n_pair = strlen (c);
    /* A file and a pair's samples: plain CSV, the same bytes. */
    g_assert_true (a[0] != '#');
    g_assert_true (n_file == n_pair);
    g_assert_true (memcmp (a, c, n_file) == 0);
    /* A pipe keeps its metadata inline, its id the fingerprint. */
    char id[17], fingerprint[17];
    id_and_fingerprint (b, strlen (b), id, fingerprint);
    g_assert_true (id[0]);
    g_assert_cmpstr (id, ==, fingerprint);
    /* The sidecars: one id for the file alone, the pair and a summary
     * written alone, and each file's hash. */
    char *lone = sidecar_run_id (ms_test_tmp_path ("file-meta.json"), "samples", a);
    char *pair = sidecar_run_id (ms_test_tmp_path ("p-meta.json"), "summary", m);
    g_assert_true (ms_csv_write_summary (r, ms_test_tmp_path ("s-summary.csv"), err, sizeof err));
    char *summary = ms_small_file_read (ms_test_tmp_path ("s-summary.csv"), err, sizeof err);
    char *alone = sidecar_run_id (ms_test_tmp_path ("s-meta.json"), "summary", summary);
    g_assert_nonnull (lone);
    g_assert_cmpstr (lone, ==, pair);
    g_assert_cmpstr (lone, ==, alone);
    free (lone), free (pair), free (alone), free (summary);
  }
  free (a), free (b), free (c), free (m);
  ms_results_free (r);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/csv-run-id/run-id", test_run_id);
  int rc = g_test_run ();
  return rc;
}
