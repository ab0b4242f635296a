/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-csv-memory.c: the samples reader's peak memory on adversarial files
 * stays within twice the file's size plus a constant. A counting allocator
 * (malloc and friends defined here, over glibc's) measures every byte the
 * reader and libcsv hold at once. */
#define _GNU_SOURCE
#include <malloc.h>
#include <stdarg.h>
#include <sys/stat.h>
#include <unistd.h>
#include <glib.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lessons/ms-run-read.h"
#include "memsweep.h"
#include "model/ms-results.h"
#include "ms-modes.h"
#include "ms-tmp-test.h"

/* Cells, tables and buffers that do not grow with the file: up to
 * MS_CSV_FREE_CELLS cells of about 2.9 KiB each (an MsCell holds its
 * statistics and rounds; past them each cell needs 3 KiB of file,
 * ms-csv-cells.c) in an array of up to twice that many
 * (handed to the results as it is), the duplicate table (360 KiB), a
 * 64 KiB chunk. */
#define CONSTANT_BYTES (3584 * 1024)
/* ms_cell_compute_stats (engine/model/ms-results.c) takes 53 bytes of scratch
 * per repetition of the cell it works on, reused for the next cell. A file
 * of end-to-end rows alone (about 20 bytes per repetition) needs more than
 * twice its size for that: allowed for, separately. */
#define STATS_BYTES_PER_REP 64

#if defined(__SANITIZE_ADDRESS__)
#define COUNTING 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define COUNTING 0
#endif
#endif
#ifndef COUNTING
#define COUNTING 1
#endif

#if COUNTING
extern void *__libc_malloc (size_t);
extern void *__libc_calloc (size_t, size_t);
extern void *__libc_realloc (void *, size_t);
extern void __libc_free (void *);

static size_t live, peak;

static void
count (void *p, size_t old)
{
  live -= old;
  if (p)
    live += malloc_usable_size (p);
  if (live > peak)
    peak = live;
}

void *
malloc (size_t n)
{
  void *p = __libc_malloc (n);
  count (p, 0);
  return p;
}

void *
calloc (size_t n, size_t m)
{
  void *p = __libc_calloc (n, m);
  count (p, 0);
  return p;
}

void *
realloc (void *p, size_t n)
{
  size_t old = p ? malloc_usable_size (p) : 0;
  void *q = __libc_realloc (p, n);
  /* A block that moved was briefly there twice. */
  if (q && q != p && live + malloc_usable_size (q) > peak)
    peak = live + malloc_usable_size (q);
  if (q || n == 0)
    count (q, old);
  return q;
}

void
free (void *p)
{
  if (p)
    live -= malloc_usable_size (p);
  __libc_free (p);
}
#endif

static const char *header =
  "mode,elements,bytes_per_vector,rep,phase,lane,chunk,host_start_us,host_us,gpu_start_us,"
  "gpu_us,bytes,verified,status,mismatches,first_mismatch,message\n";
/* Only the required columns: the densest rows a file can have. */
static const char *short_header = "mode,elements,rep,phase,host_start_us,host_us,status\n";

/* The file: many cells whose rows claim repetition 999999. */
static void
gen_rep_claims (FILE *f)
{
  fputs (header, f);
  for (int m = 0; m < MS_MODE_COUNT; m++)
    for (int e = 0; e <= MS_MAX_EXPONENT; e += 4)
      fprintf (f, "%s,%d,0,999999,h2d,1,0,1.0,2.0,,,0,1,ok,0,0,\n", ms_mode_name (m), 1 << e);
}

/* As many events as the shortest rows allow, each one unique. */
static void
gen_dense_events (FILE *f)
{
  static const char *phases[] = { "h2d", "d2h", "init", "free", "alloc", "kernel", "verify" };
  fputs (short_header, f);
  for (int e = 0; e < 4; e++)
    for (int m = 0; m < MS_MODE_COUNT; m++)
      for (int rep = 0; rep < 400; rep++) {
        for (int p = 0; p < 7; p++)
          fprintf (f, "%s,%d,%d,%s,0,0,ok\n", ms_mode_name (m), 1 << e, rep, phases[p]);
        fprintf (f, "%s,%d,%d,e2e,,0,ok\n", ms_mode_name (m), 1 << e, rep);
      }
}

/* End-to-end rows only: the most repetitions per byte. */
static void
gen_e2e_only (FILE *f)
{
  fputs (short_header, f);
  for (int rep = 0; rep < 20000; rep++)
    fprintf (f, "uva,1,%d,e2e,,0,ok\n", rep);
}

/* One cell per row, each a 'none' row with a long message. */
static void
gen_many_cells (FILE *f)
{
  fputs (header, f);
  for (int m = 0; m < MS_MODE_COUNT; m++)
    for (int e = 0; e <= MS_MAX_EXPONENT; e++)
      fprintf (f, "%s,%d,0,0,none,0,0,,,,,0,0,failed,0,0,%0300d\n", ms_mode_name (m), 1 << e, 7);
}

/* Issue 22's file: one-repetition cells of many variants, the fewest
 * bytes per cell (81,664 of them in 6.7 MB once took 413 MB). */
static void
gen_variant_cells (FILE *f)
{
  fputs ("mode,elements,rep,phase,host_start_us,host_us,status,variant\n", f);
  for (int m = 0; m < MS_MODE_COUNT; m++)
    for (int e = 0; e <= MS_MAX_EXPONENT; e++)
      for (int v = 0; v < 40; v++)
        fprintf (f, "%s,%d,0,e2e,,1.5,ok,R=%d\n", ms_mode_name (m), 1 << e, v);
}

/* Over a thousand cells of 3 KiB each: read, within the bound. */
static void
gen_variant_cells_padded (FILE *f)
{
  fputs ("mode,elements,rep,phase,host_start_us,host_us,status,variant,message\n", f);
  for (int m = 0; m < MS_MODE_COUNT; m++)
    for (int e = 0; e <= MS_MAX_EXPONENT; e++)
      for (int v = 0; v < 4; v++)
        fprintf (f, "%s,%d,0,e2e,,1.5,ok,R=%d,%0*d\n", ms_mode_name (m), 1 << e, v,
                 3100, 0);
}

static void
gen_huge_field (FILE *f)
{
  fputs (header, f);
  fputs ("pinned,1024,4096,0,none,0,0,,,,,0,0,failed,0,0,\"", f);
  for (int i = 0; i < 1 << 20; i++)
    fputc ("ab,\n"[i & 3], f);
  fputs ("\"\n", f);
}

static void
gen_many_columns (FILE *f)
{
  for (int i = 0; i < 4000; i++)
    fprintf (f, "c%d,", i);
  fputs (header, f);
}

static void
gen_metadata (FILE *f)
{
  for (int i = 0; i < 64; i++) {
    fputs ("# device: ", f);
    for (int k = 0; k < 16384; k++)
      fputc ('x', f);
    fputc ('\n', f);
  }
  fputs (header, f);
}

static void
check_file (const char *path, const char *what)
{
  struct stat st;
  if (stat (path, &st) != 0)
    abort ();
  char err[512];
#if COUNTING
  size_t base = live;
  peak = live;
#endif
  MsResults *r = ms_run_read_samples (path, err, sizeof err);
#if COUNTING
  size_t used = peak - base;
  int max_reps = 0;
  for (size_t i = 0; r && i < r->n_cells; i++)
    max_reps = r->cells[i].n_reps > max_reps ? r->cells[i].n_reps : max_reps;
  size_t bound = 2 * (size_t) st.st_size + CONSTANT_BYTES + (size_t) max_reps * STATS_BYTES_PER_REP;
  printf ("%-22s %10lld bytes  peak %10zu  (%.2f x file)  %s\n", what, (long long) st.st_size,
          used, (double) used / (double) st.st_size, r ? "read" : err);
  g_assert_cmpuint (used, <=, bound);
#endif
  ms_results_free (r);
}

static void
test_generated (void)
{
  static const struct {
    const char *name;
    void (*gen) (FILE *f);
  } files[] = {
    { "rep-claims.csv", gen_rep_claims },     { "dense-events.csv", gen_dense_events },
    { "e2e-only.csv", gen_e2e_only },         { "many-cells.csv", gen_many_cells },
    { "huge-field.csv", gen_huge_field },     { "many-columns.csv", gen_many_columns },
    { "long-metadata.csv", gen_metadata },   { "variant-cells.csv", gen_variant_cells },
    { "variant-cells-3k.csv", gen_variant_cells_padded },
  };
  for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
    const char *path = ms_test_tmp_path (files[i].name);
    FILE *f = fopen (path, "w");
    if (!f)
      abort ();
    files[i].gen (f);
    fclose (f);
    check_file (path, files[i].name);
    unlink (path);
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
#if !COUNTING
  puts ("SKIP: built with AddressSanitizer, which owns malloc");
  return 77;
#endif
  g_test_add_func ("/csv-memory/generated", test_generated);
  int rc = g_test_run ();
  /* And every file named on the command line: the fuzz corpus, the
   * reference runs. */
  for (int i = 1; i < argc; i++)
    check_file (argv[i], strrchr (argv[i], '/') ? strrchr (argv[i], '/') + 1 : argv[i]);
  return rc;
}
