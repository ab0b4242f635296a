/* SPDX-License-Identifier: GPL-3.0-or-later */
/* plain-pageable.cu: pageable end to end done plainly (cudaMemcpy a and b
 * in, the add kernel, cudaMemcpy c back, the host clock around the four
 * calls) with the inputs in each state the host may leave them in before
 * a repetition, to find which one memsweep's pageable figure measures.
 * cudaMemcpy from pageable memory is a CPU copy into the driver's pinned
 * staging buffer and a DMA from it, so how the CPU last wrote a, b and c
 * can change its time: PITFALLS.md 18.
 *
 *   plain-pageable [REPS [MIN_EXP [MAX_EXP]]]     (15, 16 and 22)
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
 * One line per size and state: key=value pairs, the median time in µs
 * and its ratio to "none", as tools/plain-lessons.py reads them. */
#include "plain-common.cuh"

enum { NONE, C_ONLY, STREAMED, ORDINARY, STREAMED_VERIFY, N_STATES };
static const char *const state_names[N_STATES]
    = { "none", "c-only", "streamed", "ordinary", "streamed+v" };

struct Bufs {
  float *a, *b, *c;    /* malloc'd */
  float *da, *db, *dc; /* device */
  uint64_t n;
};

static void
prepare (const Bufs &m, int state)
{
  if (state == STREAMED || state == STREAMED_VERIFY) {
    plain_write_streamed (m.a, m.n, 1.0f);
    plain_write_streamed (m.b, m.n, 2.0f);
  } else if (state == ORDINARY) {
    plain_write_ordinary (m.a, m.n, 1.0f);
    plain_write_ordinary (m.b, m.n, 2.0f);
  }
  if (state != NONE)
    plain_write_streamed (m.c, m.n, -1.0f);
}

static volatile float sink;

static double
one_rep (const Bufs &m, int state)
{
  size_t bytes = m.n * sizeof (float);
  prepare (m, state);
  double t = plain_now_us ();
  CHECK (cudaMemcpy (m.da, m.a, bytes, cudaMemcpyHostToDevice));
  CHECK (cudaMemcpy (m.db, m.b, bytes, cudaMemcpyHostToDevice));
  plain_add<<<plain_grid (m.n), 256>>> (m.da, m.db, m.dc, m.n);
  CHECK (cudaGetLastError ());
  CHECK (cudaMemcpy (m.c, m.dc, bytes, cudaMemcpyDeviceToHost));
  t = plain_now_us () - t;
  if (state == STREAMED_VERIFY)
    sink = plain_read (m.c, m.n);
  return t;
}

int
main (int argc, char **argv)
{
  int reps = argc > 1 ? atoi (argv[1]) : 15;
  int lo = argc > 2 ? atoi (argv[2]) : 16, hi = argc > 3 ? atoi (argv[3]) : 22;
  CHECK (cudaFree (0));
  printf ("# plain-pageable: 2^%d..2^%d floats per vector, %d repetitions per state, medians\n",
          lo, hi, reps);
  for (int e = lo; e <= hi; e += 2) {
    Bufs m;
    m.n = 1ull << e;
    size_t bytes = m.n * sizeof (float);
    m.a = (float *) malloc (bytes), m.b = (float *) malloc (bytes), m.c = (float *) malloc (bytes);
    if (!m.a || !m.b || !m.c)
      return 1;
    plain_write_ordinary (m.a, m.n, 1.0f); /* first touch, outside every state */
    plain_write_ordinary (m.b, m.n, 2.0f);
    plain_write_ordinary (m.c, m.n, 0.0f);
    CHECK (cudaMalloc (&m.da, bytes));
    CHECK (cudaMalloc (&m.db, bytes));
    CHECK (cudaMalloc (&m.dc, bytes));
    for (int s = 0; s < N_STATES; s++) /* warm-up */
      one_rep (m, s);
    std::vector<double> t[N_STATES];
    for (int k = 0; k < reps; k++)
      for (int s = 0; s < N_STATES; s++)
        t[s].push_back (one_rep (m, s));
    double none = plain_median (t[NONE]);
    for (int s = 0; s < N_STATES; s++)
      printf ("exp=%d state=%s e2e_us=%.1f vs_none=%.3f\n", e, state_names[s],
              plain_median (t[s]), plain_median (t[s]) / none);
    free (m.a), free (m.b), free (m.c);
    CHECK (cudaFree (m.da));
    CHECK (cudaFree (m.db));
    CHECK (cudaFree (m.dc));
  }
  return 0;
}
