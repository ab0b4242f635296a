/* SPDX-License-Identifier: GPL-3.0-or-later */
/* plain-issue-order.cu: the issue-order lesson done plainly, with each of
 * the things memsweep does around its repetitions as a switch, so that
 * they can be turned on one at a time and the one that moves the ratio
 * found. K streams each copy their share of a and b in, add, and copy c
 * back; depth-first issues each stream's three steps in turn,
 * breadth-first all copies in, then all kernels, then all copies out.
 * Run it with CUDA_DEVICE_MAX_CONNECTIONS=1 for the one-queue rows.
 *
 *   plain-issue-order [--k K] [--mib MIB] [--reps N] [--rewrite streamed|ordinary]
 *                     [--poison] [--verify] [--events] [--nonblocking] [--cells]
 *                     [--warm MS] [--pin] [--sequence] [--memsweep] [--kernels US]
 *                     [--name NAME]
 *
 * Without switches: one allocation, K streams made with cudaStreamCreate,
 * the orders alternating repetition by repetition, nothing between them.
 *   --rewrite   a and b written before every repetition (memsweep:
 *               streamed, its fill's streaming stores)
 *   --poison    c written with streaming stores before every repetition
 *   --verify    c read by the CPU after every repetition
 *   --events    after each timed repetition an untimed one with an event
 *               pair around every step (memsweep's instrumented
 *               repetitions, which follow its plain ones)
 *   --nonblocking  streams made with cudaStreamNonBlocking, as memsweep's
 *   --cells     each order a cell of its own, as memsweep's parts: its own
 *               buffers and streams, all depth-first repetitions before
 *               all breadth-first ones
 *   --warm      repetitions of both orders for MS ms before any is timed,
 *               so that the clocks have risen (memsweep warms the GPU to
 *               a steady clock first, 54 ms on an H100)
 *   --pin       the thread held to the CPU it runs on (memsweep holds its
 *               measuring thread to one CPU, near the GPU where it can)
 *   --sequence  --cells, the cells in the order of memsweep's
 *               one-queue process: depth-first at K = 1, 2, 4, 8, 16, then
 *               breadth-first at the same K; the line gives K's
 * memsweep's streams mode queues no latch (kernels/mode-streams.cu), so
 * there is no switch for one.
 *   --memsweep  all of the above (--rewrite streamed, --warm 100)
 *   --kernels   no copies: each of a stream's three steps is one block
 *               spinning for US µs, the textbook's one-queue example
 *               (kernels alone, each too small to fill the GPU), to set
 *               beside the copies' rows: which work one queue holds up
 * Prints one line: key=value pairs, the medians (µs, host clock from the
 * first call to the last stream synchronised) and depth ÷ breadth, the
 * figure the lesson's caption gives (above 1: breadth-first is faster). */
#include <sched.h>

#include "plain-common.cuh"

enum { REWRITE_NONE, REWRITE_STREAMED, REWRITE_ORDINARY };

struct Opts {
  int k = 16, reps = 21, rewrite = REWRITE_NONE;
  double mib = 4, warm_ms = 0, kernels_us = 0;
  bool poison = false, verify = false, events = false, nonblocking = false, cells = false;
  bool pin = false, sequence = false;
  const char *name = NULL;
};

struct Cell {
  float *h[3], *d[3];
  cudaStream_t s[64];
  cudaEvent_t ev[64][3][2];
  uint64_t n;
  int k;
};

static void
cell_new (Cell &c, const Opts &o)
{
  c.k = o.k;
  c.n = (uint64_t) (o.mib * 1048576 / sizeof (float));
  for (int i = 0; i < 3; i++) {
    CHECK (cudaMallocHost (&c.h[i], c.n * sizeof (float)));
    CHECK (cudaMalloc (&c.d[i], c.n * sizeof (float)));
  }
  plain_write_streamed (c.h[0], c.n, 1.0f);
  plain_write_streamed (c.h[1], c.n, 2.0f);
  for (int s = 0; s < c.k; s++) {
    CHECK (o.nonblocking ? cudaStreamCreateWithFlags (&c.s[s], cudaStreamNonBlocking)
                         : cudaStreamCreate (&c.s[s]));
    for (int step = 0; step < 3; step++)
      for (int e = 0; e < 2; e++)
        CHECK (cudaEventCreate (&c.ev[s][step][e]));
  }
}

static void
cell_free (Cell &c)
{
  CHECK (cudaDeviceSynchronize ());
  for (int s = 0; s < c.k; s++) {
    CHECK (cudaStreamDestroy (c.s[s]));
    for (int step = 0; step < 3; step++)
      for (int e = 0; e < 2; e++)
        CHECK (cudaEventDestroy (c.ev[s][step][e]));
  }
  for (int i = 0; i < 3; i++) {
    CHECK (cudaFreeHost (c.h[i]));
    CHECK (cudaFree (c.d[i]));
  }
}

static volatile float sink;

/* One block that spins us µs by the GPU's global timer (--kernels). */
static __global__ void
spin (double us)
{
  unsigned long long t0, t;
  asm volatile ("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  do
    asm volatile ("mov.u64 %0, %%globaltimer;" : "=l"(t));
  while (t - t0 < (unsigned long long) (us * 1e3));
}

/* One repetition: what the switches put before it, the steps in the
 * order asked, every stream synchronised, what they put after it. */
static double
one_rep (Cell &c, const Opts &o, bool breadth, bool timers)
{
  if (o.rewrite == REWRITE_STREAMED) {
    plain_write_streamed (c.h[0], c.n, 1.0f);
    plain_write_streamed (c.h[1], c.n, 2.0f);
  } else if (o.rewrite == REWRITE_ORDINARY) {
    plain_write_ordinary (c.h[0], c.n, 1.0f);
    plain_write_ordinary (c.h[1], c.n, 2.0f);
  }
  if (o.poison)
    plain_write_streamed (c.h[2], c.n, -1.0f);
  double t = plain_now_us ();
  for (int outer = 0; outer < 3 * c.k; outer++) {
    int s = breadth ? outer % c.k : outer / 3;
    int step = breadth ? outer / c.k : outer % 3;
    uint64_t begin = c.n * s / c.k, len = c.n * (s + 1) / c.k - begin;
    size_t cb = len * sizeof (float);
    if (timers)
      CHECK (cudaEventRecord (c.ev[s][step][0], c.s[s]));
    if (o.kernels_us > 0) {
      spin<<<1, 1, 0, c.s[s]>>> (o.kernels_us);
      CHECK (cudaGetLastError ());
    } else if (step == 0) {
      CHECK (cudaMemcpyAsync (c.d[0] + begin, c.h[0] + begin, cb, cudaMemcpyHostToDevice, c.s[s]));
      CHECK (cudaMemcpyAsync (c.d[1] + begin, c.h[1] + begin, cb, cudaMemcpyHostToDevice, c.s[s]));
    } else if (step == 1) {
      plain_add<<<plain_grid (len), 256, 0, c.s[s]>>> (c.d[0] + begin, c.d[1] + begin,
                                                       c.d[2] + begin, len);
      CHECK (cudaGetLastError ());
    } else {
      CHECK (cudaMemcpyAsync (c.h[2] + begin, c.d[2] + begin, cb, cudaMemcpyDeviceToHost, c.s[s]));
    }
    if (timers)
      CHECK (cudaEventRecord (c.ev[s][step][1], c.s[s]));
  }
  for (int s = 0; s < c.k; s++)
    CHECK (cudaStreamSynchronize (c.s[s]));
  t = plain_now_us () - t;
  if (o.verify)
    sink = plain_read (c.h[2], c.n);
  return t;
}

/* A timed repetition and, with --events, the instrumented one after it. */
static double
timed_rep (Cell &c, const Opts &o, bool breadth)
{
  double t = one_rep (c, o, breadth, false);
  if (o.events)
    one_rep (c, o, breadth, true);
  return t;
}

static double
cell_run (const Opts &o, bool breadth)
{
  Cell c;
  cell_new (c, o);
  std::vector<double> t;
  for (int w = 0; w < 3; w++)
    timed_rep (c, o, breadth);
  for (int r = 0; r < o.reps; r++)
    t.push_back (timed_rep (c, o, breadth));
  cell_free (c);
  return plain_median (t);
}

/* One order's cell at o.k; with --sequence after the smaller K's cells of
 * that order, as memsweep's parts run them. */
static double
cells_run (const Opts &o, bool breadth)
{
  if (!o.sequence)
    return cell_run (o, breadth);
  double at_k = 0;
  for (int k = 1; k <= 16; k *= 2) {
    Opts ok = o;
    ok.k = k;
    double t = cell_run (ok, breadth);
    if (k == o.k)
      at_k = t;
  }
  return at_k > 0 ? at_k : cell_run (o, breadth);
}

static bool
parse (int argc, char **argv, Opts &o)
{
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp (a, "--k") && v)
      o.k = atoi (v), i++;
    else if (!strcmp (a, "--mib") && v)
      o.mib = atof (v), i++;
    else if (!strcmp (a, "--reps") && v)
      o.reps = atoi (v), i++;
    else if (!strcmp (a, "--warm") && v)
      o.warm_ms = atof (v), i++;
    else if (!strcmp (a, "--kernels") && v)
      o.kernels_us = atof (v), i++;
    else if (!strcmp (a, "--name") && v)
      o.name = v, i++;
    else if (!strcmp (a, "--rewrite") && v)
      o.rewrite = !strcmp (v, "ordinary") ? REWRITE_ORDINARY : REWRITE_STREAMED, i++;
    else if (!strcmp (a, "--poison"))
      o.poison = true;
    else if (!strcmp (a, "--verify"))
      o.verify = true;
    else if (!strcmp (a, "--events"))
      o.events = true;
    else if (!strcmp (a, "--nonblocking"))
      o.nonblocking = true;
    else if (!strcmp (a, "--cells"))
      o.cells = true;
    else if (!strcmp (a, "--pin"))
      o.pin = true;
    else if (!strcmp (a, "--sequence"))
      o.sequence = true;
    else if (!strcmp (a, "--memsweep"))
      o.rewrite = REWRITE_STREAMED, o.warm_ms = 100,
      o.poison = o.verify = o.events = o.nonblocking = o.cells = o.pin = o.sequence = true;
    else
      return false;
  }
  o.cells |= o.sequence;
  return o.k >= 1 && o.k <= 64 && o.reps >= 1 && o.mib > 0;
}

int
main (int argc, char **argv)
{
  Opts o;
  if (!parse (argc, argv, o)) {
    fprintf (stderr, "usage: see the comment at the top of plain-issue-order.cu\n");
    return 2;
  }
  if (o.pin) {
    cpu_set_t one;
    CPU_ZERO (&one);
    CPU_SET (sched_getcpu (), &one);
    if (sched_setaffinity (0, sizeof one, &one) != 0)
      perror ("sched_setaffinity");
  }
  CHECK (cudaFree (0));
  if (o.warm_ms > 0) {
    Cell c;
    cell_new (c, o);
    for (double t0 = plain_now_us (); plain_now_us () - t0 < o.warm_ms * 1e3;)
      one_rep (c, o, false, false), one_rep (c, o, true, false);
    cell_free (c);
  }
  double depth, breadth;
  if (o.cells) {
    depth = cells_run (o, false);
    breadth = cells_run (o, true);
  } else {
    Cell c;
    cell_new (c, o);
    std::vector<double> td, tb;
    for (int w = 0; w < 3; w++)
      timed_rep (c, o, false), timed_rep (c, o, true);
    for (int r = 0; r < o.reps; r++) {
      td.push_back (timed_rep (c, o, false));
      tb.push_back (timed_rep (c, o, true));
    }
    cell_free (c);
    depth = plain_median (td), breadth = plain_median (tb);
  }
  const char *queues = getenv ("CUDA_DEVICE_MAX_CONNECTIONS");
  printf ("variant=%s%s queues=%s K=%d mib=%g depth_us=%.1f breadth_us=%.1f "
          "depth_over_breadth=%.3f\n",
          o.name ? o.name : "plain", o.kernels_us > 0 ? "-kernels" : "", queues ? queues : "default", o.k, o.mib, depth, breadth,
          depth / breadth);
  return 0;
}
