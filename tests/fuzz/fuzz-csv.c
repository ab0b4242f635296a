/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz-csv.c: libFuzzer target for the samples reader and its metadata
 * parser. Every input is read from a file, as users' files are; whatever
 * is accepted must write back and read again to the same cells. Also built
 * without libFuzzer as fuzz-regress, which replays the corpus and every
 * crash input kept as a regression test. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "files/ms-csv-io.h"
#include "lessons/ms-run-read.h"
#include "memsweep.h"
#include "model/ms-results.h"
#include "ms-csv-reader.h"
#include "ms-tmp-test.h"

int LLVMFuzzerTestOneInput (const unsigned char *data, size_t size);


static void
check_round_trip (const MsResults *r)
{
  char path[600], err[512];
  snprintf (path, sizeof path, "%s/rt.csv", ms_test_tmp_dir ());
  /* A summary file (the samples reader hands it on) writes back as one;
   * samples of it are refused. */
  if (r->from_summary) {
    if (ms_csv_write_samples (r, path, err, sizeof err)) {
      fprintf (stderr, "samples written from a summary\n");
      abort ();
    }
    if (!ms_csv_write_summary (r, path, err, sizeof err)) {
      fprintf (stderr, "write failed: %s\n", err);
      abort ();
    }
  } else if (!ms_csv_write_samples (r, path, err, sizeof err)) {
    fprintf (stderr, "write failed: %s\n", err);
    abort ();
  }
  MsResults *back = ms_run_read_samples (path, err, sizeof err);
  if (!back) {
    fprintf (stderr, "accepted input did not read back: %s\n", err);
    abort ();
  }
  if (back->n_cells != r->n_cells) {
    fprintf (stderr, "round trip changed the cells: %zu -> %zu\n", r->n_cells, back->n_cells);
    abort ();
  }
  for (size_t i = 0; i < r->n_cells; i++)
    if (back->cells[i].n_events != r->cells[i].n_events ||
        back->cells[i].status != r->cells[i].status) {
      fprintf (stderr, "round trip changed cell %zu\n", i);
      abort ();
    }
  ms_results_free (back);
}

static bool
same_cell (const MsCell *a, const MsCell *b)
{
  return a->mode == b->mode && a->exponent == b->exponent && a->status == b->status &&
         a->n_reps == b->n_reps && a->n_events == b->n_events &&
         strcmp (a->message, b->message) == 0 && strcmp (a->variant, b->variant) == 0 &&
         /* memcmp takes no NULL, even for 0 bytes: a cell with no data. */
         (a->n_reps == 0 || memcmp (a->e2e_us, b->e2e_us, a->n_reps * sizeof (double)) == 0) &&
         (a->n_events == 0 || memcmp (a->events, b->events, a->n_events * sizeof (MsEvent)) == 0) &&
         memcmp (&a->stats, &b->stats, sizeof a->stats) == 0;
}

/* The reader splits plain rows itself and leaves the rest to libcsv: with
 * libcsv alone, the same cells or the same error. */
static void
check_plain_rows (const char *path, const MsResults *r, const char *err)
{
  char err2[512] = "";
  ms_csv_plain_rows = false;
  MsResults *r2 = ms_run_read_samples (path, err2, sizeof err2);
  ms_csv_plain_rows = true;
  bool same = (r == NULL) == (r2 == NULL);
  if (same && !r)
    same = strcmp (err, err2) == 0;
  if (same && r) {
    same = r->n_cells == r2->n_cells;
    for (size_t i = 0; same && i < r->n_cells; i++)
      same = same_cell (&r->cells[i], &r2->cells[i]);
  }
  if (!same) {
    fprintf (stderr, "plain rows read otherwise than libcsv reads them: '%s' / '%s'\n",
             r ? "ok" : err, r2 ? "ok" : err2);
    abort ();
  }
  ms_results_free (r2);
}

/* A large file's rows are parsed on every core in blocks: with blocks of
 * a few bytes from the header on, the same cells or the same error. */
static void
check_blocks (const char *path, const MsResults *r, const char *err)
{
  static const size_t block_bytes[] = { 1, 64, 4096 };
  uint64_t min_was = ms_csv_blocks_min_bytes;
  size_t block_was = ms_csv_block_bytes;
  for (size_t k = 0; k < sizeof block_bytes / sizeof block_bytes[0]; k++) {
    char err2[512] = "";
    ms_csv_blocks_min_bytes = 0;
    ms_csv_block_bytes = block_bytes[k];
    MsResults *r2 = ms_run_read_samples (path, err2, sizeof err2);
    ms_csv_blocks_min_bytes = min_was;
    ms_csv_block_bytes = block_was;
    bool same = (r == NULL) == (r2 == NULL);
    if (same && !r)
      same = strcmp (err, err2) == 0;
    if (same && r) {
      same = r->n_cells == r2->n_cells;
      for (size_t i = 0; same && i < r->n_cells; i++)
        same = same_cell (&r->cells[i], &r2->cells[i]);
    }
    if (!same) {
      fprintf (stderr, "rows read in blocks of %zu bytes otherwise than in one stream: '%s' / '%s'\n",
               block_bytes[k], r ? "ok" : err, r2 ? "ok" : err2);
      abort ();
    }
    ms_results_free (r2);
  }
}

int
LLVMFuzzerTestOneInput (const unsigned char *data, size_t size)
{
  char path[600], err[512];
  snprintf (path, sizeof path, "%s/in.csv", ms_test_tmp_dir ());
  FILE *f = fopen (path, "wb");
  if (!f)
    abort ();
  fwrite (data, 1, size, f);
  fclose (f);
  err[0] = '\0';
  MsResults *r = ms_run_read_samples (path, err, sizeof err);
  check_plain_rows (path, r, err);
  check_blocks (path, r, err);
  if (r) {
    check_round_trip (r);
    ms_results_free (r);
  } else if (strncmp (err, path, strlen (path)) != 0) {
    /* Every rejection names the file (and the line, where there is one). */
    fprintf (stderr, "error does not name the file: %s\n", err);
    abort ();
  }
  return 0;
}

#ifdef MS_FUZZ_REPLAY
int
main (int argc, char **argv)
{
  int n = 0;
  for (int i = 1; i < argc; i++) {
    FILE *f = fopen (argv[i], "rb");
    if (!f) {
      perror (argv[i]);
      return 1;
    }
    fseek (f, 0, SEEK_END);
    long len = ftell (f);
    fseek (f, 0, SEEK_SET);
    unsigned char *buf = malloc (len > 0 ? len : 1);
    if (fread (buf, 1, len, f) != (size_t) len)
      return 1;
    fclose (f);
    LLVMFuzzerTestOneInput (buf, len);
    free (buf);
    n++;
  }
  printf ("replayed %d inputs\n", n);
  return 0;
}
#endif
