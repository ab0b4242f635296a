/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench-csv.c: the samples reader against a bare libcsv parse of the same
 * file (csv_parse with empty callbacks, fed the same 64 KiB chunks).
 *
 * Files of 10^4..10^7 rows (and 10^8 with --huge) are made from a real run,
 * data/reference/h100-default-samples.csv.gz, as a sweep with more repetitions
 * would write them: cell by cell, each cell's rows repeated with the
 * repetition numbers moved on. Each measurement runs in a child process;
 * rounds alternate between the two parsers and the medians are printed.
 *
 * Peak memory is measured in a fresh process of its own (this program run
 * again with --peak-of FILE), as `memsweep show FILE` would start: it maps
 * the program's code first, then reads, and reports how far its resident
 * memory rose above that: heap and stack, the results held at the end
 * included. The code pages a timed reader maps on first use (shared with
 * the page cache and every other process running the program) are shown
 * apart, as "code MiB".
 *
 *   bench-csv [--huge] [--rows N]... [--rounds R] [--dir DIR] [--keep] [--no-write]
 *             [--reference FILE]
 *
 * Times are the child's CPU time; --keep leaves the generated files. After
 * each reader round the child writes what it read back (ms_csv_write_samples,
 * next to the file, then removed), unless --no-write.
 */
#define _GNU_SOURCE
#include <csv.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "files/ms-csv-io.h"
#include "io/ms-input.h"
#include "lessons/ms-run-read.h"
#include "memsweep.h"
#include "model/ms-results.h"
#include "model/ms-stats.h"

#define CHUNK (64 * 1024)
/* CPU time of the child: the machines this runs on are often shared, and
 * a parse neither waits nor sleeps when the file is in the page cache. */
#define CLOCK CLOCK_PROCESS_CPUTIME_ID
#define MAX_SIZES 8

static bool keep, write_too = true;
static bool fixed_known;
static double fixed_bytes;

typedef struct {
  char *text; /* the cell's rows, each ending in '\n' */
  size_t len;
  long rows;
  int reps;
} BenchCell;

typedef struct {
  char *head; /* metadata and header lines */
  BenchCell *cells;
  int n_cells;
  long rows;
} Reference;

typedef struct {
  double seconds;
  double write_seconds; /* the reader's results written back, reader only */
  long code_kib;        /* file-backed pages (code) the timed child mapped */
  int ok;
} Sample;

/* The whole plain content of path (the shipped reference run is gzipped),
 * through the engine's one reader. */
static char *
slurp (const char *path, size_t *len)
{
  char err[512];
  bool too_large;
  MsInput *in = ms_input_open (path, false, err, sizeof err);
  char *text = in ? ms_input_read_all (in, SIZE_MAX / 4, len, &too_large, err, sizeof err) : NULL;
  ms_input_close (in);
  return text;
}

/* Field i (0-based) of a plain data row: no quoted commas in them. */
static const char *
nth_field (const char *row, int i)
{
  while (i-- > 0)
    row = strchr (row, ',') + 1;
  return row;
}

/* Which pass of generate () writes a row: the writer's order in a cell. */
static int
row_pass (const char *row)
{
  const char *phase = nth_field (row, 4);
  if (strncmp (phase, "\"e2e\"", 5) == 0)
    return 1;
  return strncmp (phase, "\"h2d_copy\"", 10) == 0 || strncmp (phase, "\"d2h_copy\"", 10) == 0
           ? 2
           : 0;
}

static bool
load_reference (const char *path, Reference *ref)
{
  size_t len;
  char *text = slurp (path, &len);
  if (!text)
    return false;
  char *p = text;
  while (*p == '#')
    p = strchr (p, '\n') + 1;
  p = strchr (p, '\n') + 1; /* the header */
  ref->head = strndup (text, p - text);
  ref->cells = calloc (MS_MODE_COUNT * (MS_MAX_EXPONENT + 1), sizeof (BenchCell));
  char key[64] = "";
  while (*p) {
    char *end = strchr (p, '\n') + 1;
    const char *third = nth_field (p, 2);
    char row_key[64];
    snprintf (row_key, sizeof row_key, "%.*s", (int) (third - p), p);
    if (strcmp (row_key, key) != 0) {
      snprintf (key, sizeof key, "%s", row_key);
      ref->cells[ref->n_cells++].text = p;
    }
    BenchCell *c = &ref->cells[ref->n_cells - 1];
    c->len = end - c->text;
    c->rows++;
    int rep = atoi (nth_field (p, 3));
    /* A copy row's number is its index among the cell's copies. */
    if (row_pass (p) != 2 && rep + 1 > c->reps)
      c->reps = rep + 1;
    ref->rows++;
    p = end;
  }
  return ref->n_cells > 0;
}

/* The reader takes up to 10^6 repetitions per cell: at 10^8 rows the
 * copies of a cell with many repetitions are spread over variants. */
#define REPS_PER_VARIANT 900000

/* Row [p, end) as copy number `copy` of its cell: the repetition number
 * moved on, and past REPS_PER_VARIANT repetitions another variant. */
static void
write_copy (FILE *f, const char *p, const char *end, long copy, int reps)
{
  long per_variant = REPS_PER_VARIANT / reps > 0 ? REPS_PER_VARIANT / reps : 1;
  long variant = copy / per_variant, rep_copy = copy % per_variant;
  const char *rep = nth_field (p, 3), *phase = nth_field (p, 4);
  size_t rest = (size_t) (end - (phase - 1));
  /* The variant is the last field, empty ("") in a plain sweep. */
  bool plain_variant = rest >= 4 && memcmp (end - 4, ",\"\"\n", 4) == 0;
  if (variant == 0 || !plain_variant) {
    fprintf (f, "%.*s%ld%.*s", (int) (rep - p), p, atol (rep) + rep_copy * reps, (int) rest,
             phase - 1);
    return;
  }
  fprintf (f, "%.*s%ld%.*s,\"copy=%ld\"\n", (int) (rep - p), p, atol (rep) + rep_copy * reps,
           (int) (rest - 4), phase - 1, variant);
}

/* Writes about `rows` rows: k copies of each cell, cells in order while the
 * total stays within rows. Returns the rows written. */
static long
generate (const Reference *ref, long rows, const char *path)
{
  long k = (rows + ref->rows - 1) / ref->rows, written = 0;
  FILE *f = fopen (path, "w");
  if (!f)
    return -1;
  setvbuf (f, NULL, _IOFBF, 1 << 20);
  fputs (ref->head, f);
  for (int i = 0; i < ref->n_cells; i++) {
    const BenchCell *c = &ref->cells[i];
    if (written > 0 && written + k * c->rows > rows)
      break;
    /* Phase rows of every copy, then the end-to-end rows, then the
     * steady-state copy rows once (they are not per repetition), as the
     * writer orders a cell. */
    for (int pass = 0; pass < 3; pass++)
      for (long copy = 0; copy < (pass == 2 ? 1 : k); copy++)
        for (const char *p = c->text; p < c->text + c->len;) {
          const char *end = strchr (p, '\n') + 1;
          if (row_pass (p) == pass) {
            write_copy (f, p, end, copy, c->reps);
            written++;
          }
          p = end;
        }
  }
  fclose (f);
  return written;
}

static void
on_field (void *data, size_t len, void *user)
{
  (void) data, (void) len, (void) user;
}

static void
on_record (int term, void *user)
{
  (void) term, (void) user;
}

static bool
bare_parse (const char *path)
{
  struct csv_parser p;
  int fd = open (path, O_RDONLY);
  char *buf = malloc (CHUNK);
  if (fd < 0 || !buf || csv_init (&p, 0) != 0)
    return false;
  ssize_t n;
  bool ok = true;
  while ((n = read (fd, buf, CHUNK)) > 0)
    ok = ok && csv_parse (&p, buf, n, on_field, on_record, NULL) == (size_t) n;
  csv_fini (&p, on_field, on_record, NULL);
  csv_free (&p);
  free (buf);
  close (fd);
  return ok && n == 0;
}

static long
status_kib (const char *key)
{
  FILE *f = fopen ("/proc/self/status", "r");
  char line[256];
  long v = -1;
  while (f && fgets (line, sizeof line, f))
    if (strncmp (line, key, strlen (key)) == 0)
      v = atol (line + strlen (key));
  if (f)
    fclose (f);
  return v;
}

static double
seconds_since (const struct timespec *t0)
{
  struct timespec t1;
  clock_gettime (CLOCK, &t1);
  return (t1.tv_sec - t0->tv_sec) + (t1.tv_nsec - t0->tv_nsec) * 1e-9;
}

/* Writes the results read back next to the file and times it. */
static double
time_write (const MsResults *r, const char *path, bool *ok)
{
  char out[520], err[512];
  struct timespec t0;
  snprintf (out, sizeof out, "%s.written", path);
  clock_gettime (CLOCK, &t0);
  bool written = ms_csv_write_samples (r, out, err, sizeof err);
  double s = seconds_since (&t0);
  if (!written)
    fprintf (stderr, "%s\n", err);
  *ok = *ok && written;
  unlink (out);
  return s;
}

/* One parse in a child process: its time and the resident memory it added;
 * for the reader, then the time to write what it read. */
static Sample
measure (const char *path, bool reader)
{
  int fds[2];
  Sample s = { 0 };
  if (pipe (fds) != 0)
    return s;
  pid_t pid = fork ();
  if (pid == 0) {
    close (fds[0]);
    long code_base = status_kib ("RssFile:");
    struct timespec t0;
    char err[512];
    clock_gettime (CLOCK, &t0);
    MsResults *r = NULL;
    bool ok = reader ? (r = ms_run_read_samples (path, err, sizeof err)) != NULL : bare_parse (path);
    s.seconds = seconds_since (&t0);
    if (reader && !r)
      fprintf (stderr, "%s\n", err);
    s.code_kib = status_kib ("RssFile:") - code_base;
    if (r && write_too)
      s.write_seconds = time_write (r, path, &ok);
    s.ok = ok;
    if (write (fds[1], &s, sizeof s) != sizeof s)
      _exit (1);
    _exit (0); /* the results die with the child */
  }
  close (fds[1]);
  if (pid < 0 || read (fds[0], &s, sizeof s) != sizeof s)
    s.ok = 0;
  close (fds[0]);
  waitpid (pid, NULL, 0);
  return s;
}

/* Maps every page of the program's file mappings (code, read-only data),
 * so that the peak measured afterwards is what reading adds. The bytes are
 * read whatever they hold: not a sanitizer's business. */
static void __attribute__ ((no_sanitize_address))
map_code (void)
{
  FILE *f = fopen ("/proc/self/maps", "r");
  long page = sysconf (_SC_PAGESIZE);
  char line[512];
  while (f && fgets (line, sizeof line, f)) {
    unsigned long lo, hi;
    char perms[8], file[256] = "";
    if (sscanf (line, "%lx-%lx %7s %*s %*s %*s %255s", &lo, &hi, perms, file) < 3 ||
        file[0] != '/' || perms[0] != 'r')
      continue;
    for (unsigned long a = lo; a < hi; a += (unsigned long) page)
      (void) *(volatile const char *) a;
  }
  if (f)
    fclose (f);
}

/* --peak-of FILE: in a fresh process, the resident memory reading FILE
 * adds, in KiB, on stdout. */
static int
peak_of (const char *path)
{
  map_code ();
  long base = status_kib ("VmRSS:");
  char err[512];
  MsResults *r = ms_run_read_samples (path, err, sizeof err);
  if (!r) {
    fprintf (stderr, "%s\n", err);
    return 1;
  }
  printf ("%ld\n", status_kib ("VmHWM:") - base);
  ms_results_free (r);
  return 0;
}

/* The reader's peak from a fresh process (peak_of), or -1. */
static long
measure_peak (const char *path)
{
  int fds[2];
  if (pipe (fds) != 0)
    return -1;
  pid_t pid = fork ();
  if (pid == 0) {
    dup2 (fds[1], STDOUT_FILENO);
    close (fds[0]);
    close (fds[1]);
    execl ("/proc/self/exe", "bench-csv", "--peak-of", path, (char *) NULL);
    _exit (127);
  }
  close (fds[1]);
  char text[64] = "";
  ssize_t n = pid > 0 ? read (fds[0], text, sizeof text - 1) : -1;
  close (fds[0]);
  int status = 1;
  if (pid > 0)
    waitpid (pid, &status, 0);
  text[n > 0 ? n : 0] = '\0';
  return status == 0 && n > 0 ? atol (text) : -1;
}


static void
bench_size (const Reference *ref, long rows, int rounds, const char *dir, long *prev_rows,
            double *prev_peak)
{
  char path[512];
  snprintf (path, sizeof path, "%s/bench-csv-%ld.csv", dir, rows);
  long written = generate (ref, rows, path);
  FILE *f = fopen (path, "r");
  if (written <= 0 || !f) {
    fprintf (stderr, "cannot write %s\n", path);
    exit (1);
  }
  fseek (f, 0, SEEK_END);
  double mb = ftell (f) / 1e6;
  fclose (f);
  double bare[64], rd[64], peak[64], wr[64], code[64];
  int ok = 1;
  for (int i = 0; i < rounds; i++) {
    Sample b = measure (path, false), r = measure (path, true);
    long peak_kib = measure_peak (path);
    ok = ok && b.ok && r.ok && peak_kib >= 0;
    bare[i] = b.seconds;
    rd[i] = r.seconds;
    peak[i] = peak_kib * 1024.0;
    wr[i] = r.write_seconds;
    code[i] = r.code_kib * 1024.0;
  }
  double tb = ms_median (bare, rounds), tr = ms_median (rd, rounds);
  double pk = ms_median (peak, rounds), tw = ms_median (wr, rounds);
  double cd = ms_median (code, rounds);
  printf ("%10ld %9.1f %9.3f %8.0f %9.3f %8.0f %6.2f %9.1f %7.1f", written, mb, tb, mb / tb, tr,
          mb / tr, tr / tb, pk / 1048576.0, pk / written);
  /* What each row past the previous size added: the per-row slope. */
  if (*prev_rows > 0 && written > *prev_rows)
    printf (" %7.1f", (pk - *prev_peak) / (written - *prev_rows));
  else
    printf (" %7s", "");
  printf (" %8.2f", cd / 1048576.0);
  if (write_too)
    printf (" %9.3f %6.2f", tw, tw / tr);
  printf ("%s\n", ok ? "" : "  (a parse failed)");
  fflush (stdout);
  /* The fixed cost: the smallest size's peak less its rows at the slope. */
  if (*prev_rows > 0 && written > *prev_rows && !fixed_known) {
    fixed_bytes = *prev_peak - (pk - *prev_peak) / (written - *prev_rows) * *prev_rows;
    fixed_known = true;
  }
  *prev_rows = written;
  *prev_peak = pk;
  if (!keep)
    unlink (path);
}

int
main (int argc, char **argv)
{
  long sizes[MAX_SIZES] = { 10000, 100000, 1000000, 10000000 };
  int n_sizes = 4, rounds = 5;
  bool own_sizes = false;
  const char *dir = "/tmp", *reference = MEMSWEEP_REFERENCE;
  if (argc == 3 && strcmp (argv[1], "--peak-of") == 0)
    return peak_of (argv[2]);
  for (int i = 1; i < argc; i++) {
    if (strcmp (argv[i], "--keep") == 0)
      keep = true;
    else if (strcmp (argv[i], "--no-write") == 0)
      write_too = false;
    else if (strcmp (argv[i], "--huge") == 0 && n_sizes < MAX_SIZES)
      sizes[n_sizes++] = 100000000;
    else if (strcmp (argv[i], "--rows") == 0 && i + 1 < argc) {
      if (!own_sizes)
        n_sizes = 0;
      own_sizes = true;
      long n = atol (argv[++i]);
      if (n_sizes < MAX_SIZES && n > 0)
        sizes[n_sizes++] = n;
    } else if (strcmp (argv[i], "--rounds") == 0 && i + 1 < argc) {
      rounds = atoi (argv[++i]);
      rounds = rounds < 1 ? 1 : rounds > 64 ? 64 : rounds;
    } else if (strcmp (argv[i], "--dir") == 0 && i + 1 < argc)
      dir = argv[++i];
    else if (strcmp (argv[i], "--reference") == 0 && i + 1 < argc)
      reference = argv[++i];
    else {
      fprintf (stderr, "usage: %s [--huge] [--rows N]... [--rounds R] [--dir DIR] [--keep] "
                       "[--no-write] [--reference FILE]\n", argv[0]);
      return 2;
    }
  }
  Reference ref = { 0 };
  if (!load_reference (reference, &ref)) {
    fprintf (stderr, "cannot read %s\n", reference);
    return 1;
  }
  printf ("reader vs bare libcsv, medians of %d interleaved rounds, from %s (%ld rows)\n",
          rounds, reference, ref.rows);
  printf ("%10s %9s %9s %8s %9s %8s %6s %9s %7s %7s %8s", "rows", "MB", "libcsv s", "MB/s", "reader s",
          "MB/s", "ratio", "peak MiB", "B/row", "+B/row", "code MiB");
  printf (write_too ? " %9s %6s\n" : "\n", "write s", "w/r");
  printf ("(CPU seconds; peak: resident memory the reader added in a fresh process, its code\n"
          " mapped first; +B/row: the peak's growth per row from the previous size; code: the\n"
          " code pages a timed reader mapped, shared with the page cache; write: the results\n"
          " read written back with ms_csv_write_samples, w/r its time over the reader's)\n");
  long prev_rows = 0;
  double prev_peak = 0;
  for (int i = 0; i < n_sizes; i++)
    bench_size (&ref, sizes[i], rounds, dir, &prev_rows, &prev_peak);
  if (fixed_known)
    printf ("fixed cost (the first size's peak less its rows at the next +B/row): %.0f KiB\n",
            fixed_bytes / 1024);
  return 0;
}
