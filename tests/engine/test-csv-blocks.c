/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-csv-blocks.c: a large samples file's rows, parsed on every core in
 * blocks (ms-csv-blocks.c), read as the stream read reads them: the same
 * cells for every reference run, the same error and line for files made
 * wrong deep inside, whatever the block size. */
#define _GNU_SOURCE
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lessons/ms-run-read.h"
#include "memsweep.h"
#include "model/ms-results.h"
#include "ms-csv-reader.h"
#include "ms-gz-test.h"
#include "ms-tmp-test.h"

static const size_t block_sizes[] = { 64, 4096, 256 << 10 };

static MsResults *
read_with (const char *path, bool blocks, size_t block_bytes, char *err, size_t errlen)
{
  uint64_t min_was = ms_csv_blocks_min_bytes;
  size_t block_was = ms_csv_block_bytes;
  ms_csv_blocks_min_bytes = blocks ? 0 : UINT64_MAX;
  ms_csv_block_bytes = block_bytes;
  err[0] = '\0';
  MsResults *r = ms_run_read_samples (path, err, errlen);
  ms_csv_blocks_min_bytes = min_was;
  ms_csv_block_bytes = block_was;
  return r;
}

static void
assert_same_cells (const MsResults *a, const MsResults *b)
{
  g_assert_cmpuint (a->n_cells, ==, b->n_cells);
  for (size_t i = 0; i < a->n_cells; i++) {
    const MsCell *x = &a->cells[i], *y = &b->cells[i];
    g_assert_cmpint (x->mode, ==, y->mode);
    g_assert_cmpint (x->exponent, ==, y->exponent);
    g_assert_cmpstr (x->variant, ==, y->variant);
    g_assert_cmpstr (x->message, ==, y->message);
    g_assert_cmpint (x->n_reps, ==, y->n_reps);
    g_assert_cmpuint (x->n_events, ==, y->n_events);
    if (x->n_reps)
      g_assert_true (memcmp (x->e2e_us, y->e2e_us, x->n_reps * sizeof (double)) == 0);
    if (x->n_events)
      g_assert_true (memcmp (x->events, y->events, x->n_events * sizeof (MsEvent)) == 0);
    g_assert_true (memcmp (&x->stats, &y->stats, sizeof x->stats) == 0);
  }
}

/* The stream read's answer, then the blocks' for each block size. */
static void
check_file (const char *path, const char *want_error)
{
  char err[1024], err2[1024];
  MsResults *r = read_with (path, false, 0, err, sizeof err);
  if (want_error) {
    g_assert_null (r);
    if (!strstr (err, want_error))
      g_error ("'%s' does not say '%s'", err, want_error);
  } else if (!r)
    g_error ("%s", err);
  for (size_t k = 0; k < G_N_ELEMENTS (block_sizes); k++) {
    MsResults *r2 = read_with (path, true, block_sizes[k], err2, sizeof err2);
    g_assert_true ((r == NULL) == (r2 == NULL));
    if (r)
      assert_same_cells (r, r2);
    else
      g_assert_cmpstr (err, ==, err2);
    ms_results_free (r2);
  }
  ms_results_free (r);
}

static void
test_reference_runs (void)
{
  GDir *dir = g_dir_open (MS_REFERENCE_DIR, 0, NULL);
  g_assert_nonnull (dir);
  int n = 0;
  for (const char *name; (name = g_dir_read_name (dir));) {
    if (!g_str_has_suffix (name, "-samples.csv.gz"))
      continue;
    char *path = g_build_filename (MS_REFERENCE_DIR, name, NULL);
    check_file (path, NULL);
    g_free (path);
    n++;
  }
  g_dir_close (dir);
  g_assert_cmpint (n, >, 10);
}

/* The default reference run, with `edit` applied at the start of line
 * `line` (1-based; the header is line 1), written to a file of its own. */
static const char *
edited (const char *edit, long line, size_t cut)
{
  gchar *text;
  gsize len;
  text = ms_test_read_plain (MS_REFERENCE_DIR "/h100-default-samples.csv.gz", &len);
  const char *at = text;
  for (long l = 1; l < line; l++)
    at = strchr (at, '\n') + 1;
  const char *path = ms_test_tmp_path ("edited-samples.csv");
  FILE *f = fopen (path, "wb");
  fwrite (text, 1, (size_t) (at - text), f);
  fputs (edit, f);
  fwrite (at, 1, len - (size_t) (at - text) - cut, f);
  fclose (f);
  g_free (text);
  return path;
}

static void
test_errors_deep_inside (void)
{
  /* Row 5000 inserted again before itself: the row after it is named. */
  gchar *text;
  text = ms_test_read_plain (MS_REFERENCE_DIR "/h100-default-samples.csv.gz", NULL);
  const char *row = text;
  for (int l = 1; l < 5000; l++)
    row = strchr (row, '\n') + 1;
  char *dup = g_strndup (row, (size_t) (strchr (row, '\n') + 1 - row));
  g_free (text);
  check_file (edited (dup, 5000, 0), ":5001: duplicate");
  g_free (dup);
  /* A number that is not one, a row too long, a row libcsv reads. */
  check_file (edited ("\"pinned\",1024,4096,x,\"e2e\"\n", 6000, 0), ":6000: rep 'x'");
  check_file (edited ("\"pinned\",1024,4096,0,\"e2e\",0,0,,5,,,0,1,\"ok\",0,0,\"\",0,,,,,,,,,,,,,\"\",9\n",
                      3000, 0),
              ":3000: too many fields");
  /* A quoted field over two lines, and a file cut in the middle of a row. */
  check_file (edited ("\"pinned\",1024,4096,0,\"e2e\",0,0,,5,,,0,1,\"ok\",0,0,\"two\nlines\"\n",
                      4000, 0),
              "");
  check_file (edited ("", 2, 40), "its last row is cut");
}

/* A NUL byte fails the stream read at the 32 KiB chunk that holds it,
 * before that chunk's rows: an error in an earlier row of the chunk is not
 * reached, one in an earlier chunk is. */
static void
test_nul (void)
{
  for (long line = 2000; line < 2400; line += 37) {
    const char *path = edited ("\"pinned\",1024,4096,x\n", line, 0);
    FILE *f = fopen (path, "r+b");
    g_assert_true (fseek (f, 250000, SEEK_SET) == 0);
    fputc ('\0', f);
    fclose (f);
    check_file (path, ": ");
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/csv-blocks/reference-runs", test_reference_runs);
  g_test_add_func ("/csv-blocks/errors-deep-inside", test_errors_deep_inside);
  g_test_add_func ("/csv-blocks/nul", test_nul);
  return g_test_run ();
}
