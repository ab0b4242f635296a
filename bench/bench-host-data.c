/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench-host-data.c: what the host's work around each repetition costs at
 * each vector size and thread count: the inputs' fill (kernels/ms-data.c,
 * streaming stores) and the result's check with its poisoning, on buffers
 * whose pages are already there, and the fill on fresh pages (a grade
 * run's pageable buffers get fresh pages every round: PITFALLS 29).
 *
 *   bench-host-data [ROUNDS]       (default 31; medians in microseconds)
 *
 * The thread counts alternate within each size, so a machine that
 * changes pace meets them all; "rule" is the count ms_data_fill picks by
 * itself. Needs no GPU. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ms-clock.h"
#include "ms-data.h"
#include "ms-stats.h"

#define MAX_ROUNDS 101
#define N_WAYS 6

static const int thread_ways[N_WAYS] = { 0, 1, 2, 4, 8, 16 };

static float *
map_floats (uint64_t n)
{
  void *p = mmap (NULL, n * sizeof (float), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                  -1, 0);
  return p == MAP_FAILED ? NULL : p;
}

typedef struct {
  double fill[MAX_ROUNDS], check[MAX_ROUNDS], fresh[MAX_ROUNDS];
} Times;

/* One round of one way: fill, add on the host (untimed), check and
 * poison; then a fill of fresh pages. */
static void
one_round (float *a, float *b, float *c, uint64_t n, Times *t, int r)
{
  uint64_t first;
  double t0 = ms_now_us ();
  ms_data_fill (a, b, n);
  t->fill[r] = ms_now_us () - t0;
  for (uint64_t i = 0; i < n; i++)
    c[i] = a[i] + b[i];
  t0 = ms_now_us ();
  uint64_t bad = ms_data_verify_and_poison (c, n, &first);
  t->check[r] = ms_now_us () - t0;
  if (bad) {
    fprintf (stderr, "bench-host-data: %llu wrong at n=%llu\n", (unsigned long long) bad,
             (unsigned long long) n);
    exit (1);
  }
  float *fa = map_floats (n), *fb = map_floats (n);
  if (!fa || !fb)
    exit (1);
  t0 = ms_now_us ();
  ms_data_fill (fa, fb, n);
  t->fresh[r] = ms_now_us () - t0;
  munmap (fa, n * sizeof (float));
  munmap (fb, n * sizeof (float));
}

int
main (int argc, char **argv)
{
  int rounds = argc > 1 ? atoi (argv[1]) : 31;
  long cpus = sysconf (_SC_NPROCESSORS_ONLN);
  if (rounds < 3 || rounds > MAX_ROUNDS) {
    fprintf (stderr, "usage: bench-host-data [ROUNDS 3..%d]\n", MAX_ROUNDS);
    return 2;
  }
  printf ("host data work, median of %d rounds, microseconds (GB/s of the two inputs / the result)\n"
          "%ld CPUs online; thread 'rule' = ms_data_fill's own choice\n\n",
          rounds, cpus);
  printf ("%-6s %-7s %16s %16s %16s\n", "n", "threads", "fill", "check+poison", "fill fresh");
  for (int e = 12; e <= 22; e++) {
    uint64_t n = (uint64_t) 1 << e;
    float *a = map_floats (n), *b = map_floats (n), *c = map_floats (n);
    static Times times[N_WAYS];
    if (!a || !b || !c)
      return 1;
    memset (a, 0, n * sizeof (float));
    memset (b, 0, n * sizeof (float));
    memset (c, 0, n * sizeof (float));
    for (int r = 0; r < rounds; r++)
      for (int k = 0; k < N_WAYS; k++) {
        int w = (k + r) % N_WAYS;
        if (thread_ways[w] > cpus)
          continue;
        ms_data_set_threads (thread_ways[w]);
        one_round (a, b, c, n, &times[w], r);
      }
    for (int w = 0; w < N_WAYS; w++) {
      if (thread_ways[w] > cpus)
        continue;
      double f = ms_median (times[w].fill, rounds), v = ms_median (times[w].check, rounds);
      double fr = ms_median (times[w].fresh, rounds);
      char label[16];
      snprintf (label, sizeof label, w == 0 ? "rule" : "%d", thread_ways[w]);
      printf ("2^%-4d %-7s %8.1f (%5.1f) %8.1f (%5.1f) %8.1f (%5.1f)\n", e, label, f,
              2 * n * 4 / f * 1e-3, v, n * 4 / v * 1e-3, fr, 2 * n * 4 / fr * 1e-3);
    }
    munmap (a, n * sizeof (float));
    munmap (b, n * sizeof (float));
    munmap (c, n * sizeof (float));
  }
  ms_data_set_threads (0);
  return 0;
}
