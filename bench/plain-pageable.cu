/* SPDX-License-Identifier: GPL-3.0-or-later */
/* plain-pageable.cu: pageable end to end done plainly (cudaMemcpy a and b
 * in, the add kernel, cudaMemcpy c back, the host clock around the four
 * calls) with the inputs in each state the host may leave them in before
 * a repetition, to find which one memsweep's pageable figure measures.
 * cudaMemcpy from pageable memory is a CPU copy into the driver's pinned
 * staging buffer and a DMA from it, so how the CPU last wrote a, b and c
 * can change its time: PITFALLS.md 18. --host pinned or wc: the same from
 * cudaHostAlloc'd memory (flags 0, or write-combined), which the DMA reads
 * itself, to tell what the CPU's caches and write-back cost it.
 *
 *   plain-pageable [--host pageable|pinned|wc] [--gated] [REPS [MIN_EXP [MAX_EXP]]]
 *                                                (pageable, 15, 16 and 22)
 *
 * --gated (pinned or wc): the copies in queued with cudaMemcpyAsync behind
 * a kernel spinning 500 µs, the GPU's event pair around them alone. Plain,
 * that pair starts as soon as the host records it, so it also holds the
 * host's time to make the calls; gated, the copies are queued before the
 * GPU reaches them, and the pair holds the copies alone. h2d_us is then
 * the host's time in the two calls, and e2e_us and vs_none hold the
 * gate's 500 µs too: read h2d_gpu_us.
 *
 * States, written before every timed repetition (untimed), interleaved
 * round by round so that drift falls on all alike:
 *   none         nothing rewritten: the same buffers sent again
 *   c-only       c written with streaming stores (memsweep's poison of
 *                the result, which its kept inputs still get)
 *   streamed     a and b with streaming stores, c too (memsweep's init)
 *   ordinary     a and b with ordinary stores (dirty lines), c streamed
 *   streamed+v   streamed, and c read back after the repetition as
 *                memsweep's verify phase does
 *   ordinary+flush  ordinary, then a and b flushed from the cache (clean,
 *                gone): against ordinary, what dirty cached lines cost
 *   ordinary+wait   ordinary, then 2 ms spun: a cost that fades was
 *                write-back still draining
 *   other        ordinary stores into a fourth buffer the copies never
 *                read, a and b as in "none": a cost here is the CPU's
 *                stores as such, not the lines the copy engine reads
 *   ordinary-64k ordinary stores into a's first 64 KiB alone: a cost as
 *                large as ordinary's is not in proportion to the lines
 * One line per size and state: key=value pairs, the median time in µs and
 * its ratio to "none", as tools/plain-lessons.py reads them, then the two
 * copies in alone (h2d_us; from pageable memory the last chunk's DMA may
 * still run when cudaMemcpy returns), their ratio to streamed's, the same
 * two by the GPU's clock, the host kind. Before them a comment line: the
 * CPU's read rate of a after streaming stores, 10-100x lower where the
 * buffer is truly uncached. */
#include "plain-common.cuh"

enum {
  NONE, C_ONLY, STREAMED, ORDINARY, STREAMED_VERIFY, ORDINARY_FLUSH, ORDINARY_WAIT, OTHER,
  ORDINARY_64K, N_STATES
};
static const char *const state_names[N_STATES]
    = { "none",          "c-only",        "streamed", "ordinary",    "streamed+v",
        "ordinary+flush", "ordinary+wait", "other",    "ordinary-64k" };
enum { PAGEABLE, PINNED, WC, N_HOSTS };
static const char *const host_names[N_HOSTS] = { "pageable", "pinned", "wc" };

struct Bufs {
  float *a, *b, *c, *o; /* malloc'd or cudaHostAlloc'd; o: never copied */
  float *da, *db, *dc; /* device */
  uint64_t n;
};

static volatile float sink;

static void
prepare (const Bufs &m, int state)
{
  if (state == STREAMED || state == STREAMED_VERIFY) {
    plain_write_streamed (m.a, m.n, 1.0f);
    plain_write_streamed (m.b, m.n, 2.0f);
  } else if (state == ORDINARY || state == ORDINARY_FLUSH || state == ORDINARY_WAIT) {
    plain_write_ordinary (m.a, m.n, 1.0f);
    plain_write_ordinary (m.b, m.n, 2.0f);
  }
  else if (state == OTHER)
    plain_write_ordinary (m.o, m.n, 3.0f);
  else if (state == ORDINARY_64K)
    plain_write_ordinary (m.a, (64 << 10) / sizeof (float), 1.0f);
  if (state != NONE && state != OTHER && state != ORDINARY_64K)
    plain_write_streamed (m.c, m.n, -1.0f);
#if defined(__x86_64__)
  if (state == ORDINARY_FLUSH) {
    for (uint64_t i = 0; i < m.n; i += 64 / sizeof (float))
      _mm_clflush (m.a + i), _mm_clflush (m.b + i);
    _mm_sfence (); /* the flushes done before the copy reads */
  }
#endif
  if (state == ORDINARY_WAIT) /* spin, not sleep: the core stays awake */
    for (double t = plain_now_us (); plain_now_us () - t < 2000;)
      ;
}

/* The CPU's read rate of p in GB/s after streaming stores (out of the
 * cache); four sums, so that memory and not a chain of adds sets it. */
static double
read_gbps (float *p, uint64_t n)
{
  plain_write_streamed (p, n, 1.0f);
  const uint64_t *q = (const uint64_t *) p;
  uint64_t s[4] = {};
  double t = plain_now_us ();
  for (uint64_t i = 0; i + 4 <= n / 2; i += 4)
    s[0] += q[i], s[1] += q[i + 1], s[2] += q[i + 2], s[3] += q[i + 3];
  t = plain_now_us () - t;
  sink = (float) (s[0] + s[1] + s[2] + s[3]);
  return n * sizeof (float) / t * 1e-3;
}

static cudaEvent_t ev[2];

/* One thread spinning us microseconds by the GPU's global timer. */
__global__ void
spin_us (unsigned us)
{
  uint64_t t0, t;
  asm volatile ("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  do
    asm volatile ("mov.u64 %0, %%globaltimer;" : "=l"(t));
  while (t - t0 < us * 1000ull);
}

/* The copies in queued behind the gate: returns the host's time in the
 * two calls; the event pair holds the copies alone. */
static double
gated_copies (const Bufs &m, size_t bytes)
{
  spin_us<<<1, 1>>> (500);
  CHECK (cudaGetLastError ());
  CHECK (cudaEventRecord (ev[0], 0));
  double t = plain_now_us ();
  CHECK (cudaMemcpyAsync (m.da, m.a, bytes, cudaMemcpyHostToDevice, 0));
  CHECK (cudaMemcpyAsync (m.db, m.b, bytes, cudaMemcpyHostToDevice, 0));
  t = plain_now_us () - t;
  CHECK (cudaEventRecord (ev[1], 0));
  CHECK (cudaStreamSynchronize (0));
  return t;
}

static bool gated;

/* Returns the whole repetition's time, the two copies in's in *h2d and by
 * the GPU's clock (an event pair around them) in *gpu: where the host's
 * time grows and the GPU's does not, the wait is before the copy. */
static double
one_rep (const Bufs &m, int state, double *h2d, double *gpu)
{
  size_t bytes = m.n * sizeof (float);
  prepare (m, state);
  double t = plain_now_us ();
  if (gated) {
    *h2d = gated_copies (m, bytes);
  } else {
    CHECK (cudaEventRecord (ev[0], 0));
    CHECK (cudaMemcpy (m.da, m.a, bytes, cudaMemcpyHostToDevice));
    CHECK (cudaMemcpy (m.db, m.b, bytes, cudaMemcpyHostToDevice));
    CHECK (cudaEventRecord (ev[1], 0));
    *h2d = plain_now_us () - t;
  }
  plain_add<<<plain_grid (m.n), 256>>> (m.da, m.db, m.dc, m.n);
  CHECK (cudaGetLastError ());
  CHECK (cudaMemcpy (m.c, m.dc, bytes, cudaMemcpyDeviceToHost));
  t = plain_now_us () - t;
  float ms;
  CHECK (cudaEventElapsedTime (&ms, ev[0], ev[1]));
  *gpu = ms * 1e3;
  if (state == STREAMED_VERIFY)
    sink = plain_read (m.c, m.n);
  return t;
}

int
main (int argc, char **argv)
{
  int host = PAGEABLE;
  if (argc > 2 && !strcmp (argv[1], "--host")) {
    for (host = 0; host < N_HOSTS && strcmp (argv[2], host_names[host]); host++)
      ;
    argc -= 2, argv += 2;
  }
  if (argc > 1 && !strcmp (argv[1], "--gated"))
    gated = true, argc--, argv++;
  if (host == N_HOSTS || (gated && host == PAGEABLE) || (argc > 1 && argv[1][0] == '-')) {
    fputs ("usage: plain-pageable [--host pageable|pinned|wc] [--gated] [REPS [MIN_EXP "
           "[MAX_EXP]]]\n--gated: pinned or wc only\n",
           stderr);
    return 2;
  }
  int reps = argc > 1 ? atoi (argv[1]) : 15;
  int lo = argc > 2 ? atoi (argv[2]) : 16, hi = argc > 3 ? atoi (argv[3]) : 22;
  CHECK (cudaFree (0));
  CHECK (cudaEventCreate (&ev[0]));
  CHECK (cudaEventCreate (&ev[1]));
  printf ("# plain-pageable: 2^%d..2^%d floats per vector, %d repetitions per state, medians"
          " host=%s timing=%s\n", lo, hi, reps, host_names[host], gated ? "gated" : "plain");
  for (int e = lo; e <= hi; e += 2) {
    Bufs m;
    m.n = 1ull << e;
    size_t bytes = m.n * sizeof (float);
    for (float **p : { &m.a, &m.b, &m.c, &m.o }) {
      if (host == PAGEABLE)
        *p = (float *) malloc (bytes);
      else
        CHECK (cudaHostAlloc (p, bytes, host == WC ? cudaHostAllocWriteCombined : 0));
      if (!*p)
        return 1;
    }
    plain_write_ordinary (m.a, m.n, 1.0f); /* first touch, outside every state */
    plain_write_ordinary (m.b, m.n, 2.0f);
    plain_write_ordinary (m.c, m.n, 0.0f);
    plain_write_ordinary (m.o, m.n, 0.0f);
    CHECK (cudaMalloc (&m.da, bytes));
    CHECK (cudaMalloc (&m.db, bytes));
    CHECK (cudaMalloc (&m.dc, bytes));
    std::vector<double> rd;
    for (int k = 0; k < 5; k++)
      rd.push_back (read_gbps (m.a, m.n));
    printf ("# exp=%d cpu_read_gbps=%.2f host=%s\n", e, plain_median (rd), host_names[host]);
    double h2d, gpu;
    for (int s = 0; s < N_STATES; s++) /* warm-up */
      one_rep (m, s, &h2d, &gpu);
    std::vector<double> t[N_STATES], h[N_STATES], g[N_STATES];
    for (int k = 0; k < reps; k++)
      for (int s = 0; s < N_STATES; s++) {
        t[s].push_back (one_rep (m, s, &h2d, &gpu));
        h[s].push_back (h2d);
        g[s].push_back (gpu);
      }
    double none = plain_median (t[NONE]), streamed = plain_median (h[STREAMED]);
    for (int s = 0; s < N_STATES; s++)
      printf ("exp=%d state=%s e2e_us=%.1f vs_none=%.3f h2d_us=%.1f h2d_vs_streamed=%.3f "
              "h2d_gpu_us=%.1f host=%s timing=%s\n",
              e, state_names[s], plain_median (t[s]), plain_median (t[s]) / none,
              plain_median (h[s]), plain_median (h[s]) / streamed, plain_median (g[s]),
              host_names[host], gated ? "gated" : "plain");
    for (float *p : { m.a, m.b, m.c, m.o })
      if (host == PAGEABLE)
        free (p);
      else
        CHECK (cudaFreeHost (p));
    CHECK (cudaFree (m.da));
    CHECK (cudaFree (m.db));
    CHECK (cudaFree (m.dc));
  }
  return 0;
}
