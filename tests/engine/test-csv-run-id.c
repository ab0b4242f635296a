/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-csv-run-id.c: the samples file's run id, a fingerprint (FNV-1a) of
 * the file as written with an empty id. A regular file gets it in the same
 * pass as its rows (put in place at the end), a pipe written in place by a
 * pass that only hashes first: both must give the same bytes, the id must
 * be that fingerprint, and a pair's summary must carry the same id. */
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

#include "memsweep.h"
#include "ms-csv-pair.h"
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

static void
test_run_id (void)
{
  char err[512];
  MsResults *r = ms_csv_read_samples (MS_REFERENCE_DIR "/h100-large-samples.csv", err, sizeof err);
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
    size_t n_file = strlen (a), n_piped = strlen (b), n_pair = strlen (c), n_summary = strlen (m);
    g_assert_true (n_file == n_piped);
    g_assert_true (memcmp (a, b, n_file) == 0);
    g_assert_true (n_file == n_pair);
    g_assert_true (memcmp (a, c, n_file) == 0);
    char id[17], fingerprint[17], summary_id[17], unused[17];
    id_and_fingerprint (a, n_file, id, fingerprint);
    g_assert_true (id[0]);
    g_assert_cmpstr (id, ==, fingerprint);
    id_and_fingerprint (m, n_summary, summary_id, unused);
    g_assert_cmpstr (summary_id, ==, id);
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
