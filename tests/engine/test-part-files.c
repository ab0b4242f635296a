/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-part-files.c: a stream cut into numbered parts (the samples kept
 * under a hard file-size limit): no part over its size, the parts joined
 * in name order are the stream, and parts never finished are removed. */
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>

#include "ms-part-files.h"

static char *
make_stream (size_t len)
{
  char *data = g_malloc (len);
  for (size_t i = 0; i < len; i++)
    data[i] = (char)(i * 31 + i / 7);
  return data;
}

/* Written in pieces of every few sizes, read back joined. */
static void
check_cut (const char *dir, size_t len, long long part_size)
{
  g_autofree char *name = g_build_filename (dir, "X-samples.csv.gz", NULL);
  g_autofree char *data = make_stream (len);
  MsPartFiles *parts = ms_part_files_new (name, part_size);
  char err[512];
  for (size_t at = 0, piece = 1; at < len; at += piece, piece = piece * 3 % 997 + 1)
    g_assert_true (ms_part_files_write (parts, data + at, MIN (piece, len - at)));
  g_assert_true (ms_part_files_finish (parts, err, sizeof err));
  int n = ms_part_files_count (parts);
  g_assert_cmpint (n, ==, (int)((len + (size_t)part_size - 1) / (size_t)part_size));
  GString *joined = g_string_new (NULL);
  for (int i = 1; i <= n; i++) {
    char part[4096];
    g_autofree char *bytes = NULL;
    gsize size;
    ms_part_files_name (parts, i, part, sizeof part);
    g_assert_true (g_file_get_contents (part, &bytes, &size, NULL));
    g_assert_cmpint ((long long)size, <=, part_size);
    g_string_append_len (joined, bytes, (gssize)size);
    g_remove (part);
  }
  ms_part_files_free (parts);
  g_assert_cmpmem (joined->str, joined->len, data, len);
  g_string_free (joined, TRUE);
}

static void
test_cut_and_joined (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ms-parts-XXXXXX", NULL);
  check_cut (dir, 10000, 1000);
  check_cut (dir, 10000, 3001);
  check_cut (dir, 5, 4096);
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

/* Parts of a stream that was not finished hold nothing that reads. */
static void
test_unfinished_removed (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ms-parts-XXXXXX", NULL);
  g_autofree char *name = g_build_filename (dir, "Y", NULL);
  g_autofree char *data = make_stream (2500);
  MsPartFiles *parts = ms_part_files_new (name, 1000);
  g_assert_true (ms_part_files_write (parts, data, 2500));
  g_assert_cmpint (ms_part_files_count (parts), ==, 3);
  ms_part_files_free (parts);
  g_assert_cmpint (g_rmdir (dir), ==, 0); /* empty: every part removed */
}

/* A folder that is not there: the first part fails, and says which. */
static void
test_failure_said (void)
{
  MsPartFiles *parts = ms_part_files_new ("/nonexistent-ms-folder/Z", 100);
  char err[512] = "";
  g_assert_false (ms_part_files_write (parts, "abc", 3));
  g_assert_false (ms_part_files_write (parts, "abc", 3));
  g_assert_false (ms_part_files_finish (parts, err, sizeof err));
  g_assert_nonnull (strstr (err, "/nonexistent-ms-folder/Z"));
  ms_part_files_free (parts);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/part-files/cut-and-joined", test_cut_and_joined);
  g_test_add_func ("/part-files/unfinished-removed", test_unfinished_removed);
  g_test_add_func ("/part-files/failure-said", test_failure_said);
  return g_test_run ();
}
